#include "problems/park.hpp"

#include <cmath>

namespace rescue::problems {

Park::Park(const ProblemOptions& options)
    // The misleading region (1, 1, 0, 0) is poor in both objectives at s = 1;
    // both objectives span about 1 there, and the scales are 1.5 times that so
    // that the region beats the centre of the box at s = 0.
    : ModelProblem("park", {1.0, 1.0, 0.0, 0.0}, {1.5, 1.5}),
      noise_sd_(options.synthetic_noise ? options.synthetic_noise_sd : 0.0) {
  options.validate();
  for (const char* n : {"x1", "x2", "x3", "x4"}) spec_.add_option(n, 0.0, 1.0, OptionKind::Continuous);
  spec_.set_fidelity_range(0.0, 1.0, 1.0);
  spec_.set_cost_exponential(4.8);
  spec_.add_objective("f1", Sense::Maximize);
  spec_.add_objective("f2", Sense::Maximize);
  spec_.set_reference_point({0.0, 0.0});
}

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

Evaluation Park::model(const double* x, double s) const {
  Evaluation e;
  e.y.resize(2);
  objectives(x, s, e.y[0], e.y[1]);
  return e;
}

void Park::add_noise(Evaluation& e, Rng& rng) const {
  if (noise_sd_ == 0.0) return;
  for (double& y : e.y) y += noise_sd_ * rng.normal();
}

std::vector<std::pair<std::string, std::string>> Park::model_edges() const {
  Edges e;
  add_parents(e, "f1", {"x1", "x2", "x3", "x4", "fidelity"});
  add_parents(e, "f2", {"x1", "x2", "x3", "x4", "fidelity"});
  return e;
}

}  // namespace rescue::problems
