// Parallel workers in synchronous rounds (issue "q parallel workers reach a
// given regret in fewer rounds"): after the cost-aware initial design, each
// round asks rescue_suggest_batch for q points, evaluates them (noisy, at
// their fidelities) and observes them all; after every round the recommended
// Pareto set is evaluated noise-free at the target fidelity and its log10
// hypervolume regret recorded, as in the experiment protocol. The initial
// design is made one point at a time, so every q starts each seed from the
// same data and the rounds measure only the batch acquisition.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rescue::bench {

struct BatchRoundsConfig {
  std::string problem = "branin-currin";
  std::string strategy = "hvkg";
  std::vector<int> qs{1, 4};
  int seeds = 5;
  std::uint64_t first_seed = 1;
  int rounds = 10;
  double initial_budget = 2.0;  ///< target units
  int observational_rows = 200;
  /// log10 regret levels whose rounds-to-reach are reported.
  std::vector<double> thresholds{-2.0, -2.2, -2.4};
  int jobs = 1;
  std::string command;  ///< recorded in the report
};

struct BatchRoundsRun {
  int q = 1;
  std::uint64_t seed = 1;
  int initial_points = 0;
  double initial_cost = 0.0;       ///< target units
  std::vector<double> log10_regret;  ///< [0]: after the initial design; [r]: after round r
  std::vector<double> cost;          ///< cumulative cost (target units) at the same points
  std::string error;                 ///< non-empty when the run stopped on a library error
};

/// One (q, seed) run through the C ABI. The budget is set so that it never
/// binds: the initial design plus `budget_rounds` target-fidelity evaluations.
BatchRoundsRun run_batch_rounds(const BatchRoundsConfig& config, int q, std::uint64_t seed, int budget_rounds);

/// First round r (0-based index into the curve) at which the best log10
/// regret so far is <= threshold, or -1 when it never is.
int rounds_to_reach(const std::vector<double>& log10_regret, double threshold);

/// Every (q, seed) run, in parallel over config.jobs threads.
std::vector<BatchRoundsRun> run_batch_rounds_all(const BatchRoundsConfig& config);

/// The report: settings, the exact command, per-q means over seeds of the
/// best log10 regret after each round and of the rounds to reach each
/// threshold, and the per-seed figures.
std::string batch_rounds_markdown(const BatchRoundsConfig& config, const std::vector<BatchRoundsRun>& runs);

}  // namespace rescue::bench
