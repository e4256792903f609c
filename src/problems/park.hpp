// Multi-fidelity Park (Irshad et al. 2021; BoTorch's MOMF test function): four
// options in [0, 1], fidelity s in [0, 1] with target 1, two maximized
// objectives, reference point (0, 0). Definitions: docs/problems.md.
#pragma once
#include "problems/problem_options.hpp"
#include "problems/synthetic_problem.hpp"

namespace rescue::problems {

class Park final : public SyntheticProblem {
 public:
  explicit Park(const ProblemOptions& options = {});
  /// The noise-free objectives (f1, f2) at (x, s), x four values, without validation.
  static void objectives(const double* x, double s, double& f1, double& f2);
};

}  // namespace rescue::problems
