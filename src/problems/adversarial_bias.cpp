#include "problems/adversarial_bias.hpp"

#include <cmath>

namespace rescue::problems {

double AdversarialBias::pull(const ProblemSpec& spec, const double* x) const {
  const int d = spec.dim();
  std::vector<double> u(d);
  spec.to_unit(x, u.data());
  double dist = 0.0;
  for (int i = 0; i < d; ++i) dist += std::fabs(u[i] - wrong_unit[i]);
  const double closeness = 1.0 - dist / d;
  return closeness * closeness;
}

void AdversarialBias::apply(const ProblemSpec& spec, const double* x, double s, std::vector<double>& y) const {
  if (strength == 0.0) return;
  const FidelitySpec& f = spec.fidelity();
  // unit(s) is 1 at the top of the range, which is the target of every built-in problem.
  const double weight = strength * (1.0 - f.unit(s));
  if (weight == 0.0) return;
  const double h = pull(spec, x);
  for (std::size_t m = 0; m < y.size(); ++m) {
    const double step = weight * scale[m] * h;
    y[m] += spec.objectives()[m].sense == Sense::Maximize ? step : -step;
  }
}

}  // namespace rescue::problems
