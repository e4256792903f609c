// Exact Gaussian-process regression of one structural equation: a zero-mean GP
// with a squared-exponential kernel, one lengthscale per parent (ARD), on
// standardized parents and a standardized target, its hyperparameters chosen
// by maximum marginal likelihood (L-BFGS). This is the nonparametric form of
// f_V that causal Bayesian optimization usually gives a structural equation;
// on smooth responses of a few parents it is far more accurate than a fixed
// random-feature basis of the same data, and the causal prior is only as good
// as its equations (paper, Appendix: the error of f_do bounds the regret).
#pragma once
#include <Eigen/Dense>
#include <vector>

#include "util/rng.hpp"

namespace rescue::causal {

class GpRegression {
 public:
  GpRegression() = default;

  /// Fits y on z (n x k standardized parents, k >= 1, n >= 2). The
  /// hyperparameters are fitted on at most max_fit_rows rows drawn with rng
  /// (the cubic cost of the evidence), the posterior on all rows.
  /// starts (1 or 2) searches of at most evaluations evidence evaluations each.
  static GpRegression fit(const Eigen::MatrixXd& z, const Eigen::VectorXd& y, int max_fit_rows, Rng& rng,
                          int starts = 2, int evaluations = 150);

  /// Posterior mean at the rows of z (m x k, standardized as the fit's).
  Eigen::VectorXd predict(const Eigen::MatrixXd& z) const;
  /// The posterior mean and its gradient in z (m x k) at the rows of z.
  Eigen::VectorXd predict(const Eigen::MatrixXd& z, Eigen::MatrixXd* gradient) const;
  /// y minus the prediction of each row by the posterior of the other folds
  /// (fold[i] in [0, folds)), the hyperparameters held at the fit's: the
  /// K-fold cross-validation residuals, in closed form from the inverse Gram
  /// matrix (computed here, once: the fit does not keep it).
  Eigen::VectorXd fold_residuals(const std::vector<int>& fold, int folds) const;

  /// Lengthscales (standardized parent units), signal and noise variances
  /// (standardized target units).
  const Eigen::VectorXd& lengthscales() const { return ell_; }
  double signal_variance() const { return sf2_; }
  double noise_variance() const { return sn2_; }

 private:
  Eigen::MatrixXd kernel(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) const;

  Eigen::MatrixXd z_;      // n x k training inputs
  Eigen::VectorXd ell_;    // k lengthscales
  double sf2_ = 1.0, sn2_ = 1e-2;
  double y_mean_ = 0.0, y_sd_ = 1.0;
  Eigen::VectorXd y_;      // standardized targets
  Eigen::VectorXd alpha_;  // K^{-1} y (standardized)
};

}  // namespace rescue::causal
