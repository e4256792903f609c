// In-sample regret: only configurations evaluated at the target fidelity and
// observed feasible count, each at its true (noise-free) value; checked
// against a two-objective hypervolume computed here by a sweep.
#include <algorithm>
#include <array>
#include <cmath>

#include <gtest/gtest.h>

#include "bench/in_sample.hpp"
#include "bench/regret_curve.hpp"
#include "bench/summary.hpp"
#include "util/rng.hpp"

namespace rb = rescue::bench;
namespace rp = rescue::problems;

namespace {

// Hypervolume of 2-D minimization points against ref: sort by the first
// objective and add the strip each point adds below the best second value so far.
double sweep_hv(std::vector<std::array<double, 2>> pts, const std::array<double, 2>& ref) {
  std::sort(pts.begin(), pts.end());
  double hv = 0.0, best = ref[1];
  for (const auto& p : pts) {
    if (p[0] >= ref[0] || p[1] >= best) continue;
    hv += (ref[0] - p[0]) * (best - p[1]);
    best = p[1];
  }
  return hv;
}

struct Probe {
  std::vector<double> x;
  double s;
  bool observed_violated;
};

}  // namespace

TEST(InSample, OnlyTargetEvaluationsObservedFeasibleCountAtTheirTrueValues) {
  const auto problem = rp::make_problem("healthcare");
  const auto& spec = problem->spec();
  const double target = spec.fidelity().target;
  const std::array<double, 2> ref{spec.to_min(0, spec.reference_point()[0]), spec.to_min(1, spec.reference_point()[1])};
  auto truly_feasible = [&](const std::vector<double>& x) {
    const auto e = problem->evaluate(x.data(), target);
    for (int q = 0; q < spec.num_constraints(); ++q)
      if (!spec.constraints()[q].feasible(e.g[q])) return false;
    return true;
  };
  // Random configurations, each with a random fidelity (target or not) and a
  // random observed verdict, so that every case occurs: cheap evaluations,
  // observed violations, and observations that read feasible while the
  // configuration is not (noise).
  rescue::Rng rng(7);
  int infeasible_counted = 0, feasible_counted = 0;
  for (int trial = 0; trial < 20; ++trial) {
    rb::RunResult run;
    run.spec.problem = "healthcare";
    run.spec.hv_max = 5.5;
    run.target_fidelity = target;
    std::vector<std::array<double, 2>> counted;
    std::vector<double> expected;
    for (int i = 0; i < 12; ++i) {
      rb::IterationRecord it;
      it.iteration = i + 1;
      it.cumulative_cost = i + 1;
      it.x = {20.0 + 10.0 * rng.uniform(), rng.uniform()};
      it.fidelity = rng.uniform() < 0.6 ? target : 0.5 * rng.uniform();
      it.violated = rng.uniform() < 0.3;
      if (it.fidelity == target && !it.violated) {
        if (truly_feasible(it.x)) {
          const auto e = problem->evaluate(it.x.data(), target);
          counted.push_back({spec.to_min(0, e.y[0]), spec.to_min(1, e.y[1])});
          ++feasible_counted;
        } else {
          ++infeasible_counted;
        }
      }
      expected.push_back(std::log10(std::max(run.spec.hv_max - sweep_hv(counted, ref), rb::kRegretFloor)));
      run.iterations.push_back(it);
    }
    const std::vector<double> got = rb::in_sample_log10_regret(run, *problem);
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-12) << trial << " " << i;
  }
  // Both kinds of target observation read feasible occurred.
  EXPECT_GT(feasible_counted, 10);
  EXPECT_GT(infeasible_counted, 10);
}

namespace {

// Runs of `strategy` on healthcare, seeds 1 to 3: four evaluations at the
// target each (the first the initial design), the configurations moved by
// `shift` in the second option (Aspirin); the second run ends with an empty recommendation.
std::vector<rb::RunResult> healthcare_runs(const std::string& strategy, double shift) {
  const double target = rp::make_problem("healthcare")->spec().fidelity().target;
  std::vector<rb::RunResult> runs;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    rb::RunResult r;
    r.spec.problem = "healthcare";
    r.spec.strategy = strategy;
    r.spec.seed = seed;
    r.spec.initial_budget = 1.0;
    r.spec.budget = 3.0;
    r.spec.hv_max = 5.5;
    r.target_fidelity = target;
    r.complete = true;
    r.stop_reason = "budget spent";
    for (int i = 1; i <= 4; ++i) {
      rb::IterationRecord it;
      it.iteration = i;
      it.initial = i == 1;
      it.cumulative_cost = i;
      it.fidelity = target;
      it.x = {19.0 + 2.0 * i + seed, 0.1 * i + shift};
      it.inferred_hv = seed == 2 ? 0.0 : 1.0;
      it.log10_regret = std::log10(5.5 - it.inferred_hv);
      r.iterations.push_back(it);
    }
    runs.push_back(r);
  }
  return runs;
}

}  // namespace

TEST(InSample, SummaryReportsItForBuiltInProblemsAndCountsFeasibleLastRecommendations) {
  const auto problem = rp::make_problem("healthcare");
  std::vector<rb::RunResult> runs = healthcare_runs("a", 0.0);
  const auto ps = rb::summarize_problem("healthcare", runs, {"a"});
  ASSERT_EQ(ps.strategies.size(), 1u);
  const auto& st = ps.strategies[0];
  EXPECT_EQ(st.final_recommendation_positive, 2);
  EXPECT_EQ(st.target_evaluations, 4.0);
  ASSERT_EQ(st.in_sample_aur.size(), 3u);
  for (std::size_t k = 0; k < runs.size(); ++k) {
    std::vector<double> cost;
    for (const auto& it : runs[k].iterations) cost.push_back(it.cumulative_cost);
    const double want = rb::area_under_regret(cost, rb::in_sample_log10_regret(runs[k], *problem), 1.0, 3.0);
    EXPECT_NEAR(st.in_sample_aur[k], want, 1e-12);
  }
  // Every configuration here is evaluated at the target and observed feasible:
  // some are truly feasible, so the in-sample regret is below its start.
  EXPECT_LT(st.final_in_sample_regret_mean, std::log10(5.5));
  const std::string md = rb::summary_markdown({ps}, runs, "cmd");
  EXPECT_NE(md.find("| 2 of 3 |"), std::string::npos) << md;

  // A problem the library does not know has no true values: no in-sample figures.
  for (auto& r : runs) r.spec.problem = "toy";
  const auto toy = rb::summarize_problem("toy", runs, {"a"});
  ASSERT_EQ(toy.strategies.size(), 1u);
  EXPECT_TRUE(toy.strategies[0].in_sample_aur.empty());
  EXPECT_TRUE(std::isnan(toy.strategies[0].in_sample_aur_mean));
  EXPECT_EQ(rb::summary_markdown({toy}, runs, "cmd").find("In-sample"), std::string::npos);
}

// The summary pairs the in-sample AUR seed by seed, as it does the AUR.
TEST(InSample, SummaryPairsTheInSampleAurBySeed) {
  std::vector<rb::RunResult> runs = healthcare_runs("a", 0.0), b = healthcare_runs("b", 0.5);
  runs.insert(runs.end(), b.begin(), b.end());
  runs.pop_back();  // b has no third seed: two common seeds
  const auto ps = rb::summarize_problem("healthcare", runs, {"a", "b"});
  ASSERT_EQ(ps.strategies.size(), 2u);
  const auto& sa = ps.strategies[0].in_sample_aur;
  const auto& sb = ps.strategies[1].in_sample_aur;
  ASSERT_EQ(sa.size(), 3u);
  ASSERT_EQ(sb.size(), 2u);
  const auto want = rb::paired_t_test({sa[0], sa[1]}, {sb[0], sb[1]});
  ASSERT_NE(want.mean_difference, 0.0);  // the shifted configurations score differently
  ASSERT_EQ(ps.pairs.size(), 2u);
  for (const auto& p : ps.pairs) {
    const double sign = p.a == "a" ? 1.0 : -1.0;
    EXPECT_EQ(p.in_sample.n, 2);
    EXPECT_NEAR(p.in_sample.mean_difference, sign * want.mean_difference, 1e-12);
    EXPECT_NEAR(p.in_sample.p_value, want.p_value, 1e-12);
    EXPECT_EQ(p.own.n, 0);  // neither has its own recommendation
  }
  const std::string md = rb::summary_markdown({ps}, runs, "cmd");
  const size_t at = md.find("Paired tests of the in-sample AUR");
  ASSERT_NE(at, std::string::npos) << md;
  const std::string table = md.substr(at, md.find("\n\n", md.find("|---", at)) - at);
  EXPECT_NE(table.find("| a | b | 2 |"), std::string::npos) << table;
  EXPECT_EQ(table.find("| b | a |"), std::string::npos) << table;  // each pair once
  EXPECT_EQ(md.find("own recommendation's AUR"), std::string::npos) << md;
}
