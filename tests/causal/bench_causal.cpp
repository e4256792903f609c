// Speed of the causal layer: PC and DirectLiNGAM on 10 / 30 / 60 variables with
// 2,000 rows, interventional estimates on a pool of 4,096 points, and whole
// refits of the causal performance model.
#include <benchmark/benchmark.h>

#include <algorithm>

#include "causal/causal_performance_model.hpp"
#include "causal/direct_lingam.hpp"
#include "causal/pc_algorithm.hpp"
#include "acq/causal_prior.hpp"
#include "healthcare_data.hpp"
#include "problems/benchmark_problem.hpp"
#include "synthetic_scm.hpp"

using namespace rescue;
using namespace rescue::causal;
using namespace rescue::causal::testing;

namespace {

// p variables: a fifth options, then indicators, objectives and constraints;
// about two parents per variable.
SyntheticScm make_scm(int p, NoiseKind noise, Rng& rng) {
  ScmSpec spec;
  spec.options = std::max(2, p / 5);
  spec.indicators = (p - spec.options) / 2;
  spec.constraints = 1;
  spec.objectives = p - spec.options - spec.indicators - spec.constraints;
  spec.edge_probability = 2.0 / p;
  spec.noise = noise;
  return SyntheticScm(spec, rng);
}

void BM_PC(benchmark::State& state) {
  Rng rng(1);
  const SyntheticScm scm = make_scm(static_cast<int>(state.range(0)), NoiseKind::Gaussian, rng);
  const DataTable t(scm.variables(), scm.sample(2000, rng));
  const StructuralConstraints c(t.variables());
  long tests = 0;
  for (auto _ : state) {
    const PcResult r = discover_pc(t, c);
    tests = r.tests;
    benchmark::DoNotOptimize(r.cpdag.num_edges());
  }
  state.counters["ci_tests"] = static_cast<double>(tests);
}
BENCHMARK(BM_PC)->Arg(10)->Arg(30)->Arg(60)->Unit(benchmark::kMillisecond);

void BM_DirectLiNGAM(benchmark::State& state) {
  Rng rng(2);
  const SyntheticScm scm = make_scm(static_cast<int>(state.range(0)), NoiseKind::Uniform, rng);
  const DataTable t(scm.variables(), scm.sample(2000, rng));
  const StructuralConstraints c(t.variables());
  for (auto _ : state) benchmark::DoNotOptimize(discover_lingam(t, c).dag.num_edges());
}
BENCHMARK(BM_DirectLiNGAM)->Arg(10)->Arg(30)->Arg(60)->Unit(benchmark::kMillisecond);

// f_do and sigma on 4,096 points: arg 0 = linear 30-variable model (closed
// form), arg 1 = healthcare model with nonlinear equations (Monte Carlo, 128
// common random numbers).
void BM_Interventional4096(benchmark::State& state) {
  Rng rng(3);
  CausalPerformanceModel cpm;
  if (state.range(0) == 0) {
    const SyntheticScm scm = make_scm(30, NoiseKind::Gaussian, rng);
    const DataTable t(scm.variables(), scm.sample(2000, rng));
    CpmOptions opt;
    opt.user_dag = std::vector<NamedEdge>();
    for (int a = 0; a < scm.size(); ++a)
      for (int b = 0; b < scm.size(); ++b)
        if (scm.dag().has_directed(a, b)) opt.user_dag->push_back({scm.variables()[a].name, scm.variables()[b].name});
    opt.scm.equations.allow_nonlinear = false;
    cpm = learn_cpm(t, opt);
  } else {
    CpmOptions opt;
    opt.method = DiscoveryMethod::DirectLiNGAM;
    cpm = learn_cpm(healthcare_table(2000, rng), opt);
  }
  const auto& vars = cpm.dag.variables();
  const int d = static_cast<int>(
      std::count_if(vars.begin(), vars.end(), [](const Variable& v) { return v.role == Role::Option; }));
  const Eigen::MatrixXd xs = Eigen::MatrixXd::Random(4096, d);
  const Eigen::VectorXd s = (Eigen::VectorXd::Random(4096).array() + 1.0) / 2.0;
  Eigen::MatrixXd mean, sd;
  for (auto _ : state) {
    cpm.model.estimate(xs, s, &mean, &sd);
    benchmark::DoNotOptimize(mean.data());
  }
}
BENCHMARK(BM_Interventional4096)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The whole refit (Algorithm 1 line 6) on the healthcare model with 2,000 rows.
void BM_LearnCpmHealthcare(benchmark::State& state) {
  Rng rng(5);
  const DataTable t = healthcare_table(2000, rng);
  CpmOptions opt;
  opt.method = state.range(0) == 0 ? DiscoveryMethod::PC : DiscoveryMethod::DirectLiNGAM;
  for (auto _ : state) benchmark::DoNotOptimize(learn_cpm(t, opt).dag.num_edges());
}
BENCHMARK(BM_LearnCpmHealthcare)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// A full refit with many options: 25 options, a fidelity, 4 indicators, 2
// objectives and 2 constraint metrics (the size of the robot-navigation
// stand-in), nonlinear additive equations, 1,000 rows.
void BM_LearnCpm25Options(benchmark::State& state) {
  Rng rng(6);
  ScmSpec spec;
  spec.options = 25;
  spec.fidelity = true;
  spec.indicators = 4;
  spec.objectives = 2;
  spec.constraints = 2;
  spec.edge_probability = 0.1;
  spec.form = FormKind::NonlinearAdditive;
  spec.nonlinear_amplitude = 0.5;
  const SyntheticScm scm(spec, rng);
  const DataTable t(scm.variables(), scm.sample(1000, rng));
  CpmOptions opt;
  opt.method = state.range(0) == 0 ? DiscoveryMethod::PC : DiscoveryMethod::DirectLiNGAM;
  for (auto _ : state) benchmark::DoNotOptimize(learn_cpm(t, opt).dag.num_edges());
}
BENCHMARK(BM_LearnCpm25Options)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// What rescue.repair costs where it matters: the refit rescue makes on the
// robot stand-in with its 200 observational rows and 100 evaluations (rows
// drawn from the same sampler), without the repair (0), with the outputs-only
// repair (1) and with the full repair, the default (2); the second argument 1
// adds the product form of the structural equations, as rescue does.
void BM_LearnCpmRobotStandin(benchmark::State& state) {
  const auto problem = problems::make_problem("robot-standin");
  Rng rng(7);
  std::vector<std::vector<double>> rows;
  for (int r = 0; r < 300; ++r) rows.push_back(problem->sample_observational(rng));
  const DataTable t = acq::causal_table(problem->spec(), rows, {}, 0);
  CpmOptions opt;
  opt.repair = state.range(0) == 0 ? RepairScope::None : state.range(0) >= 2 ? RepairScope::All : RepairScope::Outputs;
  opt.scm.equations.interactions = state.range(1) != 0;
  for (auto _ : state) benchmark::DoNotOptimize(learn_cpm(t, opt).dag.num_edges());
}
BENCHMARK(BM_LearnCpmRobotStandin)->ArgsProduct({{0, 1, 2}, {0, 1}})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
