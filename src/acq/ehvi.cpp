#include "acq/ehvi.hpp"

#include <cmath>

#include "acq/candidate_search.hpp"
#include "acq/expected_improvement.hpp"
#include "acq/hvkg.hpp"
#include "moo/pareto.hpp"

namespace rescue::acq {
namespace {

// Posterior mean and joint covariance across all outputs at one point z.
void point_posterior(const gp::MultiFidelityGp& gp, const Eigen::VectorXd& z, Eigen::VectorXd* mean,
                     Eigen::MatrixXd* cov) {
  const gp::Posterior post = gp.posterior(z.transpose());
  *mean = post.mean.row(0).transpose();
  *cov = post.covariance;  // n* = 1: output-major is just the outputs
}

Eigen::MatrixXd base_normals(int n, int m, Rng& rng) {
  Eigen::MatrixXd b(n, m);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) b(i, j) = rng.normal();
  return b;
}

}  // namespace

std::optional<Suggestion> Ehvi::propose(const EngineView& view, Rng& rng) {
  const ProblemSpec& spec = view.spec;
  const int d = spec.dim(), M = spec.num_objectives();
  const std::vector<double> ref = reference_point_min(spec, view.observations);
  // Front: posterior mean at the target of the observed configurations predicted feasible.
  const TrainingSet t = training_set(spec, view.observations);
  Eigen::MatrixXd mean, var;
  model_.predict(with_fidelity(t.X.leftCols(d), model_.target_unit()), &mean, &var);
  std::vector<double> front;
  for (Eigen::Index i = 0; i < mean.rows(); ++i) {
    if (model_.mean_violation(mean.row(i)) > 0.0) continue;
    for (int m = 0; m < M; ++m) front.push_back(mean(i, m));
  }
  const Eigen::MatrixXd base = base_normals(options_.mc_samples, M, rng);
  Eigen::VectorXd z(d + 1), mu;
  Eigen::MatrixXd cov;
  auto value = [&](const double* u, double s) {
    for (int j = 0; j < d; ++j) z[j] = u[j];
    z[d] = spec.fidelity().unit(s);
    point_posterior(model_.gp(), z, &mu, &cov);
    double pof = 1.0;
    if (spec.num_constraints() > 0) {
      const Eigen::MatrixXd v = cov.diagonal().transpose();
      pof = model_.probability_feasible(mu.transpose(), v)[0];
    }
    double ei;
    if (M == 2) {
      const double m2[2] = {mu[0], mu[1]};
      const double s2[2] = {std::sqrt(std::max(cov(0, 0), 0.0)), std::sqrt(std::max(cov(1, 1), 0.0))};
      ei = ehvi_2d(front, ref, m2, s2);
    } else {
      ei = ehvi_mc(front, M, ref, mu.head(M), cov.topLeftCorner(M, M), base);
    }
    return ei * pof;
  };
  SearchOptions o = options_.search.within(view.max_cost);
  o.target_only = true;
  const SearchResult best = maximize_acquisition(spec, value, rng, o);
  if (best.u.empty()) return std::nullopt;
  return Suggestion{to_user(best.u), best.s};
}

std::optional<Suggestion> Momf::propose(const EngineView& view, Rng& rng) {
  const ProblemSpec& spec = view.spec;
  const int d = spec.dim(), M = spec.num_objectives();
  std::vector<double> ref = reference_point_min(spec, view.observations);
  ref.push_back(0.0);  // the fidelity objective, -u(s), improves on the reference for any u(s) > 0
  const TrainingSet t = training_set(spec, view.observations);
  Eigen::MatrixXd mean, var;
  model_.predict(t.X, &mean, &var);
  std::vector<double> front;
  for (Eigen::Index i = 0; i < mean.rows(); ++i) {
    if (model_.mean_violation(mean.row(i)) > 0.0) continue;
    for (int m = 0; m < M; ++m) front.push_back(mean(i, m));
    front.push_back(-t.X(i, d));
  }
  const Eigen::MatrixXd base = base_normals(options_.mc_samples, M + 1, rng);
  Eigen::VectorXd z(d + 1), mu, aug_mean(M + 1);
  Eigen::MatrixXd cov, aug_cov = Eigen::MatrixXd::Zero(M + 1, M + 1);
  std::vector<double> x(d);
  auto value = [&](const double* u, double s) {
    for (int j = 0; j < d; ++j) z[j] = u[j];
    z[d] = spec.fidelity().unit(s);
    point_posterior(model_.gp(), z, &mu, &cov);
    double pof = 1.0;
    if (spec.num_constraints() > 0) pof = model_.probability_feasible(mu.transpose(), cov.diagonal().transpose())[0];
    aug_mean.head(M) = mu.head(M);
    aug_mean[M] = -z[d];  // known exactly: no variance
    aug_cov.topLeftCorner(M, M) = cov.topLeftCorner(M, M);
    const double ei = ehvi_mc(front, M + 1, ref, aug_mean, aug_cov, base);
    spec.from_unit(u, x.data());
    return ei * pof / spec.cost(x.data(), s);
  };
  const SearchResult best = maximize_acquisition(spec, value, rng, options_.search.within(view.max_cost));
  if (best.u.empty()) return std::nullopt;
  return Suggestion{to_user(best.u), best.s};
}

}  // namespace rescue::acq
