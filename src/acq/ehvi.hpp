// Expected hypervolume improvement strategies.
//
// ehvi: single-fidelity EHVI at the target fidelity only (the "SFBO"
//   comparator of the paper's theory). The front is the posterior mean at the
//   target of the configurations observed so far that are predicted feasible;
//   the improvement is exact for two objectives and Monte Carlo (fixed base
//   samples, acq.mc_samples) otherwise; it is weighted by the
//   probability of feasibility at the target.
// momf: the MOMF baseline (Irshad et al. 2021): the fidelity is one more
//   objective to maximize, traded against the others; the acquisition is the
//   Monte Carlo EHVI over the augmented objectives (front: the posterior mean
//   of every observation at its own fidelity, augmented with its fidelity;
//   reference 0 for the fidelity objective), weighted by the probability of
//   feasibility at (x, s), divided by cost(x, s) as in BoTorch's MOMF.
#pragma once
#include "acq/model_strategy.hpp"
#include "acq/strategy_options.hpp"

namespace rescue::acq {

class Ehvi : public ModelStrategy {
 public:
  explicit Ehvi(const ProblemSpec& spec) : ModelStrategy(spec), options_(EhviOptions::from(spec_)) {}
  std::string name() const override { return "ehvi"; }

 protected:
  std::optional<Suggestion> propose(const EngineView& view, Rng& rng) override;

 private:
  EhviOptions options_;
};

class Momf : public ModelStrategy {
 public:
  explicit Momf(const ProblemSpec& spec) : ModelStrategy(spec), options_(EhviOptions::from(spec_)) {}
  std::string name() const override { return "momf"; }

 protected:
  std::optional<Suggestion> propose(const EngineView& view, Rng& rng) override;

 private:
  EhviOptions options_;
};

}  // namespace rescue::acq
