// Exact hypervolume indicator, minimization convention: the hypervolume of a
// point set is the Lebesgue measure of the region dominated by the set and
// bounded above by the reference point. Points that do not strictly dominate
// the reference point contribute nothing. Points are point-major row-major
// arrays (point i is points[i*m .. i*m+m-1]).
//
// Algorithms and costs (n points, m objectives):
//   m = 1: minimum, O(n).
//   m = 2: sort and sweep, O(n log n).
//   m = 3: dimension sweep along the third objective over a balanced tree of
//          the two-dimensional staircase, updating its area incrementally in
//          the manner of HV3D (Beume et al. 2009; Guerreiro & Fonseca 2018),
//          O(n log n).
//   m = 4: dimension sweep along the fourth objective adding each point's
//          exclusive three-dimensional contribution, computed in one pass over
//          a z-ordered linked list of the points seen so far that stops as soon
//          as the point's box is covered; members dominated in the first three
//          objectives by a later point are unlinked for good (the pruning of
//          HV4D+, Guerreiro & Fonseca 2018). O(n^2 log s), s = the size of a
//          two-dimensional staircase inside one point's box.
//   m >= 5: dimension sweep along the last objective adding each point's
//          exclusive (m-1)-dimensional contribution: its box minus the
//          hypervolume of the set limited to its box, reduced to its
//          non-dominated points (the limit sets of WFG, While et al. 2012), down
//          to the m = 4 case. O(n^(m-2) log s) worst case; the pruning keeps
//          typical fronts far below it. For m = 5 and up to 200 points the
//          contributions are instead found by one more level of the m = 4
//          method (a sweep in the fourth objective over the clipped members,
//          each adding its pass over a clipped z-ordered list), which avoids
//          sorting and filtering limit sets: O(n^3 log s).
#pragma once
#include <cstddef>
#include <vector>

namespace rescue::moo {

/// Hypervolume of n points in m objectives with respect to `ref` (m values).
double hypervolume(const double* points, std::size_t n, std::size_t m, const double* ref);

/// Convenience form: points holds n*m values.
double hypervolume(const std::vector<double>& points, std::size_t m, const std::vector<double>& ref);

/// Hypervolume gained by adding `point` to the set: HV(set + point) - HV(set).
/// Computed from the set limited to the point's box, never from scratch.
double hv_contribution(const double* point, const double* set, std::size_t n, std::size_t m,
                       const double* ref);

/// Exclusive contribution of member `index` of the set: HV(set) - HV(set without it).
double hv_exclusive_contribution(const double* set, std::size_t n, std::size_t m,
                                 const double* ref, std::size_t index);

/// HV(set + candidate) given hv_set = HV(set) (as returned by hypervolume).
double hv_with_candidate(const double* set, std::size_t n, std::size_t m, const double* ref,
                         double hv_set, const double* candidate);

}  // namespace rescue::moo
