// Speed of the hypervolume kernels and of the greedy subset selection, on the
// sets used for the reference figures (docs: shared targets): random mutually
// non-dominated points on the unit sphere, reference point 1.1 per objective.
#include <benchmark/benchmark.h>

#include "brute_force.hpp"
#include "moo/hv_greedy.hpp"
#include "moo/hypervolume.hpp"

namespace {

using rescue::Rng;

void BM_Hypervolume(benchmark::State& state) {
  const auto m = static_cast<std::size_t>(state.range(0));
  const auto n = static_cast<std::size_t>(state.range(1));
  Rng rng(42);
  const auto p = rescue::moo::test::sphere_points(n, m, rng);
  const std::vector<double> ref(m, 1.1);
  for (auto _ : state) benchmark::DoNotOptimize(rescue::moo::hypervolume(p.data(), n, m, ref.data()));
}
BENCHMARK(BM_Hypervolume)
    ->ArgNames({"m", "n"})
    ->Args({2, 100})->Args({2, 1000})->Args({2, 10000})->Args({2, 100000})
    ->Args({3, 100})->Args({3, 1000})->Args({3, 10000})
    ->Args({4, 100})->Args({4, 1000})->Args({4, 10000})
    ->Args({5, 100})->Args({5, 1000})
    ->Unit(benchmark::kMicrosecond);

// The inner maximization of the hypervolume knowledge gradient: at most P = 10
// of a pool of fantasized posterior means, added to a current front of 20.
void BM_GreedySelection(benchmark::State& state) {
  const auto m = static_cast<std::size_t>(state.range(0));
  const auto n = static_cast<std::size_t>(state.range(1));
  Rng rng(7);
  const auto pool = rescue::moo::test::sphere_points(n, m, rng);
  auto base = rescue::moo::test::sphere_points(20, m, rng);
  for (double& v : base) v *= 1.02;  // slightly behind the pool, as an observed front would be
  const std::vector<double> ref(m, 1.1);
  for (auto _ : state)
    benchmark::DoNotOptimize(
        rescue::moo::greedy_hv_selection(pool.data(), n, m, ref.data(), 10, base.data(), 20));
}
BENCHMARK(BM_GreedySelection)
    ->ArgNames({"m", "pool"})
    ->Args({2, 100})->Args({2, 500})->Args({3, 100})->Args({3, 500})->Args({4, 100})->Args({4, 500})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
