// Unit-amplitude kernel over (configuration, fidelity): k_in(x, x') * k_fid(s, s')
// (paper, Methodology, "Multi-output Multi-fidelity Causal GP", eq:gpmodel). Inputs are rows
// of an n x (d+1) matrix whose last column is the fidelity; k_in is an ARD RBF
// (the paper's choice), k_fid is an RBF.
#pragma once
#include <Eigen/Dense>

namespace rescue::gp {

/// k(X1_i, X2_j) for all pairs; log_lengthscale has d+1 entries (last: fidelity).
Eigen::MatrixXd input_fidelity_kernel(const Eigen::MatrixXd& X1, const Eigen::MatrixXd& X2,
                                      const Eigen::VectorXd& log_lengthscale);

/// Gradient with respect to log_lengthscale of 0.5 * sum_ij G_ij k(X_i, X_j) for a
/// symmetric G of which only the strictly lower triangle is read.
/// This is how the log marginal likelihood depends on the lengthscales once
/// G = sum over output pairs of (alpha alpha^T - K^-1) times K_obj has been formed.
/// When fidelity_grad is given it receives, per row i, the derivative of the same
/// sum with respect to X(i, d), the row's fidelity coordinate: what a learned map
/// of the fidelity axis (GpOptions::fidelity_levels) needs by the chain rule.
Eigen::VectorXd lengthscale_gradient(const Eigen::MatrixXd& X, const Eigen::MatrixXd& G,
                                     const Eigen::VectorXd& log_lengthscale, Eigen::VectorXd* fidelity_grad = nullptr);

}  // namespace rescue::gp
