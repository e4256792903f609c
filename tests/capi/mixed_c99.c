/* Compiled with -std=c99 -pedantic -Werror: a mixed problem (a continuous and a
   categorical option) optimized end to end in C with the hvkg strategy. Exits
   non-zero if a suggestion or a recommended configuration holds a level that is
   not an index of the option's labels. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rescue.h"

/* The solver's level moves both objectives; "cg" (level 0) is best. */
static void simulate(const double* x, double s, double* y) {
  static const double level_cost[] = {0.0, 0.6, 0.3};
  const int k = (int)x[1];
  y[0] = (x[0] - 0.4) * (x[0] - 0.4) + level_cost[k] + 0.1 * (1.0 - s);
  y[1] = 1.0 - x[0] + 0.5 * level_cost[k];
}

static int is_level(double v, int levels) { return v == floor(v) && v >= 0.0 && v < levels; }

int main(void) {
  static const char* const solvers[] = {"cg", "gmres", "direct"};
  static const char* const settings[] = {"kg.pool", "kg.fantasies", "acq.starts", "acq.refine_evals",
                                         "recommend.population", "recommend.generations"};
  static const double values[] = {16, 2, 8, 8, 12, 4};
  rescue_problem* p = NULL;
  rescue_optimizer* opt = NULL;
  int i, n = 0, count = 0, seen[3] = {0, 0, 0};
  double px[2 * 64], py[2 * 64];
  if (rescue_problem_new(&p) != RESCUE_OK) return 1;
  if (rescue_problem_add_option(p, "x", 0.0, 1.0, RESCUE_CONTINUOUS) != RESCUE_OK) return 1;
  if (rescue_problem_add_categorical(p, "solver", solvers, 3) != RESCUE_OK) return 1;
  if (rescue_problem_add_categorical(p, "kind", solvers, 1) != RESCUE_ERR_INVALID_ARGUMENT) return 2;
  if (rescue_problem_set_fidelity_range(p, 0.0, 1.0, 1.0) != RESCUE_OK) return 1;
  if (rescue_problem_add_objective(p, "time", RESCUE_MINIMIZE) != RESCUE_OK) return 1;
  if (rescue_problem_add_objective(p, "error", RESCUE_MINIMIZE) != RESCUE_OK) return 1;
  if (rescue_problem_set_strategy(p, "hvkg") != RESCUE_OK) return 1;
  for (i = 0; i < 6; ++i)
    if (rescue_problem_set_param(p, settings[i], values[i]) != RESCUE_OK) return 1;
  if (rescue_problem_set_budget(p, 300.0) != RESCUE_OK) return 1;
  if (rescue_problem_set_initial_budget(p, 0.5) != RESCUE_OK) return 1;
  if (rescue_create(p, &opt) != RESCUE_OK) return 1;
  rescue_problem_free(p);
  if (rescue_option_levels(opt, 1) != 3 || strcmp(rescue_option_label(opt, 1, 2), "direct") != 0) return 3;
  while (!rescue_done(opt)) {
    double x[2], s, y[2];
    int ticket;
    if (rescue_suggest(opt, x, 2, &s, &ticket) != RESCUE_OK) break;
    if (!is_level(x[1], 3)) {
      fprintf(stderr, "suggestion %d: solver = %.17g is not a level\n", n, x[1]);
      return 4;
    }
    ++seen[(int)x[1]];
    simulate(x, s, y);
    if (rescue_observe(opt, ticket, y, 2, NULL, 0, NULL, 0) != RESCUE_OK) return 5;
    ++n;
  }
  if (rescue_pareto(opt, px, py, 64, &count) != RESCUE_OK || count < 1) return 6;
  for (i = 0; i < count; ++i)
    if (!is_level(px[2 * i + 1], 3)) return 7;
  printf("%d evaluations (cg %d, gmres %d, direct %d); first recommended: x = %.3f, solver = %s\n", n, seen[0],
         seen[1], seen[2], px[0], rescue_option_label(opt, 1, (int)px[1]));
  rescue_destroy(opt);
  return n > 0 ? 0 : 8;
}
