// Fantasy updates for the knowledge-gradient inner loop.
//
// A fantasy observes all P outputs at candidate c. With v = K^-1 K_{X,c}
// (N x P), the predictive covariance S = k(c,c) + noise - K_{X,c}^T v = Lp Lp^T
// and a fantasy y_k = mu(c) + Lp e_k, the posterior mean at pool point p after
// adding (c, y_k) is (block update of the Gram inverse by the Schur complement)
//   mu_k(p) = mu(p) + Sigma(p, c) S^-1 (y_k - mu(c)) = mu(p) + Sigma(p, c) Lp^-T e_k,
//   Sigma(p, c) = k(p, c) - K_{p,X} v.
// Forming u = Lp^-T E^T (P x K) and z = v u (N x K) first, the pool term
// K_{p,X} z costs O(pool N P K): no refactorization and nothing of size N^2.
#include <cmath>

#include "gp/multi_fidelity_gp.hpp"
#include "util/error.hpp"

namespace rescue::gp {

PreparedPool MultiFidelityGp::prepare_pool(const Eigen::MatrixXd& pool) const {
  const TestPrior tp = test_prior(pool);
  PreparedPool out;
  out.points = pool;
  out.k_train = tp.kx;
  out.mean = mean_std(tp);
  out.hook_sigma = tp.sigma;
  out.owner = this;
  out.version = version_;
  return out;
}

Eigen::MatrixXd MultiFidelityGp::draw_base_samples(int num_fantasies, Rng& rng) const {
  if (num_fantasies < 1) fail(Status::InvalidArgument, "gp: number of fantasies must be >= 1");
  // Antithetic pairs (e, -e): a fantasy mean is linear in its base sample, so
  // over a pair the first-order change of every posterior mean cancels and the
  // averaged fantasy means equal the current means exactly. What is left of a
  // knowledge-gradient estimate is the value of changing the chosen set, not
  // the sign of K noise draws (which made every estimated gain negative once the
  // model was confident). Each row is still N(0, I), so the estimate stays
  // unbiased. An odd K adds one unpaired draw.
  Eigen::MatrixXd E(num_fantasies, P_);
  const int pairs = num_fantasies / 2;
  for (int k = 0; k < pairs; ++k)
    for (int m = 0; m < P_; ++m) {
      E(k, m) = rng.normal();
      E(pairs + k, m) = -E(k, m);
    }
  if (num_fantasies % 2 == 1)
    for (int m = 0; m < P_; ++m) E(num_fantasies - 1, m) = rng.normal();
  return E;
}

Eigen::MatrixXd MultiFidelityGp::sigma_point_samples() const {
  Eigen::MatrixXd E = Eigen::MatrixXd::Zero(2 * P_, P_);
  const double r = std::sqrt(static_cast<double>(P_));
  for (int m = 0; m < P_; ++m) {
    E(m, m) = r;
    E(P_ + m, m) = -r;
  }
  return E;
}

Eigen::MatrixXd fantasy_variance(const Eigen::MatrixXd& variance, const Eigen::MatrixXd& mean,
                                 const std::vector<Eigen::MatrixXd>& sigma_point_means) {
  // The fantasy mean at a pool point is mean + a e with e ~ N(0, I_P); over the
  // 2P sigma points +-sqrt(P) u_p the squared moves sum to 2P |a|^2, and |a|^2
  // is what the observation removes from the variance (law of total variance).
  const auto K = static_cast<double>(sigma_point_means.size());
  Eigen::MatrixXd moved = Eigen::MatrixXd::Zero(variance.rows(), variance.cols());
  for (const Eigen::MatrixXd& f : sigma_point_means) moved += (f - mean).cwiseAbs2();
  return (variance - moved / K).cwiseMax(1e-12 * variance);
}

std::vector<Eigen::MatrixXd> MultiFidelityGp::fantasy_means(const PreparedPool& pool,
                                                            const Eigen::VectorXd& candidate,
                                                            const Eigen::MatrixXd& base_samples) const {
  if (pool.owner != this || pool.version != version_)
    fail(Status::InvalidState, "gp: the pool was prepared for another model state; prepare it again");
  if (candidate.size() != D_) fail(Status::SizeMismatch, "gp: candidate must have d+1 entries");
  if (base_samples.cols() != P_ || base_samples.rows() < 1)
    fail(Status::SizeMismatch, "gp: base samples must be K x P with K >= 1");
  const Eigen::MatrixXd Zc = candidate.transpose();
  const TestPrior tc = test_prior(Zc);  // kx: 1 x n, sigma: 1 x P
  const Eigen::Index n = X_.rows(), N = static_cast<Eigen::Index>(obs_i_.size());
  const int K = static_cast<int>(base_samples.rows());
  const bool hook = tc.sigma.size() > 0;
  const double w = std::exp(hp_.log_hook_weight);

  // K_{X,c} (N x P) and v = K^-1 K_{X,c}: the once-per-candidate solve.
  const Eigen::MatrixXd Kxc = cross_covariance(tc);
  const Eigen::MatrixXd v = factor_.solve(Kxc);
  Eigen::MatrixXd S = B_;  // k(c, c) = B since k_in k_fid(c, c) = 1
  if (hook) S += w * B_.cwiseProduct(tc.sigma.transpose() * tc.sigma);
  S.noalias() -= Kxc.transpose() * v;
  S = 0.5 * (S + S.transpose());
  S.diagonal() += hp_.noise();
  Eigen::LLT<Eigen::MatrixXd> llt(S);
  if (llt.info() != Eigen::Success)
    fail(Status::Numerical, "gp: fantasy predictive covariance is not positive definite");
  // u = Lp^-T E^T (P x K); z = v u scattered to n x P per fantasy.
  const Eigen::MatrixXd u = llt.matrixU().solve(base_samples.transpose());
  const Eigen::MatrixXd z = v * u;  // N x K
  Eigen::MatrixXd Zs = Eigen::MatrixXd::Zero(n, P_ * K);
  for (int k = 0; k < K; ++k)
    for (Eigen::Index a = 0; a < N; ++a) Zs(obs_i_[a], k * P_ + obs_m_[a]) = z(a, k);

  const Eigen::MatrixXd KpZ = pool.k_train * Zs;  // pool x (P K): the O(pool N P K) step
  const Eigen::VectorXd kpc = input_kernel(pool.points, Zc, hp_).col(0);
  const Eigen::MatrixXd Bu = B_ * u;  // P x K
  Eigen::MatrixXd hook_c, hook_t;
  if (hook) {
    hook_c = w * (B_ * (tc.sigma.transpose().asDiagonal() * u));  // P x K: w B (sig~(c) o u)
    Eigen::MatrixXd t(P_, K);  // t[m', k] = sum_i sig~_m'(i) Z_k[i, m']
    for (int k = 0; k < K; ++k)
      t.col(k) = hsig_.cwiseProduct(Zs.middleCols(k * P_, P_)).colwise().sum().transpose();
    hook_t = w * (B_ * t);
  }
  std::vector<Eigen::MatrixXd> out;
  out.reserve(static_cast<std::size_t>(K));
  for (int k = 0; k < K; ++k) {
    Eigen::MatrixXd delta = kpc * Bu.col(k).transpose() - KpZ.middleCols(k * P_, P_) * B_;
    if (hook) {
      const Eigen::RowVectorXd coef = (hook_c.col(k) - hook_t.col(k)).transpose();
      delta += (pool.hook_sigma.array().rowwise() * coef.array()).matrix();
    }
    Eigen::MatrixXd mu = pool.mean + delta;
    out.push_back((mu * scale_.asDiagonal()).rowwise() + center_.transpose());
  }
  return out;
}

}  // namespace rescue::gp
