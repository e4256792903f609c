// Random configurations and fidelities, including the cost-aware fidelity
// distribution of the paper's Appendix A (Eq. for CDF(s), Algorithm 2).
#pragma once
#include <limits>
#include <vector>

#include "core/problem_spec.hpp"
#include "util/rng.hpp"

namespace rescue {

/// A configuration drawn uniformly (log options uniform in log space, integers uniform over their values).
std::vector<double> sample_configuration(const ProblemSpec& spec, Rng& rng);

/// How fidelities are drawn.
enum class FidelityLaw {
  Uniform,     // uniform over the range, or over the levels
  InverseCost  // density proportional to 1 / c(x, s) (paper, Appendix A)
};

/// Draws a fidelity for configuration x among those whose cost is at most
/// max_cost. Returns false when no fidelity is affordable.
bool sample_fidelity(const ProblemSpec& spec, const double* x, FidelityLaw law, double max_cost, Rng& rng,
                     double* s_out);

}  // namespace rescue
