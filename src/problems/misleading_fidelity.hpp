// Cheap fidelities that mislead, for tests of robustness to simulators that
// point the wrong way. Every variant leaves the target fidelity (the top of the
// range, the target of every built-in problem) exactly as it was; below it:
//
// Biases: objective m is shifted in its improving direction (up if maximized,
// down if minimized) by  strength * profile(u(s)) * scale[m] * h(x),  with
// h(x) = (1 - mean_i |u_i(x) - w_i|)^2 in [0, 1], u(x) the options mapped to
// [0, 1] and w a region that is poor at the target. h increases towards w
// along every option, so cheap evaluations pull towards w; the square
// concentrates the pull so that w beats typical points, not just its
// neighbours. With u = unit(s), the profile is
//   adversarial: 1 - u   (largest at the cheapest fidelity, fading to the target)
//   jump:        1       (every cheap fidelity agrees, the target jumps away)
//   growing:     u       (truthful at the cheapest, most wrong just below the target)
// Input maps: the problem's own model is evaluated at fidelity s at another
// configuration x', so the optimum moves and indicators and constraint
// metrics move with it:
//   reflected:   u_i(x') = 1 - u_i(x)  (every option reflected in its bounds)
//   unrelated:   u_i(x') = T(T(u_{i+1 mod d}(x))), T(v) = 1 - |2v - 1| (the tent
//                map, twice: four folds per option, the options rotated)
// Integer options of x' are snapped. Biased values may leave their physical
// range (a negative robot time at the cheapest level): these are stress tests.
#pragma once
#include <string>
#include <vector>

#include "core/problem_spec.hpp"

namespace rescue::problems {

enum class Misleading { None, Adversarial, Jump, Growing, Reflected, Unrelated };

/// The name suffixes ("-adversarial", ...), one per kind but None, in the enum's order.
const std::vector<std::string>& misleading_suffixes();
/// The kind a problem name's suffix selects (None if it has none) and the name without it.
Misleading misleading_kind(const std::string& name, std::string* base);

struct MisleadingFidelity {
  Misleading kind = Misleading::None;
  double strength = 0.0;           // of the biases
  std::vector<double> wrong_unit;  // w, one value in [0, 1] per option
  std::vector<double> scale;       // one per objective, about its range at the target

  bool maps_input() const { return kind == Misleading::Reflected || kind == Misleading::Unrelated; }
  bool biases() const { return strength > 0.0 && !maps_input() && kind != Misleading::None; }
  /// h(x) in [0, 1], 1 at the wrong region.
  double pull(const ProblemSpec& spec, const double* x) const;
  /// The configuration the model is evaluated at (x itself at the target or without an input map).
  std::vector<double> model_input(const ProblemSpec& spec, const double* x, double s) const;
  /// Adds the bias to the objective values y (in the objectives' own sense).
  void apply(const ProblemSpec& spec, const double* x, double s, std::vector<double>& y) const;
  /// The option the model's input i takes below the target (i itself but for `unrelated`).
  int source_option(int i, int d) const;
};

}  // namespace rescue::problems
