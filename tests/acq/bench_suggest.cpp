// Wall time of one suggestion (model fit included) for each strategy on the
// built-in problems, with N observations drawn by the cost-aware initial
// design's law. Run: bench_suggest --benchmark_filter=hvkg/branin
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "core/sampling.hpp"
#include "engine/optimizer.hpp"
#include "problems/benchmark_problem.hpp"

namespace {

using namespace rescue;

// An optimizer of spec holding n observations drawn by the cost-aware initial
// design's law and measured by evaluate(x, s) (initial design of zero budget,
// so the strategy decides from the first suggestion on).
template <class Evaluate>
std::unique_ptr<engine::Optimizer> with_observations(ProblemSpec spec, const std::string& strategy, int n,
                                                     Evaluate evaluate) {
  spec.set_strategy(strategy);
  spec.set_seed(11);
  spec.set_initial_budget(0.0);
  auto opt = std::make_unique<engine::Optimizer>(spec);
  Rng rng(5);
  for (int i = 0; i < n; ++i) {
    const auto x = sample_configuration(spec, rng);
    double s;
    sample_fidelity(spec, x.data(), FidelityLaw::InverseCost, HUGE_VAL, rng, &s);
    const auto e = evaluate(x, s, rng);
    opt->observe_at(x, s, e.y, e.g, e.z);
  }
  return opt;
}

std::unique_ptr<engine::Optimizer> with_observations(const std::string& problem, const std::string& strategy, int n) {
  auto bench = problems::make_problem(problem);
  return with_observations(bench->spec(), strategy, n, [&](const std::vector<double>& x, double s, Rng& rng) {
    return bench->evaluate_noisy(x.data(), s, rng);
  });
}

// The time of the first suggestion of make(n), an optimizer holding n observations.
template <class Make>
void Suggest(benchmark::State& state, Make make) {
  const int n = static_cast<int>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    auto opt = make(n);
    state.ResumeTiming();
    auto t = opt->suggest();
    benchmark::DoNotOptimize(t);
  }
}

// Six options, the last three either continuous in [0, 1] or categorical with
// four levels; two objectives of all six; fidelity in [0, 1]; n observations
// drawn as above. The pair measures what categorical options cost a suggestion.
std::unique_ptr<engine::Optimizer> six_options(const std::string& strategy, bool categorical, int n) {
  ProblemSpec spec;
  for (int j = 0; j < 6; ++j) {
    const std::string name = "x" + std::to_string(j + 1);
    if (categorical && j >= 3)
      spec.add_categorical(name, {"a", "b", "c", "d"});
    else
      spec.add_option(name, 0.0, 1.0, OptionKind::Continuous);
  }
  spec.set_fidelity_range(0.0, 1.0, 1.0);
  spec.add_objective("f1", Sense::Minimize);
  spec.add_objective("f2", Sense::Minimize);
  return with_observations(spec, strategy, n, [&spec](const std::vector<double>& x, double s, Rng&) {
    std::vector<double> u(6);
    spec.to_unit(x.data(), u.data());
    problems::Evaluation e;
    e.y = {0.1 * (1.0 - s), 0.0};
    for (int j = 0; j < 6; ++j) {
      e.y[0] += (u[j] - 0.3) * (u[j] - 0.3);
      e.y[1] += (u[j] - 0.7) * (u[j] - 0.7) + 0.05 * std::sin(7.0 * u[j]);
    }
    return e;
  });
}

}  // namespace

int main(int argc, char** argv) {
  setenv("OPENBLAS_NUM_THREADS", "1", 0);
  for (const char* strategy : {"hvkg", "ehvi", "momf"}) {
    for (const char* problem : {"branin-currin", "park", "healthcare", "robot-standin"}) {
      auto make = [problem, strategy](int n) { return with_observations(problem, strategy, n); };
      auto* b = benchmark::RegisterBenchmark((std::string(strategy) + "/" + problem).c_str(), Suggest<decltype(make)>, make);
      b->Arg(20)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond)->Iterations(3);
    }
  }
  for (const char* strategy : {"hvkg", "rescue"})
    for (bool categorical : {false, true}) {
      const std::string name = std::string(strategy) + (categorical ? "/3-continuous-3-categorical" : "/6-continuous");
      auto make = [strategy, categorical](int n) { return six_options(strategy, categorical, n); };
      benchmark::RegisterBenchmark(name.c_str(), Suggest<decltype(make)>, make)
          ->Arg(100)
          ->Unit(benchmark::kMillisecond)
          ->Iterations(3);
    }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
