// Unit-amplitude kernel over (configuration, fidelity): k_in(x, x') * k_fid(s, s')
// (paper, Methodology, "Multi-output Multi-fidelity Causal GP", eq:gpmodel). Inputs are rows
// of an n x (d+1) matrix whose last column is the fidelity; k_in is an ARD RBF
// (the paper's choice), k_fid is an RBF. A categorical input j with L_j levels
// (unit value (k + 0.5) / L_j for level k) enters k_in through the exponentiated
// overlap exp(-[k != k'] / l_j) instead: levels have no order, each pair of
// different levels has the same correlation exp(-1 / l_j), learned per option
// (BoTorch's CategoricalKernel). Its product with the RBF of the other inputs
// is a valid kernel (a product of positive semidefinite kernels). With a target correlation gamma the
// fidelity part of a pair with exactly one point at the target is gamma k_fid
// (scale_target_pairs): the Gram matrix is then ((1 + gamma) / 2) K + ((1 - gamma) / 2) D K D
// with D = diag(+1 at the target, -1 elsewhere), a convex combination of two
// positive semidefinite matrices, so every gamma in [-1, 1] is a valid kernel.
#pragma once
#include <Eigen/Dense>

#include "util/categorical_bins.hpp"

namespace rescue::gp {

/// Per input column, its number of levels if categorical, else 0; empty: no
/// categorical input. Shorter than d+1 is allowed (the rest continuous).
using CategoricalLevels = Eigen::VectorXi;

/// k(X1_i, X2_j) for all pairs; log_lengthscale has d+1 entries (last: fidelity).
Eigen::MatrixXd input_fidelity_kernel(const Eigen::MatrixXd& X1, const Eigen::MatrixXd& X2,
                                      const Eigen::VectorXd& log_lengthscale,
                                      const CategoricalLevels& categorical = CategoricalLevels());

/// Gradient with respect to log_lengthscale of 0.5 * sum_ij G_ij k(X_i, X_j) for a
/// symmetric G of which only the strictly lower triangle is read.
/// This is how the log marginal likelihood depends on the lengthscales once
/// G = sum over output pairs of (alpha alpha^T - K^-1) times K_obj has been formed.
/// When fidelity_grad is given it receives, per row i, the derivative of the same
/// sum with respect to X(i, d), the row's fidelity coordinate: what a learned map
/// of the fidelity axis (GpOptions::fidelity_levels) needs by the chain rule.
Eigen::VectorXd lengthscale_gradient(const Eigen::MatrixXd& X, const Eigen::MatrixXd& G,
                                     const Eigen::VectorXd& log_lengthscale, Eigen::VectorXd* fidelity_grad = nullptr,
                                     const CategoricalLevels& categorical = CategoricalLevels());

/// Which rows of Z (fidelity in the last column, unit scale) are at the target fidelity.
Eigen::Array<bool, Eigen::Dynamic, 1> at_target(const Eigen::MatrixXd& Z, double target);

/// Multiplies K(i, j) by gamma where exactly one of row i (flags t1) and row j (flags t2) is
/// at the target.
void scale_target_pairs(Eigen::MatrixXd& K, const Eigen::Array<bool, Eigen::Dynamic, 1>& t1,
                        const Eigen::Array<bool, Eigen::Dynamic, 1>& t2, double gamma);

}  // namespace rescue::gp
