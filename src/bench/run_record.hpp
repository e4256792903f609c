// What one benchmark run records: its settings and one row per iteration
// (experiment protocol, "Outputs per run"), and the CSV file that holds them.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace rescue::bench {

/// Settings of one run (problem x strategy x seed). Costs are in units of one
/// target-fidelity evaluation.
struct RunSpec {
  std::string problem;
  std::string strategy;  ///< a library strategy, or the name of a variant (bench/variant.hpp)
  std::string variant;   ///< the variant's definition; empty for a library strategy
  std::uint64_t seed = 1;
  double budget = 5.0;          ///< after the initial design
  double initial_budget = 2.0;  ///< cost-aware initial design
  int observational_rows = 200;
  int max_suggestions = 200;
  double recommend_every = 0.0;  ///< evaluate the recommender when cost advanced this much (0: every iteration)
  int recommend_points = 0;      ///< NSGA-II population and set size of the recommender (0: the library's default)
  /// The strategy's own model is not the plain multi-fidelity GP (the rescue
  /// strategy's causal prior): the inferred hypervolume then comes from a
  /// plain GP fitted to the same observations, the strategy's own
  /// recommendation is recorded beside it.
  bool shared_recommender = false;
  double hv_max = 0.0;           ///< stored maximum hypervolume
};

struct IterationRecord {
  int iteration = 0;           ///< 1-based suggestion number
  bool initial = false;        ///< part of the cost-aware initial design
  double cumulative_cost = 0.0;
  double fidelity = 0.0;
  std::vector<double> x;
  double inferred_hv = 0.0;
  double log10_regret = 0.0;
  bool violated = false;            ///< the observation (noisy, at its fidelity) violates a constraint
  bool violated_at_target = false;  ///< x is infeasible at the target fidelity (noise-free)
  double suggest_seconds = 0.0;     ///< wall time of rescue_suggest
  double recommend_seconds = 0.0;   ///< wall time of the recommender (0 when not evaluated)
  int recommended = 0;              ///< size of the recommended set (-1 when not evaluated)
  double own_inferred_hv = 0.0;     ///< the same for the strategy's own recommendation (rescue_pareto)
};

struct RunResult {
  RunSpec spec;
  std::vector<std::string> option_names;
  double target_fidelity = 1.0;
  double observational_cost = 0.0;  ///< cost of the observational rows (not in the budget)
  /// The BLAS kernel the run used (bench/blas_core.hpp); empty in files
  /// written before it was recorded.
  std::string blas_core;
  /// OpenBLAS's thread count in the run (bench/blas_core.hpp); 0 in files
  /// written before it was recorded.
  int blas_threads = 0;
  /// Wall time of the problem's evaluations of the suggestions, seconds (for
  /// the real-training problems, the training); 0 in files written before it
  /// was recorded.
  double evaluation_seconds = 0.0;
  std::vector<IterationRecord> iterations;
  bool complete = false;
  std::string stop_reason;
};

/// Writes the run as CSV: '#'-prefixed metadata lines, a header, one row per
/// iteration (with the best log regret so far), and a final "# complete" line
/// when the run finished.
void write_run_csv(std::ostream& out, const RunResult& run);
/// Reads a file written by write_run_csv; throws Error(InvalidArgument) naming
/// the line on malformed input.
RunResult read_run_csv(std::istream& in);

}  // namespace rescue::bench
