// Outer maximization of an acquisition over (configuration, fidelity): a Sobol
// pool of starts, then derivative-free local refinement (NLopt's BOBYQA) of the
// best few. Continuous fidelities are searched with the configuration;
// discrete levels are enumerated for every start. Integer options are snapped
// before every evaluation, so the acquisition only sees valid configurations.
#pragma once
#include <functional>
#include <vector>

#include "core/problem_spec.hpp"
#include "util/rng.hpp"

namespace rescue::acq {

/// Acquisition value at unit configuration u (d values, already snapped) and
/// fidelity s (user units). Return -infinity to exclude a point.
using AcquisitionFn = std::function<double(const double* u, double s)>;

/// search_options (strategy_options.hpp) fills it from the problem's parameters.
struct SearchOptions {
  int starts = 1;           // Sobol points in (configuration, fidelity)
  int refine = 0;           // best starts refined locally
  int refine_evals = 1;     // evaluations per refinement
  bool target_only = false; // search at the target fidelity only
  double max_cost = HUGE_VAL;  // skip (x, s) that cost more than this

  /// The same search, skipping what costs more than max_cost.
  SearchOptions within(double cost) const {
    SearchOptions o = *this;
    o.max_cost = cost;
    return o;
  }
};

struct SearchResult {
  std::vector<double> u;  // unit configuration (snapped)
  double s = 1.0;         // fidelity (user units)
  double value = -HUGE_VAL;
  int evaluations = 0;
};

/// Extra starts (unit configurations) may be given, e.g. the current
/// recommendation, so that local improvements of good points are tried.
SearchResult maximize_acquisition(const ProblemSpec& spec, const AcquisitionFn& f, Rng& rng,
                                  const SearchOptions& options,
                                  const std::vector<std::vector<double>>& extra_starts = {});

/// The outer objective from an estimated gain and the cost of (x, s): gain /
/// cost, as in the paper's C-HVKG, for a positive gain. The Monte Carlo
/// estimate of a gain can come out negative (the inner maximization is greedy
/// and the hypervolume of a set is not convex in its points), most often when
/// the model is confident and every true gain is tiny; divided by the cost,
/// such estimates would rank the most expensive candidates first. A
/// non-positive gain is multiplied by the cost instead: it ranks below every
/// positive one and, among non-positive ones, cheap candidates first.
/// Continuous and increasing in the gain at a fixed cost.
inline double cost_normalized_gain(double gain, double cost) { return gain > 0.0 ? gain / cost : gain * cost; }

/// Snaps a unit configuration to a valid one (integers rounded) and back to unit coordinates.
void snap_unit(const ProblemSpec& spec, double* u);

/// A random move of unit configuration u at scale `scale`, snapped: each numeric
/// option moves by N(0, scale^2) (clipped to [0, 1]); each categorical option
/// moves to another level, drawn uniformly, with probability min(1/2, 2 scale),
/// since a small step of its unit coordinate would rarely leave its level's bin.
void perturb_unit(const ProblemSpec& spec, double* u, double scale, Rng& rng);

}  // namespace rescue::acq
