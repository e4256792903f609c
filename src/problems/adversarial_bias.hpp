// A deliberately misleading low-fidelity bias, used to test robustness to cheap
// sources that point the wrong way. At fidelity s it shifts objective m by
//   strength * (1 - unit(s)) * scale[m] * h(x)
// in the improving direction (up for maximized, down for minimized objectives),
// with h(x) = (1 - mean_i |u_i(x) - w_i|)^2 in [0, 1], u(x) the options mapped
// to [0, 1] and w a region that is poor at the target fidelity. h increases
// towards w along every option, so cheap evaluations pull towards w; the square
// concentrates the pull so that w beats typical points, not just its
// neighbours. The bias vanishes at the top of the fidelity range (the target of
// every built-in problem). Biased values may leave their physical range (e.g. a
// negative robot time at the cheapest level): the variant is a stress test.
#pragma once
#include <vector>

#include "core/problem_spec.hpp"

namespace rescue::problems {

struct AdversarialBias {
  double strength = 0.0;
  std::vector<double> wrong_unit;  // w, one value in [0, 1] per option
  std::vector<double> scale;       // one per objective, about its range at the target

  /// h(x) in [0, 1], 1 at the wrong region.
  double pull(const ProblemSpec& spec, const double* x) const;
  /// Adds the bias to the objective values y (in the objectives' own sense).
  void apply(const ProblemSpec& spec, const double* x, double s, std::vector<double>& y) const;
};

}  // namespace rescue::problems
