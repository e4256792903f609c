// The robot-navigation stand-in: the collision-risk score and the explicit
// model against hand computations that look options up by name.
#include <algorithm>
#include <cmath>
#include <map>

#include <gtest/gtest.h>

#include "problems/benchmark_problem.hpp"
#include "problems/robot_standin.hpp"
#include "test_helpers.hpp"

namespace rescue::problems {
namespace {

using testing::close;

std::map<std::string, double> by_name(const ProblemSpec& spec, const std::vector<double>& x) {
  std::map<std::string, double> m;
  for (int i = 0; i < spec.dim(); ++i) m[spec.options()[i].name] = x[i];
  return m;
}

double clip(double u) { return std::max(0.0, std::min(u, 1.0)); }

double hand_risk(std::map<std::string, double> p) {
  const double r_speed = clip((p["max_vel_x"] / (std::fabs(p["decel_lim_x"]) + 0.01)) / 2);
  const double r_safety = 1 / (1 + p["local_inflation_radius"] / (p["max_vel_x"] + 0.01));
  const double r_reaction = 1 / (1 + p["local_inflation_radius"] / (p["max_vel_x"] * p["sim_time"] + 0.01));
  const double r_perception = clip((p["local_resolution"] / (p["local_inflation_radius"] + 0.01)) / 0.5);
  const double r_goal = clip(((p["GoalAlign.scale"] + p["GoalDist.scale"]) / (p["BaseObstacle.scale"] + 0.01)) / 3);
  const double r_sampling = 1 / (1 + p["vx_samples"] * p["vtheta_samples"] / 200);
  return 10 * (0.2 * r_speed + 0.3 * r_safety + 0.2 * r_reaction + 0.1 * r_perception + 0.15 * r_goal +
               0.05 * r_sampling);
}

TEST(RobotStandin, CollisionRiskMatchesHandComputation) {
  auto p = make_problem("robot-standin");
  Rng rng(5);
  for (int i = 0; i < 200; ++i) {
    const std::vector<double> x = testing::random_config(p->spec(), rng);
    const double expected = hand_risk(by_name(p->spec(), x));
    EXPECT_TRUE(close(collision_risk(x.data()), expected));
    for (double s : {0.2, 0.5, 1.0}) EXPECT_TRUE(close(p->evaluate(x.data(), s).g[0], expected));
  }
}

TEST(RobotStandin, CollisionRiskAtAHandWorkedPoint) {
  // max_vel_x 0.5, decel -1, inflation 0.3, sim_time 1, resolution 0.1,
  // GoalAlign + GoalDist = 20, BaseObstacle 0.1, samples 10 x 10.
  auto p = make_problem("robot-standin");
  std::vector<double> x(p->spec().dim());
  for (int i = 0; i < p->spec().dim(); ++i) x[i] = p->spec().options()[i].lower;
  auto set = [&](const char* n, double v) { x[testing::option_index(p->spec(), n)] = v; };
  set("max_vel_x", 0.5);
  set("decel_lim_x", -1.0);
  set("local_inflation_radius", 0.3);
  set("sim_time", 1.0);
  set("local_resolution", 0.1);
  set("GoalAlign.scale", 10.0);
  set("GoalDist.scale", 10.0);
  set("BaseObstacle.scale", 0.1);
  set("vx_samples", 10.0);
  set("vtheta_samples", 10.0);
  const double r_speed = (0.5 / 1.01) / 2;
  const double r_safety = 1 / (1 + 0.3 / 0.51), r_reaction = r_safety;
  const double r_perception = (0.1 / 0.31) / 0.5;
  const double r_goal = 1.0;  // 20 / 0.11 / 3 clipped
  const double r_sampling = 1 / 1.5;
  const double expected =
      10 * (0.2 * r_speed + 0.3 * r_safety + 0.2 * r_reaction + 0.1 * r_perception + 0.15 * r_goal + 0.05 * r_sampling);
  EXPECT_TRUE(close(collision_risk(x.data()), expected));
}

TEST(RobotStandin, ModelMatchesHandComputationAtEveryLevel) {
  auto p = make_problem("robot-standin");
  const std::map<double, std::pair<double, double>> kg = {{0.2, {0.35, 0.6}}, {0.5, {0.05, 1.0}}, {1.0, {1.0, 1.0}}};
  Rng rng(8);
  for (int i = 0; i < 100; ++i) {
    const std::vector<double> x = testing::random_config(p->spec(), rng);
    auto q = by_name(p->spec(), x);
    const double risk = hand_risk(q);
    for (const auto& [s, kgs] : kg) {
      const double k = kgs.first, g = kgs.second;
      const double v_eff = q["max_vel_x"] * (1 - 0.45 * k * q["global_inflation_radius"] / 0.6) /
                           (1 + 2 * k * q["BaseObstacle.scale"]);
      const double path_len = 12 *
                              (1 + 0.25 * k * q["global_cost_scaling_factor"] / 10 +
                               0.08 * (q["PathDist.scale"] - q["GoalDist.scale"]) / 50) *
                              (1 + 0.3 * k * q["local_inflation_radius"]);
      const double rec = k * (0.6 + 2.5 * q["local_inflation_radius"] / q["local_width"] +
                              0.015 * std::fabs(q["GoalAlign.scale"] - q["PathAlign.scale"]) +
                              8 / std::sqrt(q["vtheta_samples"]) + 0.4 * risk / 10);
      const double load = q["vx_samples"] * q["vtheta_samples"] * q["sim_time"] / (1000 * q["local_resolution"]);
      const double time = path_len / v_eff + 6 * rec +
                          0.5 * (1 / q["acc_lim_x"] + 1 / std::fabs(q["decel_lim_x"])) * (1 + 3 * k) + 0.01 * load;
      const double energy =
          g * (0.9 + 1.6 * v_eff * v_eff + 0.12 * rec + 0.002 * load + 0.05 * q["max_vel_theta"] / q["acc_lim_theta"]);
      const double completion = 1 / (1 + std::exp(-(5.5 - 0.35 * k * risk - 0.9 * rec - 0.4 * k * q["sim_time"])));
      const Evaluation e = p->evaluate(x.data(), s);
      ASSERT_EQ(e.z.size(), 4u);
      EXPECT_TRUE(close(e.z[0], v_eff));
      EXPECT_TRUE(close(e.z[1], path_len));
      EXPECT_TRUE(close(e.z[2], rec));
      EXPECT_TRUE(close(e.z[3], load));
      EXPECT_TRUE(close(e.y[0], time));
      EXPECT_TRUE(close(e.y[1], energy));
      EXPECT_TRUE(close(e.g[1], completion));
    }
  }
}

TEST(RobotStandin, IntegerOptionsMustBeIntegers) {
  auto p = make_problem("robot-standin");
  std::vector<double> x(p->spec().dim());
  for (int i = 0; i < p->spec().dim(); ++i) x[i] = p->spec().options()[i].lower;
  x[testing::option_index(p->spec(), "vx_samples")] = 12.5;
  EXPECT_EQ(testing::status_of([&] { p->evaluate(x.data(), 1.0); }), Status::InvalidArgument);
}

// The maximum-hypervolume search holds target_fixed_options() fixed; that is
// sound only if, for any configuration, setting them all leaves each objective
// (both minimized) no worse and each constraint no nearer to violation.
TEST(RobotStandin, FixedOptionsAreNeverWorseAtTheTarget) {
  const RobotStandin p;
  const auto& spec = p.spec();
  const auto fixed = p.target_fixed_options();
  EXPECT_EQ(fixed.size(), 18u);
  std::vector<char> held(spec.dim(), 0);
  for (const auto& [j, v] : fixed) held[j] = 1;
  for (const char* name : {"max_vel_x", "vx_samples", "vtheta_samples", "BaseObstacle.scale", "local_resolution",
                           "local_inflation_radius", "global_inflation_radius"})
    EXPECT_FALSE(held[testing::option_index(spec, name)]) << name;
  Rng rng(7);
  std::vector<double> u(spec.dim()), x(spec.dim());
  int improved = 0;
  for (int n = 0; n < 5000; ++n) {
    for (auto& v : u) v = rng.uniform();
    spec.from_unit(u.data(), x.data());
    const Evaluation a = p.evaluate(x.data(), 1.0);
    const double tol = 1e-12;
    // All together, and each alone (the two Align scales as a pair: only
    // their difference matters, so either alone may be worse).
    for (int which = -1; which < static_cast<int>(fixed.size()); ++which) {
      std::vector<double> y = x;
      for (int k = 0; k < static_cast<int>(fixed.size()); ++k) {
        const int j = fixed[k].first;
        const bool align = j == kPathAlignScale || j == kGoalAlignScale;
        const bool partner = which >= 0 && align &&
                             (fixed[which].first == kPathAlignScale || fixed[which].first == kGoalAlignScale);
        if (which < 0 || k == which || partner) y[j] = fixed[k].second;
      }
      const Evaluation b = p.evaluate(y.data(), 1.0);
      ASSERT_LE(b.y[0], a.y[0] * (1 + tol)) << "time, sample " << n << ", fixed entry " << which;
      ASSERT_LE(b.y[1], a.y[1] * (1 + tol)) << "energy, sample " << n << ", fixed entry " << which;
      ASSERT_LE(b.g[0], a.g[0] + tol) << "risk, sample " << n << ", fixed entry " << which;
      ASSERT_GE(b.g[1], a.g[1] - tol) << "completion, sample " << n << ", fixed entry " << which;
      if (which < 0 && b.y[0] < a.y[0] - 1e-9) ++improved;
    }
  }
  EXPECT_GT(improved, 4750);  // the fixed values matter: time improves on almost every sample
}

}  // namespace
}  // namespace rescue::problems
