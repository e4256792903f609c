// Hypervolume kernels on points already validated. Shared by the hypervolume
// entry points and the greedy subset selection, which calls them many times
// and must not pay for re-validation or copies.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace rescue::moo::detail {

/// Hypervolume of k points of dimension d (contiguous, row-major) that all
/// strictly dominate ref.
double hv_inside(const double* points, std::size_t k, std::size_t d, const double* ref);

/// HV(S + p) - HV(S) for p strictly inside ref; members of S need not be
/// inside. `limit` is scratch space (reused to avoid allocations).
double contribution(const double* p, const double* set, std::size_t k, std::size_t d,
                    const double* ref, std::vector<double>& limit);

/// Points of dimension d = 2 or 3 in ascending order of their last
/// coordinate, as a singly linked list over a node array: a point's
/// contribution is then one pass in that order, with no sorting, and a point
/// is added in O(size) without moving the others.
struct SortedList {
  std::size_t d = 0;
  std::vector<double> coords;      ///< node t is coords[t*d .. t*d+d-1]
  std::vector<std::int32_t> next;  ///< successor of each node, -1 at the end
  std::int32_t first = -1;

  void reset(std::size_t dim) {
    d = dim;
    coords.clear();
    next.clear();
    first = -1;
  }
  /// Adds a node holding p and links it in order.
  void insert(const double* p);
};

/// HV(S + p) - HV(S) for the list S (d = 2 or 3) and p strictly inside ref.
/// One pass over S in ascending last coordinate that stops as soon as a
/// member covers the rest of p's box: O(|S|) for d = 2, O(|S| log s) for
/// d = 3 (s = size of the two-dimensional staircase inside p's box, kept in
/// `stair`, a small sorted array).
double contribution_sorted(const double* p, const SortedList& set, const double* ref,
                           std::vector<std::pair<double, double>>& stair);

/// Volume of the box between p and ref (zero if p does not strictly dominate ref).
double box_volume(const double* p, std::size_t d, const double* ref);

}  // namespace rescue::moo::detail
