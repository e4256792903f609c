// Non-dominated filtering, fast non-dominated sorting and crowding distance.
// Points are point-major row-major arrays: point i is points[i*m .. i*m+m-1].
// All objectives are minimized.
#pragma once
#include <cstddef>
#include <vector>

namespace rescue::moo {

/// Indices (ascending) of the points not dominated by any other point.
/// With `violation` (n total constraint violations, 0 = feasible), constrained
/// domination applies: if any point is feasible the result is the non-dominated
/// feasible points, otherwise the points of least violation.
/// Exact duplicates do not dominate each other, so all copies of a
/// non-dominated point are returned unless keep_duplicates is false, in which
/// case only the lowest index of each group is kept.
/// Cost: O(n log n) for m = 2 and 3, O(n k m) otherwise (k = front size).
std::vector<std::size_t> nondominated_indices(const double* points, std::size_t n, std::size_t m,
                                              const double* violation = nullptr,
                                              bool keep_duplicates = true);

/// Fast non-dominated sorting (Deb et al. 2002, Sec. III-A), O(m n^2), with
/// constrained domination when `violation` is given. Returns the fronts in
/// order; indices within a front are ascending.
std::vector<std::vector<std::size_t>> nondominated_sort(const double* points, std::size_t n,
                                                        std::size_t m,
                                                        const double* violation = nullptr);

/// Crowding distance (Deb et al. 2002, Sec. III-B) of the points listed in
/// `front`; result[k] belongs to points[front[k]]. Boundary points of each
/// objective get +infinity; objectives with zero range add nothing.
std::vector<double> crowding_distance(const double* points, std::size_t m,
                                      const std::vector<std::size_t>& front);

}  // namespace rescue::moo
