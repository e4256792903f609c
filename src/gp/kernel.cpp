#include "gp/kernel.hpp"

#include <cmath>

#include "util/error.hpp"

namespace rescue::gp {
namespace {

// Per input column j: t_j, with k_in = exp(-0.5 sum_j e_j) and e_j = t_j^2 for an
// RBF column (t_j the scaled difference), e_j = 2 t_j for a categorical one
// (t_j = [levels differ] / l_j); in both cases d k / d log l_j = k * g_j with
// g_j = t_j^2 (RBF) or t_j (categorical).
struct Columns {
  const double* inv_ls;
  const int* levels;  // d entries (0: continuous), or nullptr
  int d;

  // Exponent sum of the input part; g (when given) receives g_j for j < d.
  double in_exponent(const double* a, const double* b, double* g) const {
    double acc = 0.0;
    for (int j = 0; j < d; ++j) {
      if (levels && levels[j] > 0) {
        const double t = categorical_level(a[j], levels[j]) != categorical_level(b[j], levels[j]) ? inv_ls[j] : 0.0;
        acc += 2.0 * t;
        if (g) g[j] = t;
      } else {
        const double t = (a[j] - b[j]) * inv_ls[j];
        acc += t * t;
        if (g) g[j] = t * t;
      }
    }
    return acc;
  }
};

void check(const Eigen::MatrixXd& X, const Eigen::VectorXd& ls, const char* what) {
  if (X.cols() != ls.size() || ls.size() < 1)
    fail(Status::SizeMismatch, std::string("gp kernel: ") + what +
                                   " has a column count different from the number of lengthscales");
}

// The categorical levels padded to the d input columns (nullptr when none).
const int* levels_for(const CategoricalLevels& categorical, int d, Eigen::VectorXi& padded) {
  if (categorical.size() == 0) return nullptr;
  if (categorical.size() > d) fail(Status::SizeMismatch, "gp kernel: more categorical entries than input columns");
  padded = Eigen::VectorXi::Zero(d);
  padded.head(categorical.size()) = categorical;
  for (int j = 0; j < d; ++j)
    if (padded[j] < 0 || padded[j] == 1) fail(Status::InvalidArgument, "gp kernel: a categorical input needs at least two levels");
  return padded.data();
}

}  // namespace

Eigen::MatrixXd input_fidelity_kernel(const Eigen::MatrixXd& X1, const Eigen::MatrixXd& X2,
                                      const Eigen::VectorXd& log_lengthscale, const CategoricalLevels& categorical) {
  check(X1, log_lengthscale, "first input");
  check(X2, log_lengthscale, "second input");
  const int D = static_cast<int>(log_lengthscale.size());
  const int d = D - 1;
  const Eigen::VectorXd inv_ls = (-log_lengthscale.array()).exp();
  Eigen::VectorXi padded;
  const Columns cols{inv_ls.data(), levels_for(categorical, d, padded), d};
  // Row-major copies so that each point is contiguous.
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> A = X1, B = X2;
  Eigen::MatrixXd K(X1.rows(), X2.rows());
  // The Gram matrix of one set is symmetric: compute one triangle, mirror it.
  const bool same = &X1 == &X2;
  for (Eigen::Index j = 0; j < B.rows(); ++j) {
    if (same) K(j, j) = 1.0;
    for (Eigen::Index i = same ? j + 1 : 0; i < A.rows(); ++i) {
      const double* a = A.row(i).data();
      const double* b = B.row(j).data();
      const double in_sq = cols.in_exponent(a, b, nullptr);
      const double t = (a[d] - b[d]) * inv_ls[d];
      K(i, j) = std::exp(-0.5 * in_sq) * std::exp(-0.5 * t * t);
      if (same) K(j, i) = K(i, j);
    }
  }
  return K;
}

Eigen::VectorXd lengthscale_gradient(const Eigen::MatrixXd& X, const Eigen::MatrixXd& G,
                                     const Eigen::VectorXd& log_lengthscale, Eigen::VectorXd* fidelity_grad,
                                     const CategoricalLevels& categorical) {
  check(X, log_lengthscale, "input");
  const int D = static_cast<int>(log_lengthscale.size());
  const int d = D - 1;
  const Eigen::Index n = X.rows();
  const Eigen::VectorXd inv_ls = (-log_lengthscale.array()).exp();
  Eigen::VectorXi padded;
  const Columns cols{inv_ls.data(), levels_for(categorical, d, padded), d};
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> A = X;
  Eigen::VectorXd grad = Eigen::VectorXd::Zero(D);
  Eigen::VectorXd t2(D);
  if (fidelity_grad) fidelity_grad->setZero(n);
  const double inv_fid2 = inv_ls[d] * inv_ls[d];
  // d k / d log l_j = k g_j (Columns). Diagonal pairs have dx = 0 and
  // contribute nothing; off-diagonal pairs count twice.
  for (Eigen::Index j = 0; j < n; ++j) {
    const double* b = A.row(j).data();
    for (Eigen::Index i = j + 1; i < n; ++i) {
      const double* a = A.row(i).data();
      const double in_sq = cols.in_exponent(a, b, t2.data());
      const double tf = (a[d] - b[d]) * inv_ls[d];
      t2[d] = tf * tf;
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
