// The paper's multi-fidelity healthcare problem (Appendix "Real-world problems"):
// options BMI in [20, 30] and Aspirin in [0, 1], fidelity S in [0, 1] with
// target 1, Age fixed at 65. Objectives Statin and PSA are minimized (reference
// point (0.5, 5.0)); constraint Cancer <= threshold; Statin and Cancer are also
// recorded as indicators. The equations are implemented exactly as printed in
// the appendix. Definitions: docs/problems.md.
#pragma once
#include "problems/model_problem.hpp"
#include "problems/problem_options.hpp"

namespace rescue::problems {

class Healthcare final : public ModelProblem {
 public:
  explicit Healthcare(const ProblemOptions& options = {});

  struct Values {
    double statin, cancer, psa;
  };
  /// The noise-free structural equations at (BMI, Aspirin, S), without validation.
  static Values equations(double bmi, double aspirin, double s);

 private:
  Evaluation model(const double* x, double s) const override;
  std::vector<std::pair<std::string, std::string>> model_edges() const override;
  void add_noise(Evaluation& e, Rng& rng) const override;
  double statin_sd_, cancer_sd_, psa_sd_;
};

}  // namespace rescue::problems
