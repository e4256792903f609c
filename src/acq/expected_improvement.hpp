// Expected hypervolume improvement of a Gaussian candidate over a Pareto
// front (minimization).
#pragma once
#include <vector>

#include <Eigen/Dense>

namespace rescue::acq {

/// Exact EHVI for two objectives with independent Gaussian marginals
/// (mean mu, standard deviation sigma). The region a new point can add is the
/// union of strips [a_i, b_i) x (-inf, c_i) between the front's points and the
/// reference, and the integral of Phi((u - mu1)/s1) Phi((v - mu2)/s2) over a
/// rectangle separates into two one-dimensional integrals with the closed form
/// G(t) = s (z Phi(z) + phi(z)), z = (t - mu) / s.
double ehvi_2d(const std::vector<double>& front, const std::vector<double>& ref, const double mu[2],
               const double sigma[2]);

/// Monte Carlo EHVI: the mean hypervolume improvement over the samples
/// mean + L e_k (L the Cholesky factor of the candidate's covariance across
/// objectives, e_k fixed base samples, one per row).
double ehvi_mc(const std::vector<double>& front, std::size_t m, const std::vector<double>& ref,
               const Eigen::VectorXd& mean, const Eigen::MatrixXd& covariance, const Eigen::MatrixXd& base);

}  // namespace rescue::acq
