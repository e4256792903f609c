#include "problems/park.hpp"

#include <cmath>

namespace rescue::problems {

Park::Park(const ProblemOptions& options)
    // The misleading region (1, 1, 0, 0) is poor in both objectives at s = 1;
    // both objectives span about 1 there, and the scales are 1.5 times that so
    // that the region beats the centre of the box at s = 0.
    : SyntheticProblem("park", 4, &Park::objectives, {1.0, 1.0, 0.0, 0.0}, {1.5, 1.5}, options) {}

void Park::objectives(const double* x, double s, double& f1, double& f2) {
  const double z1 = 1.0 - 2.0 * (x[0] - 0.6) * (x[0] - 0.6);
  const double z2 = x[1];
  const double z3 = 1.0 - 3.0 * (x[2] - 0.5) * (x[2] - 0.5);
  const double z4 = 1.0 - (x[3] - 0.8) * (x[3] - 0.8);
  const double A = 0.9 + 0.1 * s;
  const double B = 0.1 * (1.0 - s);
  const double T1 = (z1 + 0.001 * (1.0 - s)) / 2.0 * std::sqrt(1.0 + (z2 + z3 * z3) * z4 / (z1 * z1 + 1e-4));
  const double T2 = (z1 + 3.0 * z4) * std::exp(1.0 + std::sin(z3));
  f1 = A * (T1 + T2 - B) / 22.0 - 0.8;
  f2 = A * (5.0 - (2.0 / 3.0) * std::exp(z1 + z2) + z4 * std::sin(z3) * A - z3 + B) / 4.0 - 0.7;
}

}  // namespace rescue::problems
