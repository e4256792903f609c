#include "problems/branin_currin.hpp"

#include <cmath>

namespace rescue::problems {

BraninCurrin::BraninCurrin(const ProblemOptions& options)
    // The misleading region (1, 1) is poor in both objectives at s = 1; the
    // scales are about the objectives' ranges there.
    : ModelProblem("branin-currin", {1.0, 1.0}, {14.0, 0.7}),
      noise_sd_(options.synthetic_noise ? options.synthetic_noise_sd : 0.0) {
  options.validate();
  spec_.add_option("x1", 0.0, 1.0, OptionKind::Continuous);
  spec_.add_option("x2", 0.0, 1.0, OptionKind::Continuous);
  spec_.set_fidelity_range(0.0, 1.0, 1.0);
  spec_.set_cost_exponential(4.8);
  spec_.add_objective("f1", Sense::Maximize);
  spec_.add_objective("f2", Sense::Maximize);
  spec_.set_reference_point({0.0, 0.0});
}

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

Evaluation BraninCurrin::model(const double* x, double s) const {
  Evaluation e;
  e.y.resize(2);
  objectives(x[0], x[1], s, e.y[0], e.y[1]);
  return e;
}

void BraninCurrin::add_noise(Evaluation& e, Rng& rng) const {
  if (noise_sd_ == 0.0) return;
  for (double& y : e.y) y += noise_sd_ * rng.normal();
}

std::vector<std::pair<std::string, std::string>> BraninCurrin::model_edges() const {
  // f2 ignores x2 at the target only (the exponential's factor 1 - s).
  Edges e;
  add_parents(e, "f1", {"x1", "x2", "fidelity"});
  add_parents(e, "f2", {"x1", "x2", "fidelity"});
  return e;
}

}  // namespace rescue::problems
