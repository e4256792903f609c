// In-sample regret of a run: what a user who recommends only configurations
// already evaluated at the target fidelity would have had. It sets the
// model-based recommender (the protocol's inferred hypervolume) against the
// plain reading of the data.
#pragma once
#include <vector>

#include "bench/run_record.hpp"
#include "problems/benchmark_problem.hpp"

namespace rescue::bench {

/// After each iteration of the run, the log10 regret (bench/regret_curve.hpp)
/// of the true hypervolume, noise-free at the target fidelity, of every
/// configuration evaluated so far at the target whose observation satisfied
/// every constraint (configurations that are in truth infeasible count for
/// nothing). One value per iteration, in order; not a running minimum.
std::vector<double> in_sample_log10_regret(const RunResult& run, const problems::BenchmarkProblem& problem);

}  // namespace rescue::bench
