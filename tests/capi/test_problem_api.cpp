// Problem definition through the C ABI: every setter's validation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <vector>
#include <string>

#include "rescue.h"
#include "test_helpers.hpp"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

TEST(Version, MacrosMatchRuntime) {
  EXPECT_EQ(rescue_version_number(), RESCUE_VERSION_NUMBER);
  EXPECT_STREQ(rescue_version_string(), RESCUE_VERSION_STRING);
  EXPECT_EQ(RESCUE_VERSION_NUMBER, RESCUE_VERSION_MAJOR * 10000 + RESCUE_VERSION_MINOR * 100 + RESCUE_VERSION_PATCH);
}

TEST(Status, EveryCodeHasADistinctName) {
  const rescue_status codes[] = {RESCUE_OK, RESCUE_ERR_NULL_POINTER, RESCUE_ERR_INVALID_ARGUMENT, RESCUE_ERR_OUT_OF_RANGE,
                                 RESCUE_ERR_NON_FINITE, RESCUE_ERR_SIZE_MISMATCH, RESCUE_ERR_BUFFER_TOO_SMALL,
                                 RESCUE_ERR_UNKNOWN_TICKET, RESCUE_ERR_UNKNOWN_NAME, RESCUE_ERR_INVALID_STATE,
                                 RESCUE_ERR_BUDGET_EXHAUSTED, RESCUE_ERR_IO, RESCUE_ERR_CORRUPT_CHECKPOINT,
                                 RESCUE_ERR_UNSUPPORTED_VERSION, RESCUE_ERR_NUMERICAL, RESCUE_ERR_OUT_OF_MEMORY,
                                 RESCUE_ERR_CALLBACK, RESCUE_ERR_INTERNAL};
  std::set<std::string> names;
  for (rescue_status c : codes) names.insert(rescue_status_string(c));
  EXPECT_EQ(names.size(), sizeof(codes) / sizeof(codes[0]));
  // Codes outside the enumeration are checked from C (header_c99.c): C++ cannot form them.
  // Pinned values: these numbers are part of the ABI.
  EXPECT_EQ(RESCUE_OK, 0);
  EXPECT_EQ(RESCUE_ERR_NULL_POINTER, 1);
  EXPECT_EQ(RESCUE_ERR_BUDGET_EXHAUSTED, 10);
  EXPECT_EQ(RESCUE_ERR_CORRUPT_CHECKPOINT, 12);
  EXPECT_EQ(RESCUE_ERR_INTERNAL, 99);
}

TEST(Problem, NullHandlesAreRejected) {
  EXPECT_EQ(rescue_problem_new(nullptr), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_problem_add_option(nullptr, "x", 0, 1, RESCUE_CONTINUOUS), RESCUE_ERR_NULL_POINTER);
  EXPECT_NE(std::string(rescue_last_error()).find("NULL"), std::string::npos);
  EXPECT_EQ(rescue_problem_add_objective(nullptr, "f", RESCUE_MINIMIZE), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_problem_set_seed(nullptr, 1), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_problem_set_budget(nullptr, 1), RESCUE_ERR_NULL_POINTER);
  rescue_problem_free(nullptr);  // harmless
  rescue_problem* p = nullptr;
  ASSERT_EQ(rescue_problem_new(&p), RESCUE_OK);
  EXPECT_EQ(rescue_problem_add_option(p, nullptr, 0, 1, RESCUE_CONTINUOUS), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_problem_set_strategy(p, nullptr), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_problem_set_fidelity_levels(p, nullptr, 2, 1.0), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_problem_set_cost_callback(p, nullptr, nullptr), RESCUE_ERR_NULL_POINTER);
  rescue_problem_free(p);
}

// The widest integer option allowed is sampled inside its bounds, as integers.
TEST(Problem, WidestIntegerOptionIsSampledInBounds) {
  rescue_problem* p = nullptr;
  ASSERT_EQ(rescue_problem_new(&p), RESCUE_OK);
  ASSERT_EQ(rescue_problem_add_option(p, "n", -0x1p53, 0x1p53, RESCUE_INTEGER), RESCUE_OK);
  ASSERT_EQ(rescue_problem_add_objective(p, "f", RESCUE_MINIMIZE), RESCUE_OK);
  ASSERT_EQ(rescue_problem_set_strategy(p, "random"), RESCUE_OK);
  rescue_optimizer* o = nullptr;
  ASSERT_EQ(rescue_create(p, &o), RESCUE_OK) << rescue_last_error();
  rescue_problem_free(p);
  bool negative = false, positive = false;
  for (int i = 0; i < 64; ++i) {
    double x, s;
    int t;
    ASSERT_EQ(rescue_suggest(o, &x, 1, &s, &t), RESCUE_OK) << rescue_errmsg(o);
    EXPECT_EQ(x, std::round(x));
    EXPECT_GE(x, -0x1p53);
    EXPECT_LE(x, 0x1p53);
    negative |= x < 0;
    positive |= x > 0;
    const double y = 0.0;
    ASSERT_EQ(rescue_observe(o, t, &y, 1, nullptr, 0, nullptr, 0), RESCUE_OK) << rescue_errmsg(o);
  }
  EXPECT_TRUE(negative && positive);
  rescue_destroy(o);
}

TEST(Problem, OptionValidation) {
  rescue_problem* p = nullptr;
  ASSERT_EQ(rescue_problem_new(&p), RESCUE_OK);
  EXPECT_EQ(rescue_problem_add_option(p, "", 0, 1, RESCUE_CONTINUOUS), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_add_option(p, "x", kNaN, 1, RESCUE_CONTINUOUS), RESCUE_ERR_NON_FINITE);
  EXPECT_EQ(rescue_problem_add_option(p, "x", 0, kInf, RESCUE_CONTINUOUS), RESCUE_ERR_NON_FINITE);
  EXPECT_EQ(rescue_problem_add_option(p, "x", 1, 1, RESCUE_CONTINUOUS), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(rescue_problem_errmsg(p)).find("lower bound"), std::string::npos);
  EXPECT_EQ(rescue_problem_add_option(p, "x", 2, 1, RESCUE_CONTINUOUS), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_add_option(p, "x", 0, 1, 7), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_add_option(p, "x", 0, 1, RESCUE_LOG_SCALE), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_add_option(p, "x", 0.2, 0.8, RESCUE_INTEGER), RESCUE_ERR_INVALID_ARGUMENT);
  // Integers beyond 2^53 are not all doubles (found by fuzz_capi: sampling overflowed).
  EXPECT_EQ(rescue_problem_add_option(p, "x", 0, 1e300, RESCUE_INTEGER), RESCUE_ERR_OUT_OF_RANGE);
  EXPECT_EQ(rescue_problem_add_option(p, "x", -0x1p53 - 2.0, 0, RESCUE_INTEGER), RESCUE_ERR_OUT_OF_RANGE);
  EXPECT_NE(std::string(rescue_problem_errmsg(p)).find("2^53"), std::string::npos);
  // Configurations are scaled by the width of the bounds, which must be finite.
  EXPECT_EQ(rescue_problem_add_option(p, "w", -1e308, 1e308, RESCUE_CONTINUOUS), RESCUE_ERR_OUT_OF_RANGE);
  EXPECT_EQ(rescue_problem_add_option(p, "w", -1e308, 7e307, RESCUE_CONTINUOUS), RESCUE_OK);
  // Names go into checkpoints as JSON strings: UTF-8 only (here a lone 0xFF
  // byte, an overlong '/', a surrogate and a truncated sequence).
  for (const char* bad : {"temp\xff", "a\xc0\xaf", "b\xed\xa0\x80", "c\xe2\x82"}) {
    EXPECT_EQ(rescue_problem_add_option(p, bad, 0, 1, RESCUE_CONTINUOUS), RESCUE_ERR_INVALID_ARGUMENT) << bad;
    EXPECT_NE(std::string(rescue_problem_errmsg(p)).find("UTF-8"), std::string::npos);
    EXPECT_EQ(rescue_problem_add_objective(p, bad, RESCUE_MINIMIZE), RESCUE_ERR_INVALID_ARGUMENT) << bad;
    EXPECT_EQ(rescue_problem_add_constraint(p, bad, 1.0, RESCUE_LEQ), RESCUE_ERR_INVALID_ARGUMENT) << bad;
    EXPECT_EQ(rescue_problem_add_indicator(p, bad), RESCUE_ERR_INVALID_ARGUMENT) << bad;
  }
  EXPECT_EQ(rescue_problem_add_option(p, "température \xf0\x9f\x8c\xa1", 0, 1, RESCUE_CONTINUOUS), RESCUE_OK);
  EXPECT_EQ(rescue_problem_add_option(p, "x", 0, 1, RESCUE_CONTINUOUS), RESCUE_OK);
  EXPECT_EQ(rescue_problem_add_option(p, "x", 0, 1, RESCUE_CONTINUOUS), RESCUE_ERR_INVALID_ARGUMENT);  // duplicate
  EXPECT_EQ(rescue_problem_add_objective(p, "x", RESCUE_MINIMIZE), RESCUE_ERR_INVALID_ARGUMENT);       // name clash
  EXPECT_EQ(rescue_problem_add_objective(p, "f", 5), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_add_constraint(p, "c", kNaN, RESCUE_GEQ), RESCUE_ERR_NON_FINITE);
  EXPECT_EQ(rescue_problem_add_constraint(p, "c", 1.0, 3), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_add_indicator(p, ""), RESCUE_ERR_INVALID_ARGUMENT);
  rescue_problem_free(p);
}

TEST(Problem, FidelityAndCostValidation) {
  rescue_problem* p = nullptr;
  ASSERT_EQ(rescue_problem_new(&p), RESCUE_OK);
  EXPECT_EQ(rescue_problem_set_fidelity_range(p, 1.0, 0.0, 0.5), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_set_fidelity_range(p, 0.0, 1.0, 1.5), RESCUE_ERR_OUT_OF_RANGE);
  EXPECT_EQ(rescue_problem_set_fidelity_range(p, 0.0, kNaN, 1.0), RESCUE_ERR_NON_FINITE);
  EXPECT_EQ(rescue_problem_set_fidelity_range(p, -1e308, 1e308, 1e308), RESCUE_ERR_OUT_OF_RANGE);
  const double wide[] = {-1e308, 1e308};
  EXPECT_EQ(rescue_problem_set_fidelity_levels(p, wide, 2, 1e308), RESCUE_ERR_OUT_OF_RANGE);
  const double dup[] = {0.2, 0.2, 1.0};
  EXPECT_EQ(rescue_problem_set_fidelity_levels(p, dup, 3, 1.0), RESCUE_ERR_INVALID_ARGUMENT);
  const double levels[] = {1.0, 0.2, 0.5};
  EXPECT_EQ(rescue_problem_set_fidelity_levels(p, levels, 3, 0.7), RESCUE_ERR_OUT_OF_RANGE);
  EXPECT_EQ(rescue_problem_set_fidelity_levels(p, levels, 0, 1.0), RESCUE_ERR_SIZE_MISMATCH);
  EXPECT_EQ(rescue_problem_set_fidelity_levels(p, levels, 3, 1.0), RESCUE_OK);
  const double costs[] = {1.0, 10.0};
  EXPECT_EQ(rescue_problem_set_cost_levels(p, costs, 2), RESCUE_ERR_SIZE_MISMATCH);
  const double bad_costs[] = {1.0, -1.0, 3.0};
  EXPECT_EQ(rescue_problem_set_cost_levels(p, bad_costs, 3), RESCUE_ERR_INVALID_ARGUMENT);
  const double good_costs[] = {1.0, 5.0, 50.0};
  EXPECT_EQ(rescue_problem_set_cost_levels(p, good_costs, 3), RESCUE_OK);
  EXPECT_EQ(rescue_problem_set_cost_exponential(p, kInf), RESCUE_ERR_NON_FINITE);
  // exp(rate) must stay finite and positive: costs are saved and loaded.
  EXPECT_EQ(rescue_problem_set_cost_exponential(p, 1000.0), RESCUE_ERR_OUT_OF_RANGE);
  EXPECT_EQ(rescue_problem_set_cost_exponential(p, -1000.0), RESCUE_ERR_OUT_OF_RANGE);
  EXPECT_EQ(rescue_problem_set_cost_exponential(p, 700.0), RESCUE_OK);
  EXPECT_EQ(rescue_problem_set_cost_exponential(p, -700.0), RESCUE_OK);
  rescue_problem_free(p);
}

TEST(Problem, SettingsValidation) {
  rescue_problem* p = rescue_test::small_problem();
  EXPECT_EQ(rescue_problem_set_strategy(p, "no-such-strategy"), RESCUE_ERR_UNKNOWN_NAME);
  EXPECT_NE(std::string(rescue_problem_errmsg(p)).find("cost-aware-random"), std::string::npos);
  EXPECT_EQ(rescue_problem_set_budget(p, -1.0), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_set_budget(p, kNaN), RESCUE_ERR_NON_FINITE);
  EXPECT_EQ(rescue_problem_set_initial_budget(p, -2.0), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_set_param(p, "kg fantasies", 8), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_problem_set_param(p, "kg.fantasies", kNaN), RESCUE_ERR_NON_FINITE);
  EXPECT_EQ(rescue_problem_set_param(p, "kg.fantasies", 8), RESCUE_OK);
  const double ref1[] = {1.0};
  EXPECT_EQ(rescue_problem_set_reference_point(p, ref1, 1), RESCUE_ERR_SIZE_MISMATCH);
  const double ref_bad[] = {1.0, kNaN};
  EXPECT_EQ(rescue_problem_set_reference_point(p, ref_bad, 2), RESCUE_ERR_NON_FINITE);
  const double ref[] = {1.0, 0.0};
  EXPECT_EQ(rescue_problem_set_reference_point(p, ref, 2), RESCUE_OK);
  rescue_problem_free(p);
}

TEST(Problem, StrategyListMatchesNames) {
  int n = 0;
  while (rescue_strategy_list(n)) {
    rescue_problem* p = rescue_test::small_problem(rescue_strategy_list(n));
    rescue_optimizer* opt = nullptr;
    ASSERT_EQ(rescue_create(p, &opt), RESCUE_OK) << rescue_strategy_list(n) << ": " << rescue_last_error();
    EXPECT_STREQ(rescue_strategy_name(opt), rescue_strategy_list(n));
    rescue_destroy(opt);
    rescue_problem_free(p);
    ++n;
  }
  EXPECT_GE(n, 2);
  EXPECT_EQ(rescue_strategy_list(-1), nullptr);
}

// The parameter table through the C ABI: every listed name is described, its
// default is what rescue_problem_get_param reports before any setting, the
// default lies within the bounds, and the bounds are what set_param enforces.
TEST(Problem, ParameterListAndInfoDescribeWhatSetParamAccepts) {
  rescue_problem* p = rescue_test::small_problem("rescue");
  int n = 0;
  std::string previous;
  for (; rescue_param_list(n); ++n) {
    const std::string name = rescue_param_list(n);
    EXPECT_LT(previous, name) << "not sorted";
    previous = name;
    double def = NAN, lo = NAN, hi = NAN, value = NAN;
    int kind = -1;
    const char* text = nullptr;
    ASSERT_EQ(rescue_param_info(name.c_str(), &def, &kind, &lo, &hi, &text), RESCUE_OK) << name;
    ASSERT_NE(text, nullptr);
    EXPECT_GT(std::strlen(text), 10u) << name;
    ASSERT_EQ(rescue_problem_get_param(p, name.c_str(), &value), RESCUE_OK) << name;
    EXPECT_EQ(value, def) << name << ": an unset parameter reports its default";
    EXPECT_TRUE(kind == RESCUE_PARAM_INTEGER || kind == RESCUE_PARAM_CLOSED || kind == RESCUE_PARAM_OPEN) << name;
    EXPECT_LE(lo, def) << name;
    EXPECT_GE(hi, def) << name;
    // Just outside the domain is refused and leaves the value; the bounds of a
    // closed domain are accepted.
    const double below = kind == RESCUE_PARAM_INTEGER ? lo - 1 : std::nextafter(lo, -HUGE_VAL);
    const double above = kind == RESCUE_PARAM_INTEGER ? hi + 1 : std::nextafter(hi, HUGE_VAL);
    if (std::isfinite(lo)) {
      EXPECT_EQ(rescue_problem_set_param(p, name.c_str(), below), RESCUE_ERR_OUT_OF_RANGE) << name;
      EXPECT_EQ(rescue_problem_set_param(p, name.c_str(), lo),
                kind == RESCUE_PARAM_OPEN ? RESCUE_ERR_OUT_OF_RANGE : RESCUE_OK) << name;
    }
    if (std::isfinite(hi)) {
      EXPECT_EQ(rescue_problem_set_param(p, name.c_str(), above), RESCUE_ERR_OUT_OF_RANGE) << name;
      EXPECT_EQ(rescue_problem_set_param(p, name.c_str(), hi),
                kind == RESCUE_PARAM_OPEN ? RESCUE_ERR_OUT_OF_RANGE : RESCUE_OK) << name;
    }
    if (kind == RESCUE_PARAM_INTEGER && hi > lo)
      EXPECT_EQ(rescue_problem_set_param(p, name.c_str(), lo + 0.5), RESCUE_ERR_OUT_OF_RANGE) << name;
    ASSERT_EQ(rescue_problem_set_param(p, name.c_str(), def), RESCUE_OK) << name;
    ASSERT_EQ(rescue_problem_get_param(p, name.c_str(), &value), RESCUE_OK);
    EXPECT_EQ(value, def) << name;
  }
  EXPECT_GE(n, 20);
  EXPECT_EQ(rescue_param_list(-1), nullptr);
  EXPECT_EQ(rescue_param_list(n), nullptr);

  // A value set is reported back; unknown names and NULL pointers are refused.
  double value = 0.0;
  ASSERT_EQ(rescue_problem_set_param(p, "kg.fantasies", 3), RESCUE_OK);
  ASSERT_EQ(rescue_problem_get_param(p, "kg.fantasies", &value), RESCUE_OK);
  EXPECT_EQ(value, 3.0);
  EXPECT_EQ(rescue_problem_set_param(p, "kg.fantasies", 0), RESCUE_ERR_OUT_OF_RANGE);
  ASSERT_EQ(rescue_problem_get_param(p, "kg.fantasies", &value), RESCUE_OK);
  EXPECT_EQ(value, 3.0) << "a refused value must leave the earlier one";
  EXPECT_EQ(rescue_problem_get_param(p, "kg.fantasy", &value), RESCUE_ERR_UNKNOWN_NAME);
  EXPECT_NE(std::string(rescue_problem_errmsg(p)).find("kg.fantasies"), std::string::npos);
  EXPECT_EQ(rescue_problem_get_param(p, nullptr, &value), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_problem_get_param(p, "kg.pool", nullptr), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_problem_get_param(nullptr, "kg.pool", &value), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_param_info("kg.fantasy", nullptr, nullptr, nullptr, nullptr, nullptr), RESCUE_ERR_UNKNOWN_NAME);
  EXPECT_NE(std::string(rescue_last_error()).find("kg.fantasies"), std::string::npos);
  EXPECT_EQ(rescue_param_info(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_param_info("rescue.repair", nullptr, nullptr, nullptr, nullptr, nullptr), RESCUE_OK);
  int kind = -1;
  double lo = 0, hi = 0;
  ASSERT_EQ(rescue_param_info("rescue.repair", nullptr, &kind, &lo, &hi, nullptr), RESCUE_OK);
  EXPECT_EQ(kind, RESCUE_PARAM_INTEGER);
  EXPECT_EQ(lo, 0.0);
  EXPECT_EQ(hi, 2.0);
  ASSERT_EQ(rescue_param_info("kg.zero_gain", nullptr, &kind, &lo, &hi, nullptr), RESCUE_OK);
  EXPECT_TRUE(std::isinf(lo) && lo < 0 && std::isinf(hi) && hi > 0);
  rescue_problem_free(p);
}

TEST(Create, IncompleteProblemIsRejected) {
  rescue_problem* p = nullptr;
  ASSERT_EQ(rescue_problem_new(&p), RESCUE_OK);
  rescue_optimizer* opt = reinterpret_cast<rescue_optimizer*>(0x1);
  EXPECT_EQ(rescue_create(p, &opt), RESCUE_ERR_INVALID_STATE);
  EXPECT_EQ(opt, nullptr);
  EXPECT_NE(std::string(rescue_last_error()).find("no option"), std::string::npos);
  rescue_problem_add_option(p, "x", 0, 1, RESCUE_CONTINUOUS);
  EXPECT_EQ(rescue_create(p, &opt), RESCUE_ERR_INVALID_STATE);
  EXPECT_NE(std::string(rescue_last_error()).find("no objective"), std::string::npos);
  EXPECT_EQ(rescue_create(nullptr, &opt), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_create(p, nullptr), RESCUE_ERR_NULL_POINTER);
  rescue_problem_free(p);
  rescue_destroy(nullptr);  // harmless
}

TEST(Create, OptimizerKeepsItsOwnCopyOfTheProblem) {
  rescue_problem* p = rescue_test::small_problem();
  rescue_optimizer* opt = nullptr;
  ASSERT_EQ(rescue_create(p, &opt), RESCUE_OK);
  rescue_problem_add_option(p, "later", 0, 1, RESCUE_CONTINUOUS);
  rescue_problem_free(p);
  EXPECT_EQ(rescue_dimension(opt), 3);
  EXPECT_EQ(rescue_num_objectives(opt), 2);
  EXPECT_EQ(rescue_num_constraints(opt), 1);
  EXPECT_EQ(rescue_num_indicators(opt), 1);
  EXPECT_EQ(rescue_dimension(nullptr), -1);
  EXPECT_STREQ(rescue_option_name(opt, 0), "a");
  EXPECT_STREQ(rescue_option_name(opt, 2), "lr");
  EXPECT_EQ(rescue_option_name(opt, 3), nullptr);
  EXPECT_EQ(rescue_option_name(opt, -1), nullptr);
  EXPECT_STREQ(rescue_objective_name(opt, 1), "speed");
  EXPECT_STREQ(rescue_constraint_name(opt, 0), "memory");
  EXPECT_STREQ(rescue_indicator_name(opt, 0), "load");
  EXPECT_EQ(rescue_indicator_name(nullptr, 0), nullptr);
  EXPECT_EQ(rescue_objective_sense(opt, 0), RESCUE_MINIMIZE);
  EXPECT_EQ(rescue_objective_sense(opt, 1), RESCUE_MAXIMIZE);
  EXPECT_EQ(rescue_objective_sense(opt, 2), -1);
  double lo = 0, hi = 0, thr = 0;
  int kind = -1, sense = -1;
  ASSERT_EQ(rescue_option_info(opt, 2, &lo, &hi, &kind), RESCUE_OK);
  EXPECT_EQ(lo, 1e-4);
  EXPECT_EQ(hi, 1e-1);
  EXPECT_EQ(kind, RESCUE_LOG_SCALE);
  EXPECT_EQ(rescue_option_info(opt, 3, &lo, &hi, &kind), RESCUE_ERR_OUT_OF_RANGE);
  ASSERT_EQ(rescue_constraint_info(opt, 0, &thr, &sense), RESCUE_OK);
  EXPECT_EQ(thr, 4.0);
  EXPECT_EQ(sense, RESCUE_LEQ);
  EXPECT_EQ(rescue_constraint_info(opt, 1, &thr, &sense), RESCUE_ERR_OUT_OF_RANGE);
  EXPECT_EQ(rescue_constraint_info(nullptr, 0, &thr, &sense), RESCUE_ERR_NULL_POINTER);
  double ref[2], target = -1;
  EXPECT_EQ(rescue_reference_point(opt, ref, 2), RESCUE_ERR_INVALID_STATE);
  EXPECT_EQ(rescue_reference_point(opt, ref, 3), RESCUE_ERR_SIZE_MISMATCH);
  ASSERT_EQ(rescue_target_fidelity(opt, &target), RESCUE_OK);
  EXPECT_EQ(target, 1.0);
  EXPECT_EQ(rescue_target_fidelity(opt, nullptr), RESCUE_ERR_NULL_POINTER);
  rescue_destroy(opt);
  rescue_problem* b = nullptr;
  ASSERT_EQ(rescue_problem_builtin("healthcare", &b), RESCUE_OK);
  ASSERT_EQ(rescue_create(b, &opt), RESCUE_OK);
  rescue_problem_free(b);
  ASSERT_EQ(rescue_reference_point(opt, ref, 2), RESCUE_OK);
  EXPECT_EQ(ref[0], 0.5);
  EXPECT_EQ(ref[1], 5.0);
  rescue_destroy(opt);
}

TEST(Builtin, EvaluatesAndRejectsBadInput) {
  rescue_problem* p = nullptr;
  EXPECT_EQ(rescue_problem_builtin("no-such-problem", &p), RESCUE_ERR_UNKNOWN_NAME);
  EXPECT_EQ(p, nullptr);
  ASSERT_EQ(rescue_problem_builtin("branin-currin", &p), RESCUE_OK);
  const double x[] = {0.5, 0.5};
  double y[2];
  ASSERT_EQ(rescue_problem_evaluate(p, x, 2, 1.0, y, 2, nullptr, 0, nullptr, 0), RESCUE_OK);
  EXPECT_NEAR(y[0], -0.1422711097101031, 1e-12);
  EXPECT_NEAR(y[1], 0.1523510971786834, 1e-12);
  EXPECT_EQ(rescue_problem_evaluate(p, x, 1, 1.0, y, 2, nullptr, 0, nullptr, 0), RESCUE_ERR_SIZE_MISMATCH);
  EXPECT_EQ(rescue_problem_evaluate(p, x, 2, 1.5, y, 2, nullptr, 0, nullptr, 0), RESCUE_ERR_OUT_OF_RANGE);
  const double out[] = {1.5, 0.5};
  EXPECT_EQ(rescue_problem_evaluate(p, out, 2, 1.0, y, 2, nullptr, 0, nullptr, 0), RESCUE_ERR_OUT_OF_RANGE);
  const double nan_x[] = {kNaN, 0.5};
  EXPECT_EQ(rescue_problem_evaluate(p, nan_x, 2, 1.0, y, 2, nullptr, 0, nullptr, 0), RESCUE_ERR_NON_FINITE);
  rescue_problem_free(p);
  // Indicators come back too when asked for (the robot stand-in reports four).
  ASSERT_EQ(rescue_problem_builtin("robot-standin", &p), RESCUE_OK);
  rescue_optimizer* ropt = nullptr;
  ASSERT_EQ(rescue_create(p, &ropt), RESCUE_OK);
  std::vector<double> rx(25);
  for (int j = 0; j < 25; ++j) {
    double lo, hi;
    int kind;
    ASSERT_EQ(rescue_option_info(ropt, j, &lo, &hi, &kind), RESCUE_OK);
    rx[j] = kind == RESCUE_INTEGER ? std::ceil(lo) : 0.5 * (lo + hi);
  }
  const int rk = rescue_num_indicators(ropt);
  rescue_destroy(ropt);
  ASSERT_EQ(rk, 4);
  double ry[2], rg[2], rz[4];
  EXPECT_EQ(rescue_problem_evaluate(p, rx.data(), 25, 1.0, ry, 2, rg, 2, rz, 3), RESCUE_ERR_SIZE_MISMATCH);
  ASSERT_EQ(rescue_problem_evaluate(p, rx.data(), 25, 1.0, ry, 2, rg, 2, rz, 4), RESCUE_OK);
  for (double v : rz) EXPECT_TRUE(std::isfinite(v));
  rescue_problem_free(p);
  rescue_problem* user = rescue_test::small_problem();
  double g[1];
  const double ux[] = {0.5, 2.0, 0.01};
  EXPECT_EQ(rescue_problem_evaluate(user, ux, 3, 1.0, y, 2, g, 1, nullptr, 0), RESCUE_ERR_INVALID_STATE);
  rescue_problem_free(user);
  for (const char* name : {"branin-currin", "park", "healthcare", "robot-standin"}) {
    rescue_problem* b = nullptr;
    EXPECT_EQ(rescue_problem_builtin(name, &b), RESCUE_OK) << name;
    rescue_optimizer* opt = nullptr;
    EXPECT_EQ(rescue_create(b, &opt), RESCUE_OK) << name << ": " << rescue_last_error();
    rescue_destroy(opt);
    rescue_problem_free(b);
  }
}

}  // namespace
