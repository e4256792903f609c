// The GP against a naive dense reference: posterior mean, joint covariance, log
// marginal likelihood, analytic gradients (central differences) and fantasy
// updates (refit on augmented data with the same hyperparameters).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gp_test_support.hpp"

namespace rescue::gp {
namespace {

using testing::Reference;

struct Case {
  std::string name;
  double missing;  // probability that an output value is missing
  bool mean_hook;
  bool kernel_hook;
  bool allow_kronecker;
  int d;
  int P;
  int n;
  bool expect_kronecker;
  std::vector<double> levels = {};  // learned fidelity positions of the interior levels
  double target = std::numeric_limits<double>::quiet_NaN();  // with a target correlation
  std::vector<int> categorical = {};  // levels per configuration input (0: continuous)
};

constexpr double kNoTarget = std::numeric_limits<double>::quiet_NaN();

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

class GpReference : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    const Case& c = GetParam();
    Rng rng(1234 + c.n + 7 * c.P + 31 * c.d);
    X = testing::uniform_matrix(c.n, c.d + 1, rng);
    // A categorical input holds the middle of its level's bin; with few
    // levels, many pairs share one.
    auto to_levels = [&](Eigen::MatrixXd& A) {
      for (std::size_t j = 0; j < c.categorical.size(); ++j)
        if (const int L = c.categorical[j]; L > 0)
          for (Eigen::Index i = 0; i < A.rows(); ++i) A(i, Eigen::Index(j)) = (std::floor(A(i, Eigen::Index(j)) * L) + 0.5) / L;
    };
    to_levels(X);
    Y = testing::smooth_outputs(X, c.P, rng);
    for (Eigen::Index i = 1; i < Y.rows(); ++i)
      for (int m = 0; m < c.P; ++m)
        if (rng.uniform() < c.missing) Y(i, m) = std::numeric_limits<double>::quiet_NaN();
    GpOptions opt;
    opt.allow_kronecker = c.allow_kronecker;
    opt.learn_mean_scale = true;
    opt.learn_hook_weight = true;
    // The fidelity offset is in every case's mean; learned (so in the gradient) in some.
    opt.learn_fidelity_offset = c.mean_hook;
    opt.fidelity_anchor = 0.8;
    opt.fidelity_levels = c.levels;
    // With levels, every other row sits on one (as discrete fidelities do); the
    // rest fall between and beyond them, where the map interpolates.
    for (Eigen::Index i = 0; i < X.rows() && !c.levels.empty(); i += 2)
      X(i, c.d) = c.levels[static_cast<std::size_t>(i / 2) % c.levels.size()];
    // With a target, every third row is at it (some of them on a level too).
    opt.target_fidelity = c.target;
    opt.categorical_levels = c.categorical;
    for (Eigen::Index i = 0; i < X.rows() && !std::isnan(c.target); i += 3) X(i, c.d) = c.target;
    gp = std::make_unique<MultiFidelityGp>(c.d + 1, c.P, opt);
    if (c.mean_hook) gp->set_mean_hook(testing::test_mean_hook(c.P));
    if (c.kernel_hook) gp->set_kernel_hook(testing::test_kernel_hook(c.P));
    gp->set_data(X, Y);
    h = testing::random_hyperparameters(c.d + 1, c.P, c.P, rng);
    // Interior levels moved off their values, one below the lowest level.
    h.fidelity_position.resize(c.levels.size() >= 3 ? Eigen::Index(c.levels.size()) - 2 : 0);
    for (Eigen::Index k = 0; k < h.fidelity_position.size(); ++k)
      h.fidelity_position[k] = k == 0 ? -0.4 : rng.uniform(-0.5, 1.5);
    gp->set_hyperparameters(h);

    ref.X = X;
    ref.Y = Y;
    ref.center = gp->output_center();
    ref.scale = gp->output_scale();
    ref.h = h;
    if (c.mean_hook) ref.mean_hook = testing::test_mean_hook(c.P);
    if (c.kernel_hook) ref.kernel_hook = testing::test_kernel_hook(c.P);
    ref.P = c.P;
    ref.anchor = 0.8;
    ref.levels = c.levels;
    ref.target = c.target;
    ref.categorical = c.categorical;
    Z = testing::uniform_matrix(5, c.d + 1, rng);
    to_levels(Z);
    if (!std::isnan(c.target)) Z(1, c.d) = Z(3, c.d) = c.target;
  }
  Eigen::MatrixXd X, Y, Z;
  Hyperparameters h;
  std::unique_ptr<MultiFidelityGp> gp;
  Reference ref;
};

TEST_P(GpReference, UsesTheExpectedFactorization) {
  EXPECT_EQ(gp->uses_kronecker(), GetParam().expect_kronecker);
}

TEST_P(GpReference, StandardizationIsObservedMeanAndStd) {
  for (int m = 0; m < GetParam().P; ++m) {
    double s = 0, s2 = 0;
    int c = 0;
    for (Eigen::Index i = 0; i < Y.rows(); ++i)
      if (!std::isnan(Y(i, m))) { s += Y(i, m); ++c; }
    const double mean = s / c;
    for (Eigen::Index i = 0; i < Y.rows(); ++i)
      if (!std::isnan(Y(i, m))) s2 += (Y(i, m) - mean) * (Y(i, m) - mean);
    EXPECT_NEAR(gp->output_center()[m], mean, 1e-12 * (1 + std::abs(mean)));
    EXPECT_NEAR(gp->output_scale()[m], std::sqrt(s2 / (c - 1)), 1e-12);
  }
}

TEST_P(GpReference, LogMarginalLikelihoodMatches) {
  const double want = ref.lml();
  EXPECT_NEAR(gp->log_marginal_likelihood(), want, 1e-8 * std::abs(want));
  const Eigen::VectorXd theta = gp->layout().pack(h);
  EXPECT_NEAR(gp->objective(theta, nullptr, false), want, 1e-8 * std::abs(want));
}

// The posterior of point i by an explicit refit on the other points (same
// hyperparameters and standardization), observation noise included.
Posterior held_out_posterior(const MultiFidelityGp& gp, const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y,
                             Eigen::Index i) {
  Eigen::MatrixXd Xo(X.rows() - 1, X.cols()), Yo(Y.rows() - 1, Y.cols());
  for (Eigen::Index r = 0, k = 0; r < X.rows(); ++r) {
    if (r == i) continue;
    Xo.row(k) = X.row(r);
    Yo.row(k++) = Y.row(r);
  }
  return gp.conditioned_on(Xo, Yo).posterior(X.row(i), true);
}

// Each point held out, its observed outputs scored jointly.
TEST_P(GpReference, LeaveOneOutMatchesRefits) {
  double want = 0.0;
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    std::vector<int> seen;
    for (int m = 0; m < GetParam().P; ++m)
      if (!std::isnan(Y(i, m))) seen.push_back(m);
    if (seen.empty()) continue;
    const Posterior post = held_out_posterior(*gp, X, Y, i);
    const Eigen::Index b = static_cast<Eigen::Index>(seen.size());
    Eigen::MatrixXd C(b, b);
    Eigen::VectorXd e(b);
    for (Eigen::Index u = 0; u < b; ++u) {
      e[u] = Y(i, seen[u]) - post.mean(0, seen[u]);
      for (Eigen::Index v = 0; v < b; ++v) C(u, v) = post.covariance(seen[u], seen[v]);
    }
    const Eigen::LLT<Eigen::MatrixXd> llt(C);
    ASSERT_EQ(llt.info(), Eigen::Success);
    const Eigen::MatrixXd L = llt.matrixL();
    want += -0.5 * e.dot(llt.solve(e)) - L.diagonal().array().log().sum() - 0.5 * double(b) * std::log(2.0 * M_PI);
  }
  const double got = gp->loo_log_predictive(gp->layout().pack(h));
  EXPECT_NEAR(got, want, 1e-7 * (1.0 + std::abs(want)));
}

// The closed-form held-out means and standard deviations, output by output,
// against the refits; NaN exactly where the output was not observed.
TEST_P(GpReference, LeaveOneOutPredictionsMatchRefits) {
  Eigen::MatrixXd mean, sd;
  gp->loo_predictive(mean, sd);
  ASSERT_EQ(mean.rows(), X.rows());
  ASSERT_EQ(mean.cols(), GetParam().P);
  ASSERT_EQ(sd.rows(), X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    const Posterior post = held_out_posterior(*gp, X, Y, i);
    for (int m = 0; m < GetParam().P; ++m) {
      if (std::isnan(Y(i, m))) {
        EXPECT_TRUE(std::isnan(mean(i, m)) && std::isnan(sd(i, m))) << "point " << i << " output " << m;
        continue;
      }
      const double want_sd = std::sqrt(post.covariance(m, m));
      EXPECT_NEAR(mean(i, m), post.mean(0, m), 1e-7 * (1.0 + std::abs(post.mean(0, m)))) << "point " << i << " output " << m;
      EXPECT_NEAR(sd(i, m), want_sd, 1e-7 * want_sd) << "point " << i << " output " << m;
    }
  }
}

TEST_P(GpReference, PosteriorMeanAndJointCovarianceMatch) {
  Eigen::MatrixXd mean_ref, cov_ref;
  ref.posterior(Z, mean_ref, cov_ref);
  const Posterior post = gp->posterior(Z);
  const double ms = testing::max_abs(mean_ref), cs = testing::max_abs(cov_ref);
  EXPECT_LE(testing::max_abs(post.mean - mean_ref), 1e-8 * ms);
  EXPECT_LE(testing::max_abs(post.covariance - cov_ref), 1e-8 * cs);
  EXPECT_LE(testing::max_abs(gp->posterior_mean(Z) - mean_ref), 1e-8 * ms);

  Eigen::MatrixXd mean, var, mean_n, var_n;
  gp->posterior_mean_variance(Z, mean, var);
  gp->posterior_mean_variance(Z, mean_n, var_n, true);
  const Eigen::Index ns = Z.rows();
  for (int m = 0; m < GetParam().P; ++m)
    for (Eigen::Index z = 0; z < ns; ++z) {
      const double v = cov_ref(m * ns + z, m * ns + z);
      EXPECT_NEAR(var(z, m), v, 1e-8 * cs);
      const double noise = std::exp(h.log_noise[m]) * ref.scale[m] * ref.scale[m];
      EXPECT_NEAR(var_n(z, m), v + noise, 1e-8 * cs);
    }
  // Predictive joint covariance adds the noise on the diagonal only.
  const Posterior pn = gp->posterior(Z, true);
  Eigen::MatrixXd diff = pn.covariance - post.covariance;
  for (int m = 0; m < GetParam().P; ++m)
    for (Eigen::Index z = 0; z < ns; ++z)
      diff(m * ns + z, m * ns + z) -= std::exp(h.log_noise[m]) * ref.scale[m] * ref.scale[m];
  EXPECT_LE(testing::max_abs(diff), 1e-10 * cs);
}

TEST_P(GpReference, GradientMatchesCentralDifferences) {
  const Eigen::VectorXd theta = gp->layout().pack(h);
  for (bool prior : {false, true}) {
    Eigen::VectorXd grad;
    gp->objective(theta, &grad, prior);
    ASSERT_EQ(grad.size(), theta.size());
    for (Eigen::Index k = 0; k < theta.size(); ++k) {
      const double step = 1e-5;
      Eigen::VectorXd tp = theta, tm = theta;
      tp[k] += step;
      tm[k] -= step;
      const double fd = (gp->objective(tp, nullptr, prior) - gp->objective(tm, nullptr, prior)) / (2 * step);
      EXPECT_NEAR(grad[k], fd, 1e-6 * (1.0 + std::abs(fd))) << "parameter " << k << " prior " << prior;
    }
  }
}

TEST_P(GpReference, FantasyMeansEqualRefitOnAugmentedData) {
  const Case& c = GetParam();
  Rng rng(99);
  Eigen::MatrixXd pool = testing::uniform_matrix(7, c.d + 1, rng);
  const bool target = !std::isnan(c.target);
  if (target) pool(2, c.d) = pool(5, c.d) = c.target;
  const PreparedPool prepared = gp->prepare_pool(pool);
  const Eigen::MatrixXd E = gp->draw_base_samples(4, rng);
  for (int trial = 0; trial < (target ? 3 : 2); ++trial) {
    // The second candidate duplicates a training input; the third is at the target.
    Eigen::VectorXd cand =
        trial == 1 ? Eigen::VectorXd(X.row(2).transpose())
                   : Eigen::VectorXd(testing::uniform_matrix(1, c.d + 1, rng).row(0).transpose());
    if (trial == 2) cand[c.d] = c.target;
    const auto fm = gp->fantasy_means(prepared, cand, E);
    ASSERT_EQ(fm.size(), 4u);
    const Posterior pc = gp->posterior(cand.transpose(), true);
    const Eigen::MatrixXd Lc = pc.covariance.llt().matrixL();
    for (int k = 0; k < 4; ++k) {
      const Eigen::VectorXd y = pc.mean.row(0).transpose() + Lc * E.row(k).transpose();
      Eigen::MatrixXd Xa(X.rows() + 1, X.cols()), Ya(Y.rows() + 1, Y.cols());
      Xa << X, cand.transpose();
      Ya << Y, y.transpose();
      const MultiFidelityGp refit = gp->conditioned_on(Xa, Ya);
      const Eigen::MatrixXd want = refit.posterior_mean(pool);
      EXPECT_LE(testing::max_abs(fm[static_cast<std::size_t>(k)] - want), 1e-8 * testing::max_abs(want))
          << "trial " << trial << " fantasy " << k;
    }
  }
}

// The 2P sigma-point fantasies give the posterior variance at a pool after the
// candidate is observed, which the refit on the augmented data computes
// directly (it does not depend on the value observed).
TEST_P(GpReference, SigmaPointFantasiesGiveTheVarianceAfterTheObservation) {
  const Case& c = GetParam();
  Rng rng(23);
  const Eigen::MatrixXd pool = testing::uniform_matrix(11, c.d + 1, rng);
  const PreparedPool prepared = gp->prepare_pool(pool);
  const Eigen::MatrixXd E = gp->sigma_point_samples();
  ASSERT_EQ(E.rows(), 2 * c.P);
  ASSERT_EQ(E.cols(), c.P);
  Eigen::MatrixXd mean, var;
  gp->posterior_mean_variance(pool, mean, var);
  for (int trial = 0; trial < 3; ++trial) {
    // The last candidate is a pool point, where the variance falls the most.
    const Eigen::VectorXd cand = trial < 2 ? Eigen::VectorXd(testing::uniform_matrix(1, c.d + 1, rng).row(0).transpose())
                                           : Eigen::VectorXd(pool.row(4).transpose());
    const auto fm = gp->fantasy_means(prepared, cand, E);
    ASSERT_EQ(fm.size(), static_cast<std::size_t>(2 * c.P));
    Eigen::MatrixXd avg = Eigen::MatrixXd::Zero(pool.rows(), c.P);
    for (const auto& f : fm) avg += f / static_cast<double>(fm.size());
    EXPECT_LE(testing::max_abs(avg - mean), 1e-10 * (1.0 + testing::max_abs(mean))) << "trial " << trial;
    Eigen::MatrixXd Xa(X.rows() + 1, X.cols()), Ya(Y.rows() + 1, Y.cols());
    Xa << X, cand.transpose();
    Ya << Y, gp->posterior_mean(cand.transpose());
    const MultiFidelityGp refit = gp->conditioned_on(Xa, Ya);
    Eigen::MatrixXd mean_after, want;
    refit.posterior_mean_variance(pool, mean_after, want);
    const Eigen::MatrixXd got = fantasy_variance(var, mean, fm);
    EXPECT_LE(testing::max_abs(got - want), 1e-7 * testing::max_abs(var)) << "trial " << trial;
    // The observation is informative: some variance falls by more than rounding.
    EXPECT_GT(testing::max_abs(var - got), 1e-4 * testing::max_abs(var)) << "trial " << trial;
  }
}

// A pool of no points is a valid (empty) pool.
TEST_P(GpReference, AnEmptyPoolIsPrepared) {
  const PreparedPool prepared = gp->prepare_pool(Eigen::MatrixXd(0, GetParam().d + 1));
  EXPECT_EQ(prepared.points.rows(), 0);
  EXPECT_EQ(prepared.mean.rows(), 0);
}

// Base samples come in antithetic pairs, so the fantasy means average to the
// current posterior mean exactly (a fantasy mean is linear in its sample): the
// knowledge-gradient estimate carries no first-order Monte Carlo noise.
TEST_P(GpReference, AntitheticFantasiesAverageToThePosteriorMean) {
  const Case& c = GetParam();
  Rng rng(17);
  const Eigen::MatrixXd pool = testing::uniform_matrix(9, c.d + 1, rng);
  const PreparedPool prepared = gp->prepare_pool(pool);
  for (int K : {2, 8, 5}) {
    const Eigen::MatrixXd E = gp->draw_base_samples(K, rng);
    ASSERT_EQ(E.rows(), K);
    ASSERT_EQ(E.cols(), c.P);
    for (int k = 0; k < K / 2; ++k) EXPECT_EQ(E.row(k), (-E.row(K / 2 + k)).eval()) << "K " << K << " pair " << k;
    if (K % 2 == 1) {
      EXPECT_GT(E.row(K - 1).norm(), 0.0);
    }
    const Eigen::VectorXd cand = testing::uniform_matrix(1, c.d + 1, rng).row(0).transpose();
    const auto fm = gp->fantasy_means(prepared, cand, E);
    const int even = K - K % 2;
    Eigen::MatrixXd avg = Eigen::MatrixXd::Zero(pool.rows(), c.P);
    for (int k = 0; k < even; ++k) avg += fm[static_cast<std::size_t>(k)] / even;
    const Eigen::MatrixXd want = gp->posterior_mean(pool);
    EXPECT_LE(testing::max_abs(avg - want), 1e-10 * (1.0 + testing::max_abs(want))) << "K " << K;
    // The pairs are not degenerate: a fantasy moves the means.
    EXPECT_GT(testing::max_abs(fm[0] - want), 1e-6 * (1.0 + testing::max_abs(want))) << "K " << K;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, GpReference,
    ::testing::Values(
        Case{"rbf_kronecker", 0.0, false, false, true, 2, 2, 14, true},
        Case{"rbf_dense_forced", 0.0, false, false, false, 2, 3, 12, false},
        Case{"rbf_missing", 0.25, false, false, true, 3, 3, 12, false},
        Case{"rbf_few_missing", 0.1, false, false, true, 2, 2, 20, false},
        Case{"rbf_few_missing_mean_hook", 0.1, true, false, true, 3, 4, 10, false},
        Case{"rbf_missing_hooks", 0.25, true, true, true, 2, 3, 11, false},
        Case{"rbf_kronecker_mean_hook", 0.0, true, false, true, 4, 4, 9, true},
        Case{"rbf_kronecker_d26", 0.0, false, false, true, 26, 2, 15, true},
        Case{"rbf_missing_hooks_d3", 0.2, true, true, true, 3, 2, 12, false},
        Case{"rbf_fidelity_levels", 0.0, false, false, true, 2, 2, 14, true, {0.0, 0.3, 0.55, 1.0}},
        Case{"rbf_fidelity_levels_missing_hooks", 0.2, true, true, true, 3, 3, 12, false, {0.1, 0.5, 0.9}},
        Case{"rbf_target_kronecker", 0.0, false, false, true, 2, 2, 14, true, {}, 1.0},
        Case{"rbf_target_missing_hooks", 0.2, true, true, true, 3, 3, 12, false, {}, 0.7},
        Case{"rbf_target_few_missing", 0.1, false, false, true, 2, 2, 20, false, {}, 1.0},
        Case{"rbf_target_levels_missing", 0.2, true, false, true, 2, 3, 12, false, {0.0, 0.4, 1.0}, 1.0},
        Case{"mixed_kronecker", 0.0, false, false, true, 3, 2, 14, true, {}, kNoTarget, {3, 0, 2}},
        Case{"mixed_missing_hooks", 0.2, true, true, true, 3, 3, 12, false, {}, kNoTarget, {0, 4, 0}},
        Case{"mixed_target_levels_missing", 0.2, true, false, true, 2, 3, 12, false, {0.0, 0.4, 1.0}, 1.0, {2, 3}},
        Case{"categorical_only_dense", 0.0, false, false, false, 2, 2, 12, false, {}, kNoTarget, {3, 2}}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace rescue::gp
