// Speed of C-HVKG's inner maximization (greedy_gp_ci), the step a rescue
// suggestion repeats for every fantasy of every candidate: a pool the size of
// the default inner pool (256 Sobol points plus 100 recommended points and two
// perturbations of each), P = 10, GP and causal values uniform in [0, 1]^m.
#include <benchmark/benchmark.h>

#include <vector>

#include "acq/inner_selection.hpp"
#include "util/rng.hpp"

namespace {

void BM_GreedyGpCi(benchmark::State& state) {
  const auto m = static_cast<std::size_t>(state.range(0));
  const auto n = static_cast<std::size_t>(state.range(1));
  rescue::Rng rng(3);
  std::vector<double> gp(n * m), ci(n * m);
  for (double& v : gp) v = rng.uniform();
  for (double& v : ci) v = rng.uniform();
  const std::vector<double> ref(m, 1.1);
  for (auto _ : state)
    benchmark::DoNotOptimize(rescue::acq::greedy_gp_ci(gp.data(), ci.data(), n, m, ref.data(), 0.5, 10));
}
BENCHMARK(BM_GreedyGpCi)
    ->ArgNames({"m", "pool"})
    ->Args({2, 556})->Args({3, 556})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
