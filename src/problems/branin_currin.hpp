// Multi-fidelity Branin-Currin (Irshad et al. 2021; BoTorch's MOMF test
// function): two options in [0, 1], fidelity s in [0, 1] with target 1, two
// maximized objectives, reference point (0, 0). Definitions: docs/problems.md.
#pragma once
#include "problems/problem_options.hpp"
#include "problems/synthetic_problem.hpp"

namespace rescue::problems {

class BraninCurrin final : public SyntheticProblem {
 public:
  explicit BraninCurrin(const ProblemOptions& options = {});
  /// The noise-free objectives (f1, f2) at (x1, x2, s), without validation.
  static void objectives(double x1, double x2, double s, double& f1, double& f2);
};

}  // namespace rescue::problems
