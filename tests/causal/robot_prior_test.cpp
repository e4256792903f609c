// The causal prior of the robot stand-in: the estimates at the target
// fidelity against the problem's noise-free equations, with and without the
// product form of the structural equations, on the true graph and on the graph
// learned from the logs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "prior_error.hpp"

using namespace rescue;
using namespace rescue::causal;

using rescue::causal::testing::relative_errors;

// energy_per_m = g(s) (0.9 + 1.6 v_eff^2 + ...) and completion, a sigmoid of
// products with k(s): from 200 log rows the product form cuts the prior's
// error at the target by more than half for both; time and risk do not get
// worse by more than the noise of the fit.
TEST(RobotPrior, ProductFormSharpensTheTrueGraphsEstimates) {
  const auto problem = problems::make_problem("robot-standin");
  ASSERT_EQ(problem->spec().num_objectives(), 2);
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    const std::vector<double> base = relative_errors(*problem, {true, RepairScope::Outputs, false}, seed);
    const std::vector<double> prod = relative_errors(*problem, {true, RepairScope::Outputs, true}, seed);
    ASSERT_EQ(base.size(), 4u);
    EXPECT_LT(prod[1], 0.5 * base[1]) << "energy_per_m, seed " << seed;
    EXPECT_LT(prod[3], 0.5 * base[3]) << "completion, seed " << seed;
    EXPECT_LT(prod[0], base[0] + 0.05) << "time, seed " << seed;
    EXPECT_LT(prod[2], base[2] + 0.05) << "risk, seed " << seed;
    EXPECT_LT(prod[1], 0.3) << "energy_per_m, seed " << seed;
    EXPECT_LT(prod[3], 0.3) << "completion, seed " << seed;
  }
}

// From the logs alone: the rescue strategy's defaults (the repair extended to
// indicators, rescue.repair = 2, and the product form) against the earlier
// ones (outputs-only repair, no product form). The learned graph misses
// parents of time's and completion's indicators that the full repair
// restores; both errors at the target fall by more than half, and no output
// gets worse by more than the noise of the fit.
TEST(RobotPrior, DefaultRepairAndProductFormSharpenTheLearnedGraphsEstimates) {
  const auto problem = problems::make_problem("robot-standin");
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    const std::vector<double> before = relative_errors(*problem, {false, RepairScope::Outputs, false}, seed);
    const std::vector<double> now = relative_errors(*problem, {false, RepairScope::All, true}, seed);
    ASSERT_EQ(before.size(), 4u);
    EXPECT_LT(now[0], 0.5 * before[0]) << "time, seed " << seed;
    EXPECT_LT(now[3], 0.5 * before[3]) << "completion, seed " << seed;
    for (std::size_t k = 0; k < now.size(); ++k) EXPECT_LT(now[k], before[k] + 0.05) << "output " << k << ", seed " << seed;
    std::printf("seed %llu: relative errors time, energy_per_m, risk, completion: before %.3f %.3f %.4f %.3f, now %.3f %.3f %.4f %.3f\n",
                static_cast<unsigned long long>(seed), before[0], before[1], before[2], before[3], now[0], now[1], now[2], now[3]);
  }
}

// The fidelity's three levels scale the stand-in's effects non-monotonically
// (the clutter k(s) is 0.35, 0.05 and 1), which the product form cannot
// express and the level-by-level form (structural_equation.hpp) can. With
// the defaults, from the logs alone, it cuts the error of energy_per_m at the
// target by more than 30% and that of completion by more than 15% (means over
// three seeds; measured: 43% and 26%), and no output gets worse by more than
// the noise of the fit.
TEST(RobotPrior, LevelFormSharpensTheLearnedGraphsEstimates) {
  const auto problem = problems::make_problem("robot-standin");
  std::vector<double> without(4, 0.0), with(4, 0.0);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const std::vector<double> a = relative_errors(*problem, {false, RepairScope::All, true, 2}, seed);
    const std::vector<double> b = relative_errors(*problem, {false, RepairScope::All, true}, seed);
    ASSERT_EQ(a.size(), 4u);
    for (std::size_t k = 0; k < 4; ++k) {
      without[k] += a[k] / 3.0;
      with[k] += b[k] / 3.0;
    }
  }
  std::printf("relative errors time, energy_per_m, risk, completion: product form %.3f %.3f %.4f %.3f, by level %.3f %.3f %.4f %.3f\n",
              without[0], without[1], without[2], without[3], with[0], with[1], with[2], with[3]);
  EXPECT_LT(with[1], 0.7 * without[1]) << "energy_per_m";
  EXPECT_LT(with[3], 0.85 * without[3]) << "completion";
  for (std::size_t k = 0; k < 4; ++k) EXPECT_LT(with[k], without[k] + 0.02) << "output " << k;
}
