// Greedy hypervolume subset selection: choose at most P points of a pool to
// add to a base set (possibly empty) so that the hypervolume is large. Used by
// the inner maximization of the hypervolume knowledge gradient.
//
// The hypervolume is monotone submodular in the chosen set, so a point's gain
// can only shrink as others are chosen: lazy greedy (Minoux 1978) keeps stale
// gains as upper bounds in a max-heap and recomputes only the top, returning
// exactly the classical greedy choice (within 1 - 1/e of the best subset) for
// a fraction of the gain evaluations. Each gain is one exclusive contribution
// against the base plus the chosen points (see hypervolume.hpp for its cost).
#pragma once
#include <cstddef>
#include <vector>

namespace rescue::moo {

struct GreedyHvResult {
  std::vector<std::size_t> indices;  ///< chosen pool indices, in the order chosen
  std::vector<double> gains;         ///< hypervolume added by each chosen point
  double hypervolume = 0.0;          ///< HV(base + chosen)
};

/// Chooses at most max_points of the n_pool pool points (m objectives,
/// minimized). Stops early when no remaining point adds hypervolume. Ties go
/// to the lowest pool index, so the result is deterministic.
GreedyHvResult greedy_hv_selection(const double* pool, std::size_t n_pool, std::size_t m,
                                   const double* ref, std::size_t max_points,
                                   const double* base = nullptr, std::size_t n_base = 0);

}  // namespace rescue::moo
