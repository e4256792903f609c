// Inner maximization of the causal hypervolume knowledge gradient (paper,
// C-HVKG): choose at most P pool configurations maximizing
//   HV_GP(S) + w * HV_CI(S),
// HV_GP the hypervolume of their (fantasy-updated) posterior means and HV_CI
// that of their causal estimates f_do at the target fidelity. Both terms are
// monotone submodular set functions, and so is their non-negative sum, so the
// lazy greedy of Minoux returns exactly the classical greedy choice (within
// 1 - 1/e of the best set) while recomputing few gains.
#pragma once
#include <cstddef>

namespace rescue::acq {

/// gp and ci: n x m row-major objective values (minimized) of the same pool
/// points; ref: m values. Returns HV_GP(S) + w HV_CI(S) of the greedy set.
double greedy_gp_ci(const double* gp, const double* ci, std::size_t n, std::size_t m, const double* ref, double w,
                    std::size_t max_points);

}  // namespace rescue::acq
