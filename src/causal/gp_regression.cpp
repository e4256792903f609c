#include "causal/gp_regression.hpp"

#include <nlopt.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "util/error.hpp"

namespace rescue::causal {

namespace {

// Log-hyperparameter bounds, in standardized units: lengthscales from a
// twentieth to twenty times a parent's sd, a signal variance around the
// target's, and a noise variance down to near-interpolation (noise-free
// simulators) and up to all of the target's variance.
constexpr double kLogEllLo = -3.0, kLogEllHi = 3.0;
constexpr double kLogSf2Lo = -4.6, kLogSf2Hi = 4.6;
constexpr double kLogSn2Lo = -18.4, kLogSn2Hi = 0.7;

// Squared-exponential ARD Gram matrix of the rows of a and b (no noise).
Eigen::MatrixXd se_kernel(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, const Eigen::VectorXd& ell, double sf2) {
  const Eigen::MatrixXd as = a.array().rowwise() / ell.transpose().array();
  const Eigen::MatrixXd bs = b.array().rowwise() / ell.transpose().array();
  Eigen::MatrixXd d2 = (-2.0 * as * bs.transpose()).colwise() + as.rowwise().squaredNorm();
  d2.rowwise() += bs.rowwise().squaredNorm().transpose();
  return sf2 * (-0.5 * d2.cwiseMax(0.0)).array().exp().matrix();
}

// Cholesky of K with a jitter raised until it factors; false if it never does.
bool factor(Eigen::MatrixXd K, double noise, Eigen::LLT<Eigen::MatrixXd>* llt) {
  for (double jitter : {1e-10, 1e-8, 1e-6, 1e-4}) {
    Eigen::MatrixXd A = K;
    A.diagonal().array() += noise + jitter;
    llt->compute(A);
    if (llt->info() == Eigen::Success) return true;
  }
  return false;
}

struct Evidence {
  const Eigen::MatrixXd* z;
  const Eigen::VectorXd* y;
  double best = -std::numeric_limits<double>::infinity();
  Eigen::VectorXd best_theta;
};

// Log marginal likelihood and its gradient in the log-hyperparameters
// theta = (log ell_1..k, log sf2, log sn2).
double evidence(unsigned n_theta, const double* theta, double* grad, void* data) {
  Evidence& e = *static_cast<Evidence*>(data);
  const Eigen::MatrixXd& z = *e.z;
  const Eigen::VectorXd& y = *e.y;
  const Eigen::Index k = z.cols(), n = z.rows();
  const Eigen::VectorXd ell = Eigen::Map<const Eigen::VectorXd>(theta, k).array().exp();
  const double sf2 = std::exp(theta[k]), sn2 = std::exp(theta[k + 1]);
  const Eigen::MatrixXd Kf = se_kernel(z, z, ell, sf2);
  Eigen::LLT<Eigen::MatrixXd> llt;
  if (!factor(Kf, sn2, &llt)) {
    if (grad) std::fill(grad, grad + n_theta, 0.0);
    return -1e300;
  }
  const Eigen::VectorXd alpha = llt.solve(y);
  const Eigen::MatrixXd L = llt.matrixL();
  const double value = -0.5 * y.dot(alpha) - L.diagonal().array().log().sum() - 0.5 * static_cast<double>(n) * std::log(2.0 * M_PI);
  if (grad) {
    // dL/dtheta = 0.5 sum_ab W_ab dK_ab with W = alpha alpha^T - K^{-1}.
    const Eigen::MatrixXd Linv = L.triangularView<Eigen::Lower>().solve(Eigen::MatrixXd::Identity(n, n));
    Eigen::MatrixXd W = alpha * alpha.transpose();
    W.noalias() -= Linv.transpose() * Linv;
    const Eigen::MatrixXd WK = W.cwiseProduct(Kf);
    for (Eigen::Index j = 0; j < k; ++j) {
      const Eigen::ArrayXd c = z.col(j).array() / ell(j);
      double g = 0.0;
      for (Eigen::Index b = 0; b < n; ++b)
        g += (WK.col(b).array() * (c - c(b)).square()).sum();
      grad[j] = 0.5 * g;
    }
    grad[k] = 0.5 * WK.sum();
    grad[k + 1] = 0.5 * sn2 * W.trace();
  }
  if (value > e.best) {
    e.best = value;
    e.best_theta = Eigen::Map<const Eigen::VectorXd>(theta, static_cast<Eigen::Index>(n_theta));
  }
  return value;
}

}  // namespace

Eigen::MatrixXd GpRegression::kernel(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) const {
  return se_kernel(a, b, ell_, sf2_);
}

GpRegression GpRegression::fit(const Eigen::MatrixXd& z, const Eigen::VectorXd& y, int max_fit_rows, Rng& rng,
                              int starts, int evaluations) {
  const Eigen::Index n = z.rows(), k = z.cols();
  if (y.size() != n || n < 2 || k < 1) fail(Status::InvalidArgument, "gp regression: needs n >= 2 rows and k >= 1 parents");
  GpRegression g;
  g.z_ = z;
  g.y_mean_ = y.mean();
  g.y_sd_ = std::sqrt((y.array() - g.y_mean_).square().mean());
  if (!(g.y_sd_ > 0.0)) g.y_sd_ = 1.0;
  g.y_ = (y.array() - g.y_mean_) / g.y_sd_;

  // The evidence on a random subset when the rows are many.
  Eigen::MatrixXd zf = z;
  Eigen::VectorXd yf = g.y_;
  if (max_fit_rows >= 2 && n > max_fit_rows) {
    std::vector<Eigen::Index> perm(static_cast<std::size_t>(n));
    std::iota(perm.begin(), perm.end(), Eigen::Index{0});
    for (std::size_t i = 0; i < static_cast<std::size_t>(max_fit_rows); ++i)
      std::swap(perm[i], perm[i + rng.below(perm.size() - i)]);
    zf.resize(max_fit_rows, k);
    yf.resize(max_fit_rows);
    for (Eigen::Index i = 0; i < max_fit_rows; ++i) {
      zf.row(i) = z.row(perm[static_cast<std::size_t>(i)]);
      yf(i) = g.y_(perm[static_cast<std::size_t>(i)]);
    }
  }

  const unsigned n_theta = static_cast<unsigned>(k + 2);
  std::vector<double> lo(n_theta, kLogEllLo), hi(n_theta, kLogEllHi);
  lo[k] = kLogSf2Lo, hi[k] = kLogSf2Hi;
  lo[k + 1] = kLogSn2Lo, hi[k + 1] = kLogSn2Hi;
  Evidence e;
  e.z = &zf;
  e.y = &yf;
  nlopt_opt opt = nlopt_create(NLOPT_LD_LBFGS, n_theta);
  if (!opt) fail(Status::OutOfMemory, "gp regression: could not create the optimizer");
  nlopt_set_lower_bounds(opt, lo.data());
  nlopt_set_upper_bounds(opt, hi.data());
  nlopt_set_max_objective(opt, evidence, &e);
  nlopt_set_maxeval(opt, std::max(1, evaluations));
  nlopt_set_ftol_rel(opt, 1e-7);
  // Two starts: a smooth, noisy reading and a wiggly, near-exact one.
  const std::pair<double, double> start[2] = {{0.0, std::log(1e-2)}, {std::log(0.3), std::log(1e-5)}};
  for (int i = 0; i < std::min(std::max(starts, 1), 2); ++i) {
    const auto [log_ell, log_sn2] = start[i];
    std::vector<double> theta(n_theta, log_ell);
    theta[k] = 0.0;
    theta[k + 1] = log_sn2;
    double value = 0.0;
    // Any return code is acceptable: the best point seen is kept in e.
    nlopt_optimize(opt, theta.data(), &value);
  }
  nlopt_destroy(opt);
  if (e.best_theta.size() != n_theta) fail(Status::Numerical, "gp regression: the Gram matrix never factored");
  g.ell_ = e.best_theta.head(k).array().exp();
  g.sf2_ = std::exp(e.best_theta(k));
  g.sn2_ = std::exp(e.best_theta(k + 1));

  Eigen::LLT<Eigen::MatrixXd> llt;
  if (!factor(g.kernel(z, z), g.sn2_, &llt)) fail(Status::Numerical, "gp regression: the Gram matrix does not factor");
  g.alpha_ = llt.solve(g.y_);
  return g;
}

Eigen::VectorXd GpRegression::predict(const Eigen::MatrixXd& z) const {
  if (z.cols() != z_.cols()) fail(Status::SizeMismatch, "gp regression: wrong number of parent columns");
  return ((kernel(z, z_) * alpha_).array() * y_sd_ + y_mean_).matrix();
}

Eigen::VectorXd GpRegression::predict(const Eigen::MatrixXd& z, Eigen::MatrixXd* gradient) const {
  if (z.cols() != z_.cols()) fail(Status::SizeMismatch, "gp regression: wrong number of parent columns");
  if (!gradient) fail(Status::NullPointer, "gp regression: null gradient");
  // d/dz_j k(z, z_i) = -k(z, z_i) (z_j - z_ij) / ell_j^2.
  const Eigen::MatrixXd w = kernel(z, z_).array().rowwise() * alpha_.transpose().array();  // m x n
  gradient->resize(z.rows(), z.cols());
  for (Eigen::Index j = 0; j < z.cols(); ++j)
    gradient->col(j) = -(z.col(j).cwiseProduct(w.rowwise().sum()) - w * z_.col(j)) * (y_sd_ / (ell_(j) * ell_(j)));
  return (w.rowwise().sum().array() * y_sd_ + y_mean_).matrix();
}

Eigen::VectorXd GpRegression::fold_residuals(const std::vector<int>& fold, int folds) const {
  const Eigen::Index n = z_.rows();
  if (static_cast<Eigen::Index>(fold.size()) != n) fail(Status::SizeMismatch, "gp regression: one fold per row");
  Eigen::LLT<Eigen::MatrixXd> llt;
  if (!factor(kernel(z_, z_), sn2_, &llt)) fail(Status::Numerical, "gp regression: the Gram matrix does not factor");
  const Eigen::MatrixXd k_inv = llt.solve(Eigen::MatrixXd::Identity(n, n));
  Eigen::VectorXd r(n);
  for (int f = 0; f < folds; ++f) {
    std::vector<Eigen::Index> idx;
    for (Eigen::Index i = 0; i < n; ++i)
      if (fold[static_cast<std::size_t>(i)] == f) idx.push_back(i);
    if (idx.empty()) continue;
    const Eigen::Index m = static_cast<Eigen::Index>(idx.size());
    Eigen::MatrixXd A(m, m);
    Eigen::VectorXd a(m);
    for (Eigen::Index p = 0; p < m; ++p) {
      a(p) = alpha_(idx[static_cast<std::size_t>(p)]);
      for (Eigen::Index q = 0; q < m; ++q) A(p, q) = k_inv(idx[static_cast<std::size_t>(p)], idx[static_cast<std::size_t>(q)]);
    }
    // y_F - mean_F(given the rest) = (K^{-1}_FF)^{-1} (K^{-1} y)_F.
    const Eigen::VectorXd rf = A.ldlt().solve(a);
    for (Eigen::Index p = 0; p < m; ++p) r(idx[static_cast<std::size_t>(p)]) = rf(p) * y_sd_;
  }
  return r;
}

}  // namespace rescue::causal
