// A whole benchmark: strategies x problems x seeds under the experiment
// protocol, run in parallel (one run per thread, each single-threaded), with
// one CSV per run under <out>/runs/, then the summary (summary.md,
// summary.csv) and the plots under <out>/plots/. Runs whose CSV is already
// complete are not repeated, so an interrupted benchmark resumes.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "bench/replicates.hpp"
#include "bench/run_record.hpp"
#include "bench/variant.hpp"

namespace rescue::bench {

struct ExperimentConfig {
  std::vector<std::string> problems{"branin-currin", "park", "healthcare"};
  std::vector<std::string> strategies{"random", "cost-aware-random", "hvkg", "ehvi", "momf"};
  /// Variants named in `strategies` run as defined here (ablations, tuning).
  std::vector<StrategyVariant> variants;
  int seeds = 20;
  std::uint64_t first_seed = 1;
  double budget = -1.0;  ///< after the initial design, target units; negative: the protocol's per problem
  double initial_budget = 2.0;
  int observational_rows = 200;
  int max_suggestions = 200;
  double recommend_every = 0.0;  ///< 0: the recommender after every iteration
  int recommend_points = 0;      ///< recommender's NSGA-II population and set size; 0: the library's default
  int jobs = 1;
  std::string out_dir = "rescue-bench-out";
  bool plots = true;
  std::string command;  ///< recorded in the summary
  /// Strategies whose runs the summary also pools as replicates of one.
  std::vector<ReplicateGroup> replicates;
};

/// The protocol's budget after the initial design (target units) for a problem
/// (a misleading variant, "-adversarial" and the others, takes its base problem's).
double protocol_budget(const std::string& problem);

/// The --quick setting: two seeds, Branin-Currin and healthcare, every model
/// strategy, a budget of one target unit after the initial design.
ExperimentConfig quick_config();

/// The runs of a benchmark in execution order: problem, then seed, then
/// strategy, so that finished runs are paired across strategies early.
std::vector<RunSpec> plan_runs(const ExperimentConfig& config);

/// <out>/runs/<problem>/<strategy>/seed-<seed>.csv
std::string run_csv_path(const std::string& out_dir, const RunSpec& spec);

/// The complete run CSVs of the configuration's plan that exist under its
/// out_dir, in plan order, their regret measured against each problem's
/// current maximum hypervolume (not the one a file recorded).
std::vector<RunResult> load_complete_runs(const ExperimentConfig& config);

/// The distinct configurations that the complete run files of `problem`
/// under out_dir/runs (any strategy, any seed) evaluated at the target.
std::vector<std::vector<double>> target_configurations(const std::string& out_dir, const std::string& problem);

/// Runs what is missing, then summarizes. Returns the number of runs that
/// stopped on a library error.
int run_experiment(const ExperimentConfig& config, std::ostream& log);

/// Reads every complete run CSV of the configuration and writes the summary
/// and plots. Returns the runs read.
std::vector<RunResult> summarize_experiment(const ExperimentConfig& config, std::ostream& log);

}  // namespace rescue::bench
