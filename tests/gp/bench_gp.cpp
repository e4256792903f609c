// Speed of the GP: hyperparameter fit, prediction and one fantasy batch, for
// N = 50..1000 observations, P = 2, 3, 5 outputs and d = 2, 26 options, against
// the floor of one dense Cholesky of the (N P) x (N P) Gram matrix.
//
// Counters (process CPU time): fit_ms (warm refit: 1 start from the previous optimum; cold fits
// only up to N = 200, see BM_ColdFit), evals (objective + gradient
// evaluations), eval_ms (one evaluation), chol_ms (dense Cholesky of size N P),
// eval_over_chol and fit_over_chol (the ratios to that floor).
#include <benchmark/benchmark.h>

#include <cmath>
#include <ctime>
#include <limits>

#include "gp/gram_factor.hpp"
#include "gp/multi_fidelity_gp.hpp"
#include "gp_test_support.hpp"

namespace {

using namespace rescue;
using namespace rescue::gp;
// Process CPU time: the machine is shared, so wall time is noisy; run with
// OPENBLAS_NUM_THREADS=1 so that this is the cost on one core.
struct Clock {
  using time_point = double;
  static double now() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return 1e3 * ts.tv_sec + 1e-6 * ts.tv_nsec;
  }
};

double ms_since(double t0) { return Clock::now() - t0; }

struct Setup {
  Eigen::MatrixXd X, Y;
};

Setup make_data(int n, int P, int d, std::uint64_t seed) {
  Rng rng(seed);
  Setup s;
  s.X = testing::uniform_matrix(n, d + 1, rng);
  s.Y = testing::smooth_outputs(s.X, P, rng);
  return s;
}

double dense_cholesky_ms(int size, Rng& rng) {
  const Eigen::MatrixXd A = testing::uniform_matrix(size, 8, rng);
  Eigen::MatrixXd K = A * A.transpose();
  K.diagonal().array() += 1.0;
  const auto t0 = Clock::now();
  const GramFactor f = GramFactor::dense(K);
  benchmark::DoNotOptimize(f.log_det());
  return ms_since(t0);
}

// A model with hyperparameters near a fit, cheaply: a short cold fit on a
// subsample, then the full data (the warm start of later fits).
MultiFidelityGp prepared_model(const Setup& s, int P, int d) {
  GpOptions opt;
  opt.cold_starts = 1;
  opt.warm_starts = 1;
  MultiFidelityGp gp(d + 1, P, opt);
  const int sub = std::min<int>(static_cast<int>(s.X.rows()), 100);
  gp.set_data(s.X.topRows(sub), s.Y.topRows(sub));
  Rng rng(1);
  gp.fit(rng);
  gp.set_data(s.X, s.Y);
  return gp;
}

void BM_Fit(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), P = static_cast<int>(state.range(1)),
            d = static_cast<int>(state.range(2));
  Setup s = make_data(n, P, d, 42);
  // Fourth argument 1: one missing output value, which rules out the Kronecker form.
  if (state.range(3) != 0) s.Y(1, P - 1) = std::numeric_limits<double>::quiet_NaN();
  MultiFidelityGp gp = prepared_model(s, P, d);
  const Eigen::VectorXd theta = gp.layout().pack(gp.hyperparameters());
  Rng rng(3);
  double fit_ms = 0.0, eval_ms = 0.0, evals = 0.0;
  for (auto _ : state) {
    MultiFidelityGp g = gp;
    auto t0 = Clock::now();
    Eigen::VectorXd grad;
    benchmark::DoNotOptimize(g.objective(theta, &grad, true));
    eval_ms = ms_since(t0);
    if (n <= 500) {
      t0 = Clock::now();
      const FitReport rep = g.fit(rng);
      fit_ms = ms_since(t0);
      evals = rep.evaluations;
    }
  }
  const double chol = dense_cholesky_ms(n * P, rng);
  state.counters["eval_ms"] = eval_ms;
  state.counters["chol_ms"] = chol;
  state.counters["eval_over_chol"] = eval_ms / chol;
  if (n <= 500) {
    state.counters["fit_ms"] = fit_ms;
    state.counters["evals"] = evals;
    state.counters["fit_over_chol"] = fit_ms / chol;
  }
  state.counters["kronecker"] = gp.uses_kronecker() ? 1 : 0;
}

void BM_ColdFit(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), P = static_cast<int>(state.range(1)),
            d = static_cast<int>(state.range(2));
  const Setup s = make_data(n, P, d, 42);
  double evals = 0;
  for (auto _ : state) {
    MultiFidelityGp gp(d + 1, P);
    gp.set_data(s.X, s.Y);
    Rng rng(5);
    evals = gp.fit(rng).evaluations;
  }
  state.counters["evals"] = evals;
}

void BM_PredictMeanVar(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), P = static_cast<int>(state.range(1)),
            d = static_cast<int>(state.range(2));
  const Setup s = make_data(n, P, d, 42);
  const MultiFidelityGp gp = prepared_model(s, P, d);
  Rng rng(9);
  const Eigen::MatrixXd Z = testing::uniform_matrix(512, d + 1, rng);
  Eigen::MatrixXd mean, var;
  for (auto _ : state) {
    gp.posterior_mean_variance(Z, mean, var);
    benchmark::DoNotOptimize(var.data());
  }
  state.counters["points"] = 512;
}

void BM_FantasyBatch(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), P = static_cast<int>(state.range(1)),
            d = static_cast<int>(state.range(2));
  const Setup s = make_data(n, P, d, 42);
  const MultiFidelityGp gp = prepared_model(s, P, d);
  Rng rng(9);
  Eigen::MatrixXd pool = testing::uniform_matrix(512, d + 1, rng);
  pool.col(d).setOnes();
  const auto t0 = Clock::now();
  const PreparedPool prepared = gp.prepare_pool(pool);
  const double prepare_ms = ms_since(t0);
  const Eigen::MatrixXd E = gp.draw_base_samples(8, rng);
  const Eigen::VectorXd cand = testing::uniform_matrix(1, d + 1, rng).row(0).transpose();
  for (auto _ : state) {
    auto fm = gp.fantasy_means(prepared, cand, E);
    benchmark::DoNotOptimize(fm.data());
  }
  state.counters["prepare_pool_ms"] = prepare_ms;
}

void Grid(benchmark::internal::Benchmark* b) {
  for (int d : {2, 26})
    for (int P : {2, 3, 5})
      for (int n : {50, 100, 200, 500, 1000}) b->Args({n, P, d, 0});
}

void DenseGrid(benchmark::internal::Benchmark* b) {
  for (int P : {2, 3, 5})
    for (int n : {50, 100, 200}) b->Args({n, P, 2, 1});
}

void SmallGrid(benchmark::internal::Benchmark* b) {
  for (int d : {2, 26})
    for (int P : {2, 3, 5})
      for (int n : {50, 100, 200}) b->Args({n, P, d});
}

BENCHMARK(BM_Fit)->Apply(Grid)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Fit)->Name("BM_FitMissingOutput")->Apply(DenseGrid)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ColdFit)->Apply(SmallGrid)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PredictMeanVar)->Apply(Grid)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FantasyBatch)->Apply(Grid)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
