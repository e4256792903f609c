// Wall time of one suggestion with a given number of observations in: an
// optimizer is fed n evaluations drawn like the cost-aware initial design
// (uniform options, fidelity with density proportional to 1 / cost, the
// problem's noise) plus the protocol's observational rows, then asked for one
// suggestion, which is timed and cancelled.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rescue::bench {

struct SuggestTiming {
  std::string problem, strategy;
  int observations = 0;
  std::vector<double> seconds;  ///< one per repeat (different seeds)
  double median = 0.0;
};

std::vector<SuggestTiming> time_suggestions(const std::vector<std::string>& problems,
                                            const std::vector<std::string>& strategies,
                                            const std::vector<int>& observations, int repeats,
                                            std::uint64_t first_seed, int observational_rows);

std::string suggest_timing_markdown(const std::vector<SuggestTiming>& timings, const std::string& command);

}  // namespace rescue::bench
