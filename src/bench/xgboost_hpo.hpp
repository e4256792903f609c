// xgboost-hpo: the paper's XGBoost HPO problem (Appendix, "XGBoost HPO" and
// its configuration-space table) with real training instead of YAHPO Gym's
// surrogate. A gbtree booster is trained through XGBoost's C API on the spam
// data of R's kernlab package (4,601 e-mails, 57 features), one thread and a
// fixed seed, so that every metric is a deterministic function of the
// configuration, the fidelity and the problem's seed. The fidelity is the
// paper's trainsize: the share of the training rows used, in [0.03, 1],
// target 1. Objectives (both minimized): the misclassification error on the
// validation rows and the serialized model's size in kB (UBJSON, what a
// deployed model occupies). Indicators, read off the trained model as a
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

class XgboostHpo final : public problems::BenchmarkProblem {
 public:
  /// Reads the data from `csv_path` (the label column "spam"); the problem's
  /// seed fixes the train/validation split (2/3, 1/3) and XGBoost's own seed.
  explicit XgboostHpo(const std::string& csv_path, std::uint64_t seed = 1);

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

 private:
  std::string name_ = "xgboost-hpo";
  ProblemSpec spec_;
  TrainValidation data_;
  std::uint64_t seed_;
};

}  // namespace rescue::bench
