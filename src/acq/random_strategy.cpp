#include "acq/random_strategy.hpp"

namespace rescue::acq {

std::optional<Suggestion> RandomStrategy::suggest(const EngineView& view, Rng& rng) {
  Suggestion out;
  out.x = sample_configuration(view.spec, rng);
  if (!sample_fidelity(view.spec, out.x.data(), law_, view.max_cost, rng, &out.s)) return std::nullopt;
  return out;
}

}  // namespace rescue::acq
