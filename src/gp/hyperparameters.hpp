// Hyperparameters of the multi-output multi-fidelity GP, all on the
// standardized output scale, and their packing into one vector for the optimizer.
#pragma once
#include <vector>

#include <Eigen/Dense>

namespace rescue::gp {

/// The target link's prior mode (gp_fit.cpp): atanh(0.98), a target correlation of 0.98.
inline constexpr double kTargetLinkMode = 2.2975599250672945;

struct Hyperparameters {
  Eigen::VectorXd log_lengthscale;  // d+1: input dimensions, then fidelity
  Eigen::MatrixXd coreg_factor;     // L (P x rank): K_obj = L L^T + diag(kappa)
  Eigen::VectorXd log_kappa;        // P
  Eigen::VectorXd log_noise;        // P: log noise variances
  Eigen::VectorXd mean_constant;    // P: constant added to the prior mean
  Eigen::VectorXd mean_scale;       // P: weight of the (standardized) mean hook
  Eigen::VectorXd fidelity_slope;   // P: mean slope in (anchor - s); empty means zero
  double log_hook_weight = 0.0;     // log w, weight of the kernel hook term
  Eigen::VectorXd fidelity_position;     // where k_fid places the interior fidelity levels; empty: none
  double target_link = kTargetLinkMode;  // theta: the target correlation gamma = tanh(theta) (see kernel.hpp)

  /// K_obj = L L^T + diag(kappa).
  Eigen::MatrixXd coregionalization() const;
  Eigen::VectorXd noise() const { return log_noise.array().exp(); }
  double target_correlation() const;
};

/// Which hyperparameters the optimizer moves; the others stay at their values.
struct LearnMask {
  bool mean_constant = true;
  bool mean_scale = false;
  bool hook_weight = false;
  bool fidelity_slope = false;
  int fidelity_positions = 0;  // interior fidelity levels whose position is learned
  bool target_link = false;
};

/// Packs the learned hyperparameters into a flat vector (fixed order:
/// lengthscales, L column-major, log kappa, log noise, then the optional ones:
/// mean constants, mean scales, hook weight, fidelity slopes, fidelity positions, target link).
class ParameterLayout {
 public:
  ParameterLayout(int num_inputs, int num_outputs, int rank, LearnMask mask);
  int size() const { return size_; }
  Eigen::VectorXd pack(const Hyperparameters& h) const;
  /// Writes the learned entries of theta into h (the fixed entries are kept).
  void unpack(const Eigen::VectorXd& theta, Hyperparameters& h) const;
  /// Box bounds of each packed entry.
  void bounds(double noise_floor, Eigen::VectorXd& lower, Eigen::VectorXd& upper) const;

  int ls_offset() const { return 0; }
  int factor_offset() const { return D_; }
  int kappa_offset() const { return D_ + P_ * R_; }
  int noise_offset() const { return kappa_offset() + P_; }
  int mean_constant_offset() const { return mc_; }  // -1 when not learned
  int mean_scale_offset() const { return ms_; }     // -1 when not learned
  int hook_weight_offset() const { return hw_; }    // -1 when not learned
  int fidelity_slope_offset() const { return fs_; } // -1 when not learned
  int fidelity_position_offset() const { return fp_; } // -1 when not learned
  int target_link_offset() const { return tl_; }       // -1 when not learned

 private:
  int D_, P_, R_;
  LearnMask mask_;
  int mc_ = -1, ms_ = -1, hw_ = -1, fs_ = -1, fp_ = -1, tl_ = -1, size_ = 0;
};

}  // namespace rescue::gp
