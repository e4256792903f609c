// The harness's checked calls carry the library's message for the call that
// failed, read after it (not the message an earlier call left behind, nor a
// string the failed call has since replaced).
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

}  // namespace
