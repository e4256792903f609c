// Exact hypervolume indicator, minimization convention: the hypervolume of a
// point set is the Lebesgue measure of the region dominated by the set and
// bounded above by the reference point. Points that do not strictly dominate
// the reference point contribute nothing. Points are point-major row-major
// arrays (point i is points[i*m .. i*m+m-1]).
//
// Algorithms and costs (n points, m objectives):
//   m = 1: minimum, O(n).
//   m = 2: sort and sweep, O(n log n).
//   m = 3: dimension sweep along the third objective over the two-dimensional
//          staircase, updating its area incrementally in the manner of HV3D
//          (Beume et al. 2009; Guerreiro & Fonseca 2018); the staircase is a
//          bit-tree set of x-ranks (O(log_64 n) per step), so the two initial
//          sorts dominate: O(n log n).
//   m = 4: HV4D+ (Guerreiro & Fonseca 2018): dimension sweep along the
//          fourth objective adding each point's exclusive three-dimensional
//          contribution. The points seen so far, minus those dominated in
//          (x, y, z), sit in a (z, y, x)-ordered linked list where each node
//          keeps its neighbours on the (x, y) staircase of the nodes before
//          it, so the staircase at any height is rebuilt in one pass and a
//          contribution is one more pass: O(n) per point, O(n^2) in all.
//   m = 5: dimension sweep along the fifth objective adding each point's
//          exclusive four-dimensional contribution. The earlier points at or
//          below its fourth objective, clipped to its box, give the part of
//          the box uncovered at its height (those equal to the point in two
//          coordinates just lower the box's top; the rest go through a small
//          3-D sweep on an array staircase, O(b^2) for b of them), and seed
//          the HV4D+ structure in (z, y, x) order; those above it come in by
//          ascending fourth objective, each removing its 3-D contribution in
//          one pass (one equal to the point in two coordinates then becomes
//          a face of the box rather than a member), until one covers the
//          point's (x, y, z). O(n^2 s) for clipped sets of size s, O(n^3)
//          worst case.
//   m >= 6: dimension sweep along the last objective adding each point's
//          exclusive (m-1)-dimensional contribution: its box minus the
//          hypervolume of the set limited to its box, reduced to its
//          non-dominated points (the limit sets of WFG, While et al. 2012), down
//          to the m = 5 case. O(n^(m-1) s) worst case; the pruning keeps
//          typical fronts far below it.
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

}  // namespace rescue::moo
