#include "problems/benchmark_problem.hpp"

namespace rescue::problems {

std::vector<double> sample_observational(const BenchmarkProblem& problem, int n, Rng& rng) {
  std::vector<double> rows;
  for (int i = 0; i < n; ++i) {
    const std::vector<double> r = problem.sample_observational(rng);
    rows.insert(rows.end(), r.begin(), r.end());
  }
  return rows;
}

std::vector<double> sample_observational(const BenchmarkProblem& problem, int n, std::uint64_t seed) {
  Rng rng(seed);
  return sample_observational(problem, n, rng);
}

}  // namespace rescue::problems
