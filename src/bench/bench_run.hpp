// One benchmark run through the C ABI (experiment protocol): the built-in
// problem, 200 noisy observational rows, the cost-aware initial design and then
// the strategy until the budget is spent or 200 suggestions are made; after
// every iteration the shared recommender's configurations are evaluated
// noise-free at the target fidelity, infeasible ones dropped, and the
// hypervolume and log10 regret against the stored maximum recorded.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench/capi_handles.hpp"
#include "bench/run_record.hpp"
#include "problems/benchmark_problem.hpp"
#include "util/rng.hpp"

namespace rescue::bench {

/// Whether constraint metric values `g` satisfy every constraint of `spec`.
bool feasible(const ProblemSpec& spec, const std::vector<double>& g);

/// Noise-free evaluations at the target fidelity by configuration. A run's
/// recommended sets repeat configurations (about one in ten on
/// xgboost-hpo-constrained), and on the real-training problems each
/// evaluation is a training, so a run keeps the ones it has made.
using TargetEvaluations = std::map<std::vector<double>, problems::Evaluation>;

/// Hypervolume of the feasible ones among `configs` (n x d, point-major),
/// evaluated noise-free at the target fidelity, with the problem's reference
/// point (maximized objectives negated, minimization convention). With
/// `known`, configurations found there are not evaluated again and the new
/// evaluations are added to it.
double inferred_hypervolume(const problems::BenchmarkProblem& problem, const std::vector<double>& configs,
                            TargetEvaluations* known = nullptr);

/// An optimizer as the harness makes it through the C ABI: a built-in problem
/// with this seed and strategy, these parameters set in this order, and the
/// budgets that are given (the library's defaults for the others).
struct OptimizerSettings {
  std::string problem;
  std::uint64_t seed = 0;
  std::string strategy;
  std::vector<std::pair<std::string, double>> params;
  std::optional<double> budget, initial_budget;
};
/// Makes `settings`' problem into `problem` and its optimizer into `optimizer`,
/// with `only_fidelity` the problem's fidelity reduced to that single level;
/// throws Error with the message of the call that failed.
void create_optimizer(const OptimizerSettings& settings, ProblemHandle& problem, OptimizerHandle& optimizer,
                      std::optional<double> only_fidelity = std::nullopt);

/// Gives `opt` `rows` observational rows of `problem` drawn from `rng`
/// (problems::sample_observational), with target_only only those at the target
/// fidelity; returns the cost of the rows given in target units.
double add_observational(rescue_optimizer* opt, const problems::BenchmarkProblem& problem, int rows, Rng& rng,
                         bool target_only = false);

/// A run before its first suggestion: the strategy's optimizer (its variant's
/// parameters, the observational rows, its causal graph), the shared
/// recommender's (a `random` optimizer, only with spec.shared_recommender),
/// and the stream of the noise on the run's evaluations, all as the run's
/// seed makes them; so a run's evaluations replay exactly.
struct RunStart {
  ProblemHandle problem, shadow_problem;
  OptimizerHandle strategy, shadow;
  Rng noise;
  double observational_cost = 0.0;  ///< of the observational rows, target units
  double library_unit = 1.0;        ///< one target unit in the strategy's cost units
};
std::unique_ptr<RunStart> start_run(const RunSpec& spec, const problems::BenchmarkProblem& problem);

/// Runs one (problem, strategy, seed). `progress` (may be empty) is called
/// after every iteration with the fraction of the total budget spent.
/// Library failures end the run early with the library's message in
/// stop_reason (complete stays true so that the run is not retried forever;
/// the reason starts with "error:").
RunResult run_benchmark(const RunSpec& spec, const std::function<void(double)>& progress = {});

}  // namespace rescue::bench
