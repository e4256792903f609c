// Categorical options through the C ABI: definition and its validation, the
// level index in every configuration the library returns, rejected levels in
// what it is given, and checkpoints.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rescue.h"
#include "test_helpers.hpp"

namespace {

using rescue_test::Opt;
using rescue_test::state;

const char* const kSolvers[] = {"cg", "gmres", "direct"};

// x (continuous), solver (3 levels), n (integer); continuous fidelity; two objectives.
rescue_problem* mixed_problem(const char* strategy, unsigned seed = 11) {
  rescue_problem* p = nullptr;
  rescue_problem_new(&p);
  rescue_problem_add_option(p, "x", 0.0, 1.0, RESCUE_CONTINUOUS);
  EXPECT_EQ(rescue_problem_add_categorical(p, "solver", kSolvers, 3), RESCUE_OK) << rescue_problem_errmsg(p);
  rescue_problem_add_option(p, "n", 1.0, 4.0, RESCUE_INTEGER);
  rescue_problem_set_fidelity_range(p, 0.0, 1.0, 1.0);
  rescue_problem_add_objective(p, "time", RESCUE_MINIMIZE);
  rescue_problem_add_objective(p, "error", RESCUE_MINIMIZE);
  rescue_problem_set_strategy(p, strategy);
  rescue_problem_set_seed(p, seed);
  rescue_test::set_fast(p);
  return p;
}

// The solver's level shifts both objectives, not in the order of the indices:
// "cg" (level 0) is best, "gmres" (level 1) worst.
void simulate(const double* x, double s, double* y) {
  const double level_cost[] = {0.0, 0.6, 0.3};
  const int k = static_cast<int>(x[1]);
  y[0] = (x[0] - 0.4) * (x[0] - 0.4) + level_cost[k] + 0.05 * x[2] + 0.1 * (1.0 - s);
  y[1] = 1.0 - x[0] + 0.5 * level_cost[k];
}

// n suggestions of opt, each observed.
void steps(const Opt& opt, int n) {
  for (int i = 0; i < n; ++i) {
    double x[3], s, y[2];
    int t;
    ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK) << rescue_errmsg(opt.h);
    simulate(x, s, y);
    ASSERT_EQ(rescue_observe(opt.h, t, y, 2, nullptr, 0, nullptr, 0), RESCUE_OK) << rescue_errmsg(opt.h);
  }
}

TEST(Categorical, DefinitionIsValidatedAndAFailureAddsNothing) {
  rescue_problem* p = nullptr;
  ASSERT_EQ(rescue_problem_new(&p), RESCUE_OK);
  const char* two[] = {"a", "b"};
  const char* dup[] = {"a", "b", "a"};
  const char* empty[] = {"a", ""};
  const char* tab[] = {"a", "b\tc"};
  const char* bad_utf8[] = {"a", "\xff"};
  const char* with_null[] = {"a", nullptr};
  EXPECT_EQ(rescue_problem_add_categorical(nullptr, "c", two, 2), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_problem_add_categorical(p, nullptr, two, 2), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_problem_add_categorical(p, "c", nullptr, 2), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_problem_add_categorical(p, "c", with_null, 2), RESCUE_ERR_NULL_POINTER);
  EXPECT_NE(std::string(rescue_problem_errmsg(p)).find("label 1"), std::string::npos) << rescue_problem_errmsg(p);
  EXPECT_EQ(rescue_problem_add_categorical(p, "c", two, 1), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_add_categorical(p, "c", two, 0), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_add_categorical(p, "c", two, -3), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_add_categorical(p, "c", dup, 3), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(rescue_problem_errmsg(p)).find("'a' is given twice"), std::string::npos) << rescue_problem_errmsg(p);
  EXPECT_EQ(rescue_problem_add_categorical(p, "c", empty, 2), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_add_categorical(p, "c", tab, 2), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_add_categorical(p, "c", bad_utf8, 2), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_add_categorical(p, "", two, 2), RESCUE_ERR_INVALID_ARGUMENT);
  // A categorical option needs its levels: the numeric call refuses the kind.
  EXPECT_EQ(rescue_problem_add_option(p, "c", 0.0, 1.0, RESCUE_CATEGORICAL), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(rescue_problem_errmsg(p)).find("rescue_problem_add_categorical"), std::string::npos);
  ASSERT_EQ(rescue_problem_add_option(p, "x", 0.0, 1.0, RESCUE_CONTINUOUS), RESCUE_OK);
  EXPECT_EQ(rescue_problem_add_categorical(p, "x", two, 2), RESCUE_ERR_INVALID_ARGUMENT);  // name in use
  // The causal model names level k "c=label": no other variable may take such a name.
  ASSERT_EQ(rescue_problem_add_indicator(p, "c=b"), RESCUE_OK);
  EXPECT_EQ(rescue_problem_add_categorical(p, "c", two, 2), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(rescue_problem_errmsg(p)).find("'c=b'"), std::string::npos) << rescue_problem_errmsg(p);
  ASSERT_EQ(rescue_problem_add_categorical(p, "d", two, 2), RESCUE_OK);
  EXPECT_EQ(rescue_problem_add_objective(p, "d=a", RESCUE_MINIMIZE), RESCUE_ERR_INVALID_ARGUMENT);
  rescue_problem_add_objective(p, "f", RESCUE_MINIMIZE);
  rescue_optimizer* opt = nullptr;
  ASSERT_EQ(rescue_create(p, &opt), RESCUE_OK);
  EXPECT_EQ(rescue_dimension(opt), 2);  // none of the refused calls added an option
  EXPECT_EQ(rescue_num_objectives(opt), 1);
  rescue_destroy(opt);
  rescue_problem_free(p);
}

TEST(Categorical, InfoLevelsAndLabels) {
  Opt opt(mixed_problem("random"));
  double lo = -1, hi = -1;
  int kind = -1;
  ASSERT_EQ(rescue_option_info(opt.h, 1, &lo, &hi, &kind), RESCUE_OK);
  EXPECT_EQ(kind, RESCUE_CATEGORICAL);
  EXPECT_EQ(lo, 0.0);
  EXPECT_EQ(hi, 2.0);
  EXPECT_EQ(rescue_option_levels(opt.h, 1), 3);
  EXPECT_EQ(rescue_option_levels(opt.h, 0), 0);
  EXPECT_EQ(rescue_option_levels(opt.h, 2), 0);
  EXPECT_EQ(rescue_option_levels(opt.h, 3), -1);
  EXPECT_EQ(rescue_option_levels(opt.h, -1), -1);
  EXPECT_EQ(rescue_option_levels(nullptr, 1), -1);
  for (int k = 0; k < 3; ++k) EXPECT_STREQ(rescue_option_label(opt.h, 1, k), kSolvers[k]);
  EXPECT_EQ(rescue_option_label(opt.h, 1, 3), nullptr);
  EXPECT_EQ(rescue_option_label(opt.h, 1, -1), nullptr);
  EXPECT_EQ(rescue_option_label(opt.h, 0, 0), nullptr);  // not categorical
  EXPECT_EQ(rescue_option_label(opt.h, 5, 0), nullptr);
  EXPECT_EQ(rescue_option_label(nullptr, 1, 0), nullptr);
}

// Every strategy suggests level indices only, and its Pareto set holds them too.
TEST(Categorical, EveryStrategySuggestsLevelIndicesOnly) {
  for (const char* strategy : {"random", "cost-aware-random", "hvkg", "ehvi", "momf", "rescue"}) {
    SCOPED_TRACE(strategy);
    Opt opt(mixed_problem(strategy));
    int seen[3] = {0, 0, 0};
    for (int i = 0; i < 24; ++i) {
      double x[3], s, y[2];
      int t;
      ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK) << rescue_errmsg(opt.h);
      ASSERT_EQ(x[1], std::round(x[1])) << "fractional level at suggestion " << i;
      ASSERT_GE(x[1], 0.0);
      ASSERT_LE(x[1], 2.0);
      ++seen[static_cast<int>(x[1])];
      simulate(x, s, y);
      ASSERT_EQ(rescue_observe(opt.h, t, y, 2, nullptr, 0, nullptr, 0), RESCUE_OK) << rescue_errmsg(opt.h);
    }
    EXPECT_GT(seen[0] + seen[1], 0);  // the design explores more than one level
    EXPECT_GT(seen[2], 0);
    double px[3 * 64], py[2 * 64];
    int count = 0;
    ASSERT_EQ(rescue_pareto(opt.h, px, py, 64, &count), RESCUE_OK) << rescue_errmsg(opt.h);
    ASSERT_GT(count, 0);
    for (int i = 0; i < count; ++i) {
      EXPECT_EQ(px[i * 3 + 1], std::round(px[i * 3 + 1]));
      EXPECT_GE(px[i * 3 + 1], 0.0);
      EXPECT_LE(px[i * 3 + 1], 2.0);
    }
  }
}

// The causal model sees each level through its own indicator variable: the
// graph names "solver=gmres" and "solver=direct" (level 0 is the baseline),
// and its do-estimates follow the levels' effects, which are not monotone in
// the level index (a numeric encoding of the index could not fit them).
TEST(Categorical, TheCausalModelHasAnIndicatorPerLevel) {
  rescue_problem* p = mixed_problem("rescue");
  Opt opt(p);
  std::vector<double> rows;
  {
    unsigned state = 12345;
    auto uniform = [&] {
      state = state * 1664525u + 1013904223u;
      return (state >> 8) / double(1u << 24);
    };
    for (int i = 0; i < 120; ++i) {
      const double x[3] = {uniform(), double(i % 3), double(1 + i % 4)};
      const double s = uniform();
      double y[2];
      simulate(x, s, y);
      rows.insert(rows.end(), {x[0], x[1], x[2], s, y[0], y[1]});
    }
  }
  ASSERT_EQ(rescue_add_observational(opt.h, rows.data(), 120, 6), RESCUE_OK) << rescue_errmsg(opt.h);
  double x[3], s;
  int t;
  ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK) << rescue_errmsg(opt.h);
  double y[2];
  simulate(x, s, y);
  ASSERT_EQ(rescue_observe(opt.h, t, y, 2, nullptr, 0, nullptr, 0), RESCUE_OK);
  ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK) << rescue_errmsg(opt.h);
  size_t len = 0;
  rescue_causal_graph(opt.h, RESCUE_GRAPH_JSON, 0, nullptr, 0, &len);
  ASSERT_GT(len, 0u);
  std::string graph(len + 1, '\0');
  ASSERT_EQ(rescue_causal_graph(opt.h, RESCUE_GRAPH_JSON, 0, &graph[0], graph.size(), &len), RESCUE_OK);
  EXPECT_NE(graph.find("\"solver=gmres\""), std::string::npos) << graph;
  EXPECT_NE(graph.find("\"solver=direct\""), std::string::npos) << graph;
  EXPECT_EQ(graph.find("\"solver=cg\""), std::string::npos) << graph;
  EXPECT_EQ(graph.find("\"solver\""), std::string::npos) << graph;
  // do(x = 0.4, solver = k, n = 2) at the target: time 0.1 + level cost.
  const double points[9] = {0.4, 0.0, 2.0, 0.4, 1.0, 2.0, 0.4, 2.0, 2.0};
  const double target[3] = {1.0, 1.0, 1.0};
  double mean[6], sd[6];
  ASSERT_EQ(rescue_causal_estimates(opt.h, points, 3, 3, target, mean, sd, 2), RESCUE_OK) << rescue_errmsg(opt.h);
  const double time_cg = mean[0], time_gmres = mean[2], time_direct = mean[4];
  EXPECT_NEAR(time_cg, 0.1, 0.1);
  EXPECT_NEAR(time_gmres, 0.7, 0.1);
  EXPECT_NEAR(time_direct, 0.4, 0.1);
  // Background knowledge by the option's own name stands for its indicators.
  EXPECT_EQ(rescue_constrain_edge(opt.h, "solver", "time", RESCUE_EDGE_REQUIRED), RESCUE_OK) << rescue_errmsg(opt.h);
}

TEST(Categorical, ALevelThatIsNotAnIndexIsRejectedAndChangesNothing) {
  Opt opt(mixed_problem("random"));
  steps(opt, 5);
  const std::string before = state(opt.h);
  const double y[2] = {0.1, 0.2};
  const double fractional[3] = {0.5, 1.5, 2.0};
  EXPECT_EQ(rescue_observe_at(opt.h, fractional, 3, 1.0, y, 2, nullptr, 0, nullptr, 0), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(rescue_errmsg(opt.h)).find("is not a level index"), std::string::npos) << rescue_errmsg(opt.h);
  const double beyond[3] = {0.5, 3.0, 2.0};
  EXPECT_EQ(rescue_observe_at(opt.h, beyond, 3, 1.0, y, 2, nullptr, 0, nullptr, 0), RESCUE_ERR_OUT_OF_RANGE);
  const double negative[3] = {0.5, -1.0, 2.0};
  EXPECT_EQ(rescue_observe_at(opt.h, negative, 3, 1.0, y, 2, nullptr, 0, nullptr, 0), RESCUE_ERR_OUT_OF_RANGE);
  const double nan_level[3] = {0.5, std::nan(""), 2.0};
  EXPECT_EQ(rescue_observe_at(opt.h, nan_level, 3, 1.0, y, 2, nullptr, 0, nullptr, 0), RESCUE_ERR_NON_FINITE);
  double mean[2];
  const double target = 1.0;
  EXPECT_EQ(rescue_predict(opt.h, fractional, 1, 3, &target, mean, nullptr, 2, nullptr), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(state(opt.h), before);
  const double good[3] = {0.5, 2.0, 2.0};
  EXPECT_EQ(rescue_observe_at(opt.h, good, 3, 1.0, y, 2, nullptr, 0, nullptr, 0), RESCUE_OK) << rescue_errmsg(opt.h);
}

TEST(Categorical, CheckpointsKeepTheLabels) {
  Opt opt(mixed_problem("hvkg"));
  steps(opt, 6);
  const std::string text = state(opt.h);
  rescue_optimizer* back = nullptr;
  ASSERT_EQ(rescue_load(text.data(), text.size(), &back), RESCUE_OK) << rescue_last_error();
  EXPECT_EQ(rescue_option_levels(back, 1), 3);
  for (int k = 0; k < 3; ++k) EXPECT_STREQ(rescue_option_label(back, 1, k), kSolvers[k]);
  EXPECT_EQ(state(back), text);
  // The same next suggestion from the restored state.
  double xa[3], xb[3], sa, sb;
  int ta, tb;
  ASSERT_EQ(rescue_suggest(opt.h, xa, 3, &sa, &ta), RESCUE_OK);
  ASSERT_EQ(rescue_suggest(back, xb, 3, &sb, &tb), RESCUE_OK);
  for (int j = 0; j < 3; ++j) EXPECT_EQ(xa[j], xb[j]);
  rescue_destroy(back);

  // A journal resumes with the labels and the same state.
  char path[] = "/tmp/rescue_categorical_journal_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_EQ(rescue_journal_open(opt.h, path), RESCUE_OK) << rescue_errmsg(opt.h);
  steps(opt, 1);
  rescue_optimizer* resumed = nullptr;
  ASSERT_EQ(rescue_journal_resume(path, &resumed, nullptr), RESCUE_OK) << rescue_last_error();
  EXPECT_STREQ(rescue_option_label(resumed, 1, 2), "direct");
  EXPECT_EQ(state(resumed), state(opt.h));
  rescue_destroy(resumed);
  rescue_journal_close(opt.h);
  std::remove(path);

  // Damaged labels: repeated, missing, or bounds that do not match them.
  auto damaged = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const auto at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) t.replace(at, from.size(), to);
    rescue_optimizer* o = nullptr;
    const rescue_status st = rescue_load(t.data(), t.size(), &o);
    rescue_destroy(o);
    return st;
  };
  EXPECT_EQ(damaged("\"gmres\"", "\"cg\""), RESCUE_ERR_CORRUPT_CHECKPOINT);
  EXPECT_EQ(damaged("\"labels\"", "\"levels\""), RESCUE_ERR_CORRUPT_CHECKPOINT);
  EXPECT_EQ(damaged("\"upper\": 2.0", "\"upper\": 3.0"), RESCUE_ERR_CORRUPT_CHECKPOINT);
  EXPECT_EQ(damaged("\"direct\"", "1"), RESCUE_ERR_CORRUPT_CHECKPOINT);
}

}  // namespace
