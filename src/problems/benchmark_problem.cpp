#include "problems/benchmark_problem.hpp"

#include "core/sampling.hpp"

namespace rescue::problems {

std::vector<double> sample_uniform_row(const BenchmarkProblem& problem, Rng& rng) {
  const ProblemSpec& spec = problem.spec();
  std::vector<double> row = sample_configuration(spec, rng);
  const FidelitySpec& f = spec.fidelity();
  const double s = f.discrete ? f.levels[rng.below(f.levels.size())] : rng.uniform(f.lower, f.upper);
  const Evaluation e = problem.evaluate_noisy(row.data(), s, rng);
  row.reserve(row.size() + 1 + e.z.size() + e.y.size() + e.g.size());
  row.push_back(s);
  row.insert(row.end(), e.z.begin(), e.z.end());
  row.insert(row.end(), e.y.begin(), e.y.end());
  row.insert(row.end(), e.g.begin(), e.g.end());
  return row;
}

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
