// Branin-Currin with a categorical option (docs/problems.md): `copy` selects
// one of four copies of the multi-fidelity Branin-Currin, one of them the
// original. Copy k evaluates the original at its options shifted by a fixed
// offset (wrapped into [0, 1]) and lowers both maximized objectives by
// kCopyPenalty * (its rank); so every value of a copy is dominated by the
// original's at the shifted point, and the problem's maximum hypervolume is
// Branin-Currin's.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "problems/problem_options.hpp"
#include "problems/synthetic_problem.hpp"

namespace rescue::problems {

class BraninCurrinMixed final : public SyntheticProblem {
 public:
  explicit BraninCurrinMixed(const ProblemOptions& options = {});
  /// The levels of `copy`, in order; "original" is the unshifted function.
  static const std::vector<std::string>& copies();
  /// Level index of the original.
  static constexpr int kOriginal = 1;
  /// What each copy subtracts from both objectives, per unit of its rank.
  static constexpr double kCopyPenalty = 0.1;
  /// The options (x1, x2) at which copy `level` evaluates the original at (x1, x2).
  static std::array<double, 2> shifted(int level, double x1, double x2);
  /// The noise-free objectives at (x1, x2, copy, s), without validation.
  static void objectives(const double* x, double s, double& f1, double& f2);
};

}  // namespace rescue::problems
