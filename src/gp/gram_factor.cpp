#include "gp/gram_factor.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "util/error.hpp"

extern "C" {
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info);
void dpotri_(const char* uplo, const int* n, double* a, const int* lda, int* info);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
             double* work, const int* lwork, int* iwork, const int* liwork, int* info);
}

namespace rescue::gp {
namespace {

// Symmetric eigendecomposition in place (LAPACK divide and conquer): A -> eigenvectors.
Eigen::VectorXd sym_eig(Eigen::MatrixXd& A) {
  const int n = static_cast<int>(A.rows());
  Eigen::VectorXd w(n);
  if (n == 0) return w;
  int info = 0, lwork = -1, liwork = -1, iwq = 0;
  double wq = 0.0;
  dsyevd_("V", "L", &n, A.data(), &n, w.data(), &wq, &lwork, &iwq, &liwork, &info);
  lwork = static_cast<int>(wq);
  liwork = iwq;
  std::vector<double> work(static_cast<std::size_t>(std::max(lwork, 1)));
  std::vector<int> iwork(static_cast<std::size_t>(std::max(liwork, 1)));
  dsyevd_("V", "L", &n, A.data(), &n, w.data(), work.data(), &lwork, iwork.data(), &liwork, &info);
  if (info != 0)
    fail(Status::Numerical, "gp: eigendecomposition of the input kernel matrix failed (dsyevd info " +
                                std::to_string(info) + ")");
  return w;
}

}  // namespace

GramFactor GramFactor::dense(Eigen::MatrixXd K) {
  GramFactor f;
  const int n = static_cast<int>(K.rows());
  f.size_ = n;
  if (!K.allFinite()) fail(Status::NonFinite, "gp: covariance matrix has non-finite entries");
  if (n == 0) return f;
  const double mean_diag = std::max(K.diagonal().mean(), 1e-300);
  double jitter = 0.0;
  for (int attempt = 0; attempt <= 7; ++attempt) {
    Eigen::MatrixXd A = K;
    if (jitter > 0.0) A.diagonal().array() += jitter;
    int info = 0;
    dpotrf_("L", &n, A.data(), &n, &info);
    if (info == 0) {
      f.L_ = A.triangularView<Eigen::Lower>();
      f.log_det_ = 2.0 * f.L_.diagonal().array().log().sum();
      return f;
    }
    jitter = mean_diag * std::pow(10.0, -10.0 + attempt);
  }
  fail(Status::Numerical,
       "gp: covariance matrix of size " + std::to_string(n) +
           " is not positive definite even with jitter 1e-4 times its mean diagonal");
}

GramFactor GramFactor::kronecker(const Eigen::MatrixXd& Kx, const Eigen::MatrixXd& B,
                                 const Eigen::VectorXd& noise) {
  GramFactor f;
  f.kron_ = true;
  const Eigen::Index n = Kx.rows(), P = B.rows();
  f.size_ = n * P;
  if (!Kx.allFinite() || !B.allFinite() || !noise.allFinite() || (noise.array() <= 0.0).any())
    fail(Status::NonFinite, "gp: Kronecker factor inputs must be finite with positive noise");
  f.V_ = Kx;
  f.s_ = sym_eig(f.V_).cwiseMax(0.0);
  const Eigen::VectorXd isq = noise.array().rsqrt();
  const Eigen::MatrixXd Bt = isq.asDiagonal() * B * isq.asDiagonal();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(Bt);
  if (es.info() != Eigen::Success) fail(Status::Numerical, "gp: eigendecomposition of K_obj failed");
  f.lam_ = es.eigenvalues().cwiseMax(0.0);
  f.Ainv_ = es.eigenvectors().transpose() * isq.asDiagonal();
  f.D_ = (f.s_ * f.lam_.transpose()).array() + 1.0;
  f.Dsqrt_inv_ = f.D_.array().rsqrt();
  f.log_det_ = static_cast<double>(n) * noise.array().log().sum() + f.D_.array().log().sum();
  return f;
}

Eigen::MatrixXd GramFactor::solve(const Eigen::MatrixXd& R) const {
  if (R.rows() != size_) fail(Status::SizeMismatch, "gp: right-hand side size mismatch in solve");
  if (!kron_) {
    Eigen::MatrixXd X = L_.triangularView<Eigen::Lower>().solve(R);
    L_.triangularView<Eigen::Lower>().transpose().solveInPlace(X);
    return X;
  }
  // vec(X) -> vec(V ((V^T X A^-T) ./ D) A^-1), column by column of R.
  const Eigen::Index n = V_.rows(), P = Ainv_.rows(), k = R.cols();
  Eigen::MatrixXd out(R.rows(), k);
  Eigen::MatrixXd T = V_.transpose() * Eigen::Map<const Eigen::MatrixXd>(R.data(), n, P * k);
  for (Eigen::Index c = 0; c < k; ++c) {
    Eigen::MatrixXd Y = (T.middleCols(c * P, P) * Ainv_.transpose()).cwiseQuotient(D_);
    T.middleCols(c * P, P) = Y * Ainv_;
  }
  Eigen::Map<Eigen::MatrixXd>(out.data(), n, P * k) = V_ * T;
  return out;
}

Eigen::MatrixXd GramFactor::whiten(const Eigen::MatrixXd& R) const {
  if (R.rows() != size_) fail(Status::SizeMismatch, "gp: right-hand side size mismatch in whiten");
  if (!kron_) return L_.triangularView<Eigen::Lower>().solve(R);
  // Q = D^-1/2 (A^-1 (x) V^T).
  const Eigen::Index n = V_.rows(), P = Ainv_.rows(), k = R.cols();
  Eigen::MatrixXd out(R.rows(), k);
  Eigen::MatrixXd T = V_.transpose() * Eigen::Map<const Eigen::MatrixXd>(R.data(), n, P * k);
  for (Eigen::Index c = 0; c < k; ++c)
    T.middleCols(c * P, P) = (T.middleCols(c * P, P) * Ainv_.transpose()).cwiseProduct(Dsqrt_inv_);
  Eigen::Map<Eigen::MatrixXd>(out.data(), n, P * k) = T;
  return out;
}

Eigen::MatrixXd GramFactor::inverse() const {
  if (kron_) fail(Status::Internal, "gp: explicit inverse requested from a Kronecker factor");
  const int n = static_cast<int>(size_);
  Eigen::MatrixXd A = L_;
  if (n == 0) return A;
  int info = 0;
  dpotri_("L", &n, A.data(), &n, &info);
  if (info != 0) fail(Status::Numerical, "gp: inverting the covariance matrix failed");
  A.triangularView<Eigen::StrictlyUpper>() = A.transpose();
  return A;
}

}  // namespace rescue::gp
