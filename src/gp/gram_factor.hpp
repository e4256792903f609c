// Factorization of the training covariance K (observed (point, output) pairs,
// ordered output-major: all points of output 0, then output 1, ...).
//
// Two forms:
//  - dense: Cholesky (LAPACK dpotrf) with escalating jitter, for any K;
//  - Kronecker: K = B (x) Kx + diag(noise) (x) I, valid when every output is
//    observed at every point and no extra kernel term is set. With
//    Kx = V diag(s) V^T and noise^-1/2 B noise^-1/2 = U diag(lambda) U^T,
//    K = (A (x) V)(diag(lambda) (x) diag(s) + I)(A (x) V)^T, A = noise^1/2 U,
//    so every solve costs O(n^2 P) instead of O((nP)^3) once Kx is diagonalized.
#pragma once
#include <Eigen/Dense>

namespace rescue::gp {

class GramFactor {
 public:
  /// Cholesky of K; adds jitter 1e-10, 1e-9, ..., 1e-4 times the mean diagonal
  /// until it succeeds, and throws Error(Numerical) if it never does.
  static GramFactor dense(Eigen::MatrixXd K);
  /// Kronecker form; noise entries must be > 0.
  static GramFactor kronecker(const Eigen::MatrixXd& Kx, const Eigen::MatrixXd& B,
                              const Eigen::VectorXd& noise);

  bool is_kronecker() const { return kron_; }
  Eigen::Index size() const { return size_; }
  double log_det() const { return log_det_; }
  /// K^-1 R.
  Eigen::MatrixXd solve(const Eigen::MatrixXd& R) const;
  /// Q R for a fixed Q with Q^T Q = K^-1 (so (QR)^T (QS) = R^T K^-1 S).
  Eigen::MatrixXd whiten(const Eigen::MatrixXd& R) const;
  /// K^-1 (dense form only).
  Eigen::MatrixXd inverse() const;

  // Kronecker pieces (meaningful only when is_kronecker()).
  const Eigen::MatrixXd& V() const { return V_; }        // n x n eigenvectors of Kx
  const Eigen::VectorXd& s() const { return s_; }        // n eigenvalues of Kx (clamped >= 0)
  const Eigen::VectorXd& lambda() const { return lam_; } // P eigenvalues of noise^-1/2 B noise^-1/2
  const Eigen::MatrixXd& Ainv() const { return Ainv_; }  // P x P, A^-1 = U^T noise^-1/2
  const Eigen::MatrixXd& Dmat() const { return D_; }     // n x P, lambda_p s_i + 1

 private:
  bool kron_ = false;
  Eigen::Index size_ = 0;
  double log_det_ = 0.0;
  Eigen::MatrixXd L_;  // dense: lower Cholesky factor
  Eigen::MatrixXd V_, Ainv_, D_, Dsqrt_inv_;
  Eigen::VectorXd s_, lam_;
};

}  // namespace rescue::gp
