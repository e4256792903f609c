#include "problems/branin_currin.hpp"

#include <cmath>

namespace rescue::problems {

BraninCurrin::BraninCurrin(const ProblemOptions& options)
    // The misleading region (1, 1) is poor in both objectives at s = 1; the
    // scales are about the objectives' ranges there.
    : SyntheticProblem(
          "branin-currin", 2,
          [](const double* x, double s, double& f1, double& f2) { objectives(x[0], x[1], s, f1, f2); },
          {1.0, 1.0}, {14.0, 0.7}, options) {}

void BraninCurrin::objectives(double x1, double x2, double s, double& f1, double& f2) {
  const double pi = M_PI;
  const double u = 15.0 * x1 - 5.0, v = 15.0 * x2;
  const double b = 5.1 / (4.0 * pi * pi) - 0.01 * (1.0 - s);
  const double c = 5.0 / pi - 0.1 * (1.0 - s);
  const double r = 6.0;
  const double t = 1.0 / (8.0 * pi) + 0.05 * (1.0 - s);
  const double q = v - b * u * u + c * u - r;
  const double yB = q * q + 10.0 * (1.0 - t) * std::cos(u) + 10.0;
  const double A = ((2300.0 * x1 + 1900.0) * x1 + 2092.0) * x1 + 60.0;
  const double B = ((100.0 * x1 + 500.0) * x1 + 4.0) * x1 + 20.0;
  // exp(-1 / (2 x2)) tends to 0 as x2 -> 0+, which defines it at x2 = 0.
  const double e = x2 > 0.0 ? std::exp(-1.0 / (2.0 * x2)) : 0.0;
  const double yC = (1.0 - 0.1 * (1.0 - s) * e) * A / B;
  f1 = (21.0 - yB) / 22.0;
  f2 = (14.0 - yC) / 15.0;
}

}  // namespace rescue::problems
