// Hypervolume kernels on points already validated. Shared by the hypervolume
// entry points and the greedy subset selection, which calls them many times
// and must not pay for re-validation or copies.
#pragma once
#include <cstddef>
#include <vector>

namespace rescue::moo::detail {

/// Hypervolume of k points of dimension d (contiguous, row-major) that all
/// strictly dominate ref.
double hv_inside(const double* points, std::size_t k, std::size_t d, const double* ref);

/// HV(S + p) - HV(S) for p strictly inside ref; members of S need not be
/// inside. `limit` is scratch space (reused to avoid allocations).
double contribution(const double* p, const double* set, std::size_t k, std::size_t d,
                    const double* ref, std::vector<double>& limit);

/// Volume of the box between p and ref (zero if p does not strictly dominate ref).
double box_volume(const double* p, std::size_t d, const double* ref);

}  // namespace rescue::moo::detail
