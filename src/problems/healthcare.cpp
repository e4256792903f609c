#include "problems/healthcare.hpp"

#include <cmath>

namespace rescue::problems {
namespace {

double sigmoid(double u) { return 1.0 / (1.0 + std::exp(-u)); }
constexpr double kAge = 65.0;

}  // namespace

Healthcare::Healthcare(const ProblemOptions& options)
    // The misleading region (BMI 25, Aspirin 1) is dominated at S = 1 (aspirin
    // only raises PSA) and close to the Cancer threshold; the scales are about
    // the ranges of Statin and PSA there.
    : ModelProblem("healthcare", {0.5, 1.0}, {0.3, 10.0}),
      statin_sd_(options.statin_sd),
      cancer_sd_(options.cancer_sd),
      psa_sd_(options.psa_sd) {
  options.validate();
  spec_.add_option("BMI", 20.0, 30.0, OptionKind::Continuous);
  spec_.add_option("Aspirin", 0.0, 1.0, OptionKind::Continuous);
  spec_.set_fidelity_range(0.0, 1.0, 1.0);
  spec_.set_cost_exponential(4.8);
  // No separate indicators: Statin and Cancer, the mediators of the original
  // model, are already measured as an objective and the constraint metric, and a
  // second, nearly identical measurement of each would make them separate the
  // options from each other in conditional-independence tests (a faithfulness
  // violation that hides every option's effect).
  spec_.add_objective("Statin", Sense::Minimize);
  spec_.add_objective("PSA", Sense::Minimize);
  spec_.add_constraint("Cancer", options.cancer_threshold, ConstraintSense::LessEqual);
  spec_.set_reference_point({0.5, 5.0});
}

Healthcare::Values Healthcare::equations(double bmi, double aspirin, double s) {
  Values v;
  v.statin = sigmoid(s * (-13.0 + 0.1 * kAge + 0.2 * bmi));
  v.cancer = sigmoid(s * (2.2 - 0.05 * kAge + 0.01 * bmi - 0.04 * v.statin + 0.2 * aspirin));
  v.psa = (s + 6.8) * (0.04 * kAge - 0.15 * bmi + 0.6 * v.statin + 0.55 * aspirin + v.cancer);
  return v;
}

Evaluation Healthcare::model(const double* x, double s) const {
  const Values v = equations(x[0], x[1], s);
  Evaluation e;
  e.z = {};
  e.y = {v.statin, v.psa};
  e.g = {v.cancer};
  return e;
}

void Healthcare::add_noise(Evaluation& e, Rng& rng) const {
  e.y[0] += statin_sd_ * rng.normal();
  e.y[1] += psa_sd_ * rng.normal();
  e.g[0] += cancer_sd_ * rng.normal();
}

std::vector<std::pair<std::string, std::string>> Healthcare::model_edges() const {
  // Age is fixed at 65: a constant, not a variable.
  Edges e;
  add_parents(e, "Statin", {"BMI", "fidelity"});
  add_parents(e, "Cancer", {"BMI", "Aspirin", "Statin", "fidelity"});
  add_parents(e, "PSA", {"BMI", "Aspirin", "Statin", "Cancer", "fidelity"});
  return e;
}

}  // namespace rescue::problems
