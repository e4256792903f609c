#include "problems/model_problem.hpp"

#include <algorithm>
#include <cmath>

#include "util/error.hpp"
#include "util/text.hpp"

namespace rescue::problems {

ModelProblem::ModelProblem(std::string name, std::vector<double> wrong_unit, std::vector<double> bias_scale)
    : base_name_(name), name_(std::move(name)) {
  misleading_.wrong_unit = std::move(wrong_unit);
  misleading_.scale = std::move(bias_scale);
}

void ModelProblem::set_misleading(Misleading kind, double strength) {
  if (!std::isfinite(strength) || strength < 0.0)
    fail(Status::InvalidArgument, "adversarial bias strength must be finite and >= 0");
  misleading_.kind = kind;
  misleading_.strength = strength;
  const bool active = misleading_.maps_input() || misleading_.biases();
  name_ = active ? base_name_ + misleading_suffixes()[static_cast<std::size_t>(kind) - 1] : base_name_;
}

void ModelProblem::add_parents(Edges& edges, const std::string& effect, const std::vector<std::string>& causes) {
  for (const auto& c : causes) edges.emplace_back(c, effect);
}

std::vector<std::pair<std::string, std::string>> ModelProblem::causal_edges() const {
  Edges edges = model_edges();
  auto add = [&edges](const std::string& from, const std::string& to) {
    if (std::find(edges.begin(), edges.end(), std::make_pair(from, to)) == edges.end()) edges.emplace_back(from, to);
  };
  const auto& options = spec_.options();
  if (misleading_.biases()) {
    // The bias depends on every option and on the fidelity.
    for (const auto& obj : spec_.objectives()) {
      add("fidelity", obj.name);
      for (const auto& o : options) add(o.name, obj.name);
    }
  } else if (misleading_.maps_input()) {
    // Below the target, the model's input i is fed by option source_option(i).
    const int d = spec_.dim();
    const Edges own = model_edges();
    for (const auto& [from, to] : own) {
      for (int i = 0; i < d; ++i) {
        if (options[static_cast<std::size_t>(i)].name != from) continue;
        add(options[static_cast<std::size_t>(misleading_.source_option(i, d))].name, to);
        add("fidelity", to);
      }
    }
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
  Evaluation e = misleading_.maps_input() ? model(misleading_.model_input(spec_, x, s).data(), s) : model(x, s);
  misleading_.apply(spec_, x, s, e.y);
  return e;
}

Evaluation ModelProblem::evaluate_noisy(const double* x, double s, Rng& rng) const {
  Evaluation e = evaluate(x, s);
  add_noise(e, rng);
  return e;
}

std::vector<double> ModelProblem::sample_observational(Rng& rng) const { return sample_uniform_row(*this, rng); }

}  // namespace rescue::problems
