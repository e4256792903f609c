/* Distributed evaluation with MPI: rank 0 owns the optimizer, every other rank
 * evaluates the simulator. Rank 0 keeps each worker busy with its own pending
 * ticket and takes results in the order they finish (MPI_ANY_SOURCE), so a slow
 * evaluation never holds up the others. A worker whose simulation fails (here:
 * a non-finite result) reports it, and rank 0 calls rescue_fail(), which charges
 * the cost and keeps the configuration out of the model.
 *
 * The simulator is the built-in "branin-currin" problem, made slower at higher
 * fidelity (sleeping in proportion to the cost) so that results really arrive
 * out of order; --fail-every K makes every K-th ticket fail.
 *
 * With a journal path, rank 0 journals every call (rescue_journal_open), and a
 * rerun after a crash resumes from it: tickets that were out at the time are
 * cancelled and fresh suggestions handed out.
 *
 *   mpirun -np 4 ./rescue_mpi_evaluate [--budget B] [--fail-every K] [--journal PATH [--fresh]]
 *                                      [--stop-after N]
 *
 * --fresh starts a new journal; --stop-after N stops rank 0 after N results as if it
 * had crashed (the results still out are lost), to show a resumed run.
 *
 * The example checks itself at the end: every ticket was closed exactly once,
 * every observation equals the simulator at its (x, s), and several workers
 * contributed. It exits non-zero otherwise.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rescue.h"

enum { TAG_WORK = 1, TAG_RESULT = 2, TAG_STOP = 3 };
enum { D = 2, M = 2, MAX_WORKERS = 256 };

/* A work message: ticket, fidelity, then the configuration. */
typedef struct {
  double ticket, s, x[D];
} work_msg;
/* A result message: ticket, 1 if the evaluation succeeded, the objectives. */
typedef struct {
  double ticket, ok, y[M];
} result_msg;

static void check(rescue_status st, rescue_optimizer* opt, const char* what) {
  if (st == RESCUE_OK) return;
  fprintf(stderr, "rank 0: %s failed: %s (%s)\n", what, rescue_status_string(st), opt ? rescue_errmsg(opt) : rescue_last_error());
  MPI_Abort(MPI_COMM_WORLD, 2);
}

static void sleep_ms(double ms) {
  struct timespec ts;
  ts.tv_sec = (time_t)(ms / 1000.0);
  ts.tv_nsec = (long)((ms - 1000.0 * (double)ts.tv_sec) * 1e6);
  nanosleep(&ts, NULL);
}

/* ---- the workers ------------------------------------------------------------------------- */
static int worker(int fail_every) {
  rescue_problem* sim = NULL;
  if (rescue_problem_builtin("branin-currin", &sim) != RESCUE_OK) return 1;
  for (;;) {
    work_msg w;
    MPI_Status status;
    MPI_Recv(&w, 2 + D, MPI_DOUBLE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG == TAG_STOP) break;
    result_msg r;
    r.ticket = w.ticket;
    r.ok = rescue_problem_evaluate(sim, w.x, D, w.s, r.y, M, NULL, 0, NULL, 0) == RESCUE_OK;
    if (fail_every > 0 && (long)w.ticket % fail_every == 0) r.y[0] = NAN; /* the simulation "crashed" */
    if (!isfinite(r.y[0]) || !isfinite(r.y[1])) r.ok = 0;
    sleep_ms(1.0 + 20.0 * w.s); /* higher fidelity takes longer */
    MPI_Send(&r, 2 + M, MPI_DOUBLE, 0, TAG_RESULT, MPI_COMM_WORLD);
  }
  rescue_problem_free(sim);
  return 0;
}

/* ---- rank 0: the optimizer ----------------------------------------------------------------- */
/* Hands a new suggestion to a worker; returns 0 when the budget is spent. */
static int dispatch(rescue_optimizer* opt, int rank, int* ticket_of) {
  work_msg w;
  int ticket = 0;
  const rescue_status st = rescue_suggest(opt, w.x, D, &w.s, &ticket);
  if (st == RESCUE_ERR_BUDGET_EXHAUSTED) return 0;
  check(st, opt, "rescue_suggest");
  w.ticket = ticket;
  ticket_of[rank] = ticket;
  MPI_Send(&w, 2 + D, MPI_DOUBLE, rank, TAG_WORK, MPI_COMM_WORLD);
  return 1;
}

static int coordinator(int workers, double budget, const char* journal, int stop_after) {
  rescue_optimizer* opt = NULL;
  int ticket_of[MAX_WORKERS + 1] = {0}, results_from[MAX_WORKERS + 1] = {0};
  int busy = 0, failures = 0, errors = 0, received = 0, rank, i;
  FILE* existing = journal ? fopen(journal, "rb") : NULL;
  if (existing) {
    fclose(existing);
    check(rescue_journal_resume(journal, &opt, NULL), NULL, "rescue_journal_resume");
    /* Tickets that were out when the previous run died never came back: withdraw
       them; fresh suggestions go to the workers. */
    int pending[64], n = 0;
    check(rescue_pending(opt, pending, 64, &n), opt, "rescue_pending");
    for (i = 0; i < n; ++i) check(rescue_cancel(opt, pending[i]), opt, "rescue_cancel");
  } else {
    rescue_problem* p = NULL;
    check(rescue_problem_builtin("branin-currin", &p), NULL, "rescue_problem_builtin");
    rescue_problem_set_budget(p, budget);
    rescue_problem_set_seed(p, 17);
    rescue_problem_set_strategy(p, "cost-aware-random");
    check(rescue_create(p, &opt), NULL, "rescue_create");
    rescue_problem_free(p);
    if (journal) check(rescue_journal_open(opt, journal), opt, "rescue_journal_open");
  }
  for (rank = 1; rank <= workers; ++rank) busy += dispatch(opt, rank, ticket_of);
  while (busy > 0) {
    result_msg r;
    MPI_Status status;
    MPI_Recv(&r, 2 + M, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &status);
    rank = status.MPI_SOURCE;
    --busy;
    if (stop_after > 0 && received == stop_after) continue; /* "crashed": results still out are lost */
    ++received;
    ++results_from[rank];
    if ((int)r.ticket != ticket_of[rank]) {
      fprintf(stderr, "rank 0: rank %d answered ticket %d, it was given %d\n", rank, (int)r.ticket, ticket_of[rank]);
      ++errors;
    }
    if (r.ok) {
      check(rescue_observe(opt, (int)r.ticket, r.y, M, NULL, 0, NULL, 0), opt, "rescue_observe");
    } else {
      check(rescue_fail(opt, (int)r.ticket), opt, "rescue_fail");
      ++failures;
    }
    if (stop_after > 0 && received == stop_after) continue;
    busy += dispatch(opt, rank, ticket_of);
  }
  for (rank = 1; rank <= workers; ++rank) MPI_Send(NULL, 0, MPI_DOUBLE, rank, TAG_STOP, MPI_COMM_WORLD);

  if (stop_after > 0 && received == stop_after) {
    int pending = 0;
    rescue_pending(opt, NULL, 0, &pending);
    printf("stopped after %d results with %d tickets out; rerun with the same journal to resume\n", received, pending);
    rescue_destroy(opt);
    return 0;
  }
  /* Self-check: no ticket left, every observation is the simulator's value at its (x, s). */
  {
    rescue_problem* sim = NULL;
    int n = rescue_num_observations(opt), pending = -1, contributors = 0, count = 0, failed_seen = 0;
    rescue_problem_builtin("branin-currin", &sim);
    rescue_pending(opt, NULL, 0, &pending);
    if (pending != 0) ++errors;
    for (i = 0; i < n; ++i) {
      double x[D], s, y[M], ref[M];
      int failed = 0;
      check(rescue_get_observation(opt, i, x, D, &s, y, M, NULL, 0, &failed), opt, "rescue_get_observation");
      if (failed) {
        ++failed_seen;
        continue;
      }
      rescue_problem_evaluate(sim, x, D, s, ref, M, NULL, 0, NULL, 0);
      if (y[0] != ref[0] || y[1] != ref[1]) {
        fprintf(stderr, "rank 0: observation %d does not match the simulator\n", i);
        ++errors;
      }
    }
    rescue_problem_free(sim);
    for (rank = 1; rank <= workers; ++rank) contributors += results_from[rank] > 0;
    if (workers > 1 && contributors < 2) ++errors;
    check(rescue_pareto(opt, NULL, NULL, 0, &count), opt, "rescue_pareto");
    printf("%d evaluations (%d failed, %d recorded as failed) from %d workers", n, failures, failed_seen, contributors);
    for (rank = 1; rank <= workers; ++rank) printf("%s rank %d: %d", rank == 1 ? ";" : ",", rank, results_from[rank]);
    printf("; Pareto set of %d points; %s\n", count, errors ? "ERRORS" : "all checks passed");
  }
  rescue_destroy(opt);
  return errors ? 1 : 0;
}

int main(int argc, char** argv) {
  int rank = 0, size = 1, i, fail_every = 0, stop_after = 0, fresh = 0, rc;
  double budget = 150.0;
  const char* journal = NULL;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--fresh") == 0) {
      fresh = 1;
      continue;
    }
    if (i + 1 >= argc) break;
    if (strcmp(argv[i], "--budget") == 0) budget = atof(argv[i + 1]);
    else if (strcmp(argv[i], "--stop-after") == 0) stop_after = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--fail-every") == 0) fail_every = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--journal") == 0) journal = argv[i + 1];
    ++i;
  }
  if (fresh && journal && rank == 0) remove(journal);
  if (size < 2 || size > MAX_WORKERS + 1) {
    if (rank == 0) fprintf(stderr, "run with 2 to %d ranks: rank 0 optimizes, the others evaluate\n", MAX_WORKERS + 1);
    MPI_Finalize();
    return 2;
  }
  rc = rank == 0 ? coordinator(size - 1, budget, journal, stop_after) : worker(fail_every);
  MPI_Finalize();
  return rc;
}
