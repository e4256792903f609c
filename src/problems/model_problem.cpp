#include "problems/model_problem.hpp"

#include <algorithm>
#include <cmath>

#include "core/sampling.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace rescue::problems {

ModelProblem::ModelProblem(std::string name, std::vector<double> wrong_unit, std::vector<double> bias_scale)
    : base_name_(name), name_(std::move(name)) {
  bias_.wrong_unit = std::move(wrong_unit);
  bias_.scale = std::move(bias_scale);
}

void ModelProblem::set_adversarial(double strength) {
  if (!std::isfinite(strength) || strength < 0.0)
    fail(Status::InvalidArgument, "adversarial bias strength must be finite and >= 0");
  bias_.strength = strength;
  name_ = strength > 0.0 ? base_name_ + "-adversarial" : base_name_;
}

void ModelProblem::add_parents(Edges& edges, const std::string& effect, const std::vector<std::string>& causes) {
  for (const auto& c : causes) edges.emplace_back(c, effect);
}

std::vector<std::pair<std::string, std::string>> ModelProblem::causal_edges() const {
  Edges edges = model_edges();
  if (bias_.strength > 0.0) {
    // The bias depends on every option and on the fidelity (adversarial_bias.hpp).
    std::vector<std::string> causes{"fidelity"};
    for (const auto& o : spec_.options()) causes.push_back(o.name);
    for (const auto& obj : spec_.objectives())
      for (const auto& c : causes)
        if (std::find(edges.begin(), edges.end(), std::make_pair(c, obj.name)) == edges.end())
          edges.emplace_back(c, obj.name);
  }
  return edges;
}

Evaluation ModelProblem::evaluate(const double* x, double s) const {
  if (!x) fail(Status::NullPointer, "problem '" + name_ + "': configuration pointer is NULL");
  spec_.check_config(x);
  if (!spec_.fidelity().valid(s)) {
    std::string why = "problem '" + name_ + "': fidelity " + fmt17(s) + " is not valid (";
    const FidelitySpec& f = spec_.fidelity();
    if (f.discrete) {
      why += "levels:";
      for (double l : f.levels) why += " " + fmt17(l);
    } else {
      why += "range [" + fmt17(f.lower) + ", " + fmt17(f.upper) + "]";
    }
    fail(Status::OutOfRange, why + ")");
  }
  Evaluation e = model(x, s);
  bias_.apply(spec_, x, s, e.y);
  return e;
}

Evaluation ModelProblem::evaluate_noisy(const double* x, double s, Rng& rng) const {
  Evaluation e = evaluate(x, s);
  add_noise(e, rng);
  return e;
}

std::vector<double> ModelProblem::sample_observational(Rng& rng) const {
  // The inputs: options uniform on their bounds (integers uniform among the
  // integers), fidelity uniform on its range or among its levels.
  const int d = spec_.dim();
  std::vector<double> row = sample_configuration(spec_, rng);
  const FidelitySpec& f = spec_.fidelity();
  const double s = f.discrete ? f.levels[rng.below(f.levels.size())] : rng.uniform(f.lower, f.upper);
  const Evaluation e = evaluate_noisy(row.data(), s, rng);
  row.reserve(d + 1 + e.z.size() + e.y.size() + e.g.size());
  row.push_back(s);
  row.insert(row.end(), e.z.begin(), e.z.end());
  row.insert(row.end(), e.y.begin(), e.y.end());
  row.insert(row.end(), e.g.begin(), e.g.end());
  return row;
}

}  // namespace rescue::problems
