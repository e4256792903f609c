// Computes a problem's maximum hypervolume at the target fidelity (the value
// regret is measured against): the supremum of the hypervolume over feasible
// configurations, i.e. the hypervolume of the true Pareto front.
//
// The search varies the options the problem does not hold fixed
// (BenchmarkProblem::target_fixed_options()); d below counts those.
// Method: for d <= 2 a dense grid over the option box; otherwise (optionally a
// shifted Sobol sample of the box, then) several long NSGA-II runs on the
// noise-free target function (feasible points only), every
// evaluation entering a non-dominated archive. Then, for every problem, NSGA-II
// seeded with the archive's non-dominated points, and levels of local
// refinement: around each non-dominated configuration, uniform samples in a
// box that shrinks level by level, so the archive's front becomes dense. The
// value is the archive's hypervolume; the precision estimate is the gain of the
// last refinement level extrapolated geometrically (the remaining gain if
// every later level gained in the same ratio). The whole search is repeated
// with several seeds and the union of the fronts taken; the precision estimate
// is the larger of the extrapolated gain and the shortfall of the worst single
// search against the union.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "problems/benchmark_problem.hpp"

namespace rescue::bench {

struct MaxHvOptions {
  int grid = 2049;                 ///< grid points per option (d <= 2)
  int uniform_samples = 0;         ///< shifted Sobol points evaluated before the NSGA-II runs (d > 2)
  int nsga_runs = 4;               ///< independent NSGA-II runs (d > 2)
  int population = 200;
  int generations = 500;
  int seeded_generations = 200;    ///< NSGA-II generations seeded with the archive
  int refine_levels = 8;
  int refine_samples = 8;          ///< samples per non-dominated point and level
  double refine_shrink = 4.0;      ///< box half-width divided by this at each level
  std::size_t refine_max_points = 20000;  ///< refine at most this many (evenly spaced) members per level
  int repeats = 3;                 ///< independent searches (seeds seed, seed + 1, ...), their union taken
  std::uint64_t seed = 1;
  /// Configurations the first search evaluates before its global stage (the
  /// target evaluations of benchmark runs), so that its seeded NSGA-II and
  /// refinement start from them too.
  std::vector<std::vector<double>> start_points;

  /// Cheap settings for a quick check (a lower bound of the full computation).
  static MaxHvOptions quick();
  /// Settings for a problem whose evaluations train a model (tenths of a
  /// second each, not microseconds): about 12,000 evaluations.
  static MaxHvOptions real_training();
};

struct MaxHvResult {
  double value = 0.0;
  double precision = 0.0;  ///< estimated absolute error
  std::string method;      ///< a one-line description
  std::int64_t evaluations = 0;
  std::vector<double> stage_values;  ///< hypervolume after each stage
  std::size_t front_size = 0;
};

/// Requires a two-objective problem. `log` (may be empty) receives progress lines.
MaxHvResult compute_max_hypervolume(const problems::BenchmarkProblem& problem, const MaxHvOptions& options,
                                    const std::function<void(const std::string&)>& log = {});

}  // namespace rescue::bench
