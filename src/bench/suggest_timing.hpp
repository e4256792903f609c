// Time of one suggestion with a given number of observations in: an optimizer
// is fed n - 1 evaluations drawn like the cost-aware initial design (uniform
// options, fidelity with density proportional to 1 / cost, the problem's
// noise) plus the protocol's observational rows; its first suggestion (cold:
// models built from scratch) is timed and evaluated, then the next one (warm:
// n evaluations in, the steady state of a run) is timed and cancelled.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "bench/variant.hpp"

namespace rescue::bench {

struct SuggestTiming {
  std::string problem, strategy;
  int observations = 0;
  std::vector<double> seconds;           ///< cold suggestion, wall time; one per repeat (different seeds)
  std::vector<double> warm_seconds;      ///< warm suggestion, wall time
  std::vector<double> warm_cpu_seconds;  ///< warm suggestion, CPU time of the calling thread
  double median = 0.0, warm_median = 0.0, warm_cpu_median = 0.0;
};

/// A strategy named by one of `variants` runs as its library strategy with its
/// parameters and observational rows; variants with another causal graph
/// (dag=) are refused (Error(InvalidArgument)).
std::vector<SuggestTiming> time_suggestions(const std::vector<std::string>& problems,
                                            const std::vector<std::string>& strategies,
                                            const std::vector<int>& observations, int repeats,
                                            std::uint64_t first_seed, int observational_rows,
                                            const std::vector<StrategyVariant>& variants = {});

std::string suggest_timing_markdown(const std::vector<SuggestTiming>& timings, const std::string& command);

}  // namespace rescue::bench
