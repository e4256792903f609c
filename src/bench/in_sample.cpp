#include "bench/in_sample.hpp"

#include "bench/bench_run.hpp"
#include "bench/regret_curve.hpp"
#include "util/error.hpp"

namespace rescue::bench {

std::vector<double> in_sample_log10_regret(const RunResult& run, const problems::BenchmarkProblem& problem) {
  const std::size_t d = static_cast<std::size_t>(problem.spec().dim());
  std::vector<double> configs, out;
  out.reserve(run.iterations.size());
  double hv = 0.0;
  for (const IterationRecord& it : run.iterations) {
    if (it.x.size() != d) fail(Status::SizeMismatch, "in-sample regret: a configuration has the wrong dimension");
    if (it.fidelity == run.target_fidelity && !it.violated) {
      configs.insert(configs.end(), it.x.begin(), it.x.end());
      hv = inferred_hypervolume(problem, configs);
    }
    out.push_back(log10_regret(run.spec.hv_max, hv));
  }
  return out;
}

}  // namespace rescue::bench
