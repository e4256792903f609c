#include "problems/synthetic_problem.hpp"

namespace rescue::problems {

SyntheticProblem::SyntheticProblem(std::string name, int dim, Objectives objectives, std::vector<double> wrong_unit,
                                   std::vector<double> bias_scale, const ProblemOptions& options)
    : ModelProblem(std::move(name), std::move(wrong_unit), std::move(bias_scale)),
      objectives_(objectives),
      noise_sd_(options.synthetic_noise ? options.synthetic_noise_sd : 0.0) {
  options.validate();
  for (int i = 1; i <= dim; ++i) spec_.add_option("x" + std::to_string(i), 0.0, 1.0, OptionKind::Continuous);
  spec_.set_fidelity_range(0.0, 1.0, 1.0);
  spec_.set_cost_exponential(4.8);
  spec_.add_objective("f1", Sense::Maximize);
  spec_.add_objective("f2", Sense::Maximize);
  spec_.set_reference_point({0.0, 0.0});
}

Evaluation SyntheticProblem::model(const double* x, double s) const {
  Evaluation e;
  e.y.resize(2);
  objectives_(x, s, e.y[0], e.y[1]);
  return e;
}

void SyntheticProblem::add_noise(Evaluation& e, Rng& rng) const {
  if (noise_sd_ == 0.0) return;
  for (double& y : e.y) y += noise_sd_ * rng.normal();
}

std::vector<std::pair<std::string, std::string>> SyntheticProblem::model_edges() const {
  // Every objective keeps every option as a parent, even where it ignores one
  // at the target only (Branin-Currin's f2 and x2, through the factor 1 - s).
  std::vector<std::string> causes;
  for (const auto& o : spec_.options()) causes.push_back(o.name);
  causes.push_back("fidelity");
  Edges e;
  add_parents(e, "f1", causes);
  add_parents(e, "f2", causes);
  return e;
}

}  // namespace rescue::problems
