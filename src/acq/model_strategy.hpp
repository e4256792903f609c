// Common ground of the model-based strategies: the GP is refit when the data
// changed, and while it cannot be fitted yet (fewer than two successful
// observations, or a numerical failure) the suggestion falls back to the
// cost-aware sampling of the initial design, so the loop never stalls.
#pragma once
#include "acq/strategy.hpp"
#include "acq/surrogate.hpp"
#include "core/sampling.hpp"

namespace rescue::acq {

class ModelStrategy : public Strategy {
 public:
  explicit ModelStrategy(const ProblemSpec& spec, gp::GpOptions options = {}) : spec_(spec), model_(spec_, options) {}
  std::optional<Suggestion> suggest(const EngineView& view, Rng& rng) final;
  Surrogate* model() override { return &model_; }
  nlohmann::json save_state() const override { return {{"model", model_.save()}}; }
  void load_state(const nlohmann::json& state, const EngineView& view) override;

 protected:
  /// Called before the model is refreshed (e.g. to relearn its prior).
  virtual void before_fit(const EngineView& view) {}
  /// Called with a fitted model; returns the next (x, s) within view.max_cost.
  virtual std::optional<Suggestion> propose(const EngineView& view, Rng& rng) = 0;
  /// Unit configuration -> configuration in user units.
  std::vector<double> to_user(const std::vector<double>& u) const;

  ProblemSpec spec_;  // a copy: the strategy outlives no engine, but keeps its own view
  Surrogate model_;
};

}  // namespace rescue::acq
