#include "gp/hyperparameters.hpp"

#include <cmath>

#include "util/error.hpp"

namespace rescue::gp {

Eigen::MatrixXd Hyperparameters::coregionalization() const {
  Eigen::MatrixXd B = coreg_factor * coreg_factor.transpose();
  B.diagonal() += log_kappa.array().exp().matrix();
  return B;
}

double Hyperparameters::target_correlation() const { return std::tanh(target_link); }

ParameterLayout::ParameterLayout(int num_inputs, int num_outputs, int rank, LearnMask mask)
    : D_(num_inputs), P_(num_outputs), R_(rank), mask_(mask) {
  if (D_ < 1 || P_ < 1 || R_ < 1 || R_ > P_)
    fail(Status::InvalidArgument, "gp: invalid parameter layout sizes");
  int k = noise_offset() + P_;
  if (mask_.mean_constant) { mc_ = k; k += P_; }
  if (mask_.mean_scale) { ms_ = k; k += P_; }
  if (mask_.hook_weight) { hw_ = k; k += 1; }
  if (mask_.fidelity_slope) { fs_ = k; k += P_; }
  if (mask_.fidelity_positions < 0) fail(Status::InvalidArgument, "gp: invalid parameter layout sizes");
  if (mask_.fidelity_positions > 0) {
    fp_ = k;
    k += mask_.fidelity_positions;
  }
  if (mask_.target_link) tl_ = k++;
  size_ = k;
}

Eigen::VectorXd ParameterLayout::pack(const Hyperparameters& h) const {
  Eigen::VectorXd t(size_);
  t.segment(0, D_) = h.log_lengthscale;
  t.segment(factor_offset(), P_ * R_) =
      Eigen::Map<const Eigen::VectorXd>(h.coreg_factor.data(), P_ * R_);
  t.segment(kappa_offset(), P_) = h.log_kappa;
  t.segment(noise_offset(), P_) = h.log_noise;
  if (mc_ >= 0) t.segment(mc_, P_) = h.mean_constant;
  if (ms_ >= 0) t.segment(ms_, P_) = h.mean_scale;
  if (hw_ >= 0) t[hw_] = h.log_hook_weight;
  if (fs_ >= 0) t.segment(fs_, P_) = h.fidelity_slope.size() == P_ ? h.fidelity_slope : Eigen::VectorXd::Zero(P_);
  if (fp_ >= 0) {
    if (h.fidelity_position.size() != mask_.fidelity_positions)
      fail(Status::SizeMismatch, "gp: the fidelity positions do not match the model's levels");
    t.segment(fp_, mask_.fidelity_positions) = h.fidelity_position;
  }
  if (tl_ >= 0) t[tl_] = h.target_link;
  return t;
}

void ParameterLayout::unpack(const Eigen::VectorXd& t, Hyperparameters& h) const {
  if (t.size() != size_) fail(Status::SizeMismatch, "gp: hyperparameter vector has the wrong size");
  h.log_lengthscale = t.segment(0, D_);
  h.coreg_factor = Eigen::Map<const Eigen::MatrixXd>(t.data() + factor_offset(), P_, R_);
  h.log_kappa = t.segment(kappa_offset(), P_);
  h.log_noise = t.segment(noise_offset(), P_);
  if (mc_ >= 0) h.mean_constant = t.segment(mc_, P_);
  if (ms_ >= 0) h.mean_scale = t.segment(ms_, P_);
  if (hw_ >= 0) h.log_hook_weight = t[hw_];
  if (fs_ >= 0) h.fidelity_slope = t.segment(fs_, P_);
  if (fp_ >= 0) h.fidelity_position = t.segment(fp_, mask_.fidelity_positions);
  if (tl_ >= 0) h.target_link = t[tl_];
}

void ParameterLayout::bounds(double noise_floor, Eigen::VectorXd& lo, Eigen::VectorXd& hi) const {
  lo.resize(size_);
  hi.resize(size_);
  // Inputs live in [0, 1]: lengthscales outside [1e-3, 1e3] mean nothing more.
  lo.segment(0, D_).setConstant(std::log(1e-3));
  hi.segment(0, D_).setConstant(std::log(1e3));
  lo.segment(factor_offset(), P_ * R_).setConstant(-1e2);
  hi.segment(factor_offset(), P_ * R_).setConstant(1e2);
  lo.segment(kappa_offset(), P_).setConstant(std::log(1e-8));
  hi.segment(kappa_offset(), P_).setConstant(std::log(1e4));
  lo.segment(noise_offset(), P_).setConstant(std::log(noise_floor));
  hi.segment(noise_offset(), P_).setConstant(std::log(1e2));
  if (mc_ >= 0) { lo.segment(mc_, P_).setConstant(-1e2); hi.segment(mc_, P_).setConstant(1e2); }
  if (ms_ >= 0) { lo.segment(ms_, P_).setConstant(-1e2); hi.segment(ms_, P_).setConstant(1e2); }
  if (hw_ >= 0) { lo[hw_] = std::log(1e-6); hi[hw_] = std::log(1e4); }
  if (fs_ >= 0) { lo.segment(fs_, P_).setConstant(-1e2); hi.segment(fs_, P_).setConstant(1e2); }
  // Fidelities live in [0, 1]: an interior level may sit anywhere from three
  // ranges below the lowest level to three above the highest, far enough to be
  // nearly independent of both ends (a level two ranges out on either side is
  // as far from one end as the ends are from each other).
  if (fp_ >= 0) {
    lo.segment(fp_, mask_.fidelity_positions).setConstant(-3.0);
    hi.segment(fp_, mask_.fidelity_positions).setConstant(4.0);
  }
  // gamma = tanh(theta) from -0.995 to 1 - 1.2e-5: a target that mirrors the
  // other fidelities, is independent of them, or follows them so closely that
  // they predict it to within 0.5% of its prior standard deviation.
  if (tl_ >= 0) { lo[tl_] = -3.0; hi[tl_] = 6.0; }
}

}  // namespace rescue::gp
