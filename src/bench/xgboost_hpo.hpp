// xgboost-hpo and xgboost-hpo-constrained: the paper's XGBoost HPO problems
// (Appendix, "XGBoost HPO", "Constrained XGBoost HPO" and the
// configuration-space table) with real training instead of YAHPO Gym's
// surrogate. A gbtree booster is trained through XGBoost's C API on the spam
// data of R's kernlab package (4,601 e-mails, 57 features), one thread and a
// fixed seed, so that every metric is a deterministic function of the
// configuration, the fidelity and the problem's seed. The fidelity is the
// paper's trainsize: the share of the training rows used, in [0.03, 1],
// target 1. Objectives of the plain task (both minimized): the
// misclassification error on the validation rows and the serialized model's
// size in kB (UBJSON, what a deployed model occupies); of the constrained
// task: F1 (maximized) and a count standing for the training time, training
// memory (a count) at most a threshold. Indicators, read off the trained model as a
// user's training log would show them: the training rows used, the trees
// that split at least once, their mean depth and the total number of leaves.
// Definitions: docs/problems.md.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "bench/tabular_data.hpp"
#include "problems/benchmark_problem.hpp"

namespace rescue::bench {

/// What one training measures.
struct XgboostTraining {
  double error = 0, f1 = 0;    ///< on the validation rows
  double model_kb = 0;         ///< the model serialized as UBJSON
  double rows = 0, split_trees = 0, mean_depth = 0, leaves = 0;  ///< the indicators
  double work_mops = 0;        ///< stand-in for the training time: millions of histogram and gradient updates
  double memory_kb = 0;        ///< stand-in for the training memory
  double seconds = 0;          ///< measured wall time of the training: its matrix, the booster, the rounds (varies; for reports only)
};

/// xgboost-hpo (validation error and model size) or xgboost-hpo-constrained
/// (the paper's "Constrained XGBoost HPO": maximize F1, minimize the training
/// time, training memory at most a threshold).
enum class XgboostTask { Plain, Constrained };

class XgboostHpo final : public problems::BenchmarkProblem {
 public:
  /// Reads the data from `csv_path` (the label column "spam"); the problem's
  /// seed fixes the train/validation split (2/3, 1/3) and XGBoost's own seed.
  XgboostHpo(const std::string& csv_path, XgboostTask task, std::uint64_t seed = 1);
  /// The constrained task's memory threshold, kB: the median over 200
  /// configurations drawn uniformly, at the target (docs/problems.md).
  static constexpr double kMemoryThresholdKb = 295.0;
  /// The constrained task's reference point, (F1 0.85, this many millions of
  /// updates): the region of good and cheap classifiers (docs/problems.md).
  static constexpr double kWorkReferenceMops = 20.0;

  const std::string& name() const override { return name_; }
  const ProblemSpec& spec() const override { return spec_; }
  problems::Evaluation evaluate(const double* x, double s) const override;
  /// The same as evaluate(): training is deterministic, its variation over
  /// configurations and row subsets is the problem's noise.
  problems::Evaluation evaluate_noisy(const double* x, double s, Rng& rng) const override;
  std::vector<double> sample_observational(Rng& rng) const override;
  /// Empty: nobody knows the true graph of a real learner.
  std::vector<std::pair<std::string, std::string>> causal_edges() const override { return {}; }

  /// The training rows a fidelity uses: round(s * n_train), at least 2.
  std::size_t rows_used(double s) const;
  /// Trains at (x, s) and measures everything either task reports.
  XgboostTraining train(const double* x, double s) const;

 private:
  std::string name_;
  XgboostTask task_;
  ProblemSpec spec_;
  TrainValidation data_;
  std::uint64_t seed_;
};

}  // namespace rescue::bench
