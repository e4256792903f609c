// The harness's checked calls carry the library's message for the call that
// failed, read after it (not the message an earlier call left behind, nor a
// string the failed call has since replaced). The harness's runs start with
// the protocol's shared recommender.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "bench/bench_run.hpp"
#include "bench/capi_handles.hpp"
#include "problems/benchmark_problem.hpp"
#include "tiny_run.hpp"
#include "util/error.hpp"

namespace {

using namespace rescue;
using namespace rescue::bench;

std::string message_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CheckedCalls, CarryTheMessageOfTheCallThatFailed) {
  ProblemHandle ph;
  check(rescue_problem_builtin("healthcare", &ph.p), "rescue_problem_builtin", kLastError);
  // A call that succeeds first, so that a message read too early would be its (empty) one.
  check(rescue_problem_set_seed(ph.p, 3), "rescue_problem_set_seed", ph.p);
  EXPECT_EQ(message_of([&] { check(rescue_problem_set_strategy(ph.p, "no-such"), "set_strategy", ph.p); }),
            "set_strategy: unknown strategy 'no-such' (known: rescue, hvkg, ehvi, momf, random, cost-aware-random)");
  ProblemHandle none;
  const std::string b = message_of([&] { check(rescue_problem_builtin("no-such", &none.p), "builtin", kLastError); });
  EXPECT_EQ(b.rfind("builtin: ", 0), 0u) << b;
  EXPECT_NE(b.find("no-such"), std::string::npos) << b;
  OptimizerHandle oh;
  check(rescue_create(ph.p, &oh.o), "rescue_create", kLastError);
  double x[3] = {0, 0, 0}, s = 1.0;
  int ticket = 0;
  const std::string m = message_of([&] { check(rescue_suggest(oh.o, x, 3, &s, &ticket), "rescue_suggest", oh.o); });
  EXPECT_EQ(m.rfind("rescue_suggest: ", 0), 0u) << m;
  EXPECT_GT(m.size(), std::string("rescue_suggest: ").size() + 10) << m;
}

// So does a run the harness cannot start.
TEST(CheckedCalls, ARunOfAnUnknownStrategyNamesIt) {
  const auto problem = problems::make_problem("healthcare");
  const std::string m = message_of([&] { start_run(tiny_run("healthcare", "no-such-strategy"), *problem); });
  EXPECT_NE(m.find("unknown strategy 'no-such-strategy'"), std::string::npos) << m;
}

// The protocol's measure stays fixed while the library's default model moves:
// the shared recommender keeps the fidelity levels where their values put them,
// and a strategy gets the library's default (or its variant's setting).
TEST(StartRun, TheSharedRecommenderKeepsTheFidelityLevelsAtTheirValues) {
  const auto problem = problems::make_problem("robot-standin");
  for (const char* variant : {"", "rescue:gp.fidelity_levels=0"}) {
    SCOPED_TRACE(variant);
    RunSpec rs = tiny_run("robot-standin", *variant ? "rescue-v" : "rescue", variant);
    rs.shared_recommender = true;
    const auto start = start_run(rs, *problem);
    double own = -1.0, shared = -1.0;
    ASSERT_EQ(rescue_problem_get_param(start->problem.p, "gp.fidelity_levels", &own), RESCUE_OK);
    ASSERT_EQ(rescue_problem_get_param(start->shadow_problem.p, "gp.fidelity_levels", &shared), RESCUE_OK);
    EXPECT_EQ(own, *variant ? 0.0 : 1.0);
    EXPECT_EQ(shared, 0.0);
  }
}

}  // namespace
