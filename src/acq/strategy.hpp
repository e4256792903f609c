// The interface between the engine and the strategies that choose what to
// evaluate next. A strategy sees the problem and the data (read-only) and the
// engine's random generator; it owns whatever model state it keeps, and can
// save and restore that state for checkpoints.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/observation.hpp"
#include "core/problem_spec.hpp"
#include "acq/causal_prior.hpp"
#include "acq/surrogate.hpp"
#include "util/rng.hpp"

namespace rescue::acq {

/// A suggestion waiting for its result.
struct PendingTicket {
  std::int64_t ticket = 0;
  std::vector<double> x;
  double s = 1.0;
  double cost = 0.0;
};

/// What a strategy may read when it decides.
struct EngineView {
  const ProblemSpec& spec;
  const std::vector<Observation>& observations;
  const std::vector<PendingTicket>& pending;
  const std::vector<std::vector<double>>& observational;  // rows: options, fidelity, indicators, objectives, constraints
  double spent;       // cost of reported evaluations
  double max_cost;    // the most the next evaluation may cost (budget left, or +inf)
};

struct Suggestion {
  std::vector<double> x;  // user units, within bounds, integers integral
  double s = 1.0;
};

/// A recommended Pareto set at the target fidelity, in user units and sense.
struct ParetoSet {
  std::vector<std::vector<double>> x;
  std::vector<std::vector<double>> y;
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual std::string name() const = 0;
  /// The next (x, s) to evaluate, affordable within view.max_cost. Returning
  /// nullopt means nothing affordable is left.
  virtual std::optional<Suggestion> suggest(const EngineView& view, Rng& rng) = 0;
  /// The strategy's own model, if it has one; the engine's recommender then
  /// shares it instead of fitting a second one to the same data.
  virtual Surrogate* model() { return nullptr; }
  /// State beyond the data (e.g. a warm start); restored before the next call.
  virtual nlohmann::json save_state() const { return nlohmann::json::object(); }
  virtual void load_state(const nlohmann::json& state, const EngineView& view) {}
  /// The causal prior, for strategies that learn one (for the C ABI's graph and
  /// estimates); learned from the current data if the strategy has none yet,
  /// without changing what the strategy will suggest. nullptr if there is none.
  virtual CausalPrior* causal(const EngineView& view) { return nullptr; }
};

/// Builds a strategy by name (one of strategy_names()); throws UnknownName otherwise.
std::unique_ptr<Strategy> make_strategy(const std::string& name, const ProblemSpec& spec);

}  // namespace rescue::acq
