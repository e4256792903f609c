#include "bench/bench_run.hpp"

#include <chrono>
#include <cmath>
#include <memory>
#include <string>

#include "bench/blas_core.hpp"
#include "bench/problem_registry.hpp"
#include "bench/regret_curve.hpp"
#include "bench/variant.hpp"
#include "moo/hypervolume.hpp"
#include "bench/capi_handles.hpp"
#include "rescue.h"
#include "util/error.hpp"
#include "util/rng.hpp"

namespace rescue::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

bool feasible(const ProblemSpec& spec, const std::vector<double>& g) {
  for (int q = 0; q < spec.num_constraints(); ++q)
    if (!spec.constraints()[q].feasible(g[q])) return false;
  return true;
}

double inferred_hypervolume(const problems::BenchmarkProblem& problem, const std::vector<double>& configs,
                            TargetEvaluations* known) {
  const ProblemSpec& spec = problem.spec();
  const int d = spec.dim(), m = spec.num_objectives();
  if (configs.size() % static_cast<std::size_t>(d) != 0)
    fail(Status::SizeMismatch, "inferred hypervolume: configurations are not a multiple of the dimension");
  const std::size_t n = configs.size() / static_cast<std::size_t>(d);
  std::vector<double> ref(m), points;
  for (int j = 0; j < m; ++j) ref[j] = spec.to_min(j, spec.reference_point()[j]);
  const double target = spec.fidelity().target;
  auto evaluate = [&](const double* x) {
    if (!known) return problem.evaluate(x, target);
    std::vector<double> key(x, x + d);
    auto it = known->find(key);
    if (it == known->end()) it = known->emplace(std::move(key), problem.evaluate(x, target)).first;
    return it->second;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const problems::Evaluation e = evaluate(configs.data() + i * d);
    if (!feasible(spec, e.g)) continue;
    for (int j = 0; j < m; ++j) points.push_back(spec.to_min(j, e.y[j]));
  }
  return moo::hypervolume(points, static_cast<std::size_t>(m), ref);
}

void create_optimizer(const OptimizerSettings& settings, ProblemHandle& problem, OptimizerHandle& optimizer,
                      std::optional<double> only_fidelity) {
  new_problem_handle(settings.problem, problem);
  rescue_problem* p = problem.p;
  check(rescue_problem_set_seed(p, static_cast<unsigned>(settings.seed)), "rescue_problem_set_seed", p);
  check(rescue_problem_set_strategy(p, settings.strategy.c_str()), "rescue_problem_set_strategy", p);
  if (only_fidelity) {
    // Per-level costs would not fit a single level; with one level the
    // exponential model costs 1 per evaluation whatever its rate.
    const double s = *only_fidelity;
    check(rescue_problem_set_cost_exponential(p, 0.0), "rescue_problem_set_cost_exponential", p);
    check(rescue_problem_set_fidelity_levels(p, &s, 1, s), "rescue_problem_set_fidelity_levels", p);
  }
  for (const auto& [key, value] : settings.params)
    check(rescue_problem_set_param(p, key.c_str(), value), "rescue_problem_set_param", p);
  if (settings.budget) check(rescue_problem_set_budget(p, *settings.budget), "rescue_problem_set_budget", p);
  if (settings.initial_budget)
    check(rescue_problem_set_initial_budget(p, *settings.initial_budget), "rescue_problem_set_initial_budget", p);
  check(rescue_create(p, &optimizer.o), "rescue_create", kLastError);
}

double add_observational(rescue_optimizer* opt, const problems::BenchmarkProblem& problem, int rows, Rng& rng,
                         bool target_only) {
  if (rows <= 0) return 0.0;
  const ProblemSpec& spec = problem.spec();
  const int d = spec.dim();
  const int width = d + 1 + spec.num_indicators() + spec.num_objectives() + spec.num_constraints();
  const std::vector<double> data = problems::sample_observational(problem, rows, rng);
  if (data.size() != static_cast<std::size_t>(rows) * width)
    fail(Status::Internal, "observational row of unexpected width");
  const double unit = spec.target_cost();
  double cost = 0.0;
  std::vector<double> given;
  for (int i = 0; i < rows; ++i) {
    const double* row = data.data() + static_cast<std::size_t>(i) * width;
    if (target_only && row[d] != spec.fidelity().target) continue;
    cost += spec.cost(row, row[d]) / unit;
    given.insert(given.end(), row, row + width);
  }
  const int n = static_cast<int>(given.size() / static_cast<std::size_t>(width));
  if (n > 0) check(rescue_add_observational(opt, given.data(), n, width), "rescue_add_observational", opt);
  return cost;
}

std::unique_ptr<RunStart> start_run(const RunSpec& rs, const problems::BenchmarkProblem& problem) {
  const ProblemSpec& spec = problem.spec();
  const int d = spec.dim();
  const double unit = spec.target_cost();
  auto start = std::make_unique<RunStart>();

  // Independent streams for the observational data and the observation noise;
  // the engine has its own generator seeded with the same seed, so every
  // strategy sees the same initial design and the same noise on it.
  Rng master(rs.seed);
  Rng observational_rng = master.split();
  start->noise = master.split();

  // A variant runs its library strategy with its own parameters.
  const StrategyVariant variant =
      rs.variant.empty() ? StrategyVariant{rs.strategy, rs.strategy, {}, -1, DagChoice::Learned} : parse_definition(rs.strategy, rs.variant);
  // The measuring recommender is the same for every strategy; a larger set
  // lowers the floor that a finite set puts under the regret of a continuous front.
  auto add_recommend_points = [&](OptimizerSettings& settings) {
    if (rs.recommend_points > 0)
      for (const char* key : {"recommend.population", "recommend.points"})
        settings.params.emplace_back(key, rs.recommend_points);
  };
  // The target-only analog's evaluations cost 1 each: one target unit.
  start->library_unit = variant.target_only ? 1.0 : unit;
  const double lib = start->library_unit;
  OptimizerSettings own{rs.problem, rs.seed, variant.strategy, {}, (rs.initial_budget + rs.budget) * lib,
                        rs.initial_budget * lib};
  add_recommend_points(own);
  // Without the shared recommender the strategy's own recommender is the
  // measure, and it must be the shared one's: fidelity levels at their values.
  if (!rs.shared_recommender) own.params.emplace_back("gp.fidelity_levels", 0.0);
  own.params.insert(own.params.end(), variant.params.begin(), variant.params.end());
  create_optimizer(own, start->problem, start->strategy,
                   variant.target_only ? std::optional<double>(spec.fidelity().target) : std::nullopt);
  rescue_optimizer* opt = start->strategy.o;

  // The library's cost unit must be the one the budget was stated in.
  {
    std::vector<double> x0(d);
    for (int j = 0; j < d; ++j) x0[j] = spec.options()[j].lower;
    double c = 0.0;
    check(rescue_cost(opt, x0.data(), d, spec.fidelity().target, &c), "rescue_cost", opt);
    if (std::fabs(c - lib) > 1e-9 * lib)
      fail(Status::Internal, "target cost differs between the problem (" + std::to_string(lib) + ") and the library (" +
                                 std::to_string(c) + ")");
  }

  start->observational_cost =
      add_observational(opt, problem, rs.observational_rows, observational_rng, variant.target_only);
  if (variant.dag == DagChoice::True)
    check(rescue_set_dag(opt, true_dag_json(problem).c_str()), "rescue_set_dag", opt);
  if (variant.dag == DagChoice::Shuffled) {
    // The ablation's wrong causal model: what the observational data teach,
    // with every node's parents redrawn (bench/variant.hpp).
    if (rs.observational_rows <= 0) fail(Status::InvalidArgument, "dag=shuffled needs observational data");
    std::string graph;
    check(causal_graph_text(opt, RESCUE_GRAPH_JSON, 0, &graph), "rescue_causal_graph", opt);
    check(rescue_set_dag(opt, shuffled_dag_json(graph, rs.seed).c_str()), "rescue_set_dag", opt);
  }

  // The protocol's recommender: the same plain multi-fidelity GP for every
  // strategy. A model-free strategy's recommender is exactly that, so a shadow
  // optimizer running one, fed the same evaluations, measures a strategy whose
  // own model is something else.
  if (rs.shared_recommender) {
    // The measure stays the one every committed result was measured by: the
    // fidelity levels where their values put them, where the library now
    // learns their places by default (docs/results/README.md).
    OptimizerSettings shared{rs.problem, rs.seed, "random", {{"gp.fidelity_levels", 0.0}},
                             (rs.initial_budget + rs.budget) * unit, std::nullopt};
    add_recommend_points(shared);
    create_optimizer(shared, start->shadow_problem, start->shadow);
  }
  return start;
}

RunResult run_benchmark(const RunSpec& rs, const std::function<void(double)>& progress) {
  RunResult run;
  run.spec = rs;
  const auto problem = make_problem(rs.problem);
  const ProblemSpec& spec = problem->spec();
  const int d = spec.dim(), m = spec.num_objectives(), q = spec.num_constraints(), k = spec.num_indicators();
  for (const auto& o : spec.options()) run.option_names.push_back(o.name);
  run.target_fidelity = spec.fidelity().target;
  run.blas_core = blas_core();
  run.blas_threads = blas_threads();
  const std::unique_ptr<RunStart> start = start_run(rs, *problem);
  const double unit = start->library_unit;
  run.observational_cost = start->observational_cost;
  rescue_optimizer* opt = start->strategy.o;
  const OptimizerHandle& shadow = start->shadow;
  Rng& noise_rng = start->noise;
  // Hypervolume of an optimizer's recommendation, evaluated noise-free at the target.
  TargetEvaluations at_target;
  auto recommendation_hv = [&](rescue_optimizer* o, int* count) {
    return inferred_hypervolume(*problem, recommended_configurations(o, d, m, count), &at_target);
  };

  const double total = rs.initial_budget + rs.budget;
  std::vector<double> x(d);
  double last_hv = 0.0, last_own_hv = 0.0, last_recommend_cost = -INFINITY;
  run.stop_reason = "suggestion limit";
  try {
    for (int it = 1; it <= rs.max_suggestions; ++it) {
      if (rescue_done(opt) == 1) {
        run.stop_reason = "budget spent";
        break;
      }
      double spent_before = 0.0;
      rescue_budget(opt, &spent_before, nullptr, nullptr);
      double s = 0.0;
      int ticket = 0;
      const auto t0 = Clock::now();
      const rescue_status st = rescue_suggest(opt, x.data(), d, &s, &ticket);
      const double suggest_seconds = seconds_since(t0);
      if (st == RESCUE_ERR_BUDGET_EXHAUSTED) {
        run.stop_reason = "budget spent";
        break;
      }
      check(st, "rescue_suggest", opt);
      const auto t_eval = Clock::now();
      const problems::Evaluation e = problem->evaluate_noisy(x.data(), s, noise_rng);
      run.evaluation_seconds += seconds_since(t_eval);
      check(rescue_observe(opt, ticket, e.y.data(), m, q ? e.g.data() : nullptr, q, k ? e.z.data() : nullptr, k),
            "rescue_observe", opt);
      if (shadow.o)
        check(rescue_observe_at(shadow.o, x.data(), d, s, e.y.data(), m, q ? e.g.data() : nullptr, q,
                                k ? e.z.data() : nullptr, k),
              "rescue_observe_at", shadow.o);

      IterationRecord r;
      r.iteration = it;
      double spent = 0.0;
      rescue_budget(opt, &spent, nullptr, nullptr);
      r.cumulative_cost = spent / unit;
      // The engine runs the initial design while its budget is not spent.
      r.initial = spent_before < rs.initial_budget * unit && spent <= rs.initial_budget * unit * (1.0 + 1e-12);
      r.fidelity = s;
      r.x = x;
      r.suggest_seconds = suggest_seconds;
      r.violated = !feasible(spec, e.g);
      // Without constraints nothing is violated: a real-training problem need not train again.
      r.violated_at_target = q > 0 && !feasible(spec, problem->evaluate(x.data(), run.target_fidelity).g);

      const bool last = rescue_done(opt) == 1 || it == rs.max_suggestions;
      if (rs.recommend_every <= 0.0 || last || r.cumulative_cost - last_recommend_cost >= rs.recommend_every) {
        const auto t1 = Clock::now();
        int count = 0;
        last_own_hv = recommendation_hv(opt, &count);
        last_hv = shadow.o ? recommendation_hv(shadow.o, &count) : last_own_hv;
        r.recommend_seconds = seconds_since(t1);
        r.recommended = count;
        last_recommend_cost = r.cumulative_cost;
      } else {
        r.recommended = -1;
      }
      r.inferred_hv = last_hv;
      r.own_inferred_hv = last_own_hv;
      r.log10_regret = log10_regret(rs.hv_max, last_hv);
      run.iterations.push_back(std::move(r));
      if (progress) progress(std::min(1.0, run.iterations.back().cumulative_cost / total));
    }
    if (run.stop_reason == "suggestion limit" && rescue_done(opt) == 1) run.stop_reason = "budget spent";
  } catch (const Error& err) {
    run.stop_reason = std::string("error: ") + err.what();
  }
  run.complete = true;
  if (progress) progress(1.0);
  return run;
}

}  // namespace rescue::bench
