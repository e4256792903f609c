// The summary of a benchmark (experiment protocol, "Statistics over seeds"):
// per problem and strategy the area under regret over seeds, and for every
// pair of strategies the paired t-test, Cohen's d and relative gain; as a
// Markdown table in the manner of the paper's Table 2 and as CSV.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "bench/run_record.hpp"
#include "bench/statistics.hpp"

namespace rescue::bench {

struct StrategyStats {
  std::string strategy;
  std::vector<std::uint64_t> seeds;  ///< runs that finished without error
  std::vector<double> aur;           ///< area under regret, one per seed (same order)
  double aur_mean = 0.0, aur_sd = 0.0;
  double final_regret_mean = 0.0, final_regret_sd = 0.0;  ///< best log10 regret at the end of the budget
  double cheap_share = 0.0;          ///< share of the strategy's own queries below the target fidelity
  double mean_fidelity = 0.0;        ///< of the strategy's own queries
  double violation_rate = 0.0;       ///< share of queries whose observation violated a constraint
  double violation_rate_target = 0.0;  ///< share of queries infeasible at the target fidelity
  double mean_queries = 0.0;         ///< suggestions per run, initial design included
  double median_suggest_seconds = 0.0;  ///< over the strategy's own suggestions
  /// Wall time of the problem's evaluations per query (the training, on the real-training
  /// problems), over the runs that recorded it (RunResult::evaluation_seconds); NaN without one.
  double mean_evaluation_seconds = 0.0;
  int errors = 0;                    ///< runs that stopped on a library error
  /// Runs measured by the shared recommender while the strategy has its own
  /// (the rescue strategy): the AUR of its own recommendation (rescue_pareto).
  std::vector<double> own_aur;
  double own_aur_mean = 0.0, own_aur_sd = 0.0;
  /// AUR of the in-sample regret (bench/in_sample.hpp), one per run, when the
  /// problem is a built-in one (empty otherwise).
  std::vector<double> in_sample_aur;
  double in_sample_aur_mean = 0.0, in_sample_aur_sd = 0.0;   ///< NaN without in-sample figures
  double final_in_sample_regret_mean = 0.0;  ///< in-sample log10 regret at the end of the run (NaN: none)
  double target_evaluations = 0.0;           ///< evaluations at exactly the target fidelity, per run
  /// Runs whose last recommendation has a positive true hypervolume: it holds a
  /// configuration feasible at the target and inside the reference point.
  int final_recommendation_positive = 0;
  /// The BLAS settings the runs recorded ("Haswell, 1 thread"; "not recorded"
  /// for older files) and how many runs had each.
  std::map<std::string, int> blas;
};

struct PairwiseStats {
  std::string a, b;  ///< a compared against b
  PairedTTest test;  ///< on AUR_a - AUR_b over common seeds
  double gain = 0.0; ///< (mean AUR_b - mean AUR_a) / |mean AUR_b| over the common seeds
  /// The best log10 regret at the end of the initial design, compared over the
  /// common seeds. Every strategy gets the same initial design and the same
  /// recommender, so it agrees on every seed unless the two sets of runs were
  /// measured differently: another BLAS kernel or thread count (which round
  /// differently), another recommender size, another build.
  int start_differs = 0;           ///< common seeds on which it differs (beyond 1e-9)
  double start_difference = 0.0;   ///< mean over the common seeds of start_a - start_b
  /// The same test on the in-sample AUR and on the AUR of the strategies' own
  /// recommendation, over the seeds where both runs have one (n = 0: fewer
  /// than two such seeds).
  PairedTTest in_sample;
  PairedTTest own;
};

struct ProblemSummary {
  std::string problem;
  double hv_max = 0.0, budget = 0.0, initial_budget = 0.0;
  /// The highest hypervolume any complete run's recommended set reached at the
  /// target (shared recommender or own), and the run ("strategy seed N"). Above
  /// hv_max (by more than the regret floor) it shows the stored maximum too
  /// low: those regrets sit at the floor.
  double best_hv = 0.0;
  std::string best_hv_run;
  std::vector<StrategyStats> strategies;
  std::vector<PairwiseStats> pairs;
};

/// Summarizes the runs of one problem; strategies appear in `order` (those
/// without runs are skipped). Pairs need at least two common seeds. The
/// in-sample figures need the problem's true values: they are computed when
/// `problem` names a built-in problem.
ProblemSummary summarize_problem(const std::string& problem, const std::vector<RunResult>& runs,
                                 const std::vector<std::string>& order);

/// Median wall time of the strategy's own suggestions made with n_obs
/// observations already in (within +-tolerance), over all runs; NaN if none.
double median_suggest_seconds_at(const std::vector<RunResult>& runs, const std::string& strategy, int n_obs,
                                 int tolerance);

/// Median of a sample; NaN for an empty one.
double median(std::vector<double> v);

std::string summary_markdown(const std::vector<ProblemSummary>& summaries, const std::vector<RunResult>& runs,
                             const std::string& command);
void write_summary_csv(std::ostream& out, const std::vector<ProblemSummary>& summaries);

}  // namespace rescue::bench
