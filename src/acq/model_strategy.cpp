#include "acq/model_strategy.hpp"

namespace rescue::acq {

std::optional<Suggestion> ModelStrategy::suggest(const EngineView& view, Rng& rng) {
  spec_ = view.spec;  // e.g. a cost callback set again after loading
  before_fit(view);
  bool ready = false;
  try {
    ready = model_.refresh(view.observations, view.spec.seed());
  } catch (const Error& e) {
    if (e.status() != Status::Numerical) throw;
    ready = false;
  }
  if (ready) {
    if (auto s = propose(view, rng)) return s;
  }
  Suggestion fallback;
  fallback.x = sample_configuration(view.spec, rng);
  if (!sample_fidelity(view.spec, fallback.x.data(), FidelityLaw::InverseCost, view.max_cost, rng, &fallback.s))
    return std::nullopt;
  return fallback;
}

void ModelStrategy::load_state(const nlohmann::json& state, const EngineView& view) {
  if (!state.is_object()) fail(Status::CorruptCheckpoint, "strategy state is not an object");
  if (state.contains("model")) model_.load(state["model"], view.observations);
}

std::vector<double> ModelStrategy::to_user(const std::vector<double>& u) const {
  std::vector<double> x(spec_.dim());
  spec_.from_unit(u.data(), x.data());
  return x;
}

}  // namespace rescue::acq
