// Stand-in for the paper's robot-navigation benchmark (TurtleBot 4 with Nav2).
// The paper's benchmark is a surrogate learned from robot data that is not
// public; this stand-in keeps its 25 options, its three discrete fidelities
// (0.2 simulation, 0.5 empty lab, 1.0 cluttered lab = target) and its exact
// collision-risk score, and replaces the learned surrogate with an explicit
// model. Objectives time and energy_per_m are minimized (reference point
// (400, 2.0)); constraints risk <= 5.5 and completion >= 0.8. Definitions:
// docs/problems.md.
#pragma once
#include "problems/model_problem.hpp"
#include "problems/problem_options.hpp"

namespace rescue::problems {

/// Positions of the robot's options in a configuration vector.
enum RobotOption : int {
  kMinVelX = 0, kMaxVelX, kMaxVelTheta, kMaxSpeedXy, kAccLimX, kAccLimTheta, kDecelLimX, kDecelLimTheta,
  kVxSamples, kVthetaSamples, kSimTime, kBaseObstacleScale, kPathAlignScale, kGoalAlignScale, kPathDistScale,
  kGoalDistScale, kRotateToGoalScale, kLocalWidth, kLocalHeight, kLocalResolution, kLocalInflationRadius,
  kLocalCostScalingFactor, kGlobalResolution, kGlobalInflationRadius, kGlobalCostScalingFactor,
  kRobotOptionCount
};

/// The paper's collision-risk score (appendix, robot navigation) of a
/// configuration of the 25 options, in [0, 10].
double collision_risk(const double* x);

class RobotStandin final : public ModelProblem {
 public:
  explicit RobotStandin(const ProblemOptions& options = {});
  /// Clutter k(s) and physics gain g(s) of a fidelity level; throws OutOfRange
  /// for a value that is not a level.
  static double clutter(double s);
  static double physics_gain(double s);
  /// The 18 options whose best value at the target does not depend on the
  /// rest (see robot_standin.cpp); the other 7 (max_vel_x, the two sample
  /// counts, BaseObstacle.scale, local_resolution and the two inflation
  /// radii) trade the objectives against each other or the constraints.
  std::vector<std::pair<int, double>> target_fixed_options() const override;

 private:
  Evaluation model(const double* x, double s) const override;
  std::vector<std::pair<std::string, std::string>> model_edges() const override;
  void add_noise(Evaluation& e, Rng& rng) const override;
  double time_rel_sd_, energy_sd_, completion_sd_;
};

}  // namespace rescue::problems
