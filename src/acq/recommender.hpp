// The recommendation at the target fidelity (paper, Algorithm 1, last line):
// NSGA-II on the GP posterior mean at the target fidelity, restricted to
// configurations predicted feasible (each constraint holding with probability
// at least recommend.feasibility; at its default 0.5, the posterior mean
// satisfies every constraint), then Pareto-filtered. The
// same recommender serves every strategy, so that strategies differ only in
// what they choose to evaluate (the experiment protocol).
#pragma once
#include <optional>
#include <vector>

#include "acq/strategy.hpp"
#include "acq/surrogate.hpp"

namespace rescue::acq {

struct RecommenderOptions {
  int population = 0;
  int generations = 0;
  int max_points = 0;  // the recommended set is thinned to this many by greedy hypervolume
  /// Probability with which the model must expect each constraint of a
  /// recommended configuration to hold; at 0.5 its posterior mean satisfies it.
  double feasibility = 0.5;

  /// From the problem's parameters recommend.population, recommend.generations,
  /// recommend.points and recommend.feasibility. A larger set covers a
  /// continuous front more closely (its hypervolume approaches the front's), at
  /// a proportional cost. A feasibility outside (0, 1), which only a
  /// hand-edited checkpoint can hold, is an OutOfRange error.
  static RecommenderOptions from(const ProblemSpec& spec);
};

/// NSGA-II over the posterior mean, constrained as options.feasibility asks;
/// seeded with the observed configurations. The set is empty when no
/// configuration found meets the constraints.
/// Returns nullopt when the model is not ready.
std::optional<ParetoSet> recommend_from_model(const ProblemSpec& spec, const Surrogate& model,
                                              const std::vector<Observation>& observations, Rng& rng,
                                              const RecommenderOptions& options);

}  // namespace rescue::acq
