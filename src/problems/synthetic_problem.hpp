// What Branin-Currin and Park (BoTorch's MOMF test functions) share: options
// x1..xd in [0, 1], fidelity s in [0, 1] with target 1 and cost exp(4.8 s),
// two maximized objectives f1 and f2 with reference point (0, 0), each
// depending on every option and the fidelity, and, with synthetic_noise,
// independent N(0, synthetic_noise_sd^2) noise on each objective.
#pragma once
#include <string>
#include <vector>

#include "problems/model_problem.hpp"
#include "problems/problem_options.hpp"

namespace rescue::problems {

class SyntheticProblem : public ModelProblem {
 protected:
  /// The noise-free objectives (f1, f2) at (x, s), without validation.
  using Objectives = void (*)(const double* x, double s, double& f1, double& f2);
  SyntheticProblem(std::string name, int dim, Objectives objectives, std::vector<double> wrong_unit,
                   std::vector<double> bias_scale, const ProblemOptions& options);

 private:
  Evaluation model(const double* x, double s) const override;
  std::vector<std::pair<std::string, std::string>> model_edges() const override;
  void add_noise(Evaluation& e, Rng& rng) const override;
  Objectives objectives_;
  double noise_sd_;
};

}  // namespace rescue::problems
