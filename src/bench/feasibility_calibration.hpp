// Does a model's prediction at the target mean what it says where it
// recommends? A run's evaluations are replayed (the same observational rows
// and the same noise, from its seed; bench_run.hpp) into fresh optimizers: the
// strategy's own and the shared recommender's plain GP. Each recommends its
// Pareto set (rescue_pareto); the set is scored by each output's standardized
// error against the problem's noise-free truth at the target (an optimizer
// exploits a model's errors in its own favour), and, with constraints, the set
// and random moves around it by the probability of feasibility
// (rescue_predict). The models are fitted once to all the data, where the run
// refitted them as the data grew, so a replayed model is like the run's last
// one, not the same. Each model also predicts every replayed evaluation from
// all the others (rescue_cross_validate), which shows whether its standard
// deviations hold where it has data, by fidelity.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "bench/run_record.hpp"

namespace rescue::bench {

/// Predicted probabilities of feasibility against the truth.
struct CalibrationTally {
  /// Points whose predicted probability falls in [b / 10, (b + 1) / 10) (1 in
  /// the last bin), and how many of them are truly feasible.
  std::array<long, 10> points{}, feasible{};
  double brier = 0.0;  ///< sum of (probability - truly feasible)^2
  /// The recommended set only: its size, truly feasible members and the sum
  /// of their predicted probabilities.
  long set_points = 0, set_feasible = 0;
  double set_probability = 0.0;
  /// Sum over runs of the set's inferred hypervolume (its truly feasible
  /// members' noise-free values at the target: the protocol's measure).
  double set_hv = 0.0;
  /// The recommended set only, per output (objectives, then constraint
  /// metrics): sums of the standardized error (truth - mean) / sd and of its square.
  std::vector<double> z_sum, z_square;
  /// Leave-one-out errors over the replayed evaluations (rescue_cross_validate),
  /// per output (objectives then constraint metrics) at index group * P +
  /// output, group 0 the evaluations at the target fidelity (within a tenth
  /// of the fidelity range, on the unit scale), 1 the others:
  /// sums of (observed - held-out mean) / held-out sd, of its square, of the
  /// squared error (observed - held-out mean)^2, counts.
  std::vector<double> held_sum, held_square, held_error_square;
  std::vector<long> held_count;
  int runs = 0;

  void add(double probability, bool truly_feasible);
  /// Adds one held-out error of output `output` of P, at the target or not:
  /// its standardized value z and the error itself.
  void add_held_out(int output, int P, bool at_target, double z, double error);
  void merge(const CalibrationTally& other);
  long total() const;
};

/// How much a model relies on its causal prior (rescue_prior_weights).
struct PriorWeightsRecord {
  std::vector<double> scale;  ///< a_m per output, objectives then constraint metrics
  double kernel_weight = 0.0;
  bool in_use = false;
};

struct RunCalibration {
  CalibrationTally own, shared;
  /// The own model's, when it has a causal prior ("rescue").
  std::optional<PriorWeightsRecord> prior;
};

/// Replays `run` and scores both models' recommended sets and `moves` random
/// moves of each member at each of the unit-scale standard deviations 0.03
/// and 0.1; without constraints, the set alone, every point feasible.
RunCalibration calibrate_run(const RunResult& run, int moves = 10);

struct StrategyCalibration {
  std::string problem, strategy;
  RunCalibration tally;
  /// Each run's set hypervolume by the two models, in the same run order, for
  /// a paired comparison of the models on the same evaluations.
  std::vector<double> own_hv, shared_hv;
  /// The own model's prior weights, one per run that has them.
  std::vector<PriorWeightsRecord> priors;
};

/// Markdown: per problem and strategy, both models' sets (truly feasible
/// share, mean predicted probability, standardized errors of each output),
/// the own set's hypervolume against the shared one's paired over runs, the
/// reliability of the probabilities (set and moves pooled; problems with
/// constraints), and the held-out errors of every output at the target and
/// below it, and where the own model has a causal prior, its weights.
std::string calibration_markdown(const std::vector<StrategyCalibration>& results, const std::string& command);

/// CSV, one row per run (runs[i] scored as calibrations[i]): problem, strategy,
/// seed, the own and shared sets' inferred hypervolumes (full precision, for
/// paired comparisons across builds), and the own model's prior weights
/// (prior_in_use, the scales a_m separated by spaces, w; empty without a
/// causal prior).
std::string calibration_runs_csv(const std::vector<RunResult>& runs, const std::vector<RunCalibration>& calibrations);

}  // namespace rescue::bench
