#include "causal/fisher_z_test.hpp"

#include <algorithm>
#include <cmath>

#include "util/error.hpp"

namespace rescue::causal {

double fisher_z_p_value(double r, int n, int k) {
  const int dof = n - k - 3;
  if (dof <= 0)
    fail(Status::InvalidArgument, "Fisher-z test: needs n - |S| - 3 > 0, got n = " + std::to_string(n) +
                                      ", |S| = " + std::to_string(k));
  const double rc = std::clamp(r, -1.0 + 1e-15, 1.0 - 1e-15);
  const double z = std::sqrt(static_cast<double>(dof)) * std::atanh(rc);
  return std::erfc(std::abs(z) / std::sqrt(2.0));
}

FisherZTest::FisherZTest(const Eigen::MatrixXd& data) : n_(static_cast<int>(data.rows())) {
  const Eigen::Index p = data.cols();
  if (n_ < 2) fail(Status::InvalidArgument, "Fisher-z test: needs at least 2 rows, got " + std::to_string(n_));
  Eigen::MatrixXd centered = data.rowwise() - data.colwise().mean();
  Eigen::VectorXd sd = (centered.colwise().squaredNorm() / static_cast<double>(n_ - 1)).cwiseSqrt().transpose();
  constant_.assign(static_cast<std::size_t>(p), 0);
  for (Eigen::Index j = 0; j < p; ++j) {
    const double scale = std::max(1.0, data.col(j).cwiseAbs().maxCoeff());
    if (!(sd(j) > 1e-12 * scale)) {
      constant_[static_cast<std::size_t>(j)] = 1;
      centered.col(j).setZero();
      sd(j) = 1.0;
    }
  }
  for (Eigen::Index j = 0; j < p; ++j) centered.col(j) /= sd(j);
  corr_ = (centered.transpose() * centered) / static_cast<double>(n_ - 1);
  for (Eigen::Index j = 0; j < p; ++j) corr_(j, j) = 1.0;
}

FisherZTest::Result FisherZTest::test(int i, int j, const std::vector<int>& s) const {
  const int k = static_cast<int>(s.size());
  Result res;
  if (n_ - k - 3 <= 0) {
    res.informative = false;
    res.p_value = std::nan("");
    return res;
  }
  double rii = 1.0, rjj = 1.0, rij = corr_(i, j);
  if (k > 0) {
    Eigen::MatrixXd css(k, k);
    Eigen::MatrixXd cs(k, 2);
    for (int a = 0; a < k; ++a) {
      cs(a, 0) = corr_(s[static_cast<std::size_t>(a)], i);
      cs(a, 1) = corr_(s[static_cast<std::size_t>(a)], j);
      for (int b = 0; b < k; ++b) css(a, b) = corr_(s[static_cast<std::size_t>(a)], s[static_cast<std::size_t>(b)]);
    }
    // Pseudo-inverse through the eigen-decomposition: collinear conditioning
    // variables (duplicated options, deterministic indicators) drop out instead of
    // making the solve blow up.
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(css);
    const Eigen::VectorXd& ev = eig.eigenvalues();
    const double tol = 1e-10 * std::max(1.0, ev.cwiseAbs().maxCoeff());
    Eigen::MatrixXd proj = eig.eigenvectors().transpose() * cs;  // k x 2
    Eigen::Matrix2d q = Eigen::Matrix2d::Zero();
    for (int a = 0; a < k; ++a)
      if (ev(a) > tol) q += proj.row(a).transpose() * proj.row(a) / ev(a);
    rii = 1.0 - q(0, 0);
    rjj = 1.0 - q(1, 1);
    rij = corr_(i, j) - q(0, 1);
  }
  const bool i_const = is_constant(i), j_const = is_constant(j);
  if (!i_const && !j_const && (rii < 1e-9 || rjj < 1e-9)) {
    res.informative = false;
    res.p_value = std::nan("");
    return res;
  }
  if (i_const || j_const || rii <= 0.0 || rjj <= 0.0) {
    res.partial_correlation = 0.0;
  } else {
    res.partial_correlation = std::clamp(rij / std::sqrt(rii * rjj), -1.0, 1.0);
  }
  res.p_value = fisher_z_p_value(res.partial_correlation, n_, k);
  return res;
}

}  // namespace rescue::causal
