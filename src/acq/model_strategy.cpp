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
    std::optional<Suggestion> s;
    // The decision is taken on a model that differs from the fitted one in
    // two ways. Pending evaluations are believed at their predicted mean, so
    // that q outstanding suggestions are spread out. And with
    // gp.target_correlation, once the target has been evaluated, the target
    // link is a draw from its posterior rather than its mode: Thompson
    // sampling of the one hyperparameter that says whether the cheap
    // fidelities speak for the target. A one-step acquisition at the mode
    // values a cheap evaluation as if that relevance were known, and so
    // would never pay for the target evaluations that show it is not.
    const bool pending = !view.pending.empty(), draw = model_.draws_target_link();
    if (!pending && !draw) {
      s = propose(view, rng);
    } else {
      Surrogate fitted = model_;
      try {
        if (pending) {
          Eigen::MatrixXd Zp(static_cast<Eigen::Index>(view.pending.size()), view.spec.dim() + 1);
          std::vector<double> u(view.spec.dim());
          for (std::size_t i = 0; i < view.pending.size(); ++i) {
            view.spec.to_unit(view.pending[i].x.data(), u.data());
            for (int j = 0; j < view.spec.dim(); ++j) Zp(static_cast<Eigen::Index>(i), j) = u[j];
            Zp(static_cast<Eigen::Index>(i), view.spec.dim()) = view.spec.fidelity().unit(view.pending[i].s);
          }
          model_ = model_.believing(Zp);
        }
        model_.draw_target_link(rng);
        s = propose(view, rng);
      } catch (...) {
        model_ = std::move(fitted);
        throw;
      }
      model_ = std::move(fitted);
    }
    if (s) return s;
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
