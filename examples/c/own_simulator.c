/* How to plug in your own simulator: define the problem (options, fidelity,
 * cost, objectives, constraint, indicator), then run the ask/tell loop, saving
 * a checkpoint as you go so that an interrupted run can resume. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rescue.h"

/* The "simulator": a cheap low-fidelity model (s < 1) and the real system (s = 1).
 * Options: a learning rate (log scale), a batch size (integer), a dropout rate. */
static void my_simulator(const double* x, double s, double* y, double* g, double* z) {
  const double lr = x[0], batch = x[1], dropout = x[2];
  const double fit = pow(log10(lr) + 2.5, 2) + 0.3 * dropout + 0.2 * (1.0 - s) * sin(8 * dropout);
  y[0] = fit + 0.01 * (64 - batch) / 64;         /* error: minimize */
  y[1] = batch * (1.0 + s) / (1.0 + 4 * dropout); /* throughput: maximize */
  g[0] = batch * 0.12 + 1.0;                       /* memory in GB: at most 6 */
  z[0] = fit;                                      /* an indicator the system reports */
}

/* Evaluating at fidelity s costs 1 + 30 s^2 (say, minutes of compute). */
static double my_cost(const double* x, int d, double s, void* user) {
  (void)x;
  (void)d;
  (void)user;
  return 1.0 + 30.0 * s * s;
}

static void check(rescue_status st, const char* msg) {
  if (st != RESCUE_OK) {
    fprintf(stderr, "error (%s): %s\n", rescue_status_string(st), msg);
    exit(1);
  }
}

int main(int argc, char** argv) {
  const char* checkpoint = argc > 1 ? argv[1] : "own_simulator.ckpt";
  rescue_problem* p = NULL;
  rescue_optimizer* opt = NULL;
  double x[3], s, y[2], g[1], z[1], spent, *px, *py, *ps, *mean, *sd, *feasible;
  int ticket, count, i;

  check(rescue_problem_new(&p), rescue_last_error());
  check(rescue_problem_add_option(p, "learning_rate", 1e-5, 1e-1, RESCUE_LOG_SCALE), rescue_problem_errmsg(p));
  check(rescue_problem_add_option(p, "batch_size", 8, 64, RESCUE_INTEGER), rescue_problem_errmsg(p));
  check(rescue_problem_add_option(p, "dropout", 0.0, 0.5, RESCUE_CONTINUOUS), rescue_problem_errmsg(p));
  check(rescue_problem_set_fidelity_range(p, 0.1, 1.0, 1.0), rescue_problem_errmsg(p));
  check(rescue_problem_set_cost_callback(p, my_cost, NULL), rescue_problem_errmsg(p));
  check(rescue_problem_add_objective(p, "error", RESCUE_MINIMIZE), rescue_problem_errmsg(p));
  check(rescue_problem_add_objective(p, "throughput", RESCUE_MAXIMIZE), rescue_problem_errmsg(p));
  check(rescue_problem_add_constraint(p, "memory_gb", 6.0, RESCUE_LEQ), rescue_problem_errmsg(p));
  check(rescue_problem_add_indicator(p, "fit"), rescue_problem_errmsg(p));
  check(rescue_problem_set_budget(p, 400.0), rescue_problem_errmsg(p));
  check(rescue_problem_set_seed(p, 42), rescue_problem_errmsg(p));

  /* Resume from a checkpoint if there is one (the cost callback is set again). */
  if (rescue_load_file(checkpoint, &opt) == RESCUE_OK) {
    check(rescue_set_cost_callback(opt, my_cost, NULL), rescue_errmsg(opt));
    printf("resumed from %s with %d observations\n", checkpoint, rescue_num_observations(opt));
  } else {
    check(rescue_create(p, &opt), rescue_last_error());
  }
  rescue_problem_free(p);

  while (!rescue_done(opt)) {
    rescue_status st = rescue_suggest(opt, x, 3, &s, &ticket);
    if (st == RESCUE_ERR_BUDGET_EXHAUSTED) break;
    check(st, rescue_errmsg(opt));
    my_simulator(x, s, y, g, z);
    check(rescue_observe(opt, ticket, y, 2, g, 1, z, 1), rescue_errmsg(opt));
    check(rescue_save_file(opt, checkpoint), rescue_errmsg(opt));
  }
  rescue_budget(opt, &spent, NULL, NULL);
  check(rescue_pareto(opt, NULL, NULL, 0, &count), rescue_errmsg(opt));
  px = (double*)malloc(sizeof(double) * 3 * (count + 1));
  py = (double*)malloc(sizeof(double) * 2 * (count + 1));
  check(rescue_pareto(opt, px, py, count, &count), rescue_errmsg(opt));
  /* How sure the model is about each recommendation: standard deviations and the probability
   * that the memory constraint holds, at the target fidelity. */
  ps = (double*)malloc(sizeof(double) * (count + 1));
  mean = (double*)malloc(sizeof(double) * 3 * (count + 1));
  sd = (double*)malloc(sizeof(double) * 3 * (count + 1));
  feasible = (double*)malloc(sizeof(double) * (count + 1));
  for (i = 0; i < count; ++i) ps[i] = 1.0;
  if (count > 0) check(rescue_predict(opt, px, count, 3, ps, mean, sd, 3, feasible), rescue_errmsg(opt));
  printf("%d evaluations, cost %.1f; %d Pareto-optimal configurations at the target fidelity:\n",
         rescue_num_observations(opt), spent, count);
  printf("%14s %11s %8s | %17s %19s %9s\n", "learning_rate", "batch_size", "dropout", "error", "throughput",
         "P(memory)");
  for (i = 0; i < count; ++i)
    printf("%14.3g %11.0f %8.3f | %8.4f +- %5.4f %11.2f +- %4.2f %9.3f\n", px[3 * i], px[3 * i + 1], px[3 * i + 2],
           py[2 * i], sd[3 * i], py[2 * i + 1], sd[3 * i + 1], feasible[i]);
  free(px);
  free(py);
  free(ps);
  free(mean);
  free(sd);
  free(feasible);
  rescue_destroy(opt);
  remove(checkpoint);
  return 0;
}
