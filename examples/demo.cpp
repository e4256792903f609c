// rescue-demo: optimizes a built-in benchmark problem through the C ABI and
// shows, after every evaluation, the cost spent, the fidelity chosen and the
// hypervolume of the current recommendation evaluated without noise at the
// target fidelity; then prints the recommended Pareto set as a table.
#include <CLI/CLI.hpp>
#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rescue.h"

namespace {

[[noreturn]] void die(const char* what, const char* msg) {
  std::fprintf(stderr, "rescue-demo: %s: %s\n", what, msg);
  std::exit(1);
}

struct Recommendation {
  std::vector<double> x, y, g;  // point-major
  std::vector<int> feasible;
  int count = 0;
  double hv = 0.0;
};

// The recommended set, evaluated noise-free at the target fidelity; the
// hypervolume counts its feasible points only (minimization convention).
Recommendation recommend(rescue_optimizer* opt, const rescue_problem* problem) {
  const int d = rescue_dimension(opt), m = rescue_num_objectives(opt), q = rescue_num_constraints(opt);
  Recommendation r;
  if (rescue_pareto(opt, nullptr, nullptr, 0, &r.count) != RESCUE_OK) die("pareto", rescue_errmsg(opt));
  r.x.resize(static_cast<size_t>(r.count) * d);
  std::vector<double> predicted(static_cast<size_t>(r.count) * m);
  if (r.count > 0 && rescue_pareto(opt, r.x.data(), predicted.data(), r.count, &r.count) != RESCUE_OK)
    die("pareto", rescue_errmsg(opt));
  double target = 1.0;
  rescue_target_fidelity(opt, &target);
  std::vector<double> ref(m), front;
  rescue_reference_point(opt, ref.data(), m);
  for (int j = 0; j < m; ++j)
    if (rescue_objective_sense(opt, j) == RESCUE_MAXIMIZE) ref[j] = -ref[j];
  r.y.resize(static_cast<size_t>(r.count) * m);
  r.g.resize(static_cast<size_t>(r.count) * q);
  r.feasible.assign(r.count, 1);
  for (int i = 0; i < r.count; ++i) {
    if (rescue_problem_evaluate(problem, &r.x[i * d], d, target, &r.y[i * m], m, q ? &r.g[i * q] : nullptr, q, nullptr, 0) != RESCUE_OK)
      die("evaluate", rescue_problem_errmsg(problem));
  }
  // Only configurations that are truly feasible at the target count.
  for (int k = 0; k < q; ++k) {
    double threshold;
    int sense;
    rescue_constraint_info(opt, k, &threshold, &sense);
    for (int i = 0; i < r.count; ++i) {
      const double v = r.g[i * q + k];
      if (sense == RESCUE_GEQ ? v < threshold : v > threshold) r.feasible[i] = 0;
    }
  }
  for (int i = 0; i < r.count; ++i) {
    if (!r.feasible[i]) continue;
    for (int j = 0; j < m; ++j) {
      const double v = r.y[i * m + j];
      front.push_back(rescue_objective_sense(opt, j) == RESCUE_MAXIMIZE ? -v : v);
    }
  }
  rescue_hypervolume(front.data(), static_cast<int>(front.size() / m), m, ref.data(), &r.hv);
  return r;
}

// The model's matrices are small (a few hundred rows at most), where OpenBLAS's
// threads cost more than they save: on an idle 2-core machine this demo runs
// about 20% faster on one thread, and while two other jobs hold the cores the
// threads' busy-waiting makes it more than ten times slower. The library never touches the
// process-wide thread count; this program, which owns the process, does,
// unless the user has chosen one. Looked up rather than linked, since the
// library may be built against another BLAS. Returns the count in effect
// (0 when unknown).
int choose_blas_threads(int requested) {
  using Set = void (*)(int);
  using Get = int (*)();
  const bool user_set = std::getenv("OPENBLAS_NUM_THREADS") || std::getenv("GOTO_NUM_THREADS") ||
                        std::getenv("OMP_NUM_THREADS");
  if (requested > 0 || !user_set) {
    if (void* set = dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))
      reinterpret_cast<Set>(set)(requested > 0 ? requested : 1);
  }
  void* get = dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
  return get ? reinterpret_cast<Get>(get)() : 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"RESCUE demo: multi-fidelity multi-objective optimization of a built-in problem"};
  std::string problem_name = "branin-currin", strategy = "rescue";
  unsigned seed = 1;
  double budget_units = 5.0;
  bool quiet = false;
  int observational = 200;
  app.add_option("-p,--problem", problem_name, "built-in problem: branin-currin, park, healthcare, robot-standin")
      ->capture_default_str();
  app.add_option("-s,--strategy", strategy, "strategy")->capture_default_str();
  app.add_option("--seed", seed, "random seed")->capture_default_str();
  app.add_option("-b,--budget", budget_units, "budget after the initial design, in target-fidelity evaluations")
      ->capture_default_str();
  app.add_option("--observational", observational, "rows of observational data (logs) for the causal model")
      ->capture_default_str();
  int blas_threads = 0;
  app.add_option("--blas-threads", blas_threads,
                 "OpenBLAS threads (default: OPENBLAS_NUM_THREADS if set, else 1)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("-q,--quiet", quiet, "only print the final table");
  CLI11_PARSE(app, argc, argv);
  blas_threads = choose_blas_threads(blas_threads);

  rescue_problem* problem = nullptr;
  if (rescue_problem_builtin(problem_name.c_str(), &problem) != RESCUE_OK) die("problem", rescue_last_error());
  if (rescue_problem_set_strategy(problem, strategy.c_str()) != RESCUE_OK) die("strategy", rescue_problem_errmsg(problem));
  rescue_problem_set_seed(problem, seed);
  rescue_optimizer* opt = nullptr;
  if (rescue_create(problem, &opt) != RESCUE_OK) die("create", rescue_last_error());
  const int d = rescue_dimension(opt), m = rescue_num_objectives(opt), q = rescue_num_constraints(opt),
            k = rescue_num_indicators(opt);
  // Budgets in target units: the initial design (two target evaluations) plus budget_units.
  // Built-in costs do not depend on x, so any in-bounds x prices a target evaluation.
  double target = 1.0, unit = 1.0;
  rescue_target_fidelity(opt, &target);
  std::vector<double> lower(d);
  for (int j = 0; j < d; ++j) {
    int kind;
    rescue_option_info(opt, j, &lower[j], nullptr, &kind);
    if (kind == RESCUE_INTEGER) lower[j] = std::ceil(lower[j]);
  }
  if (rescue_cost(opt, lower.data(), d, target, &unit) != RESCUE_OK) die("cost", rescue_errmsg(opt));
  rescue_destroy(opt);
  rescue_problem_set_budget(problem, (2.0 + budget_units) * unit);
  if (rescue_create(problem, &opt) != RESCUE_OK) die("create", rescue_last_error());
  if (observational > 0) {
    // Logs of past runs, drawn from the problem's sampler; not charged to the budget.
    const int width = d + 1 + k + m + q;
    std::vector<double> rows(static_cast<size_t>(observational) * width);
    if (rescue_problem_sample_observational(problem, observational, seed, rows.data(), width) != RESCUE_OK ||
        rescue_add_observational(opt, rows.data(), observational, width) != RESCUE_OK)
      die("observational data", rescue_errmsg(opt));
  }

  std::printf("RESCUE %s | problem %s | strategy %s | seed %u | budget %.1f target evaluations | %d observational rows",
              rescue_version_string(), problem_name.c_str(), strategy.c_str(), seed, 2.0 + budget_units, observational);
  if (blas_threads > 0) std::printf(" | %d BLAS thread%s", blas_threads, blas_threads == 1 ? "" : "s");
  std::printf("\n");
  std::vector<double> x(d), y(m), g(q), z(k);
  int iter = 0;
  while (!rescue_done(opt)) {
    double s;
    int ticket;
    const rescue_status st = rescue_suggest(opt, x.data(), d, &s, &ticket);
    if (st == RESCUE_ERR_BUDGET_EXHAUSTED) break;
    if (st != RESCUE_OK) die("suggest", rescue_errmsg(opt));
    if (rescue_problem_evaluate(problem, x.data(), d, s, y.data(), m, g.data(), q, z.data(), k) != RESCUE_OK)
      die("evaluate", rescue_problem_errmsg(problem));
    if (rescue_observe(opt, ticket, y.data(), m, g.data(), q, z.data(), k) != RESCUE_OK) die("observe", rescue_errmsg(opt));
    ++iter;
    if (!quiet) {
      double spent = 0.0;
      rescue_budget(opt, &spent, nullptr, nullptr);
      const Recommendation r = recommend(opt, problem);
      std::printf("iter %4d | cost %7.3f target evals | fidelity %.3f | recommended %3d | hypervolume %.6f\n", iter,
                  spent / unit, s, r.count, r.hv);
      std::fflush(stdout);
    }
  }
  const Recommendation r = recommend(opt, problem);
  std::printf("\nRecommended Pareto set at fidelity %g (%d points, true values, hypervolume %.6f):\n", target, r.count,
              r.hv);
  for (int j = 0; j < d && j < 6; ++j) std::printf("%14.14s", rescue_option_name(opt, j));
  if (d > 6) std::printf("%14s", "...");
  for (int j = 0; j < m; ++j) std::printf("%14.14s", rescue_objective_name(opt, j));
  std::printf("\n");
  for (int i = 0; i < r.count; ++i) {
    for (int j = 0; j < d && j < 6; ++j) std::printf("%14.6g", r.x[i * d + j]);
    if (d > 6) std::printf("%14s", "");
    for (int j = 0; j < m; ++j) std::printf("%14.6g", r.y[i * m + j]);
    std::printf("\n");
  }
  if (r.count == 0) std::printf("  (nothing evaluated at the target fidelity yet)\n");
  rescue_destroy(opt);
  rescue_problem_free(problem);
  return 0;
}
