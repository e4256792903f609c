// Problem definitions (dimensions, bounds, senses, reference points, fidelity,
// costs), the name registry and input validation.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "problems/benchmark_problem.hpp"
#include "problems/misleading_fidelity.hpp"
#include "test_helpers.hpp"

namespace rescue::problems {
namespace {

using testing::status_of;

struct Expected {
  std::string name;
  int d, k, m, q;
  Sense sense;
  std::vector<double> ref;
};

const std::vector<Expected>& expected() {
  static const std::vector<Expected> e = {
      {"branin-currin", 2, 0, 2, 0, Sense::Maximize, {0.0, 0.0}},
      {"park", 4, 0, 2, 0, Sense::Maximize, {0.0, 0.0}},
      {"healthcare", 2, 0, 2, 1, Sense::Minimize, {0.5, 5.0}},
      {"robot-standin", 25, 4, 2, 2, Sense::Minimize, {400.0, 2.0}},
  };
  return e;
}

TEST(ProblemSpecs, DimensionsSensesAndReferencePoints) {
  for (const Expected& ex : expected()) {
    auto p = make_problem(ex.name);
    const ProblemSpec& s = p->spec();
    EXPECT_EQ(p->name(), ex.name);
    EXPECT_EQ(s.dim(), ex.d) << ex.name;
    EXPECT_EQ(s.num_indicators(), ex.k) << ex.name;
    EXPECT_EQ(s.num_objectives(), ex.m) << ex.name;
    EXPECT_EQ(s.num_constraints(), ex.q) << ex.name;
    for (const auto& o : s.objectives()) EXPECT_EQ(o.sense, ex.sense) << ex.name << " " << o.name;
    EXPECT_EQ(s.reference_point(), ex.ref) << ex.name;
    EXPECT_EQ(s.fidelity().target, 1.0) << ex.name;
    EXPECT_NO_THROW(s.validate_complete());
  }
}

TEST(ProblemSpecs, OptionBounds) {
  auto bc = make_problem("branin-currin");
  for (const auto& o : bc->spec().options()) {
    EXPECT_EQ(o.lower, 0.0);
    EXPECT_EQ(o.upper, 1.0);
  }
  auto hc = make_problem("healthcare");
  EXPECT_EQ(hc->spec().options()[0].name, "BMI");
  EXPECT_EQ(hc->spec().options()[0].lower, 20.0);
  EXPECT_EQ(hc->spec().options()[0].upper, 30.0);
  EXPECT_EQ(hc->spec().options()[1].name, "Aspirin");
  EXPECT_EQ(hc->spec().options()[1].upper, 1.0);

  auto rb = make_problem("robot-standin");
  const ProblemSpec& s = rb->spec();
  int integers = 0;
  for (const auto& o : s.options()) integers += o.kind == OptionKind::Integer;
  EXPECT_EQ(integers, 2);
  const auto& vx = s.options()[testing::option_index(s, "vx_samples")];
  EXPECT_EQ(vx.kind, OptionKind::Integer);
  EXPECT_EQ(vx.lower, 10.0);
  EXPECT_EQ(vx.upper, 40.0);
  EXPECT_EQ(s.options()[testing::option_index(s, "vtheta_samples")].kind, OptionKind::Integer);
  const auto& decel = s.options()[testing::option_index(s, "decel_lim_x")];
  EXPECT_EQ(decel.lower, -4.0);
  EXPECT_EQ(decel.upper, -1.0);
  const auto& obstacle = s.options()[testing::option_index(s, "BaseObstacle.scale")];
  EXPECT_EQ(obstacle.lower, 0.01);
  EXPECT_EQ(obstacle.upper, 0.1);
  EXPECT_EQ(s.options()[testing::option_index(s, "RotateToGoal.scale")].upper, 60.0);
}

TEST(ProblemSpecs, ContinuousFidelityAndExponentialCost) {
  for (const char* name : {"branin-currin", "park", "healthcare"}) {
    auto p = make_problem(name);
    const ProblemSpec& s = p->spec();
    EXPECT_FALSE(s.fidelity().discrete) << name;
    EXPECT_EQ(s.fidelity().lower, 0.0);
    EXPECT_EQ(s.fidelity().upper, 1.0);
    std::vector<double> x(s.dim(), s.options()[0].lower);
    const double ratio = s.cost(x.data(), 1.0) / s.cost(x.data(), 0.0);
    EXPECT_NEAR(ratio, std::exp(4.8), 1e-9) << name;
    EXPECT_NEAR(ratio, 121.5, 0.1) << name;
    EXPECT_NEAR(s.cost(x.data(), 0.5), std::exp(2.4), 1e-12) << name;
  }
}

TEST(ProblemSpecs, RobotLevelsAndPerLevelCost) {
  auto p = make_problem("robot-standin");
  const ProblemSpec& s = p->spec();
  EXPECT_TRUE(s.fidelity().discrete);
  EXPECT_EQ(s.fidelity().levels, (std::vector<double>{0.2, 0.5, 1.0}));
  EXPECT_EQ(s.cost_model().kind, CostKind::PerLevel);
  std::vector<double> x(s.dim());
  for (int i = 0; i < s.dim(); ++i) x[i] = s.options()[i].lower;
  for (double l : {0.2, 0.5, 1.0}) EXPECT_NEAR(s.cost(x.data(), l), std::exp(4.8 * l), 1e-12);
  EXPECT_NEAR(s.target_cost(), std::exp(4.8), 1e-12);
  ASSERT_EQ(s.num_constraints(), 2);
  EXPECT_EQ(s.constraints()[0].name, "risk");
  EXPECT_EQ(s.constraints()[0].threshold, 5.5);
  EXPECT_EQ(s.constraints()[0].sense, ConstraintSense::LessEqual);
  EXPECT_EQ(s.constraints()[1].name, "completion");
  EXPECT_EQ(s.constraints()[1].threshold, 0.8);
  EXPECT_EQ(s.constraints()[1].sense, ConstraintSense::GreaterEqual);
  EXPECT_EQ(s.indicators(), (std::vector<std::string>{"v_eff", "path_len", "recoveries", "plan_load"}));
}

TEST(ProblemRegistry, EveryListedNameBuilds) {
  for (const auto& n : problem_names()) {
    auto p = make_problem(n);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->name(), n);
  }
  EXPECT_EQ(problem_names().size(), 4u * (1 + misleading_suffixes().size()) + 1);  // and branin-currin-mixed
}

TEST(ProblemRegistry, UnknownNamesThrow) {
  for (const char* n : {"", "branin", "Park", "adversarial", "-adversarial", "park-adversarial-adversarial", "park-jump-reflected", "-unrelated",
                        "robot", "healthcare "})
    EXPECT_EQ(status_of([&] { make_problem(n); }), Status::UnknownName) << n;
}

TEST(ProblemRegistry, OptionsAreValidated) {
  ProblemOptions o;
  EXPECT_EQ(status_of([&] { o.set("no_such_key", 1.0); }), Status::UnknownName);
  EXPECT_EQ(status_of([&] { o.set("psa_sd", -1.0); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { o.set("cancer_threshold", std::nan("")); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { o.set("synthetic_noise", 0.5); }), Status::InvalidArgument);
  EXPECT_EQ(o.psa_sd, 0.05);  // unchanged after a failed set
  for (const auto& k : ProblemOptions::keys()) EXPECT_NO_THROW(o.set(k, 1.0)) << k;
  ProblemOptions bad;
  bad.statin_sd = -0.1;
  EXPECT_EQ(status_of([&] { make_problem("healthcare", bad); }), Status::InvalidArgument);
}

TEST(ProblemEvaluation, RejectsBadInput) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const Expected& ex : expected()) {
    auto p = make_problem(ex.name);
    const ProblemSpec& s = p->spec();
    std::vector<double> x(s.dim());
    for (int i = 0; i < s.dim(); ++i) x[i] = s.options()[i].lower;
    EXPECT_NO_THROW(p->evaluate(x.data(), 1.0));
    EXPECT_EQ(status_of([&] { p->evaluate(nullptr, 1.0); }), Status::NullPointer);
    for (double bad_s : {1.01, -0.01, 0.3, nan, std::numeric_limits<double>::infinity()}) {
      if (bad_s == 0.3 && !s.fidelity().discrete) continue;  // 0.3 is only invalid among levels
      EXPECT_EQ(status_of([&] { p->evaluate(x.data(), bad_s); }), Status::OutOfRange) << ex.name << " s=" << bad_s;
    }
    Rng rng(1);
    EXPECT_EQ(status_of([&] { p->evaluate_noisy(x.data(), 2.0, rng); }), Status::OutOfRange);
    for (int i = 0; i < s.dim(); ++i) {
      std::vector<double> y = x;
      const double width = s.options()[i].upper - s.options()[i].lower;
      y[i] = s.options()[i].upper + width;
      EXPECT_EQ(status_of([&] { p->evaluate(y.data(), 1.0); }), Status::OutOfRange) << ex.name << " option " << i;
      y[i] = s.options()[i].lower - width;
      EXPECT_EQ(status_of([&] { p->evaluate(y.data(), 1.0); }), Status::OutOfRange) << ex.name << " option " << i;
      y[i] = nan;
      EXPECT_EQ(status_of([&] { p->evaluate(y.data(), 1.0); }), Status::NonFinite) << ex.name << " option " << i;
    }
  }
}

}  // namespace
}  // namespace rescue::problems
