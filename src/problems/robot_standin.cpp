#include "problems/robot_standin.hpp"

#include <algorithm>
#include <cmath>

namespace rescue::problems {
namespace {

double clip01(double u) { return std::max(0.0, std::min(u, 1.0)); }
double sigmoid(double u) { return 1.0 / (1.0 + std::exp(-u)); }

struct RobotOptionDef {
  const char* name;
  double lower, upper;
  OptionKind kind;
};

// The paper's "Robot Navigation Task" configuration space, in RobotOption order.
constexpr RobotOptionDef kOptions[kRobotOptionCount] = {
    {"min_vel_x", -3.0, 0.0, OptionKind::Continuous},
    {"max_vel_x", 0.1, 0.5, OptionKind::Continuous},
    {"max_vel_theta", 0.5, 2.0, OptionKind::Continuous},
    {"max_speed_xy", 0.0, 0.1, OptionKind::Continuous},
    {"acc_lim_x", 1.5, 4.0, OptionKind::Continuous},
    {"acc_lim_theta", 1.5, 5.0, OptionKind::Continuous},
    {"decel_lim_x", -4.0, -1.0, OptionKind::Continuous},
    {"decel_lim_theta", -5.0, -1.5, OptionKind::Continuous},
    {"vx_samples", 10.0, 40.0, OptionKind::Integer},
    {"vtheta_samples", 10.0, 40.0, OptionKind::Integer},
    {"sim_time", 1.0, 3.0, OptionKind::Continuous},
    {"BaseObstacle.scale", 0.01, 0.1, OptionKind::Continuous},
    {"PathAlign.scale", 10.0, 60.0, OptionKind::Continuous},
    {"GoalAlign.scale", 10.0, 60.0, OptionKind::Continuous},
    {"PathDist.scale", 10.0, 60.0, OptionKind::Continuous},
    {"GoalDist.scale", 10.0, 60.0, OptionKind::Continuous},
    {"RotateToGoal.scale", 10.0, 60.0, OptionKind::Continuous},
    {"local_width", 2.0, 5.0, OptionKind::Continuous},
    {"local_height", 2.0, 5.0, OptionKind::Continuous},
    {"local_resolution", 0.04, 0.1, OptionKind::Continuous},
    {"local_inflation_radius", 0.3, 0.6, OptionKind::Continuous},
    {"local_cost_scaling_factor", 2.0, 10.0, OptionKind::Continuous},
    {"global_resolution", 0.04, 0.1, OptionKind::Continuous},
    {"global_inflation_radius", 0.3, 0.6, OptionKind::Continuous},
    {"global_cost_scaling_factor", 2.0, 10.0, OptionKind::Continuous},
};

constexpr double kLevels[3] = {0.2, 0.5, 1.0};

}  // namespace

double collision_risk(const double* x) {
  const double v = x[kMaxVelX];
  const double inflation = x[kLocalInflationRadius];
  const double r_speed = clip01((v / (std::fabs(x[kDecelLimX]) + 0.01)) / 2.0);
  const double r_safety = 1.0 / (1.0 + inflation / (v + 0.01));
  const double r_reaction = 1.0 / (1.0 + inflation / (v * x[kSimTime] + 0.01));
  const double r_perception = clip01((x[kLocalResolution] / (inflation + 0.01)) / 0.5);
  const double r_goal = clip01(((x[kGoalAlignScale] + x[kGoalDistScale]) / (x[kBaseObstacleScale] + 0.01)) / 3.0);
  const double r_sampling = 1.0 / (1.0 + x[kVxSamples] * x[kVthetaSamples] / 200.0);
  return 10.0 * (0.2 * r_speed + 0.3 * r_safety + 0.2 * r_reaction + 0.1 * r_perception + 0.15 * r_goal +
                 0.05 * r_sampling);
}

double RobotStandin::clutter(double s) {
  // The simulator is more cluttered than the empty lab but has ideal physics,
  // so neither cheap source is a faithful proxy of the target.
  if (s == kLevels[0]) return 0.35;
  if (s == kLevels[1]) return 0.05;
  if (s == kLevels[2]) return 1.0;
  fail(Status::OutOfRange, "robot-standin: fidelity must be one of 0.2, 0.5, 1.0");
}

double RobotStandin::physics_gain(double s) {
  // Simulated friction and battery losses are too optimistic.
  if (s == kLevels[0]) return 0.6;
  if (s == kLevels[1] || s == kLevels[2]) return 1.0;
  fail(Status::OutOfRange, "robot-standin: fidelity must be one of 0.2, 0.5, 1.0");
}

RobotStandin::RobotStandin(const ProblemOptions& options)
    // The misleading region is the lower corner of the option box (slow, few
    // rotation samples, narrow local costmap): about twice the median time at
    // the target. The scales are about half the objectives' ranges there and
    // are enough for the corner to beat the centre of the box at level 0.2.
    : ModelProblem("robot-standin", std::vector<double>(kRobotOptionCount, 0.0), {130.0, 0.3}),
      time_rel_sd_(options.time_rel_sd),
      energy_sd_(options.energy_sd),
      completion_sd_(options.completion_sd) {
  options.validate();
  for (const auto& o : kOptions) spec_.add_option(o.name, o.lower, o.upper, o.kind);
  spec_.set_fidelity_levels({kLevels[0], kLevels[1], kLevels[2]}, 1.0);
  spec_.set_cost_levels({std::exp(4.8 * kLevels[0]), std::exp(4.8 * kLevels[1]), std::exp(4.8 * kLevels[2])});
  for (const char* n : {"v_eff", "path_len", "recoveries", "plan_load"}) spec_.add_indicator(n);
  spec_.add_objective("time", Sense::Minimize);
  spec_.add_objective("energy_per_m", Sense::Minimize);
  // The paper states risk < 5.5; as a constraint it is treated as risk <= 5.5.
  spec_.add_constraint("risk", 5.5, ConstraintSense::LessEqual);
  spec_.add_constraint("completion", 0.8, ConstraintSense::GreaterEqual);
  spec_.set_reference_point({400.0, 2.0});
}

Evaluation RobotStandin::model(const double* x, double s) const {
  const double k = clutter(s), g = physics_gain(s);
  const double risk = collision_risk(x);
  const double v_eff =
      x[kMaxVelX] * (1.0 - 0.45 * k * x[kGlobalInflationRadius] / 0.6) / (1.0 + 2.0 * k * x[kBaseObstacleScale]);
  const double path_len = 12.0 *
                          (1.0 + 0.25 * k * x[kGlobalCostScalingFactor] / 10.0 +
                           0.08 * (x[kPathDistScale] - x[kGoalDistScale]) / 50.0) *
                          (1.0 + 0.3 * k * x[kLocalInflationRadius]);
  const double recoveries =
      k * (0.6 + 2.5 * x[kLocalInflationRadius] / x[kLocalWidth] +
           0.015 * std::fabs(x[kGoalAlignScale] - x[kPathAlignScale]) + 8.0 / std::sqrt(x[kVthetaSamples]) +
           0.4 * risk / 10.0);
  const double plan_load = x[kVxSamples] * x[kVthetaSamples] * x[kSimTime] / (1000.0 * x[kLocalResolution]);
  const double time = path_len / v_eff + 6.0 * recoveries +
                      0.5 * (1.0 / x[kAccLimX] + 1.0 / std::fabs(x[kDecelLimX])) * (1.0 + 3.0 * k) +
                      0.01 * plan_load;
  const double energy = g * (0.9 + 1.6 * v_eff * v_eff + 0.12 * recoveries + 0.002 * plan_load +
                             0.05 * x[kMaxVelTheta] / x[kAccLimTheta]);
  const double completion = sigmoid(5.5 - 0.35 * k * risk - 0.9 * recoveries - 0.4 * k * x[kSimTime]);
  Evaluation e;
  e.z = {v_eff, path_len, recoveries, plan_load};
  e.y = {time, energy};
  e.g = {risk, completion};
  return e;
}

void RobotStandin::add_noise(Evaluation& e, Rng& rng) const {
  e.y[0] += time_rel_sd_ * e.y[0] * rng.normal();
  e.y[1] += energy_sd_ * rng.normal();
  e.g[1] = clip01(e.g[1] + completion_sd_ * rng.normal());  // risk (g[0]) is deterministic
}

std::vector<std::pair<int, double>> RobotStandin::target_fixed_options() const {
  // At the target (k = 1, g = 1), read off the equations of model():
  // - acc_lim_x enters time only, through 1 / acc_lim_x: its upper bound;
  //   max_vel_theta / acc_lim_theta enters energy only: 0.5 and 5.
  // - |decel_lim_x| lowers time and r_speed (so risk, recoveries, and raises
  //   completion): -4. sim_time raises r_reaction, plan_load and the
  //   completion penalty: 1. local_width only divides recoveries: 5.
  //   global_cost_scaling_factor only lengthens the path: 2.
  // - PathDist.scale - GoalDist.scale only lengthens the path: 10 and 60
  //   (GoalDist.scale also enters r_goal, which is clipped to 1 on the whole
  //   box: its ratio is at least 20 / 0.11 / 3). PathAlign.scale and
  //   GoalAlign.scale enter only through |GoalAlign - PathAlign| in recoveries
  //   (GoalAlign.scale also through the clipped r_goal): both 10.
  // - min_vel_x, max_speed_xy, decel_lim_theta, RotateToGoal.scale,
  //   local_height, local_cost_scaling_factor and global_resolution enter
  //   nothing: their lower bounds.
  // BaseObstacle.scale and global_inflation_radius act only through v_eff,
  // which time wants high and energy low; at the lower bound of max_vel_x only
  // they can lower v_eff further, so they stay free.
  return {{kMinVelX, -3.0},          {kMaxVelTheta, 0.5},        {kMaxSpeedXy, 0.0},
          {kAccLimX, 4.0},           {kAccLimTheta, 5.0},        {kDecelLimX, -4.0},
          {kDecelLimTheta, -5.0},    {kSimTime, 1.0},            {kPathAlignScale, 10.0},
          {kGoalAlignScale, 10.0},   {kPathDistScale, 10.0},     {kGoalDistScale, 60.0},
          {kRotateToGoalScale, 10.0}, {kLocalWidth, 5.0},        {kLocalHeight, 2.0},
          {kLocalCostScalingFactor, 2.0}, {kGlobalResolution, 0.04}, {kGlobalCostScalingFactor, 2.0}};
}

std::vector<std::pair<std::string, std::string>> RobotStandin::model_edges() const {
  // r_goal is clipped to 1 everywhere in the option box (its ratio is at
  // least 20 / 0.11 / 3 > 60), so GoalAlign.scale, GoalDist.scale and
  // BaseObstacle.scale, written in the risk formula, never change it.
  const std::vector<std::string> risk_parents{"max_vel_x", "decel_lim_x",   "local_inflation_radius", "sim_time",
                                              "local_resolution", "vx_samples", "vtheta_samples"};
  Edges e;
  add_parents(e, "v_eff", {"max_vel_x", "global_inflation_radius", "BaseObstacle.scale", "fidelity"});
  add_parents(e, "path_len",
              {"global_cost_scaling_factor", "PathDist.scale", "GoalDist.scale", "local_inflation_radius", "fidelity"});
  // recoveries contains risk, a constraint metric, which may not cause an
  // indicator: its parents stand in for it.
  std::vector<std::string> recoveries{"fidelity", "local_width", "PathAlign.scale", "GoalAlign.scale"};
  for (const auto& p : risk_parents)
    if (std::find(recoveries.begin(), recoveries.end(), p) == recoveries.end()) recoveries.push_back(p);
  add_parents(e, "recoveries", recoveries);
  add_parents(e, "plan_load", {"vx_samples", "vtheta_samples", "sim_time", "local_resolution"});
  add_parents(e, "time",
              {"path_len", "v_eff", "recoveries", "acc_lim_x", "decel_lim_x", "plan_load", "fidelity"});
  add_parents(e, "energy_per_m",
              {"v_eff", "recoveries", "plan_load", "max_vel_theta", "acc_lim_theta", "fidelity"});
  add_parents(e, "risk", risk_parents);
  add_parents(e, "completion", {"risk", "recoveries", "sim_time", "fidelity"});
  return e;
}

}  // namespace rescue::problems
