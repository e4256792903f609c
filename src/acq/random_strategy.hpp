// Model-free strategies: "random" draws options and fidelity uniformly;
// "cost-aware-random" draws the fidelity with probability proportional to
// 1 / cost (the paper's Algorithm 2 used for the whole run). Both are the
// baselines every model-based strategy must beat.
#pragma once
#include "core/sampling.hpp"
#include "acq/strategy.hpp"

namespace rescue::acq {

class RandomStrategy final : public Strategy {
 public:
  RandomStrategy(std::string name, FidelityLaw law) : name_(std::move(name)), law_(law) {}
  std::string name() const override { return name_; }
  std::optional<Suggestion> suggest(const EngineView& view, Rng& rng) override;

 private:
  std::string name_;
  FidelityLaw law_;
};

}  // namespace rescue::acq
