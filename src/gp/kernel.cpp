#include "gp/kernel.hpp"

#include <cmath>

#include "util/error.hpp"

namespace rescue::gp {
namespace {

// Scaled squared distances: input part (first d columns) and fidelity part.
inline void scaled_sq(const double* a, const double* b, const double* inv_ls, int d,
                      double& in_sq, double& fid_sq) {
  double acc = 0.0;
  for (int j = 0; j < d; ++j) {
    const double t = (a[j] - b[j]) * inv_ls[j];
    acc += t * t;
  }
  in_sq = acc;
  const double t = (a[d] - b[d]) * inv_ls[d];
  fid_sq = t * t;
}

void check(const Eigen::MatrixXd& X, const Eigen::VectorXd& ls, const char* what) {
  if (X.cols() != ls.size() || ls.size() < 1)
    fail(Status::SizeMismatch, std::string("gp kernel: ") + what +
                                   " has a column count different from the number of lengthscales");
}

}  // namespace

Eigen::MatrixXd input_fidelity_kernel(const Eigen::MatrixXd& X1, const Eigen::MatrixXd& X2,
                                      const Eigen::VectorXd& log_lengthscale) {
  check(X1, log_lengthscale, "first input");
  check(X2, log_lengthscale, "second input");
  const int D = static_cast<int>(log_lengthscale.size());
  const int d = D - 1;
  const Eigen::VectorXd inv_ls = (-log_lengthscale.array()).exp();
  // Row-major copies so that each point is contiguous.
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> A = X1, B = X2;
  Eigen::MatrixXd K(X1.rows(), X2.rows());
  // The Gram matrix of one set is symmetric: compute one triangle, mirror it.
  const bool same = &X1 == &X2;
  for (Eigen::Index j = 0; j < B.rows(); ++j) {
    if (same) K(j, j) = 1.0;
    for (Eigen::Index i = same ? j + 1 : 0; i < A.rows(); ++i) {
      double in_sq, fid_sq;
      scaled_sq(A.row(i).data(), B.row(j).data(), inv_ls.data(), d, in_sq, fid_sq);
      K(i, j) = std::exp(-0.5 * in_sq) * std::exp(-0.5 * fid_sq);
      if (same) K(j, i) = K(i, j);
    }
  }
  return K;
}

Eigen::VectorXd lengthscale_gradient(const Eigen::MatrixXd& X, const Eigen::MatrixXd& G,
                                     const Eigen::VectorXd& log_lengthscale, Eigen::VectorXd* fidelity_grad) {
  check(X, log_lengthscale, "input");
  const int D = static_cast<int>(log_lengthscale.size());
  const int d = D - 1;
  const Eigen::Index n = X.rows();
  const Eigen::VectorXd inv_ls = (-log_lengthscale.array()).exp();
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> A = X;
  Eigen::VectorXd grad = Eigen::VectorXd::Zero(D);
  Eigen::VectorXd t2(D);
  if (fidelity_grad) fidelity_grad->setZero(n);
  const double inv_fid2 = inv_ls[d] * inv_ls[d];
  // d k / d log l_j = k (dx_j / l_j)^2. Diagonal pairs have dx = 0 and
  // contribute nothing; off-diagonal pairs count twice.
  for (Eigen::Index j = 0; j < n; ++j) {
    const double* b = A.row(j).data();
    for (Eigen::Index i = j + 1; i < n; ++i) {
      const double* a = A.row(i).data();
      double in_sq = 0.0;
      for (int q = 0; q < D; ++q) {
        const double t = (a[q] - b[q]) * inv_ls[q];
        t2[q] = t * t;
        if (q < d) in_sq += t2[q];
      }
      const double kfid = std::exp(-0.5 * t2[d]);
      const double kin = std::exp(-0.5 * in_sq);
      const double w = 2.0 * G(i, j);  // the pair (i, j) and its mirror (j, i)
      const double win = 0.5 * w * kin * kfid;
      for (int q = 0; q < d; ++q) grad[q] += win * t2[q];
      grad[d] += 0.5 * w * kin * kfid * t2[d];
      if (fidelity_grad) {
        // d k / d s_i = -k (s_i - s_j) / l_fid^2, and the opposite for s_j.
        const double g = -0.5 * w * kin * kfid * (a[d] - b[d]) * inv_fid2;
        (*fidelity_grad)[i] += g;
        (*fidelity_grad)[j] -= g;
      }
    }
  }
  return grad;
}

Eigen::Array<bool, Eigen::Dynamic, 1> at_target(const Eigen::MatrixXd& Z, double target) {
  // Fidelities at the target are the target's own unit value; the tolerance
  // only absorbs the rounding of mapping a fidelity to the unit scale.
  return (Z.col(Z.cols() - 1).array() - target).abs() <= 1e-9;
}

void scale_target_pairs(Eigen::MatrixXd& K, const Eigen::Array<bool, Eigen::Dynamic, 1>& t1,
                        const Eigen::Array<bool, Eigen::Dynamic, 1>& t2, double gamma) {
  if (t1.size() != K.rows() || t2.size() != K.cols())
    fail(Status::SizeMismatch, "gp kernel: target flags do not match the kernel matrix");
  for (Eigen::Index j = 0; j < K.cols(); ++j)
    for (Eigen::Index i = 0; i < K.rows(); ++i)
      if (t1[i] != t2[j]) K(i, j) *= gamma;
}

}  // namespace rescue::gp
