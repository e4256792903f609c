// The maximum hypervolume of each built-in problem at its target fidelity,
// with the problem's own reference point: the value regret is measured
// against. Every value was computed by the project (`rescue-bench
// --check-max-hv` recomputes and compares them); published maxima are not used,
// since for the multi-fidelity problems they are not the optima at the target.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rescue::problems {

struct MaxHypervolume {
  std::string problem;     ///< base problem name
  double value;            ///< maximum hypervolume at the target fidelity
  double precision;        ///< estimated absolute error of value (value is a lower bound)
  std::string method;      ///< how it was computed
  std::int64_t evaluations;  ///< noise-free target evaluations spent
};

/// All stored maxima, one per base problem.
const std::vector<MaxHypervolume>& max_hypervolumes();

/// The stored maximum for a problem name; a misleading variant ("-adversarial",
/// "-jump", ...) shares its base problem's value (each leaves the target as it is). The values
/// hold for the default problem parameters (healthcare: Cancer <= 0.35).
/// Throws Error(UnknownName) for a name without a stored value.
const MaxHypervolume& max_hypervolume(const std::string& name);

}  // namespace rescue::problems
