/* Compiled with -std=c99 -pedantic -Werror: a complete ask/tell run in C.
   Usage: header_c99_run [budget]; the budget defaults to 600 cost units (about 5
   target-fidelity evaluations). */
#include <stdio.h>
#include <stdlib.h>

#include "rescue.h"

int main(int argc, char** argv) {
  const double budget = argc > 1 ? atof(argv[1]) : 600.0;
  rescue_problem* p = NULL;
  rescue_optimizer* opt = NULL;
  if (rescue_problem_builtin("branin-currin", &p) != RESCUE_OK) return 1;
  if (rescue_problem_set_budget(p, budget) != RESCUE_OK) return 7;
  if (rescue_create(p, &opt) != RESCUE_OK) return 2;
  rescue_problem_free(p);
  int n = 0;
  while (!rescue_done(opt)) {
    double x[2], s, y[2];
    int ticket;
    if (rescue_suggest(opt, x, 2, &s, &ticket) != RESCUE_OK) break;
    if (rescue_problem_evaluate(NULL, x, 2, s, y, 2, NULL, 0, NULL, 0) != RESCUE_ERR_NULL_POINTER) return 3;
    y[0] = x[0] - s;
    y[1] = x[1] + s;
    if (rescue_observe(opt, ticket, y, 2, NULL, 0, NULL, 0) != RESCUE_OK) return 4;
    ++n;
  }
  int count = 0;
  if (rescue_pareto(opt, NULL, NULL, 0, &count) != RESCUE_OK) return 5;
  printf("%d evaluations, %d Pareto points\n", n, count);
  rescue_destroy(opt);
  return n > 0 ? 0 : 6;
}
