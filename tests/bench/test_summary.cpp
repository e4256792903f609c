// Summary bookkeeping on synthetic runs with known curves: AUR per seed,
// pairing by seed, shares and rates, medians; and the run plan.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "bench/experiment.hpp"
#include "bench/plots.hpp"
#include "bench/problem_registry.hpp"
#include "bench/regret_curve.hpp"
#include "bench/summary.hpp"
#include "util/error.hpp"

namespace rb = rescue::bench;

namespace {
// A run whose regret is `level` from the end of the initial design on
// (costs 1, 2, 3, 4 with init 2, budget 2), and -0.5 before.
rb::RunResult flat_run(const std::string& strategy, std::uint64_t seed, double level) {
  rb::RunResult r;
  r.spec.problem = "toy";
  r.spec.strategy = strategy;
  r.spec.seed = seed;
  r.spec.initial_budget = 2.0;
  r.spec.budget = 2.0;
  r.spec.hv_max = 1.0;
  r.target_fidelity = 1.0;
  r.complete = true;
  r.stop_reason = "budget spent";
  for (int i = 1; i <= 4; ++i) {
    rb::IterationRecord it;
    it.iteration = i;
    it.initial = i <= 2;
    it.cumulative_cost = i;
    it.fidelity = i == 4 ? 1.0 : 0.25;
    it.log10_regret = i < 2 ? -0.5 : level;
    it.violated = i == 3;
    it.violated_at_target = false;
    it.suggest_seconds = 0.1 * i;
    r.iterations.push_back(it);
  }
  return r;
}
}  // namespace

TEST(Summary, EvaluationSecondsPerQueryOverTheRunsThatRecordedThem) {
  std::vector<rb::RunResult> runs = {flat_run("a", 1, -1.0), flat_run("a", 2, -1.0), flat_run("a", 3, -1.0),
                                     flat_run("b", 1, -1.0)};
  runs[0].evaluation_seconds = 2.0;
  runs[1].evaluation_seconds = 6.0;  // runs[2] has none recorded: left out, not counted as zero
  const auto ps = rb::summarize_problem("toy", runs, {"a", "b"});
  EXPECT_NEAR(ps.strategies[0].mean_evaluation_seconds, 8.0 / 8.0, 1e-15);
  EXPECT_TRUE(std::isnan(ps.strategies[1].mean_evaluation_seconds));
  const std::string md = rb::summary_markdown({ps}, runs, "cmd");
  EXPECT_NE(md.find("| median suggestion s | mean evaluation s | errors |"), std::string::npos);
}

TEST(Summary, AurPairingAndRates) {
  std::vector<rb::RunResult> runs;
  const double a[] = {-2.0, -3.0, -2.5}, b[] = {-1.0, -1.5, -1.25};
  for (int s = 0; s < 3; ++s) {
    runs.push_back(flat_run("a", s + 1, a[s]));
    runs.push_back(flat_run("b", s + 1, b[s]));
  }
  runs.push_back(flat_run("b", 9, -9.0));  // no partner: in b's mean, not in the pairs
  auto err = flat_run("a", 10, 0.0);
  err.stop_reason = "error: something";
  runs.push_back(err);
  const auto ps = rb::summarize_problem("toy", runs, {"a", "b", "absent"});
  ASSERT_EQ(ps.strategies.size(), 2u);
  const auto& sa = ps.strategies[0];
  EXPECT_EQ(sa.strategy, "a");
  EXPECT_EQ(sa.aur.size(), 3u);
  EXPECT_EQ(sa.errors, 1);
  EXPECT_NEAR(sa.aur_mean, -2.5, 1e-14);
  EXPECT_NEAR(sa.aur_sd, 0.5, 1e-14);
  EXPECT_NEAR(ps.strategies[1].aur_mean, (-1.0 - 1.5 - 1.25 - 9.0) / 4.0, 1e-14);
  // Own queries are iterations 3 and 4: one below the target fidelity.
  EXPECT_NEAR(sa.cheap_share, 0.5, 1e-15);
  EXPECT_NEAR(sa.mean_fidelity, 0.625, 1e-15);
  EXPECT_NEAR(sa.violation_rate, 0.25, 1e-15);
  EXPECT_NEAR(sa.median_suggest_seconds, 0.35, 1e-15);
  EXPECT_NEAR(sa.mean_queries, 4.0, 1e-15);
  ASSERT_EQ(ps.pairs.size(), 2u);
  const auto& ab = ps.pairs[0];
  EXPECT_EQ(ab.a, "a");
  EXPECT_EQ(ab.b, "b");
  EXPECT_EQ(ab.test.n, 3);
  const auto expected = rb::paired_t_test({-2.0, -3.0, -2.5}, {-1.0, -1.5, -1.25});
  EXPECT_NEAR(ab.test.t, expected.t, 1e-12);
  EXPECT_NEAR(ab.test.p_value, expected.p_value, 1e-12);
  EXPECT_NEAR(ab.gain, (-1.25 - -2.5) / 1.25, 1e-12);
  const std::string md = rb::summary_markdown({ps}, runs, "rescue-bench --test");
  EXPECT_NE(md.find("| a | b | 3 |"), std::string::npos);
  EXPECT_NE(md.find("rescue-bench --test"), std::string::npos);
  std::ostringstream csv;
  rb::write_summary_csv(csv, {ps});
  EXPECT_NE(csv.str().find("toy,a,3,-2.5,0.5,"), std::string::npos);
}

TEST(Summary, MedianSuggestTimeByObservationCount) {
  std::vector<rb::RunResult> runs{flat_run("a", 1, -1), flat_run("a", 2, -1)};
  runs[1].iterations[2].suggest_seconds = 0.9;
  // Suggestion 3 is made with 2 observations in.
  EXPECT_NEAR(rb::median_suggest_seconds_at(runs, "a", 2, 0), 0.6, 1e-15);
  EXPECT_TRUE(std::isnan(rb::median_suggest_seconds_at(runs, "a", 50, 2)));
  EXPECT_TRUE(std::isnan(rb::median({})));
  EXPECT_DOUBLE_EQ(rb::median({3, 1, 2}), 2.0);
}

TEST(Summary, RegretBandsAreMeanAndSdOfBestSoFar) {
  std::vector<rb::RunResult> runs{flat_run("a", 1, -2.0), flat_run("a", 2, -4.0)};
  const auto rows = rb::regret_bands(runs, {"a"}, 5);  // costs 0, 1, 2, 3, 4
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_NEAR(rows[0][1], 0.0, 1e-15);  // log10(1 - 0): nothing found yet
  EXPECT_NEAR(rows[1][1], -0.5, 1e-15);
  EXPECT_NEAR(rows[2][1], -3.0, 1e-15);
  EXPECT_NEAR(rows[2][2], std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(rows[4][1], -3.0, 1e-15);
}

TEST(Plan, ProtocolDefaultsAndOrder) {
  EXPECT_EQ(rb::protocol_budget("branin-currin"), 5.0);
  EXPECT_EQ(rb::protocol_budget("healthcare"), 5.0);
  EXPECT_EQ(rb::protocol_budget("park-adversarial"), 10.0);
  EXPECT_EQ(rb::protocol_budget("healthcare-unrelated"), 5.0);
  EXPECT_EQ(rb::protocol_budget("robot-standin"), 20.0);
  EXPECT_THROW(rb::protocol_budget("nope"), rescue::Error);
  rb::ExperimentConfig c;
  EXPECT_EQ(c.seeds, 20);
  EXPECT_EQ(c.initial_budget, 2.0);
  EXPECT_EQ(c.observational_rows, 200);
  EXPECT_EQ(c.max_suggestions, 200);
  c.problems = {"park", "healthcare"};
  c.strategies = {"random", "hvkg"};
  c.seeds = 2;
  const auto plan = rb::plan_runs(c);
  ASSERT_EQ(plan.size(), 8u);
  EXPECT_EQ(plan[0].problem, "park");
  EXPECT_EQ(plan[0].budget, 10.0);
  EXPECT_EQ(plan[1].strategy, "hvkg");
  EXPECT_EQ(plan[1].seed, 1u);
  EXPECT_EQ(plan[2].seed, 2u);
  EXPECT_EQ(plan[4].problem, "healthcare");
  EXPECT_EQ(plan[4].budget, 5.0);
  EXPECT_GT(plan[0].hv_max, 0.0);
  for (const char* external : {"forest-hpo", "forest-hpo-constrained"}) {
    EXPECT_GT(rb::max_hypervolume(external).value, 0.0) << external;
    EXPECT_GT(rb::max_hypervolume(external).precision, 0.0) << external;
  }
  EXPECT_EQ(rb::run_csv_path("out", plan[1]), "out/runs/park/hvkg/seed-1.csv");
  const auto q = rb::quick_config();
  EXPECT_EQ(q.seeds, 2);
  EXPECT_EQ(q.budget, 1.0);
}

// A run measured by the shared recommender also reports the AUR of its own
// recommendation: a constant own regret of 1e-3 (hv_max 1) gives AUR -3.
TEST(Summary, OwnRecommendationOfSharedRecommenderRuns) {
  std::vector<rb::RunResult> runs;
  for (std::uint64_t s = 1; s <= 2; ++s) {
    rb::RunResult r = flat_run("rescue", s, -2.0);
    r.spec.shared_recommender = true;
    for (auto& it : r.iterations) it.own_inferred_hv = 1.0 - 1e-3;
    runs.push_back(r);
    runs.push_back(flat_run("hvkg", s, -2.0));
  }
  const auto ps = rb::summarize_problem("toy", runs, {"rescue", "hvkg"});
  ASSERT_EQ(ps.strategies.size(), 2u);
  ASSERT_EQ(ps.strategies[0].own_aur.size(), 2u);
  EXPECT_NEAR(ps.strategies[0].own_aur_mean, -3.0, 1e-9);
  EXPECT_NEAR(ps.strategies[0].aur_mean, -2.0, 1e-9);
  EXPECT_TRUE(ps.strategies[1].own_aur.empty());
  const std::string md = rb::summary_markdown({ps}, runs, "cmd");
  EXPECT_NE(md.find("| rescue | 2 | -3.000 |"), std::string::npos) << md;
}

// Two strategies that both have their own recommendation are paired on it
// seed by seed: own regrets 1e-3 against 1e-2 and 2e-2 (hv_max 1).
TEST(Summary, OwnRecommendationsArePairedBySeed) {
  std::vector<rb::RunResult> runs;
  for (std::uint64_t s = 1; s <= 2; ++s)
    for (const char* strategy : {"rescue", "rescue-b"}) {
      rb::RunResult r = flat_run(strategy, s, -2.0);
      r.spec.shared_recommender = true;
      const double own = std::string(strategy) == "rescue" ? 1e-3 : 1e-2 * static_cast<double>(s);
      for (auto& it : r.iterations) it.own_inferred_hv = 1.0 - own;
      runs.push_back(r);
    }
  const auto ps = rb::summarize_problem("toy", runs, {"rescue", "rescue-b"});
  ASSERT_EQ(ps.pairs.size(), 2u);
  const auto want = rb::paired_t_test({-3.0, -3.0}, {-2.0, std::log10(2e-2)});
  const auto& p = ps.pairs[0];
  ASSERT_EQ(p.a, "rescue");
  EXPECT_EQ(p.own.n, 2);
  EXPECT_NEAR(p.own.mean_difference, want.mean_difference, 1e-9);
  EXPECT_NEAR(p.own.p_value, want.p_value, 1e-9);
  EXPECT_EQ(p.test.mean_difference, 0.0);  // the shared recommender scores them alike
  const std::string md = rb::summary_markdown({ps}, runs, "cmd");
  EXPECT_NE(md.find("Paired tests of the own recommendation's AUR"), std::string::npos) << md;
  EXPECT_NE(md.find("| rescue | rescue-b | 2 | -1.1505 |"), std::string::npos) << md;
}

TEST(Summary, StartOfTheRunsIsComparedPerPair) {
  // Same initial design: the best regret at its end (iteration 2) must agree.
  std::vector<rb::RunResult> runs;
  for (std::uint64_t s = 1; s <= 4; ++s) {
    rb::RunResult a = flat_run("a", s, -2.0), b = flat_run("b", s, -3.0), c = flat_run("c", s, -2.0);
    b.iterations[1].log10_regret = -2.0;  // b starts where a does, then improves
    a.blas_core = b.blas_core = "Haswell";
    a.blas_threads = b.blas_threads = 1;
    if (s == 2) c.iterations[1].log10_regret = -2.3;  // measured differently on one seed
    if (s == 3) c.iterations[0].log10_regret = -2.1;  // the best of the design is what counts
    c.blas_core = s <= 2 ? "Prescott" : "";
    c.blas_threads = s <= 2 ? 2 : 0;
    runs.push_back(a);
    runs.push_back(b);
    runs.push_back(c);
  }
  const auto ps = rb::summarize_problem("toy", runs, {"a", "b", "c"});
  ASSERT_EQ(ps.pairs.size(), 6u);
  auto pair = [&](const std::string& x, const std::string& y) {
    for (const auto& p : ps.pairs)
      if (p.a == x && p.b == y) return p;
    ADD_FAILURE() << x << " " << y;
    return rb::PairwiseStats{};
  };
  EXPECT_EQ(pair("a", "b").start_differs, 0);
  EXPECT_EQ(pair("a", "b").start_difference, 0.0);
  EXPECT_EQ(pair("c", "a").start_differs, 2);
  EXPECT_NEAR(pair("c", "a").start_difference, (-0.3 - 0.1) / 4.0, 1e-12);
  EXPECT_NEAR(pair("a", "c").start_difference, (0.3 + 0.1) / 4.0, 1e-12);
  EXPECT_EQ(ps.strategies[0].blas.at("Haswell, 1 thread"), 4);
  EXPECT_EQ(ps.strategies[2].blas.at("Prescott, 2 threads"), 2);
  EXPECT_EQ(ps.strategies[2].blas.at("not recorded"), 2);
  const std::string md = rb::summary_markdown({ps}, runs, "cmd");
  EXPECT_NE(md.find("| 0 |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| 2 (mean -0.1000) |"), std::string::npos) << md;
  EXPECT_NE(md.find("c (Prescott, 2 threads: 2, not recorded: 2)"), std::string::npos) << md;
}

// A recommended set above the stored maximum (by more than the regret floor) is
// named in the summary: its regret sits at the floor, so the maximum is too low.
TEST(Summary, RunsAboveTheStoredMaximumAreNamed) {
  std::vector<rb::RunResult> runs{flat_run("a", 1, -2.0), flat_run("b", 2, -2.0)};
  for (auto& it : runs[0].iterations) it.inferred_hv = 0.99;
  for (auto& it : runs[1].iterations) it.inferred_hv = 1.0 + 5e-7;  // within the floor of hv_max = 1
  auto ps = rb::summarize_problem("toy", runs, {"a", "b"});
  EXPECT_DOUBLE_EQ(ps.best_hv, 1.0 + 5e-7);
  EXPECT_EQ(ps.best_hv_run, "b seed 2");
  EXPECT_EQ(rb::summary_markdown({ps}, runs, "cmd").find("too low"), std::string::npos);

  runs[0].iterations[3].own_inferred_hv = 1.02;
  ps = rb::summarize_problem("toy", runs, {"a", "b"});
  EXPECT_EQ(ps.best_hv_run, "a seed 1");
  const std::string md = rb::summary_markdown({ps}, runs, "cmd");
  EXPECT_NE(md.find("**The stored maximum hypervolume is too low**: a seed 1 reached 1.020000 at the target"),
            std::string::npos) << md;
}

// A run file keeps the maximum hypervolume of its day. A later search that
// raises the stored maximum neither reruns it nor leaves its regret measured
// against the old value: the regret is recomputed from the recorded
// hypervolumes against the current maximum.
TEST(Plan, RunFilesAreMeasuredAgainstTheCurrentMaximum) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("rescue-current-max-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  rb::ExperimentConfig c;
  c.problems = {"branin-currin"};
  c.strategies = {"random"};
  c.seeds = 1;
  c.budget = 0.3;
  c.initial_budget = 0.2;
  c.max_suggestions = 3;
  c.plots = false;
  c.out_dir = dir.string();
  const auto plan = rb::plan_runs(c);
  ASSERT_EQ(plan.size(), 1u);
  const double current = plan[0].hv_max;
  ASSERT_GT(current, 0.0);
  const double older = 0.5 * current;

  rb::RunResult old;
  old.spec = plan[0];
  old.spec.hv_max = older;  // an older, lower maximum
  old.complete = true;
  old.stop_reason = "budget spent";
  old.option_names = {"x1", "x2"};
  for (int i = 1; i <= 3; ++i) {
    rb::IterationRecord it;
    it.iteration = i;
    it.cumulative_cost = 0.1 * i;
    it.fidelity = 1.0;
    it.x = {0.5, 0.5};
    it.inferred_hv = older * (1.0 - 0.25 * (3 - i));
    it.own_inferred_hv = it.inferred_hv;
    it.log10_regret = std::log10(std::max(old.spec.hv_max - it.inferred_hv, rb::kRegretFloor));
    old.iterations.push_back(it);
  }
  const std::string path = rb::run_csv_path(c.out_dir, plan[0]);
  fs::create_directories(fs::path(path).parent_path());
  {
    std::ofstream out(path);
    rb::write_run_csv(out, old);
  }
  const auto runs = rb::load_complete_runs(c);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].spec.hv_max, current);
  for (const auto& it : runs[0].iterations)
    EXPECT_DOUBLE_EQ(it.log10_regret, std::log10(current - it.inferred_hv)) << it.iteration;
  EXPECT_NEAR(runs[0].iterations.back().log10_regret, std::log10(current - older), 1e-12);  // not the floor

  std::ostringstream log;
  EXPECT_EQ(rb::run_experiment(c, log), 0);
  std::ifstream again(path);
  EXPECT_EQ(rb::read_run_csv(again).spec.hv_max, older) << "the run was repeated";
  fs::remove_all(dir);
}

// --check-max-hv --out DIR starts from the configurations that complete run
// files evaluated at the target: each once, from any strategy and seed.
TEST(Plan, TargetConfigurationsOfRunFiles) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("rescue-target-configs-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  auto write = [&](const std::string& strategy, std::uint64_t seed, bool complete,
                   const std::vector<std::pair<double, std::vector<double>>>& rows) {
    rb::RunResult r;
    r.spec.problem = "toy";
    r.spec.strategy = strategy;
    r.spec.seed = seed;
    r.target_fidelity = 1.0;
    r.complete = complete;
    r.stop_reason = "budget spent";
    r.option_names = {"a", "b"};
    int i = 0;
    for (const auto& [s, x] : rows) {
      rb::IterationRecord it;
      it.iteration = ++i;
      it.fidelity = s;
      it.x = x;
      r.iterations.push_back(it);
    }
    const std::string path = rb::run_csv_path(dir.string(), r.spec);
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream out(path);
    rb::write_run_csv(out, r);
  };
  write("hvkg", 1, true, {{0.2, {0.1, 0.1}}, {1.0, {0.5, 0.25}}, {1.0, {0.75, 0.5}}});
  write("ehvi", 3, true, {{1.0, {0.5, 0.25}}, {1.0, {0.125, 1.0}}});
  write("momf", 2, false, {{1.0, {0.9, 0.9}}});  // an unfinished run: left out
  const auto found = rb::target_configurations(dir.string(), "toy");
  const std::vector<std::vector<double>> expected = {{0.125, 1.0}, {0.5, 0.25}, {0.75, 0.5}};
  EXPECT_EQ(found, expected);
  EXPECT_TRUE(rb::target_configurations(dir.string(), "other").empty());
  fs::remove_all(dir);
}
