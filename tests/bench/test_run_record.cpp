// The run CSV: exact round trip, completion marker, clear errors on bad files;
// and the inferred hypervolume of a recommendation (feasible points only).
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "bench/bench_run.hpp"
#include "bench/blas_core.hpp"
#include "bench/experiment.hpp"
#include "bench/run_record.hpp"
#include "moo/hypervolume.hpp"
#include "problems/benchmark_problem.hpp"
#include "rescue.h"
#include "util/error.hpp"

namespace rb = rescue::bench;

namespace {
rb::RunResult sample_run(bool complete) {
  rb::RunResult r;
  r.spec.problem = "park";
  r.spec.strategy = "hvkg";
  r.spec.seed = 7;
  r.spec.budget = 10;
  r.spec.initial_budget = 2;
  r.spec.hv_max = 0.123456789012345678;
  r.spec.recommend_every = 0.25;
  r.spec.recommend_points = 321;
  r.spec.shared_recommender = true;
  r.option_names = {"x1", "x2"};
  r.target_fidelity = 1.0;
  r.observational_cost = 41.0 / 3.0;
  r.blas_core = "Haswell";
  r.blas_threads = 3;
  r.evaluation_seconds = 2.5;
  for (int i = 1; i <= 3; ++i) {
    rb::IterationRecord it;
    it.iteration = i;
    it.initial = i == 1;
    it.cumulative_cost = 0.1 * i + 1.0 / 7.0;
    it.fidelity = 1.0 / (i + 2);
    it.x = {0.1 * i, std::sqrt(0.5) / i};
    it.inferred_hv = 0.01 * i;
    it.log10_regret = -1.0 - 1.0 / i;
    it.violated = i == 2;
    it.violated_at_target = i == 3;
    it.suggest_seconds = 1e-3 * i;
    it.recommend_seconds = i == 2 ? 0.0 : 0.2;
    it.recommended = i == 2 ? -1 : 5;
    it.own_inferred_hv = 0.02 * i + 1.0 / 3.0;
    r.iterations.push_back(it);
  }
  r.complete = complete;
  r.stop_reason = "budget spent";
  return r;
}
}  // namespace

TEST(RunCsv, ExactRoundTrip) {
  const auto run = sample_run(true);
  std::stringstream ss;
  rb::write_run_csv(ss, run);
  const auto back = rb::read_run_csv(ss);
  EXPECT_TRUE(back.complete);
  EXPECT_EQ(back.stop_reason, "budget spent");
  EXPECT_EQ(back.spec.problem, "park");
  EXPECT_EQ(back.spec.strategy, "hvkg");
  EXPECT_EQ(back.spec.seed, 7u);
  EXPECT_EQ(back.spec.hv_max, run.spec.hv_max);
  EXPECT_EQ(back.spec.recommend_every, 0.25);
  EXPECT_EQ(back.spec.recommend_points, 321);
  EXPECT_TRUE(back.spec.shared_recommender);
  EXPECT_EQ(back.observational_cost, run.observational_cost);
  EXPECT_EQ(back.blas_core, "Haswell");
  EXPECT_EQ(back.blas_threads, 3);
  EXPECT_EQ(back.evaluation_seconds, 2.5);
  EXPECT_EQ(back.option_names, run.option_names);
  ASSERT_EQ(back.iterations.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto &a = run.iterations[i], &b = back.iterations[i];
    EXPECT_EQ(a.iteration, b.iteration);
    EXPECT_EQ(a.initial, b.initial);
    EXPECT_EQ(a.cumulative_cost, b.cumulative_cost);
    EXPECT_EQ(a.fidelity, b.fidelity);
    EXPECT_EQ(a.x, b.x);
    EXPECT_EQ(a.inferred_hv, b.inferred_hv);
    EXPECT_EQ(a.log10_regret, b.log10_regret);
    EXPECT_EQ(a.violated, b.violated);
    EXPECT_EQ(a.violated_at_target, b.violated_at_target);
    EXPECT_EQ(a.suggest_seconds, b.suggest_seconds);
    EXPECT_EQ(a.recommended, b.recommended);
    EXPECT_EQ(a.own_inferred_hv, b.own_inferred_hv);
  }
  // The best-so-far column is written for readers of the file.
  EXPECT_NE(ss.str().find("best_log10_regret"), std::string::npos);
}

// The recommender's size reaches the library: every recommendation of a run
// has at most that many configurations, and more than the default would allow
// to be distinguished from it.
TEST(RunRecommender, SetSizeReachesTheLibrary) {
  rb::RunSpec spec;
  spec.problem = "branin-currin";
  spec.strategy = "random";
  spec.seed = 3;
  spec.initial_budget = 0.3;
  spec.budget = 0.05;
  spec.observational_rows = 0;
  for (int points : {24, 160}) {
    spec.recommend_points = points;
    const auto run = rb::run_benchmark(spec);
    ASSERT_EQ(run.stop_reason.rfind("error", 0), std::string::npos) << run.stop_reason;
    // The library is built against OpenBLAS, whose kernel the run names.
    EXPECT_EQ(run.blas_core, rb::blas_core());
    EXPECT_NE(run.blas_core, "unknown");
    EXPECT_FALSE(run.blas_core.empty());
    EXPECT_EQ(run.blas_threads, rb::blas_threads());
    EXPECT_GE(run.blas_threads, 1);
    int largest = 0;
    for (const auto& it : run.iterations) largest = std::max(largest, it.recommended);
    EXPECT_LE(largest, points);
    EXPECT_GT(largest, points / 2) << "the set is far below the requested size";
  }
}

// Files written before the own-recommendation column existed still read; the
// own hypervolume is then the inferred one (one recommender served both).
TEST(RunCsv, ReadsFilesWithoutTheOwnRecommendationColumn) {
  std::stringstream ss;
  rb::write_run_csv(ss, sample_run(true));
  std::string text = ss.str();
  for (std::size_t at; (at = text.find(",own_inferred_hv")) != std::string::npos;) text.erase(at, 16);
  std::string old;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] != '#' && line.rfind("iteration", 0) != 0) line.erase(line.rfind(','));
    old += line + "\n";
  }
  std::istringstream in(old);
  const auto back = rb::read_run_csv(in);
  ASSERT_EQ(back.iterations.size(), 3u);
  for (const auto& it : back.iterations) EXPECT_EQ(it.own_inferred_hv, it.inferred_hv);
  EXPECT_EQ(back.iterations[2].recommended, 5);
}

// The sample run's file with one metadata line taken out, as an older
// harness wrote it, read back.
namespace {
rb::RunResult read_sample_without(const std::string& line) {
  std::stringstream ss;
  rb::write_run_csv(ss, sample_run(true));
  std::string text = ss.str();
  const auto at = text.find(line);
  EXPECT_NE(at, std::string::npos) << line;
  if (at != std::string::npos) text.erase(at, line.size());
  std::istringstream in(text);
  return rb::read_run_csv(in);
}
}  // namespace

// Files written before the BLAS kernel was recorded read with it empty.
TEST(RunCsv, ReadsFilesWithoutTheBlasKernel) {
  const auto back = read_sample_without("# blas_core=Haswell\n");
  EXPECT_TRUE(back.blas_core.empty());
  EXPECT_EQ(back.iterations.size(), 3u);
}

// Files written before the evaluations' wall time was recorded read with it 0.
TEST(RunCsv, ReadsFilesWithoutTheEvaluationTime) {
  const auto back = read_sample_without("# evaluation_seconds=2.5\n");
  EXPECT_EQ(back.evaluation_seconds, 0.0);
  EXPECT_EQ(back.blas_threads, 3);
  EXPECT_EQ(back.iterations.size(), 3u);
}

// Files written before the BLAS thread count was recorded read with it 0.
TEST(RunCsv, ReadsFilesWithoutTheBlasThreadCount) {
  const auto back = read_sample_without("# blas_threads=3\n");
  EXPECT_EQ(back.blas_threads, 0);
  EXPECT_EQ(back.blas_core, "Haswell");
  EXPECT_EQ(back.iterations.size(), 3u);
}

// Every strategy is measured by the same recommender (protocol): a plain GP
// in a model-free optimizer fed the run's evaluations, fitted on the same
// schedule whatever the strategy. Its inferred hypervolume at each
// recommendation equals that of such an optimizer replaying the run. (A
// model strategy's own optimizer fits its GP at every suggestion, from other
// warm starts, and recommends differently from the same data.)
TEST(RunRecommender, EveryStrategyIsMeasuredWithTheSameRecommender) {
  for (const char* strategy : {"rescue", "hvkg", "ehvi", "random"}) {
    SCOPED_TRACE(strategy);
    rb::RunSpec spec;
    spec.problem = "branin-currin";
    spec.strategy = strategy;
    spec.shared_recommender = std::string(strategy) != "random";
    spec.seed = 5;
    spec.initial_budget = 0.3;
    spec.budget = 0.3;
    spec.max_suggestions = 30;
    spec.observational_rows = std::string(strategy) == "rescue" ? 60 : 0;
    spec.recommend_every = 0.05;
    spec.recommend_points = 40;
    const auto run = rb::run_benchmark(spec);
    ASSERT_EQ(run.stop_reason.rfind("error", 0), std::string::npos) << run.stop_reason;
    ASSERT_FALSE(run.iterations.empty());
    rescue_problem* p = nullptr;
    rescue_optimizer* o = nullptr;
    ASSERT_EQ(rescue_problem_builtin("branin-currin", &p), RESCUE_OK);
    ASSERT_EQ(rescue_problem_set_seed(p, 5), RESCUE_OK);
    ASSERT_EQ(rescue_problem_set_strategy(p, "random"), RESCUE_OK);
    ASSERT_EQ(rescue_problem_set_param(p, "recommend.population", 40), RESCUE_OK);
    ASSERT_EQ(rescue_problem_set_param(p, "recommend.points", 40), RESCUE_OK);
    ASSERT_EQ(rescue_create(p, &o), RESCUE_OK);
    const auto problem = rescue::problems::make_problem("branin-currin");
    int compared = 0;
    for (const auto& it : run.iterations) {
      double y[2];
      ASSERT_EQ(rescue_problem_evaluate(p, it.x.data(), 2, it.fidelity, y, 2, nullptr, 0, nullptr, 0), RESCUE_OK);
      ASSERT_EQ(rescue_observe_at(o, it.x.data(), 2, it.fidelity, y, 2, nullptr, 0, nullptr, 0), RESCUE_OK);
      if (it.recommended < 0) continue;  // no recommendation made at this iteration
      int count = 0;
      ASSERT_EQ(rescue_pareto(o, nullptr, nullptr, 0, &count), RESCUE_OK);
      std::vector<double> px(static_cast<std::size_t>(count) * 2), py(px.size());
      ASSERT_EQ(rescue_pareto(o, px.data(), py.data(), count, &count), RESCUE_OK);
      EXPECT_EQ(it.inferred_hv, rb::inferred_hypervolume(*problem, px)) << "iteration " << it.iteration;
      ++compared;
    }
    EXPECT_GE(compared, 3);
    EXPECT_GT(run.iterations.back().own_inferred_hv, 0.0);
    rescue_destroy(o);
    rescue_problem_free(p);
  }
}

TEST(RunRecommender, PlanUsesTheSharedRecommenderForEveryStrategyButRandom) {
  rb::ExperimentConfig c;
  c.problems = {"branin-currin"};
  c.strategies = {"hvkg", "rescue", "r-w0", "random", "ehvi", "momf", "cost-aware-random"};
  c.variants = {rb::parse_variant("r-w0=rescue:rescue.weight=0")};
  c.seeds = 1;
  for (const auto& r : rb::plan_runs(c)) EXPECT_EQ(r.shared_recommender, r.strategy != "random") << r.strategy;
}

TEST(RunCsv, IncompleteRunHasNoMarker) {
  std::stringstream ss;
  rb::write_run_csv(ss, sample_run(false));
  EXPECT_FALSE(rb::read_run_csv(ss).complete);
}

TEST(RunCsv, MalformedFilesThrow) {
  std::stringstream empty;
  EXPECT_THROW(rb::read_run_csv(empty), rescue::Error);
  std::stringstream ss;
  rb::write_run_csv(ss, sample_run(true));
  const std::string text = ss.str();
  {
    std::string t = text;
    t.replace(t.find("# problem=park\n"), 15, "");
    std::stringstream in(t);
    EXPECT_THROW(rb::read_run_csv(in), rescue::Error);
  }
  {
    std::string t = text;
    const auto pos = t.find("\n1,1,");
    t.replace(pos + 1, 3, "x,1");
    std::stringstream in(t);
    EXPECT_THROW(rb::read_run_csv(in), rescue::Error);
  }
  {
    std::stringstream in(text + "4,0,9,1,0.1,0.2,0,0,0,0,0,0,0,0\n");
    EXPECT_THROW(rb::read_run_csv(in), rescue::Error);  // data after the completion line
  }
  // A count in the metadata that is not one gets the library's error, naming the key.
  const std::vector<std::pair<std::string, std::string>> counts = {
      {"# blas_threads=3\n", "# blas_threads=x\n"},
      {"# blas_threads=3\n", "# blas_threads=3x\n"},
      {"# seed=7\n", "# seed=-7\n"},
      {"# recommend_points=321\n", "# recommend_points=\n"}};
  for (const auto& [line, bad] : counts) {
    std::string t = text;
    const auto pos = t.find(line);
    ASSERT_NE(pos, std::string::npos) << line;
    t.replace(pos, line.size(), bad);
    std::stringstream in(t);
    try {
      rb::read_run_csv(in);
      ADD_FAILURE() << "read " << bad;
    } catch (const rescue::Error& e) {
      EXPECT_NE(std::string(e.what()).find(line.substr(2, line.find('=') - 2)), std::string::npos) << e.what();
    }
  }
}

TEST(InferredHypervolume, DropsConfigurationsInfeasibleAtTheTarget) {
  const auto p = rescue::problems::make_problem("healthcare");
  // BMI 30 with Aspirin 1 violates Cancer <= 0.35 at S = 1; BMI 20, Aspirin 0 does not.
  const std::vector<double> feasible{20.0, 0.0}, infeasible{30.0, 1.0};
  ASSERT_GT(p->evaluate(infeasible.data(), 1.0).g[0], 0.35);
  ASSERT_LE(p->evaluate(feasible.data(), 1.0).g[0], 0.35);
  const auto e = p->evaluate(feasible.data(), 1.0);
  const std::vector<double> ref{0.5, 5.0};
  const double expected = rescue::moo::hypervolume(e.y, 2, ref);
  EXPECT_GT(expected, 0.0);
  std::vector<double> both = feasible;
  both.insert(both.end(), infeasible.begin(), infeasible.end());
  EXPECT_DOUBLE_EQ(rb::inferred_hypervolume(*p, both), expected);
  EXPECT_DOUBLE_EQ(rb::inferred_hypervolume(*p, infeasible), 0.0);
  EXPECT_DOUBLE_EQ(rb::inferred_hypervolume(*p, {}), 0.0);
}

TEST(InferredHypervolume, NegatesMaximizedObjectives) {
  const auto p = rescue::problems::make_problem("branin-currin");
  const std::vector<double> x{0.5, 0.2};
  const auto e = p->evaluate(x.data(), 1.0);
  // Reference (0, 0), both maximized: the box is f1 x f2 when both are positive.
  const double expected = std::max(e.y[0], 0.0) * std::max(e.y[1], 0.0);
  EXPECT_NEAR(rb::inferred_hypervolume(*p, x), expected, 1e-15);
}

TEST(InferredHypervolume, ReusesAndKeepsKnownEvaluations) {
  const auto p = rescue::problems::make_problem("branin-currin");
  const std::vector<double> a{0.5, 0.2}, b{0.1, 0.9};
  std::vector<double> configs = a;
  configs.insert(configs.end(), b.begin(), b.end());
  configs.insert(configs.end(), a.begin(), a.end());
  rb::TargetEvaluations known;
  const double plain = rb::inferred_hypervolume(*p, configs);
  EXPECT_GT(plain, rb::inferred_hypervolume(*p, a));
  EXPECT_EQ(rb::inferred_hypervolume(*p, configs, &known), plain);
  ASSERT_EQ(known.size(), 2u);  // a once, b once
  EXPECT_EQ(known.at(b).y, p->evaluate(b.data(), 1.0).y);
  // A known evaluation is taken as it is: b's made worse than the reference
  // point in both (maximized) objectives leaves a's volume alone.
  known.at(b).y = {-1e9, -1e9};
  EXPECT_EQ(rb::inferred_hypervolume(*p, configs, &known), rb::inferred_hypervolume(*p, a));
}
