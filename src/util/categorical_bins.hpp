// The unit coordinate of a categorical option's levels: level k of L is the
// middle of the k-th of L equal bins of [0, 1], and every u in that bin is
// level k, so a uniform u draws every level with the same probability.
#pragma once

namespace rescue {

/// Unit coordinate of level k of L.
inline double categorical_unit(int k, int L) { return (k + 0.5) / L; }

/// The level of L whose bin holds u (u clipped to [0, 1]).
inline int categorical_level(double u, int L) {
  const double t = u * L;
  return t <= 0.0 ? 0 : (t >= L ? L - 1 : static_cast<int>(t));
}

}  // namespace rescue
