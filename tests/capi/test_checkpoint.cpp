// Checkpoints: exact round trip, save/load/continue equals an uninterrupted
// run, and corrupt or newer input is refused with a clear status, never a crash.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "rescue.h"
#include "test_helpers.hpp"

namespace {

using rescue_test::simulate;
using rescue_test::small_problem;
using rescue_test::state;

rescue_optimizer* create(rescue_problem* p) {
  rescue_optimizer* opt = nullptr;
  EXPECT_EQ(rescue_create(p, &opt), RESCUE_OK) << rescue_last_error();
  rescue_problem_free(p);
  return opt;
}

rescue_optimizer* load(const std::string& text, rescue_status expected = RESCUE_OK) {
  rescue_optimizer* opt = nullptr;
  EXPECT_EQ(rescue_load(text.data(), text.size(), &opt), expected) << rescue_last_error();
  return opt;
}

// A checkpoint's text with one piece replaced, as an edit by hand would (a
// failure when the piece is not there).
std::string edited(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from << " not in " << text.substr(0, 400);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Runs n steps of the loop, leaving `pending` suggestions outstanding at the end.
void step(rescue_optimizer* opt, int n, std::vector<double>* trace) {
  for (int i = 0; i < n; ++i) {
    double x[3], s, y[2], g[1], z[1];
    int t;
    ASSERT_EQ(rescue_suggest(opt, x, 3, &s, &t), RESCUE_OK) << rescue_errmsg(opt);
    simulate(x, s, y, g, z);
    ASSERT_EQ(rescue_observe(opt, t, y, 2, g, 1, z, 1), RESCUE_OK);
    trace->insert(trace->end(), {x[0], x[1], x[2], s, double(t)});
  }
}

TEST(Checkpoint, SaveLoadContinueEqualsUninterruptedRun) {
  for (const char* strategy : {"random", "cost-aware-random"}) {
    rescue_problem* p = small_problem(strategy, 21);
    rescue_problem_set_budget(p, 5000.0);
    rescue_optimizer* a = create(p);
    std::vector<double> ta, tb;
    step(a, 10, &ta);
    // Two pending tickets travel through the checkpoint.
    double x1[3], s1, x2[3], s2;
    int t1, t2;
    ASSERT_EQ(rescue_suggest(a, x1, 3, &s1, &t1), RESCUE_OK);
    ASSERT_EQ(rescue_suggest(a, x2, 3, &s2, &t2), RESCUE_OK);
    const std::string text = state(a);
    rescue_optimizer* b = load(text);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(state(b), text);  // an exact round trip
    EXPECT_STREQ(rescue_strategy_name(b), strategy);
    for (rescue_optimizer* o : {a, b}) {
      double y[2], g[1], z[1];
      simulate(x2, s2, y, g, z);
      ASSERT_EQ(rescue_observe(o, t2, y, 2, g, 1, z, 1), RESCUE_OK);
      ASSERT_EQ(rescue_cancel(o, t1), RESCUE_OK);
    }
    ta.clear();
    step(a, 15, &ta);
    step(b, 15, &tb);
    EXPECT_EQ(ta, tb) << strategy;
    EXPECT_EQ(state(a), state(b));
    rescue_destroy(a);
    rescue_destroy(b);
  }
}

// A checkpoint keeps the parameter values it was written with, also those
// outside the domains rescue_problem_set_param enforces (a checkpoint may come
// from a build that accepted any finite value): it loads and continues as it
// would have.
TEST(Checkpoint, ParameterValuesOfEarlierBuildsStillLoad) {
  rescue_problem* p = small_problem();
  ASSERT_EQ(rescue_problem_set_param(p, "rescue.repair", 2), RESCUE_OK);
  rescue_optimizer* a = create(p);
  std::vector<double> trace;
  step(a, 3, &trace);
  rescue_optimizer* b = load(edited(state(a), "\"rescue.repair\": 2.0", "\"rescue.repair\": 7.0"));
  ASSERT_NE(b, nullptr);
  step(b, 2, &trace);
  EXPECT_NE(state(b).find("\"rescue.repair\": 7.0"), std::string::npos);
  rescue_destroy(a);
  rescue_destroy(b);
}

// A recommend.feasibility outside (0, 1) in an edited checkpoint loads
// (parameters load as written), but the recommendation refuses it with a
// message instead of quietly treating every configuration as feasible, and the
// observations stay.
TEST(Checkpoint, AnEditedRecommendationFeasibilityIsRefusedByThePareto) {
  for (const char* bad : {"1.0", "0.0", "-3.0"}) {
    SCOPED_TRACE(bad);
    rescue_problem* p = small_problem();
    ASSERT_EQ(rescue_problem_set_param(p, "recommend.feasibility", 0.75), RESCUE_OK);
    rescue_optimizer* a = create(p);
    std::vector<double> trace;
    step(a, 6, &trace);
    rescue_optimizer* b =
        load(edited(state(a), "\"recommend.feasibility\": 0.75", std::string("\"recommend.feasibility\": ") + bad));
    ASSERT_NE(b, nullptr);
    int count = -1;
    EXPECT_EQ(rescue_pareto(b, nullptr, nullptr, 0, &count), RESCUE_ERR_OUT_OF_RANGE);
    EXPECT_NE(std::string(rescue_errmsg(b)).find("recommend.feasibility"), std::string::npos) << rescue_errmsg(b);
    EXPECT_EQ(rescue_num_observations(b), 6);
    rescue_destroy(a);
    rescue_destroy(b);
  }
}

TEST(Checkpoint, DoublesRoundTripExactly) {
  rescue_optimizer* a = create(small_problem());
  const double tricky[] = {0.1 + 0.2, 1e-300, -0.0, 5e-324, 1.7976931348623157e308, 1.0 / 3.0, -2.5e-17};
  for (double v : tricky) {
    const double x[3] = {1.0 / 3.0, 3.0, 0.012345678901234567}, y[2] = {v, -v}, g[1] = {v};
    const double z[1] = {std::numeric_limits<double>::quiet_NaN()};
    ASSERT_EQ(rescue_observe_at(a, x, 3, 0.7, y, 2, g, 1, z, 1), RESCUE_OK);
  }
  rescue_optimizer* b = load(state(a));
  ASSERT_EQ(rescue_num_observations(b), 7);
  for (int i = 0; i < 7; ++i) {
    double x[3], s, y[2], g[1];
    ASSERT_EQ(rescue_get_observation(b, i, x, 3, &s, y, 2, g, 1, nullptr), RESCUE_OK);
    EXPECT_EQ(std::memcmp(&y[0], &tricky[i], sizeof(double)), 0) << i;  // bit-exact, sign of zero included
    EXPECT_EQ(x[2], 0.012345678901234567);
    EXPECT_EQ(s, 0.7);
  }
  rescue_destroy(a);
  rescue_destroy(b);
}

TEST(Checkpoint, FilesRoundTripAndIoErrorsAreReported) {
  rescue_optimizer* a = create(small_problem());
  std::vector<double> trace;
  step(a, 5, &trace);
  const std::string path = ::testing::TempDir() + "rescue_checkpoint_test.txt";
  ASSERT_EQ(rescue_save_file(a, path.c_str()), RESCUE_OK) << rescue_errmsg(a);
  rescue_optimizer* b = nullptr;
  ASSERT_EQ(rescue_load_file(path.c_str(), &b), RESCUE_OK) << rescue_last_error();
  EXPECT_EQ(state(b), state(a));
  EXPECT_FALSE(std::ifstream(path + ".tmp").good());  // the temporary file is gone
  EXPECT_EQ(rescue_save_file(a, "/nonexistent-dir/x/checkpoint"), RESCUE_ERR_IO);
  rescue_optimizer* c = nullptr;
  EXPECT_EQ(rescue_load_file("/nonexistent-dir/checkpoint", &c), RESCUE_ERR_IO);
  // A directory opens as a stream on Linux; it is still not a readable file.
  EXPECT_EQ(rescue_load_file("/tmp", &c), RESCUE_ERR_IO);
  EXPECT_NE(std::string(rescue_last_error()).find("directory"), std::string::npos) << rescue_last_error();
  EXPECT_EQ(c, nullptr);
  EXPECT_EQ(rescue_save_file(a, nullptr), RESCUE_ERR_NULL_POINTER);
  std::remove(path.c_str());
  rescue_destroy(a);
  rescue_destroy(b);
}

TEST(Checkpoint, BufferSizeQueryAndTooSmall) {
  rescue_optimizer* a = create(small_problem());
  size_t len = 0;
  ASSERT_EQ(rescue_save(a, nullptr, 0, &len), RESCUE_OK);
  EXPECT_GT(len, 20u);
  std::string buf(len, '\0');
  EXPECT_EQ(rescue_save(a, &buf[0], len, &len), RESCUE_ERR_BUFFER_TOO_SMALL);  // no room for the NUL
  EXPECT_EQ(rescue_save(a, nullptr, 0, nullptr), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_save(nullptr, nullptr, 0, &len), RESCUE_ERR_NULL_POINTER);
  rescue_destroy(a);
}

TEST(Checkpoint, CorruptAndNewerInputIsRefused) {
  rescue_optimizer* a = create(small_problem());
  std::vector<double> trace;
  step(a, 6, &trace);
  const std::string good = state(a);
  const size_t eol = good.find('\n');
  const std::string body = good.substr(eol + 1);
  struct Case {
    std::string text;
    rescue_status status;
  } cases[] = {
      {"", RESCUE_ERR_CORRUPT_CHECKPOINT},
      {"hello world\n{}", RESCUE_ERR_CORRUPT_CHECKPOINT},
      {"RESCUE-CHECKPOINT\n" + body, RESCUE_ERR_CORRUPT_CHECKPOINT},
      {"RESCUE-CHECKPOINT x\n" + body, RESCUE_ERR_CORRUPT_CHECKPOINT},
      {"RESCUE-CHECKPOINT 0\n" + body, RESCUE_ERR_CORRUPT_CHECKPOINT},
      {"RESCUE-CHECKPOINT 999\n" + body, RESCUE_ERR_UNSUPPORTED_VERSION},
      {"RESCUE-CHECKPOINT 1", RESCUE_ERR_CORRUPT_CHECKPOINT},
      {"RESCUE-CHECKPOINT 1\n", RESCUE_ERR_CORRUPT_CHECKPOINT},
      {"RESCUE-CHECKPOINT 1\n[1, 2, 3]", RESCUE_ERR_CORRUPT_CHECKPOINT},
      {"RESCUE-CHECKPOINT 1\n{}", RESCUE_ERR_CORRUPT_CHECKPOINT},
      {good.substr(0, good.size() / 2), RESCUE_ERR_CORRUPT_CHECKPOINT},
  };
  for (const Case& c : cases) {
    rescue_optimizer* o = load(c.text, c.status);
    EXPECT_EQ(o, nullptr);
    EXPECT_GT(std::string(rescue_last_error()).size(), 0u);
  }
  EXPECT_NE(std::string(rescue_last_error()).find("corrupt"), std::string::npos);
  // Semantically invalid content: well-formed JSON with impossible values.
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    const size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) t.replace(at, from.size(), to);
    return t;
  };
  for (const std::string& bad : {replaced("\"strategy\": \"cost-aware-random\"", "\"strategy\": \"nope\""),
                                 replaced("\"next_ticket\": 7", "\"next_ticket\": -7"),
                                 replaced("\"next_ticket\": 7", "\"next_ticket\": 2"),
                                 replaced("\"upper\": 8.0", "\"upper\": -8.0"),
                                 replaced("\"rng\": \"", "\"rng\": \"garbage "),
                                 replaced("\"seed\": 3", "\"seed\": \"three\""),
                                 // A ticket both pending and already observed.
                                 replaced("\"pending\": []",
                                          "\"pending\": [{\"cost\": 1.0, \"s\": 0.5, \"ticket\": 3, "
                                          "\"x\": [0.5, 2.0, 0.01]}]")}) {
    EXPECT_EQ(load(bad, RESCUE_ERR_CORRUPT_CHECKPOINT), nullptr);
  }
  EXPECT_EQ(rescue_load(nullptr, 10, nullptr), RESCUE_ERR_NULL_POINTER);
  rescue_optimizer* o = nullptr;
  EXPECT_EQ(rescue_load(nullptr, 10, &o), RESCUE_ERR_NULL_POINTER);
  rescue_destroy(a);
}

// Random damage to a valid checkpoint never crashes: the loader either refuses
// it or, where the damage happened to keep it valid, loads a usable optimizer.
TEST(Checkpoint, RandomMutationsNeverCrash) {
  rescue_optimizer* a = create(small_problem());
  std::vector<double> trace;
  step(a, 4, &trace);
  const std::string good = state(a);
  rescue_destroy(a);
  unsigned long long lcg = 12345;
  auto next = [&] { return (lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL) >> 33; };
  int refused = 0;
  for (int i = 0; i < 600; ++i) {
    std::string t = good;
    const int edits = 1 + next() % 4;
    for (int e = 0; e < edits; ++e) {
      const size_t at = next() % t.size();
      switch (next() % 3) {
        case 0: t[at] = static_cast<char>(next() % 256); break;
        case 1: t.erase(at, 1 + next() % 8); break;
        default: t.insert(at, 1, "0123456789-.e{}[]\":,nul"[next() % 23]);
      }
      if (t.empty()) t = "x";
    }
    rescue_optimizer* o = nullptr;
    const rescue_status st = rescue_load(t.data(), t.size(), &o);
    if (st == RESCUE_OK) {
      double x[3], s;
      int tk;
      const rescue_status sug = rescue_suggest(o, x, 3, &s, &tk);
      EXPECT_TRUE(sug == RESCUE_OK || sug == RESCUE_ERR_BUDGET_EXHAUSTED) << rescue_errmsg(o);
      rescue_destroy(o);
    } else {
      ++refused;
      EXPECT_TRUE(st == RESCUE_ERR_CORRUPT_CHECKPOINT || st == RESCUE_ERR_UNSUPPORTED_VERSION) << st;
      EXPECT_EQ(o, nullptr);
    }
  }
  EXPECT_GT(refused, 300);
}

// A committed checkpoint of format 1 with every field filled (discrete levels
// with per-level costs, a failed, a cancelled and a pending ticket, an
// observation at a chosen point, observational rows with missing values, a
// user DAG and edge constraints): this library must load it and save it back
// byte for byte, so checkpoints pass between builds in both directions.
TEST(Checkpoint, ACommittedFormat1CheckpointLoadsAndSavesBackUnchanged) {
  const std::string path = std::string(RESCUE_CAPI_TEST_DATA) + "/checkpoint_format1.txt";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << path;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  rescue_optimizer* a = load(text);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(state(a), text);
  rescue_optimizer* b = nullptr;
  ASSERT_EQ(rescue_load_file(path.c_str(), &b), RESCUE_OK) << rescue_last_error();
  EXPECT_EQ(state(b), text);
  EXPECT_STREQ(rescue_strategy_name(a), "random");
  EXPECT_EQ(rescue_num_observations(a), 7);
  EXPECT_EQ(rescue_num_observational(a), 2);
  int pending = 0, ticket = 0;
  ASSERT_EQ(rescue_pending(a, &ticket, 1, &pending), RESCUE_OK);
  EXPECT_EQ(pending, 1);
  EXPECT_EQ(ticket, 8);
  double x[3], s, y[2], g[1];
  int failed = 0;
  ASSERT_EQ(rescue_get_observation(a, 6, x, 3, &s, y, 2, g, 1, &failed), RESCUE_OK);
  EXPECT_EQ(x[2], 0.012345678901234567);
  EXPECT_EQ(y[0], 0.1 + 0.2);
  EXPECT_TRUE(std::signbit(y[1]));
  EXPECT_EQ(g[0], 5e-324);
  ASSERT_EQ(rescue_get_observation(a, 5, x, 3, &s, y, 2, g, 1, &failed), RESCUE_OK);
  EXPECT_EQ(failed, 1);
  ASSERT_EQ(rescue_suggest(a, x, 3, &s, &ticket), RESCUE_OK) << rescue_errmsg(a);
  EXPECT_EQ(ticket, 9);
  rescue_destroy(a);
  rescue_destroy(b);
}

TEST(Checkpoint, CallbackCostModelMustBeSetAgainAfterLoading) {
  rescue_problem* p = small_problem();
  auto fn = [](const double*, int, double s, void*) { return 1.0 + s; };
  rescue_problem_set_cost_callback(p, fn, nullptr);
  rescue_optimizer* a = create(p);
  std::vector<double> trace;
  step(a, 3, &trace);
  rescue_optimizer* b = load(state(a));
  ASSERT_NE(b, nullptr);
  double x[3], s;
  int t;
  EXPECT_EQ(rescue_suggest(b, x, 3, &s, &t), RESCUE_ERR_INVALID_STATE);
  EXPECT_NE(std::string(rescue_errmsg(b)).find("rescue_set_cost_callback"), std::string::npos);
  EXPECT_EQ(rescue_num_observations(b), 3);  // nothing lost
  ASSERT_EQ(rescue_set_cost_callback(b, fn, nullptr), RESCUE_OK);
  EXPECT_EQ(rescue_suggest(b, x, 3, &s, &t), RESCUE_OK);
  EXPECT_EQ(rescue_set_cost_callback(b, nullptr, nullptr), RESCUE_ERR_NULL_POINTER);
  rescue_destroy(a);
  rescue_destroy(b);
}

}  // namespace

namespace {

rescue_problem* model_problem(const char* strategy) {
  rescue_problem* p = small_problem(strategy, 17);
  // Small acquisition settings keep the test fast; the logic is the same.
  rescue_problem_set_param(p, "kg.pool", 24);
  rescue_problem_set_param(p, "kg.fantasies", 3);
  rescue_problem_set_param(p, "acq.starts", 12);
  rescue_problem_set_param(p, "acq.refine", 1);
  rescue_problem_set_param(p, "acq.refine_evals", 8);
  rescue_problem_set_param(p, "acq.mc_samples", 16);
  rescue_problem_set_initial_budget(p, 4.0);
  rescue_problem_set_budget(p, 1e6);
  return p;
}

std::vector<double> pareto_of(rescue_optimizer* opt) {
  int n = 0;
  EXPECT_EQ(rescue_pareto(opt, nullptr, nullptr, 0, &n), RESCUE_OK) << rescue_errmsg(opt);
  std::vector<double> x(3 * n + 1), y(2 * n + 1);
  EXPECT_EQ(rescue_pareto(opt, x.data(), y.data(), n, &n), RESCUE_OK);
  x.resize(3 * n);
  x.insert(x.end(), y.begin(), y.begin() + 2 * n);
  return x;
}

TEST(Checkpoint, ModelStrategiesContinueIdenticallyAfterLoading) {
  for (const char* strategy : {"hvkg", "ehvi", "momf"}) {
    rescue_optimizer* a = create(model_problem(strategy));
    std::vector<double> ta, tb;
    step(a, 8, &ta);  // past the initial design: the model drives the last steps
    const std::string text = state(a);
    rescue_optimizer* b = load(text);
    ASSERT_NE(b, nullptr) << strategy;
    EXPECT_EQ(state(b), text) << strategy;
    ta.clear();
    step(a, 3, &ta);
    step(b, 3, &tb);
    EXPECT_EQ(ta, tb) << strategy;
    EXPECT_EQ(pareto_of(a), pareto_of(b)) << strategy;
    rescue_destroy(a);
    rescue_destroy(b);
  }
}

// With gp.target_correlation = 1 the strategy decides on a draw of the target
// correlation: a loaded run continues as the uninterrupted one, and a model
// state short of the correlation's entry is refused.
TEST(Checkpoint, AModelWithTheTargetCorrelationTravels) {
  rescue_problem* p = model_problem("hvkg");
  ASSERT_EQ(rescue_problem_set_param(p, "gp.target_correlation", 1), RESCUE_OK);
  rescue_optimizer* a = create(p);
  std::vector<double> trace, ta, tb;
  step(a, 8, &trace);
  const std::string text = state(a);
  rescue_optimizer* c = load(text);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(state(c), text);
  step(a, 3, &ta);
  step(c, 3, &tb);
  EXPECT_EQ(ta, tb);
  EXPECT_EQ(pareto_of(a), pareto_of(c));
  rescue_destroy(c);
  // The last packed hyperparameter is the correlation's.
  std::string shorter = text;
  const size_t open = shorter.find("\"hyperparameters\": [");
  ASSERT_NE(open, std::string::npos);
  const size_t comma = shorter.rfind(',', shorter.find(']', open));
  shorter.erase(comma, shorter.find(']', comma) - comma);
  EXPECT_EQ(load(shorter, RESCUE_ERR_CORRUPT_CHECKPOINT), nullptr);
  rescue_destroy(a);
}

TEST(Pareto, RecommendationDoesNotDependOnWhenItWasAskedFor) {
  // One run asks for the Pareto set after every step, the other only at the end:
  // the suggestions and the final recommendation are the same.
  rescue_optimizer* a = create(model_problem("random"));
  rescue_optimizer* b = create(model_problem("random"));
  std::vector<double> ta, tb;
  for (int i = 0; i < 8; ++i) {
    step(a, 1, &ta);
    pareto_of(a);
  }
  step(b, 8, &tb);
  EXPECT_EQ(ta, tb);
  const std::vector<double> pa = pareto_of(a), pb = pareto_of(b);
  EXPECT_EQ(pa, pb);
  EXPECT_GT(pa.size(), 0u);  // a model-based recommendation exists for every strategy
  rescue_destroy(a);
  rescue_destroy(b);
}

}  // namespace
