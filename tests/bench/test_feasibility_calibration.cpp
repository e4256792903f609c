#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "bench/bench_run.hpp"
#include "bench/feasibility_calibration.hpp"
#include "bench/number_format.hpp"
#include "bench/problem_registry.hpp"
#include "rescue.h"
#include "problems/benchmark_problem.hpp"
#include "tiny_run.hpp"
#include "util/error.hpp"
#include "util/text.hpp"
#include "util/rng.hpp"

namespace {

using namespace rescue;
using namespace rescue::bench;

// Bins, Brier score and merging against a direct count on random input,
// probabilities 0 and 1 and bin edges included.
TEST(CalibrationTally, BinsAndBrierScoreMatchADirectCount) {
  Rng rng(5);
  std::vector<double> p;
  std::vector<bool> truth;
  for (int i = 0; i < 500; ++i) {
    p.push_back(i % 50 == 0 ? 1.0 : i % 50 == 1 ? 0.0 : i % 50 == 2 ? 0.3 : rng.uniform());
    truth.push_back(rng.uniform() < p.back());
  }
  CalibrationTally whole, first, second;
  for (std::size_t i = 0; i < p.size(); ++i) {
    whole.add(p[i], truth[i]);
    (i < 200 ? first : second).add(p[i], truth[i]);
  }
  std::array<long, 10> n{}, f{};
  double brier = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    int b = 0;
    while (b < 9 && p[i] >= (b + 1) / 10.0) ++b;  // [b/10, (b+1)/10), 1 in the last bin
    ++n[b];
    f[b] += truth[i] ? 1 : 0;
    brier += (p[i] - (truth[i] ? 1.0 : 0.0)) * (p[i] - (truth[i] ? 1.0 : 0.0));
  }
  EXPECT_EQ(whole.points, n);
  EXPECT_EQ(whole.feasible, f);
  EXPECT_NEAR(whole.brier, brier, 1e-9);
  EXPECT_EQ(whole.total(), 500);
  first.merge(second);
  EXPECT_EQ(first.points, n);
  EXPECT_EQ(first.feasible, f);
  EXPECT_NEAR(first.brier, brier, 1e-9);
}

TEST(NumberFormat, SignificantDigits) {
  EXPECT_EQ(significant(0.0012345, 3), "0.00123");
  EXPECT_EQ(significant(123.456, 3), "123");
  EXPECT_EQ(significant(123456.0, 3), "1.23e+05");
  EXPECT_EQ(significant(-2.5, 2), "-2.5");
  EXPECT_EQ(significant(std::nan(""), 3), "-");
  EXPECT_EQ(significant(INFINITY, 3), "inf");
  EXPECT_EQ(significant(-INFINITY, 3), "-inf");
}

// Held-out errors land in their output's slot at or below the target, and
// merging adds them up.
TEST(CalibrationTally, HeldOutErrorsAreKeptPerOutputAndFidelity) {
  constexpr int P = 3;
  Rng rng(9);
  CalibrationTally whole, first, second;
  std::vector<double> sum(2 * P, 0.0), square(2 * P, 0.0), error_square(2 * P, 0.0);
  std::vector<long> count(2 * P, 0);
  for (int i = 0; i < 300; ++i) {
    const int k = i % P;
    const bool at = rng.uniform() < 0.3;
    const double error = 3.0 * rng.normal(), z = error / (0.5 + rng.uniform());
    whole.add_held_out(k, P, at, z, error);
    (i < 100 ? first : second).add_held_out(k, P, at, z, error);
    const int slot = (at ? 0 : 1) * P + k;
    sum[slot] += z, square[slot] += z * z, error_square[slot] += error * error, ++count[slot];
  }
  ASSERT_EQ(whole.held_count, count);
  for (int slot = 0; slot < 2 * P; ++slot) {
    EXPECT_NEAR(whole.held_sum[slot], sum[slot], 1e-12);
    EXPECT_NEAR(whole.held_square[slot], square[slot], 1e-12);
    EXPECT_NEAR(whole.held_error_square[slot], error_square[slot], 1e-12);
  }
  CalibrationTally empty;
  empty.merge(first);
  empty.merge(second);
  EXPECT_EQ(empty.held_count, count);
  for (int slot = 0; slot < 2 * P; ++slot) {
    EXPECT_NEAR(empty.held_sum[slot], sum[slot], 1e-9);
    EXPECT_NEAR(empty.held_error_square[slot], error_square[slot], 1e-9);
  }
}

// The replay sees what the run saw: the noise stream of start_run gives every
// row's observation the constraint verdict the run recorded, and a `random`
// run, whose only recommendation came after its last row, recommends the
// same set again from the replayed observations (another noise stream moves
// the set: 38 configurations and hypervolume 5.18 for 39 and 5.03).
TEST(FeasibilityCalibration, TheReplayRepeatsTheRunsObservations) {
  // Settings under which the noise moves the recommendation (tiny_run's own
  // do not: there a wrong noise stream recommends the same set).
  RunSpec settings = tiny_run("healthcare", "random");
  settings.seed = 6;
  settings.initial_budget = 0.3;
  settings.recommend_points = 40;
  const RunResult run = run_benchmark(settings);
  ASSERT_EQ(run.stop_reason.rfind("error", 0), std::string::npos) << run.stop_reason;
  ASSERT_GT(run.iterations.size(), 5u);
  const auto problem = problems::make_problem("healthcare");
  const ProblemSpec& spec = problem->spec();
  const int d = spec.dim(), m = spec.num_objectives(), q = spec.num_constraints(), k = spec.num_indicators();
  const auto start = start_run(run.spec, *problem);
  for (const IterationRecord& it : run.iterations) {
    const problems::Evaluation e = problem->evaluate_noisy(it.x.data(), it.fidelity, start->noise);
    EXPECT_EQ(!feasible(spec, e.g), it.violated) << "row " << it.iteration;
    ASSERT_EQ(rescue_observe_at(start->strategy.o, it.x.data(), d, it.fidelity, e.y.data(), m, e.g.data(), q,
                                e.z.data(), k),
              RESCUE_OK)
        << rescue_errmsg(start->strategy.o);
  }
  int count = 0;
  ASSERT_EQ(rescue_pareto(start->strategy.o, nullptr, nullptr, 0, &count), RESCUE_OK);
  std::vector<double> x(static_cast<std::size_t>(count) * d), y(static_cast<std::size_t>(count) * m);
  ASSERT_EQ(rescue_pareto(start->strategy.o, x.data(), y.data(), count, &count), RESCUE_OK);
  EXPECT_EQ(count, run.iterations.back().recommended);
  EXPECT_EQ(inferred_hypervolume(*problem, x), run.iterations.back().inferred_hv);
  // The calibration's shared model recommends that set again and measures it alike.
  const RunCalibration c = calibrate_run(run, 1);
  EXPECT_EQ(c.shared.set_points, count);
  EXPECT_EQ(c.shared.set_hv, run.iterations.back().inferred_hv);
}

// Both models are scored on their set and on 2 x `moves` moves of each member;
// the set's tallies stay within it. Every output has its standardized error.
TEST(FeasibilityCalibration, ScoresTheSetAndItsMovesForBothModels) {
  const RunResult run = run_benchmark(tiny_run("healthcare", "rescue"));
  ASSERT_EQ(run.stop_reason.rfind("error", 0), std::string::npos) << run.stop_reason;
  const RunCalibration c = calibrate_run(run, 3);
  for (const CalibrationTally* t : {&c.own, &c.shared}) {
    EXPECT_EQ(t->runs, 1);
    ASSERT_GT(t->set_points, 0);
    EXPECT_EQ(t->total(), t->set_points * (1 + 2 * 3));
    EXPECT_LE(t->set_feasible, t->set_points);
    EXPECT_GE(t->set_probability, 0.0);
    EXPECT_LE(t->set_probability, static_cast<double>(t->set_points));
    ASSERT_EQ(t->z_sum.size(), 3u);
    for (int k = 0; k < 3; ++k) {
      EXPECT_TRUE(std::isfinite(t->z_sum[k])) << k;
      // Cauchy-Schwarz: (sum z)^2 <= n sum z^2.
      EXPECT_GE(t->z_square[k] * static_cast<double>(t->set_points), t->z_sum[k] * t->z_sum[k] - 1e-6) << k;
    }
    // Every replayed evaluation is held out once per output (healthcare has
    // two objectives and one constraint), at the target or below it.
    ASSERT_EQ(t->held_count.size(), 6u);
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(t->held_count[k] + t->held_count[3 + k], static_cast<long>(run.iterations.size())) << k;
      EXPECT_TRUE(std::isfinite(t->held_square[k]) && std::isfinite(t->held_square[3 + k])) << k;
      EXPECT_GT(t->held_error_square[k] + t->held_error_square[3 + k], 0.0) << k;
      EXPECT_TRUE(std::isfinite(t->held_error_square[k] + t->held_error_square[3 + k])) << k;
    }
  }
  // rescue's own model has a causal prior; its weights are those it reports.
  ASSERT_TRUE(c.prior.has_value());
  ASSERT_EQ(c.prior->scale.size(), 3u);
  for (double a : c.prior->scale) EXPECT_TRUE(std::isfinite(a));
  if (!c.prior->in_use) {
    for (double a : c.prior->scale) EXPECT_EQ(a, 0.0);
  }
  const std::string md =
      calibration_markdown({{"healthcare", "rescue", c, {c.own.set_hv}, {c.shared.set_hv}, {*c.prior}}}, "cmd");
  EXPECT_NE(md.find("`rescue_prior_weights`"), std::string::npos) << md;
  EXPECT_NE(md.find(std::string("| rescue | 1 | ") + (c.prior->in_use ? "1" : "0") + " |"), std::string::npos) << md;
  // One CSV row per run, with the hypervolumes at full precision and the weights.
  const std::string csv = calibration_runs_csv({run}, {c});
  EXPECT_EQ(csv.rfind("problem,strategy,seed,own_hv,shared_hv,prior_in_use,prior_scale,kernel_weight\n", 0), 0u) << csv;
  EXPECT_NE(csv.find("\nhealthcare,rescue," + std::to_string(run.spec.seed) + "," + fmt17(c.own.set_hv) + "," +
                     fmt17(c.shared.set_hv) + "," + (c.prior->in_use ? "1" : "0") + "," + fmt17(c.prior->scale[0]) +
                     " "),
            std::string::npos)
      << csv;
  EXPECT_THROW(calibration_runs_csv({run}, {}), Error);
  // Two runs' weights: mean and range per output.
  StrategyCalibration two{"healthcare", "rescue", c, {1.0, 2.0}, {1.0, 2.0},
                          {{{0.5, 1.0, -0.5}, 2.0, true}, {{0.0, 0.0, 0.0}, 1e-6, false}}};
  const std::string md2 = calibration_markdown({two}, "cmd");
  EXPECT_NE(md2.find("| rescue | 2 | 1 | 0.25 [0.00, 0.50] | 0.50 [0.00, 1.00] | -0.25 [-0.50, 0.00] | 1.00 [0.00, 2.00] |"),
            std::string::npos)
      << md2;
  EXPECT_NE(md.find("| rescue | own | 1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| rescue | shared | 1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("z of "), std::string::npos) << md;
  EXPECT_NE(md.find("Held-out errors"), std::string::npos) << md;
  // The held-out cell of the first output of the own model at the target: mean and rms of z, then
  // the root mean square error, from the tally's sums.
  {
    const CalibrationTally& t = c.own;
    const int P = 3;
    std::string cell;
    for (int group = 0; group < 2 && cell.empty(); ++group) {
      const long n = t.held_count[static_cast<std::size_t>(group * P)];
      if (n == 0) continue;
      const std::size_t at = static_cast<std::size_t>(group * P);
      cell = fixed(t.held_sum[at] / n, 2) + ", " + fixed(std::sqrt(t.held_square[at] / n), 2) + "; " +
             significant(std::sqrt(t.held_error_square[at] / n), 3) + " |";
    }
    ASSERT_FALSE(cell.empty());
    EXPECT_NE(md.find(cell), std::string::npos) << cell << "\n" << md;
  }
  // One run: no test of the pair.
  EXPECT_NE(md.find("| rescue | 1 | - | - | "), std::string::npos) << md;

  // Three runs whose own sets beat the shared ones by 2, 3 and 1: t = 2 sqrt(3)
  // with 2 degrees of freedom, two-sided p = 1 - t / sqrt(t^2 + 2) = 0.0742.
  StrategyCalibration three{"healthcare", "hvkg", c, {3.0, 5.0, 4.0}, {1.0, 2.0, 3.0}, {}};
  const std::string md3 = calibration_markdown({three}, "cmd");
  EXPECT_NE(md3.find("| hvkg | 3 | 2.000 | 0.0742 | 3 of 3 |"), std::string::npos) << md3;

}

// Without constraints every point is feasible; the objectives' standardized
// errors at the set are those of the predictions at its members, which the
// test recomputes from the replayed shared model's set and the truth.
TEST(FeasibilityCalibration, ObjectiveErrorsWithoutConstraints) {
  const RunResult run = run_benchmark(tiny_run("branin-currin", "hvkg"));
  ASSERT_EQ(run.stop_reason.rfind("error", 0), std::string::npos) << run.stop_reason;
  const RunCalibration c = calibrate_run(run, 2);
  const auto problem = make_problem("branin-currin");
  const ProblemSpec& spec = problem->spec();
  const int d = spec.dim(), m = spec.num_objectives();
  for (const CalibrationTally* t : {&c.own, &c.shared}) {
    ASSERT_GT(t->set_points, 0);
    EXPECT_EQ(t->set_feasible, t->set_points);
    EXPECT_EQ(t->total(), t->set_points);  // no moves without constraints
    ASSERT_EQ(t->z_sum.size(), static_cast<std::size_t>(m));
  }
  // The replay again, by hand: the shared model's set, its predictions and the truth.
  RunSpec rs = run.spec;
  rs.shared_recommender = true;
  rs.budget += 2.0;
  const std::unique_ptr<RunStart> start = start_run(rs, *problem);
  for (const IterationRecord& it : run.iterations) {
    const problems::Evaluation e = problem->evaluate_noisy(it.x.data(), it.fidelity, start->noise);
    ASSERT_EQ(rescue_observe_at(start->shadow.o, it.x.data(), d, it.fidelity, e.y.data(), m, nullptr, 0, nullptr, 0),
              RESCUE_OK);
  }
  int count = 0;
  const std::vector<double> x = recommended_configurations(start->shadow.o, d, m, &count);
  ASSERT_EQ(count, c.shared.set_points);
  std::vector<double> s(count, spec.fidelity().target), mean(static_cast<std::size_t>(count) * m), sd(mean.size()),
      pf(count);
  ASSERT_EQ(rescue_predict(start->shadow.o, x.data(), count, d, s.data(), mean.data(), sd.data(), m, pf.data()),
            RESCUE_OK);
  std::vector<double> z_sum(m, 0.0);
  for (int i = 0; i < count; ++i) {
    const problems::Evaluation e = problem->evaluate(x.data() + static_cast<std::size_t>(i) * d, spec.fidelity().target);
    for (int k = 0; k < m; ++k) z_sum[k] += (e.y[k] - mean[i * m + k]) / sd[i * m + k];
  }
  for (int k = 0; k < m; ++k) EXPECT_NEAR(c.shared.z_sum[k], z_sum[k], 1e-9 * (1.0 + std::abs(z_sum[k]))) << k;
  EXPECT_FALSE(c.prior.has_value()) << "hvkg has no causal prior";
  const std::string md = calibration_markdown({{"branin-currin", "hvkg", c, {c.own.set_hv}, {c.shared.set_hv}, {}}}, "cmd");
  EXPECT_EQ(md.find("Reliability"), std::string::npos) << md;
  EXPECT_EQ(md.find("rescue_prior_weights"), std::string::npos) << md;
  const std::string csv = calibration_runs_csv({run}, {c});
  EXPECT_NE(csv.find("\nbranin-currin,hvkg,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",,\n"), std::string::npos) << "no prior weights: " << csv;
  EXPECT_NE(md.find("z of "), std::string::npos) << md;
}

}  // namespace
