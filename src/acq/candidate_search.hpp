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

struct SearchOptions {
  int starts = 128;         // Sobol points in (configuration, fidelity)
  int refine = 3;           // best starts refined locally
  int refine_evals = 40;    // evaluations per refinement
  bool target_only = false; // search at the target fidelity only
  double max_cost = HUGE_VAL;  // skip (x, s) that cost more than this
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

/// Snaps a unit configuration to a valid one (integers rounded) and back to unit coordinates.
void snap_unit(const ProblemSpec& spec, double* u);

}  // namespace rescue::acq
