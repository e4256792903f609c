/* Optimizes the built-in multi-fidelity Branin-Currin problem through the C ABI
 * and prints the recommended Pareto set. The setup (seed 7, cost-aware-random,
 * budget 1000 cost units) is the reference the language bindings reproduce. */
#include <stdio.h>
#include <stdlib.h>

#include "rescue.h"

static void check(rescue_status st, const char* what, const char* msg) {
  if (st != RESCUE_OK) {
    fprintf(stderr, "%s failed (%s): %s\n", what, rescue_status_string(st), msg);
    exit(1);
  }
}

int main(void) {
  rescue_problem* problem = NULL;
  rescue_optimizer* opt = NULL;
  double x[2], s, y[2], *px, *py;
  int ticket, count = 0, i, evaluations = 0;

  check(rescue_problem_builtin("branin-currin", &problem), "rescue_problem_builtin", rescue_last_error());
  check(rescue_problem_set_seed(problem, 7), "set_seed", rescue_problem_errmsg(problem));
  check(rescue_problem_set_strategy(problem, "cost-aware-random"), "set_strategy", rescue_problem_errmsg(problem));
  check(rescue_problem_set_budget(problem, 1000.0), "set_budget", rescue_problem_errmsg(problem));
  check(rescue_create(problem, &opt), "rescue_create", rescue_last_error());

  while (!rescue_done(opt)) {
    rescue_status st = rescue_suggest(opt, x, 2, &s, &ticket);
    if (st == RESCUE_ERR_BUDGET_EXHAUSTED) break;
    check(st, "rescue_suggest", rescue_errmsg(opt));
    check(rescue_problem_evaluate(problem, x, 2, s, y, 2, NULL, 0, NULL, 0), "evaluate", rescue_problem_errmsg(problem));
    check(rescue_observe(opt, ticket, y, 2, NULL, 0, NULL, 0), "rescue_observe", rescue_errmsg(opt));
    ++evaluations;
  }

  check(rescue_pareto(opt, NULL, NULL, 0, &count), "rescue_pareto", rescue_errmsg(opt));
  px = (double*)malloc(sizeof(double) * 2 * (count + 1));
  py = (double*)malloc(sizeof(double) * 2 * (count + 1));
  check(rescue_pareto(opt, px, py, count, &count), "rescue_pareto", rescue_errmsg(opt));
  printf("%d evaluations; Pareto set (%d points): x1 x2 f1 f2\n", evaluations, count);
  for (i = 0; i < count; ++i) printf("%.17g %.17g %.17g %.17g\n", px[2 * i], px[2 * i + 1], py[2 * i], py[2 * i + 1]);
  free(px);
  free(py);
  rescue_destroy(opt);
  rescue_problem_free(problem);
  return 0;
}
