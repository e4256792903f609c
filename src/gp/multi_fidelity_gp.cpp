#include "gp/multi_fidelity_gp.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "util/error.hpp"

namespace rescue::gp {
namespace {

int choose_rank(int P, int requested) {
  if (requested < 0 || requested > P)
    fail(Status::InvalidArgument, "gp: rank of K_obj must be in [1, number of outputs] (0: automatic)");
  if (requested > 0) return requested;
  return P <= 6 ? P : 6;
}

int interior_levels(const GpOptions& o) {
  return o.fidelity_levels.size() >= 3 ? static_cast<int>(o.fidelity_levels.size()) - 2 : 0;
}

// The piecewise-linear map of GpOptions::fidelity_levels at s: knots u_k, values
// v_k (u_k at the two ends, the learned positions inside), slope 1 beyond the
// ends. Writes the segment's left knot and the weight of its right knot.
double warp_at(double s, const std::vector<double>& u, const Eigen::VectorXd& pos, int& k, double& t) {
  const int L = static_cast<int>(u.size());
  auto v = [&](int j) { return j == 0 || j == L - 1 ? u[j] : pos[j - 1]; };
  if (s <= u[0]) {
    k = -1;
    t = 0.0;
    return v(0) + (s - u[0]);
  }
  if (s >= u[L - 1]) {
    k = L - 1;
    t = 0.0;
    return v(L - 1) + (s - u[L - 1]);
  }
  k = 0;
  while (k + 2 < L && s >= u[k + 1]) ++k;
  t = (s - u[k]) / (u[k + 1] - u[k]);
  return (1.0 - t) * v(k) + t * v(k + 1);
}

}  // namespace

MultiFidelityGp::MultiFidelityGp(int num_inputs, int num_outputs, GpOptions options)
    : D_(num_inputs),
      P_(num_outputs),
      R_(num_outputs >= 1 ? choose_rank(num_outputs, options.rank) : 1),
      opt_(options),
      layout_(num_inputs < 1 ? 1 : num_inputs, num_outputs < 1 ? 1 : num_outputs,
               num_outputs >= 1 ? choose_rank(num_outputs, options.rank) : 1,
               LearnMask{options.learn_mean_constant, false, false, options.learn_fidelity_offset,
                         interior_levels(options), !std::isnan(options.target_fidelity)}) {
  if (num_inputs < 1) fail(Status::InvalidArgument, "gp: need at least one input column (the fidelity)");
  if (num_outputs < 1) fail(Status::InvalidArgument, "gp: need at least one output");
  const auto& lv = options.fidelity_levels;
  if (lv.size() == 1 || lv.size() == 2)
    fail(Status::InvalidArgument, "gp: learned fidelity positions need at least three levels");
  for (std::size_t k = 0; k < lv.size(); ++k)
    if (!std::isfinite(lv[k]) || (k > 0 && !(lv[k] > lv[k - 1])))
      fail(Status::InvalidArgument, "gp: fidelity levels must be finite and strictly ascending");
  if (options.fidelity_level_min_rows < 1)
    fail(Status::InvalidArgument, "gp: the rows a fidelity level needs before its position is learned must be at least 1");
  if (std::isinf(options.target_fidelity))
    fail(Status::InvalidArgument, "gp: the target fidelity must be finite (or NaN for none)");
  if (options.cold_starts < 1 || options.warm_starts < 1)
    fail(Status::InvalidArgument, "gp: start counts must be at least 1");
  const auto& cat = options.categorical_levels;
  if (static_cast<int>(cat.size()) > num_inputs - 1)
    fail(Status::SizeMismatch, "gp: more categorical entries than configuration inputs");
  for (int L : cat)
    if (L < 0 || L == 1) fail(Status::InvalidArgument, "gp: a categorical input needs at least two levels");
  if (std::any_of(cat.begin(), cat.end(), [](int L) { return L > 0; }))
    categorical_ = Eigen::Map<const Eigen::VectorXi>(cat.data(), static_cast<Eigen::Index>(cat.size()));
  hp_ = default_hyperparameters();
}

void MultiFidelityGp::install_hooks(MeanHook mean, KernelHook kernel) {
  // Strong guarantee: a hook that fails at the current data leaves the model unchanged.
  MultiFidelityGp next = *this;
  next.mean_hook_ = std::move(mean);
  next.kernel_hook_ = std::move(kernel);
  next.prior_changed_ = true;
  next.layout_ = ParameterLayout(
      D_, P_, R_,
      LearnMask{opt_.learn_mean_constant, opt_.learn_mean_scale && bool(next.mean_hook_),
                opt_.learn_hook_weight && bool(next.kernel_hook_), opt_.learn_fidelity_offset,
                num_positions(), links_target()});
  if (next.plain_.size() != next.layout_.size()) next.plain_.resize(0);
  if (next.X_.rows() > 0) {
    next.evaluate_hooks();
    next.refactor();
  }
  *this = std::move(next);
}

void MultiFidelityGp::set_mean_hook(MeanHook hook) { install_hooks(std::move(hook), kernel_hook_); }

void MultiFidelityGp::set_kernel_hook(KernelHook hook) { install_hooks(mean_hook_, std::move(hook)); }

Hyperparameters MultiFidelityGp::default_hyperparameters() const {
  Hyperparameters h;
  // Mode of the lengthscale prior, exp(sqrt2 + log(D)/2 - 3) = 0.2 sqrt(D).
  h.log_lengthscale = Eigen::VectorXd::Constant(D_, std::sqrt(2.0) + 0.5 * std::log(double(D_)) - 3.0);
  h.coreg_factor = Eigen::MatrixXd::Constant(P_, R_, 0.1);
  for (int k = 0; k < R_; ++k) h.coreg_factor(k, k) = 0.7;
  h.log_kappa = Eigen::VectorXd::Constant(P_, std::log(0.05));
  h.log_noise = Eigen::VectorXd::Constant(P_, std::log(1e-2));
  h.mean_constant = Eigen::VectorXd::Zero(P_);
  h.mean_scale = Eigen::VectorXd::Ones(P_);
  h.log_hook_weight = 0.0;
  h.fidelity_slope = Eigen::VectorXd::Zero(P_);
  // The identity map: the levels where their values put them.
  h.fidelity_position.resize(num_positions());
  for (int k = 0; k < num_positions(); ++k) h.fidelity_position[k] = opt_.fidelity_levels[k + 1];
  h.target_link = kTargetLinkMode;
  return h;
}

void MultiFidelityGp::set_hyperparameters(const Hyperparameters& given) {
  Hyperparameters h = given;
  if (h.fidelity_slope.size() == 0) h.fidelity_slope = Eigen::VectorXd::Zero(P_);
  if (h.fidelity_position.size() == 0 && num_positions() > 0)
    h.fidelity_position = default_hyperparameters().fidelity_position;
  if (h.fidelity_position.size() != num_positions())
    fail(Status::SizeMismatch, "gp: the fidelity positions do not match the model's levels");
  if (!h.fidelity_position.allFinite()) fail(Status::NonFinite, "gp: hyperparameters must be finite");
  if (h.fidelity_slope.size() != P_ || (h.log_lengthscale.size() != D_ || h.coreg_factor.rows() != P_ || h.coreg_factor.cols() != R_ ||
      h.log_kappa.size() != P_ || h.log_noise.size() != P_ || h.mean_constant.size() != P_ ||
      h.mean_scale.size() != P_))
    fail(Status::SizeMismatch, "gp: hyperparameters do not match the model's sizes");
  if (!h.log_lengthscale.allFinite() || !h.coreg_factor.allFinite() || !h.log_kappa.allFinite() ||
      !h.log_noise.allFinite() || !h.mean_constant.allFinite() || !h.mean_scale.allFinite() ||
      !std::isfinite(h.log_hook_weight) || !h.fidelity_slope.allFinite() || !std::isfinite(h.target_link))
    fail(Status::NonFinite, "gp: hyperparameters must be finite");
  // Strong guarantee: values whose exponentials overflow fail in the
  // factorization, which is done on a copy so the model keeps its old state.
  MultiFidelityGp next = *this;
  next.hp_ = h;
  if (next.X_.rows() > 0) next.refactor();
  *this = std::move(next);
}

void MultiFidelityGp::restore_fit(const Hyperparameters& h, const Eigen::VectorXd& plain) {
  if (plain.size() != 0 && (plain.size() != layout_.size() || !plain.allFinite()))
    fail(Status::SizeMismatch, "gp: the prior-off model's parameters do not match the model");
  set_hyperparameters(h);
  fitted_ = true;
  prior_changed_ = false;
  fit_rows_ = X_.rows();
  plain_ = plain;
}

void MultiFidelityGp::check_inputs(const Eigen::MatrixXd& Z, const char* what) const {
  if (Z.cols() != D_)
    fail(Status::SizeMismatch, std::string("gp: ") + what + " must have " + std::to_string(D_) +
                                   " columns (options then fidelity)");
  if (!Z.allFinite()) fail(Status::NonFinite, std::string("gp: ") + what + " has non-finite entries");
}

void MultiFidelityGp::check_outputs(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y) const {
  check_inputs(X, "training inputs");
  if (Y.rows() != X.rows() || Y.cols() != P_)
    fail(Status::SizeMismatch, "gp: outputs must be n x " + std::to_string(P_) + " with n the input rows");
  if (X.rows() < 1) fail(Status::InvalidArgument, "gp: need at least one observation");
  for (Eigen::Index i = 0; i < Y.rows(); ++i)
    for (int m = 0; m < P_; ++m)
      if (std::isinf(Y(i, m))) fail(Status::NonFinite, "gp: outputs must be finite or NaN (missing)");
}

void MultiFidelityGp::set_data(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y) {
  check_outputs(X, Y);
  // Strong guarantee: the new state is built on a copy, so data with every
  // value missing, a hook that fails at the new rows or a failed factorization
  // leave the model as it was.
  MultiFidelityGp next = *this;
  next.assign_data(X, Y);
  *this = std::move(next);
}

void MultiFidelityGp::assign_data(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y) {
  X_ = X;
  Y_ = Y;
  // Standardization: observed mean and standard deviation of each output. A
  // constant (or single) output keeps its level and uses |c| (or 1) as scale.
  center_.resize(P_);
  scale_.resize(P_);
  for (int m = 0; m < P_; ++m) {
    double sum = 0.0;
    int cnt = 0;
    for (Eigen::Index i = 0; i < Y.rows(); ++i)
      if (!std::isnan(Y(i, m))) { sum += Y(i, m); ++cnt; }
    const double c = cnt > 0 ? sum / cnt : 0.0;
    double ss = 0.0;
    for (Eigen::Index i = 0; i < Y.rows(); ++i)
      if (!std::isnan(Y(i, m))) ss += (Y(i, m) - c) * (Y(i, m) - c);
    double sd = cnt > 1 ? std::sqrt(ss / (cnt - 1)) : 0.0;
    if (!(sd > 1e-14 * std::abs(c)) || !std::isfinite(sd)) sd = std::abs(c) > 0.0 ? std::abs(c) : 1.0;
    center_[m] = c;
    scale_[m] = sd;
  }
  standardize_data();
  evaluate_hooks();
  refactor();
}

void MultiFidelityGp::standardize_data() {
  const Eigen::Index n = X_.rows();
  Ys_.resize(n, P_);
  obs_i_.clear();
  obs_m_.clear();
  for (int m = 0; m < P_; ++m)
    for (Eigen::Index i = 0; i < n; ++i) {
      Ys_(i, m) = (Y_(i, m) - center_[m]) / scale_[m];
      if (!std::isnan(Y_(i, m))) {
        obs_i_.push_back(static_cast<int>(i));
        obs_m_.push_back(m);
      }
    }
  if (obs_i_.empty()) fail(Status::InvalidArgument, "gp: every output value is missing");
}

void MultiFidelityGp::evaluate_hooks() {
  hmean_ = mean_hook_ ? hook_mean_std(X_) : Eigen::MatrixXd::Zero(X_.rows(), P_);
  hsig_ = kernel_hook_ ? hook_sigma_std(X_) : Eigen::MatrixXd();
}

Eigen::MatrixXd MultiFidelityGp::hook_mean_std(const Eigen::MatrixXd& Z) const {
  const Eigen::MatrixXd h = mean_hook_(Z);
  if (h.rows() != Z.rows() || h.cols() != P_ || !h.allFinite())
    fail(Status::Numerical, "gp: the prior mean (mean hook) is not a finite n x P matrix");
  return (h.rowwise() - center_.transpose()).array().rowwise() / scale_.transpose().array();
}

Eigen::MatrixXd MultiFidelityGp::hook_sigma_std(const Eigen::MatrixXd& Z) const {
  const Eigen::MatrixXd s = kernel_hook_(Z);
  if (s.rows() != Z.rows() || s.cols() != P_ || !s.allFinite())
    fail(Status::Numerical, "gp: the prior's kernel term (kernel hook) is not a finite n x P matrix");
  return s.array().rowwise() / scale_.transpose().array();
}

MultiFidelityGp MultiFidelityGp::conditioned_on(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y) const {
  check_outputs(X, Y);
  MultiFidelityGp g = *this;
  g.X_ = X;
  g.Y_ = Y;
  g.standardize_data();
  g.evaluate_hooks();
  g.refactor();
  return g;
}

bool MultiFidelityGp::kronecker_applies() const {
  return opt_.allow_kronecker && !kernel_hook_ &&
         obs_i_.size() == static_cast<std::size_t>(X_.rows()) * static_cast<std::size_t>(P_);
}

int MultiFidelityGp::num_positions() const { return interior_levels(opt_); }

Eigen::MatrixXd MultiFidelityGp::warped(const Eigen::MatrixXd& Z, const Hyperparameters& h) const {
  Eigen::MatrixXd W = Z;
  if (num_positions() == 0) return W;
  int k;
  double t;
  for (Eigen::Index i = 0; i < W.rows(); ++i)
    W(i, D_ - 1) = warp_at(Z(i, D_ - 1), opt_.fidelity_levels, h.fidelity_position, k, t);
  return W;
}

Eigen::MatrixXd MultiFidelityGp::input_kernel(const Eigen::MatrixXd& Z1, const Eigen::MatrixXd& Z2,
                                              const Hyperparameters& h) const {
  const bool same = &Z1 == &Z2;
  Eigen::MatrixXd K;
  if (num_positions() > 0) {
    const Eigen::MatrixXd W1 = warped(Z1, h);
    K = same ? input_fidelity_kernel(W1, W1, h.log_lengthscale, categorical_)
             : input_fidelity_kernel(W1, warped(Z2, h), h.log_lengthscale, categorical_);
  } else {
    K = same ? input_fidelity_kernel(Z1, Z1, h.log_lengthscale, categorical_)
             : input_fidelity_kernel(Z1, Z2, h.log_lengthscale, categorical_);
  }
  if (links_target()) {
    const auto t1 = at_target(Z1, opt_.target_fidelity);
    scale_target_pairs(K, t1, same ? t1 : at_target(Z2, opt_.target_fidelity), h.target_correlation());
  }
  return K;
}

// The Gram matrix of the observed pairs with the noise, K + diag(noise): the
// kernel of the paper's eq:gpmodel (see the header) between every two observations.
Eigen::MatrixXd MultiFidelityGp::train_covariance(const Hyperparameters& h, const Eigen::MatrixXd& Kx) const {
  const Eigen::MatrixXd B = h.coregionalization();
  const Eigen::VectorXd noise = h.noise();
  const Eigen::Index N = static_cast<Eigen::Index>(obs_i_.size());
  Eigen::MatrixXd K(N, N);
  const bool hook = hsig_.size() > 0;
  const double w = std::exp(h.log_hook_weight);
  for (Eigen::Index b = 0; b < N; ++b) {
    const int j = obs_i_[b], mb = obs_m_[b];
    for (Eigen::Index a = 0; a < N; ++a) {
      const int i = obs_i_[a], ma = obs_m_[a];
      double v = B(ma, mb) * Kx(i, j);
      if (hook) v += w * hsig_(i, ma) * hsig_(j, mb) * B(ma, mb);
      K(a, b) = v;
    }
    K(b, b) += noise[mb];
  }
  return K;
}

Eigen::VectorXd MultiFidelityGp::residual(const Hyperparameters& h) const {
  const Eigen::Index N = static_cast<Eigen::Index>(obs_i_.size());
  Eigen::VectorXd r(N);
  for (Eigen::Index a = 0; a < N; ++a) {
    const int i = obs_i_[a], m = obs_m_[a];
    r[a] = Ys_(i, m) - (h.mean_constant[m] + h.mean_scale[m] * hmean_(i, m));
    if (h.fidelity_slope.size() == P_) r[a] -= h.fidelity_slope[m] * (opt_.fidelity_anchor - X_(i, D_ - 1));
  }
  return r;
}

Eigen::MatrixXd MultiFidelityGp::scatter(const Eigen::VectorXd& v) const {
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(X_.rows(), P_);
  for (std::size_t a = 0; a < obs_i_.size(); ++a) out(obs_i_[a], obs_m_[a]) = v[static_cast<Eigen::Index>(a)];
  return out;
}

// Log marginal likelihood on the standardized scale (Rasmussen and Williams,
// eq. 2.30),
//   log p(y~) = -1/2 r^T K^-1 r - 1/2 log|K| - N/2 log 2 pi,  r = y~ - mu~,
// and its gradient d/dtheta = 1/2 tr((alpha alpha^T - K^-1) dK/dtheta) for the
// kernel parameters (eq. 5.9) and sum alpha dmu~/dtheta for the mean parameters.
double MultiFidelityGp::likelihood(const Hyperparameters& h, GramFactor* factor_out,
                                   Eigen::VectorXd* alpha_out, Eigen::VectorXd* grad) const {
  const Eigen::Index n = X_.rows();
  const Eigen::Index N = static_cast<Eigen::Index>(obs_i_.size());
  // k_fid sees the fidelity through the learned map of the levels, if any;
  // Kx0 is the kernel before the target correlation, which the gradient needs.
  const bool warp = num_positions() > 0;
  const Eigen::MatrixXd Xw = warp ? warped(X_, h) : Eigen::MatrixXd();
  const Eigen::MatrixXd& Xk = warp ? Xw : X_;
  const Eigen::MatrixXd Kx0 = input_fidelity_kernel(Xk, Xk, h.log_lengthscale, categorical_);
  Eigen::MatrixXd Kx = Kx0;
  if (links_target()) {
    const auto t = at_target(X_, opt_.target_fidelity);
    scale_target_pairs(Kx, t, t, h.target_correlation());
  }
  const Eigen::MatrixXd B = h.coregionalization();
  const Eigen::VectorXd noise = h.noise();
  const Eigen::VectorXd r = residual(h);
  // A few missing outputs (q of the n P grid entries) while only the value and
  // gradient are wanted: the Kronecker factor of the full grid with the
  // missing entries removed exactly (MissingCorrection).
  const Eigen::Index full = n * P_, q = full - N;
  const bool kron_missing = !factor_out && !alpha_out && opt_.allow_kronecker && hsig_.size() == 0 &&
                            q > 0 && 3 * q <= full;
  GramFactor F = (kronecker_applies() || kron_missing) ? GramFactor::kronecker(Kx, B, noise)
                                                       : GramFactor::dense(train_covariance(h, Kx));
  Eigen::VectorXd alpha;
  double log_det = F.log_det();
  MissingCorrection mc;
  if (kron_missing) {
    mc = missing_correction(F);
    log_det += 2.0 * mc.llt.matrixL().toDenseMatrix().diagonal().array().log().sum();
    alpha = corrected_alpha(F, mc, r);
  } else {
    alpha = F.solve(r);
  }
  const double lml = -0.5 * r.dot(alpha) - 0.5 * log_det - 0.5 * double(N) * std::log(2.0 * M_PI);

  if (grad) {
    const Eigen::MatrixXd am = scatter(alpha);
    Terms t = F.is_kronecker() ? kronecker_terms(F, am, B, Kx) : dense_terms(F, alpha, B, Kx);
    if (kron_missing) add_missing_terms(mc, B, Kx, t);
    gradient(h, t, am, Xk, Kx0, B, noise, *grad);
  }
  if (factor_out) *factor_out = std::move(F);
  if (alpha_out) *alpha_out = alpha;
  return lml;
}

// Missing outputs on a Kronecker factor of the full grid: with H = K_F^-1 and
// M the missing entries, by the partitioned inverse
//   K_OO^-1 = H_OO - H_OM H_MM^-1 H_MO,   log|K_OO| = log|K_F| + log|H_MM|,
// at O(n^2 P q) instead of O((n P)^3).
MultiFidelityGp::MissingCorrection MultiFidelityGp::missing_correction(const GramFactor& F) const {
  const Eigen::Index n = X_.rows(), full = n * P_;
  MissingCorrection mc;
  for (int m = 0; m < P_; ++m)
    for (Eigen::Index i = 0; i < n; ++i)
      if (std::isnan(Ys_(i, m))) mc.miss.push_back(m * n + i);
  const Eigen::Index q = static_cast<Eigen::Index>(mc.miss.size());
  Eigen::MatrixXd E = Eigen::MatrixXd::Zero(full, q);
  for (Eigen::Index k = 0; k < q; ++k) E(mc.miss[k], k) = 1.0;
  mc.Hc = F.solve(E);
  Eigen::MatrixXd Hmm(q, q);
  for (Eigen::Index k = 0; k < q; ++k) Hmm.row(k) = mc.Hc.row(mc.miss[k]);
  Hmm = 0.5 * (Hmm + Hmm.transpose());
  mc.llt.compute(Hmm);
  if (mc.llt.info() != Eigen::Success)
    fail(Status::Numerical, "gp: missing-output correction is not positive definite");
  mc.Zc = mc.llt.solve(mc.Hc.transpose()).transpose();
  return mc;
}

// alpha = K_OO^-1 r: the full-grid solve of r (0 at the missing entries)
// less its part through the missing entries.
Eigen::VectorXd MultiFidelityGp::corrected_alpha(const GramFactor& F, const MissingCorrection& mc,
                                                 const Eigen::VectorXd& r) const {
  const Eigen::Index n = X_.rows(), full = n * P_, q = static_cast<Eigen::Index>(mc.miss.size());
  const Eigen::MatrixXd rg = scatter(r);
  const Eigen::VectorXd y = F.solve(Eigen::Map<const Eigen::VectorXd>(rg.data(), full));
  Eigen::VectorXd yM(q);
  for (Eigen::Index k = 0; k < q; ++k) yM[k] = y[mc.miss[k]];
  Eigen::VectorXd af = y - mc.Hc * mc.llt.solve(yM);
  for (Eigen::Index k = 0; k < q; ++k) af[mc.miss[k]] = 0.0;
  const Eigen::MatrixXd am_full = Eigen::Map<const Eigen::MatrixXd>(af.data(), n, P_);
  Eigen::VectorXd alpha(obs_i_.size());
  for (Eigen::Index a = 0; a < alpha.size(); ++a) alpha[a] = am_full(obs_i_[a], obs_m_[a]);
  return alpha;
}

// The Terms of a Kronecker factor, in closed form in its eigenbasis (see
// gram_factor.hpp); am is alpha on the n x P grid.
MultiFidelityGp::Terms MultiFidelityGp::kronecker_terms(const GramFactor& F, const Eigen::MatrixXd& am,
                                                        const Eigen::MatrixXd& B, const Eigen::MatrixXd& Kx) const {
  Terms t;
  t.Sh = Eigen::MatrixXd::Zero(P_, P_);
  const Eigen::MatrixXd Dinv = F.Dmat().cwiseInverse();
  const Eigen::VectorXd c = Dinv * F.lambda();
  const Eigen::VectorXd e = Dinv.transpose() * F.s();
  const Eigen::VectorXd f = Dinv.colwise().sum().transpose();
  // Only the lower triangle of G is read: one symmetric rank-n update.
  t.G = am * B * am.transpose();
  const Eigen::MatrixXd Vc = F.V() * c.cwiseSqrt().asDiagonal();
  t.G.selfadjointView<Eigen::Lower>().rankUpdate(Vc, -1.0);
  t.S = am.transpose() * Kx * am - F.Ainv().transpose() * e.asDiagonal() * F.Ainv();
  t.nd = am.colwise().squaredNorm().transpose() - F.Ainv().cwiseAbs2().transpose() * f;
  return t;
}

// The full grid's Terms less those of the missing entries: adds back the
// contractions of H_{:,M} H_MM^-1 H_{M,:} (see missing_correction).
void MultiFidelityGp::add_missing_terms(const MissingCorrection& mc, const Eigen::MatrixXd& B,
                                        const Eigen::MatrixXd& Kx, Terms& t) const {
  const Eigen::Index n = X_.rows(), q = static_cast<Eigen::Index>(mc.miss.size());
  // Column k of Hc (or Zc) viewed as n x P is block k of the n x (P q) maps below.
  const Eigen::Map<const Eigen::MatrixXd> Hm(mc.Hc.data(), n, P_ * q), Zm(mc.Zc.data(), n, P_ * q);
  Eigen::MatrixXd Tm(n, P_ * q);
  for (Eigen::Index k = 0; k < q; ++k) Tm.middleCols(k * P_, P_) = Hm.middleCols(k * P_, P_) * B;
  t.G.noalias() += Zm * Tm.transpose();
  const Eigen::MatrixXd KH = Kx * Hm;
  const Eigen::RowVectorXd dz = Zm.cwiseProduct(Hm).colwise().sum();
  for (Eigen::Index k = 0; k < q; ++k) {
    t.S.noalias() += Zm.middleCols(k * P_, P_).transpose() * KH.middleCols(k * P_, P_);
    t.nd += dz.segment(k * P_, P_).transpose();
  }
  t.S = 0.5 * (t.S + t.S.transpose());
}

// The Terms of a dense factor, pair by pair from W = alpha alpha^T - K^-1.
MultiFidelityGp::Terms MultiFidelityGp::dense_terms(const GramFactor& F, const Eigen::VectorXd& alpha,
                                                    const Eigen::MatrixXd& B, const Eigen::MatrixXd& Kx) const {
  const Eigen::Index n = X_.rows(), N = static_cast<Eigen::Index>(obs_i_.size());
  const bool hook = hsig_.size() > 0;
  Terms t;
  t.Sh = Eigen::MatrixXd::Zero(P_, P_);
  Eigen::MatrixXd W = alpha * alpha.transpose() - F.inverse();
  t.G = Eigen::MatrixXd::Zero(n, n);
  t.S = Eigen::MatrixXd::Zero(P_, P_);
  t.nd = Eigen::VectorXd::Zero(P_);
  for (Eigen::Index b = 0; b < N; ++b) {
    const int j = obs_i_[b], mb = obs_m_[b];
    for (Eigen::Index a = 0; a < N; ++a) {
      const int i = obs_i_[a], ma = obs_m_[a];
      const double wab = W(a, b);
      t.G(i, j) += wab * B(ma, mb);
      t.S(ma, mb) += wab * Kx(i, j);
      if (hook) t.Sh(ma, mb) += wab * hsig_(i, ma) * hsig_(j, mb);
    }
    t.nd[mb] += W(b, b);
  }
  return t;
}

// The gradient from the Terms: the chain rule through K = B (x) Kx + w B o
// (sig sig^T) + diag(noise) and the mean b_m + a_m h~_m + c_m (t - s).
// Kx is the input kernel before the target correlation.
void MultiFidelityGp::gradient(const Hyperparameters& h, const Terms& t, const Eigen::MatrixXd& am,
                               const Eigen::MatrixXd& Xk, const Eigen::MatrixXd& Kx, const Eigen::MatrixXd& B,
                               const Eigen::VectorXd& noise, Eigen::VectorXd& grad) const {
  const Eigen::Index n = X_.rows();
  const bool hook = hsig_.size() > 0;
  const double w = std::exp(h.log_hook_weight);
  Eigen::MatrixXd Stot = t.S;
  if (hook) Stot += w * t.Sh;

  grad.setZero(layout_.size());
  const bool warp = num_positions() > 0;
  Eigen::VectorXd fid_grad;
  double grad_link = 0.0;
  // A pair across the target enters as gamma k: its lengthscale (and
  // fidelity) derivatives carry gamma, and d/dtheta is (1 - gamma^2) k per pair.
  Eigen::MatrixXd Gl;
  if (links_target()) {
    const auto at = at_target(X_, opt_.target_fidelity);
    const double gamma = h.target_correlation();
    Gl = t.G;
    scale_target_pairs(Gl, at, at, gamma);
    double dtheta = 0.0;
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = j + 1; i < n; ++i)
        if (at[i] != at[j]) dtheta += t.G(i, j) * Kx(i, j);
    grad_link = (1.0 - gamma * gamma) * dtheta;
  }
  grad.segment(layout_.ls_offset(), D_) =
      lengthscale_gradient(Xk, links_target() ? Gl : t.G, h.log_lengthscale, warp ? &fid_grad : nullptr, categorical_);
  if (layout_.target_link_offset() >= 0) grad[layout_.target_link_offset()] = grad_link;
  if (warp) add_position_gradient(h, fid_grad, grad);
  // B = L L^T + diag(kappa): d/dL = Stot L, d/dlog kappa_m = 1/2 Stot_mm kappa_m.
  const Eigen::MatrixXd gL = Stot * h.coreg_factor;
  grad.segment(layout_.factor_offset(), P_ * R_) = Eigen::Map<const Eigen::VectorXd>(gL.data(), P_ * R_);
  const Eigen::VectorXd kappa = h.log_kappa.array().exp();
  grad.segment(layout_.kappa_offset(), P_) = 0.5 * Stot.diagonal().cwiseProduct(kappa);
  grad.segment(layout_.noise_offset(), P_) = 0.5 * t.nd.cwiseProduct(noise);
  if (layout_.mean_constant_offset() >= 0)
    grad.segment(layout_.mean_constant_offset(), P_) = am.colwise().sum().transpose();
  if (layout_.mean_scale_offset() >= 0)
    grad.segment(layout_.mean_scale_offset(), P_) = am.cwiseProduct(hmean_).colwise().sum().transpose();
  if (layout_.hook_weight_offset() >= 0) grad[layout_.hook_weight_offset()] = 0.5 * w * t.Sh.cwiseProduct(B).sum();
  if (layout_.fidelity_slope_offset() >= 0) {
    const Eigen::VectorXd s = Eigen::VectorXd::Constant(n, opt_.fidelity_anchor) - X_.col(D_ - 1);
    grad.segment(layout_.fidelity_slope_offset(), P_) = (am.transpose() * s);
  }
}

// Chain rule through the map of GpOptions::fidelity_levels: a row's mapped
// fidelity moves with the positions of its segment's two knots, by weights
// 1 - t and t; fid_grad is the gradient with respect to the mapped fidelities.
void MultiFidelityGp::add_position_gradient(const Hyperparameters& h, const Eigen::VectorXd& fid_grad,
                                            Eigen::VectorXd& grad) const {
  const int off = layout_.fidelity_position_offset(), L = static_cast<int>(opt_.fidelity_levels.size());
  for (Eigen::Index i = 0; i < X_.rows(); ++i) {
    int k;
    double t;
    warp_at(X_(i, D_ - 1), opt_.fidelity_levels, h.fidelity_position, k, t);
    if (k >= 1 && k <= L - 2) grad[off + k - 1] += (1.0 - t) * fid_grad[i];
    if (k >= 0 && k + 1 <= L - 2 && t != 0.0) grad[off + k] += t * fid_grad[i];
  }
}

void MultiFidelityGp::refactor() {
  lml_ = likelihood(hp_, &factor_, &alpha_, nullptr);
  alpha_mat_ = scatter(alpha_);
  B_ = hp_.coregionalization();
  ++version_;
}

// ---------------------------------------------------------------- prediction

Eigen::MatrixXd MultiFidelityGp::prior_mean_std(const Eigen::MatrixXd& Z) const {
  Eigen::MatrixXd mean = Eigen::MatrixXd::Zero(Z.rows(), P_);
  mean.rowwise() += hp_.mean_constant.transpose();
  if (hp_.fidelity_slope.size() == P_ && hp_.fidelity_slope.any()) {
    const Eigen::VectorXd t = Eigen::VectorXd::Constant(Z.rows(), opt_.fidelity_anchor) - Z.col(D_ - 1);
    mean.noalias() += t * hp_.fidelity_slope.transpose();
  }
  if (mean_hook_) mean += hook_mean_std(Z) * hp_.mean_scale.asDiagonal();
  return mean;
}

Eigen::MatrixXd MultiFidelityGp::prior_mean(const Eigen::MatrixXd& Z) const {
  if (X_.rows() == 0) fail(Status::InvalidState, "gp: no data; call set_data first");
  check_inputs(Z, "prediction inputs");
  Eigen::MatrixXd mean = prior_mean_std(Z) * scale_.asDiagonal();
  mean.rowwise() += center_.transpose();
  return mean;
}

MultiFidelityGp::TestPrior MultiFidelityGp::test_prior(const Eigen::MatrixXd& Z) const {
  if (X_.rows() == 0) fail(Status::InvalidState, "gp: no data; call set_data first");
  check_inputs(Z, "prediction inputs");
  TestPrior tp;
  tp.kx = input_kernel(Z, X_, hp_);
  tp.mean = prior_mean_std(Z);
  if (kernel_hook_) tp.sigma = hook_sigma_std(Z);
  return tp;
}

// The paper's posterior mean (Methodology, after eq:gpmodel),
//   mu(z | D) = mu(z) + k(z, X)^T (K + noise)^-1 (y - mu(X)),
// with alpha_mat_ the solve on the n x P grid, contracted term by term of the kernel.
Eigen::MatrixXd MultiFidelityGp::mean_std(const TestPrior& tp) const {
  Eigen::MatrixXd mu = tp.mean + tp.kx * alpha_mat_ * B_;
  if (tp.sigma.size() > 0) {
    const Eigen::RowVectorXd u = hsig_.cwiseProduct(alpha_mat_).colwise().sum();
    const Eigen::RowVectorXd uc = std::exp(hp_.log_hook_weight) * (u * B_);
    mu += (tp.sigma.array().rowwise() * uc.array()).matrix();
  }
  return mu;
}

// k(X, z) of the posterior: every observed pair against every (point, output).
Eigen::MatrixXd MultiFidelityGp::cross_covariance(const TestPrior& tp) const {
  const Eigen::Index ns = tp.kx.rows();
  const Eigen::Index N = static_cast<Eigen::Index>(obs_i_.size());
  Eigen::MatrixXd Kc(N, ns * P_);
  const bool hook = tp.sigma.size() > 0;
  const double w = std::exp(hp_.log_hook_weight);
  for (int mp = 0; mp < P_; ++mp)
    for (Eigen::Index z = 0; z < ns; ++z) {
      const Eigen::Index col = mp * ns + z;
      for (Eigen::Index a = 0; a < N; ++a) {
        const int i = obs_i_[a], m = obs_m_[a];
        double v = B_(m, mp) * tp.kx(z, i);
        if (hook) v += w * hsig_(i, m) * tp.sigma(z, mp) * B_(m, mp);
        Kc(a, col) = v;
      }
    }
  return Kc;
}

Eigen::MatrixXd MultiFidelityGp::prior_covariance(const Eigen::MatrixXd& Z, const TestPrior& tp) const {
  const Eigen::Index ns = Z.rows();
  const Eigen::MatrixXd Kzz = input_kernel(Z, Z, hp_);
  Eigen::MatrixXd K(ns * P_, ns * P_);
  const bool hook = tp.sigma.size() > 0;
  const double w = std::exp(hp_.log_hook_weight);
  for (int m = 0; m < P_; ++m)
    for (int mp = 0; mp < P_; ++mp) {
      auto blk = K.block(m * ns, mp * ns, ns, ns);
      blk = B_(m, mp) * Kzz;
      if (hook) blk += w * B_(m, mp) * tp.sigma.col(m) * tp.sigma.col(mp).transpose();
    }
  return K;
}

Eigen::MatrixXd MultiFidelityGp::posterior_mean(const Eigen::MatrixXd& Z) const {
  const TestPrior tp = test_prior(Z);
  Eigen::MatrixXd mu = mean_std(tp);
  return (mu * scale_.asDiagonal()).rowwise() + center_.transpose();
}

void MultiFidelityGp::posterior_mean_variance(const Eigen::MatrixXd& Z, Eigen::MatrixXd& mean,
                                              Eigen::MatrixXd& variance, bool observation_noise) const {
  const TestPrior tp = test_prior(Z);
  const Eigen::Index ns = Z.rows();
  const Eigen::MatrixXd mu = mean_std(tp);
  Eigen::MatrixXd var(ns, P_);
  if (factor_.is_kronecker()) {
    // Whitened cross-covariance of (z, m) is (A^-1 B e_m) (x) (V^T k_z) ./ sqrt(D):
    // var = B_mm - sum_{p,i} (A^-1 B)_pm^2 (V^T k_z)_i^2 / D_ip.
    const Eigen::MatrixXd T2 = (factor_.V().transpose() * tp.kx.transpose()).cwiseAbs2();
    const Eigen::MatrixXd M1 = factor_.Dmat().cwiseInverse().transpose() * T2;  // P x ns
    const Eigen::MatrixXd AB2 = (factor_.Ainv() * B_).cwiseAbs2();
    var = (-(AB2.transpose() * M1)).transpose();
    var.rowwise() += B_.diagonal().transpose();
  } else {
    const Eigen::MatrixXd Wc = factor_.whiten(cross_covariance(tp));
    const Eigen::RowVectorXd q = Wc.colwise().squaredNorm();
    const double w = std::exp(hp_.log_hook_weight);
    for (int m = 0; m < P_; ++m)
      for (Eigen::Index z = 0; z < ns; ++z) {
        double prior = B_(m, m);
        if (tp.sigma.size() > 0) prior += w * B_(m, m) * tp.sigma(z, m) * tp.sigma(z, m);
        var(z, m) = prior - q[m * ns + z];
      }
  }
  var = var.cwiseMax(0.0);
  if (observation_noise) var.rowwise() += hp_.noise().transpose();
  mean = (mu * scale_.asDiagonal()).rowwise() + center_.transpose();
  variance = var * scale_.cwiseAbs2().asDiagonal();
}

// The paper's posterior covariance (Methodology, after eq:gpmodel),
//   Sigma(z, z' | D) = k(z, z') - k(z, X)^T (K + noise)^-1 k(z', X),
// as the prior covariance less the Gram product of the whitened cross-covariances.
Posterior MultiFidelityGp::posterior(const Eigen::MatrixXd& Z, bool observation_noise) const {
  const TestPrior tp = test_prior(Z);
  const Eigen::Index ns = Z.rows();
  Posterior post;
  const Eigen::MatrixXd mu = mean_std(tp);
  post.mean = (mu * scale_.asDiagonal()).rowwise() + center_.transpose();
  const Eigen::MatrixXd Wc = factor_.whiten(cross_covariance(tp));
  Eigen::MatrixXd cov = prior_covariance(Z, tp);
  cov.noalias() -= Wc.transpose() * Wc;
  if (observation_noise) {
    const Eigen::VectorXd noise = hp_.noise();
    for (int m = 0; m < P_; ++m) cov.diagonal().segment(m * ns, ns).array() += noise[m];
  }
  Eigen::VectorXd sc(ns * P_);
  for (int m = 0; m < P_; ++m) sc.segment(m * ns, ns).setConstant(scale_[m]);
  post.covariance = sc.asDiagonal() * cov * sc.asDiagonal();
  return post;
}

}  // namespace rescue::gp
