// How well each fidelity orders configurations as the target does, on the
// problem itself rather than on a model: n configurations drawn uniformly, each
// evaluated noise-free at every compared fidelity, and per output the Spearman
// rank correlation of the values there with those at the target. Near 1 the
// cheap fidelity ranks as the target does; near 0 or below it misleads
// (docs/problems.md, misleading variants).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "problems/benchmark_problem.hpp"

namespace rescue::bench {

struct FidelityRanks {
  std::string problem;
  int configurations = 0;
  std::vector<std::string> outputs;       ///< objectives, then constraint metrics
  std::vector<double> fidelities;         ///< ascending, the target among them
  double target = 0.0;
  std::vector<std::vector<double>> rank;  ///< [fidelity][output]: Spearman correlation with the target's values
};

/// The compared fidelities: every level of a discrete fidelity, or `points`
/// evenly spaced over a range (both ends), the target among them in either case.
std::vector<double> compared_fidelities(const FidelitySpec& fidelity, int points);

/// n >= 3 configurations from a generator seeded with `seed`.
FidelityRanks fidelity_ranks(const problems::BenchmarkProblem& problem, int n, std::uint64_t seed, int points = 5);

std::string fidelity_ranks_markdown(const std::vector<FidelityRanks>& all, const std::string& command);

}  // namespace rescue::bench
