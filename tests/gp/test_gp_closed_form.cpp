// Closed-form checks on tiny cases: missing outputs, the mean hook and the
// kernel hook change predictions exactly as the model formulas say; plus
// robustness (duplicates, N = 1, constant and extreme-scale outputs) and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gp/gram_factor.hpp"
#include "gp/multi_fidelity_gp.hpp"
#include "gp_test_support.hpp"
#include "util/error.hpp"

namespace rescue::gp {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

Hyperparameters simple_hp(int D, int P, double ls, double noise) {
  Hyperparameters h;
  h.log_lengthscale = Eigen::VectorXd::Constant(D, std::log(ls));
  h.coreg_factor = Eigen::MatrixXd::Zero(P, P);
  for (int m = 0; m < P; ++m) h.coreg_factor(m, 0) = 0.8;  // rank-one part: strong correlation
  for (int m = 1; m < P; ++m) h.coreg_factor(m, m) = 0.3;
  h.log_kappa = Eigen::VectorXd::Constant(P, std::log(0.1));
  h.log_noise = Eigen::VectorXd::Constant(P, std::log(noise));
  h.mean_constant = Eigen::VectorXd::Zero(P);
  h.mean_scale = Eigen::VectorXd::Ones(P);
  h.log_hook_weight = 0.0;
  return h;
}

double rbf(const Eigen::RowVectorXd& a, const Eigen::RowVectorXd& b, double ls) {
  return std::exp(-0.5 * (a - b).squaredNorm() / (ls * ls));
}

TEST(GpClosedForm, MissingOutputIsInferredThroughKObj) {
  // One point, output 1 missing: standardization gives c0 = y0, s0 = |y0|;
  // output 1 has no data: c1 = 0, s1 = 1. The residual of output 0 is -b0.
  MultiFidelityGp gp(2, 2);
  Eigen::MatrixXd X(1, 2), Y(1, 2);
  X << 0.3, 0.6;
  Y << 2.5, kNaN;
  gp.set_data(X, Y);
  Hyperparameters h = simple_hp(2, 2, 0.4, 0.05);
  h.mean_constant << 0.3, -0.2;
  gp.set_hyperparameters(h);
  const Eigen::MatrixXd B = h.coregionalization();
  Eigen::MatrixXd Z(2, 2);
  Z << 0.35, 0.5, 0.9, 0.1;
  const Eigen::MatrixXd mean = gp.posterior_mean(Z);
  for (int z = 0; z < 2; ++z) {
    const double k = rbf(Z.row(z), X.row(0), 0.4);
    const double gain = -0.3 / (B(0, 0) + 0.05);
    EXPECT_NEAR(mean(z, 0), 2.5 + 2.5 * (0.3 + B(0, 0) * k * gain), 1e-12);
    EXPECT_NEAR(mean(z, 1), -0.2 + B(1, 0) * k * gain, 1e-12);
  }
  // With the second output observed too, output 1 at the point moves to the data.
  MultiFidelityGp full(2, 2);
  Eigen::MatrixXd X2(2, 2), Y2(2, 2), Y3(2, 2);
  X2 << 0.3, 0.6, 0.7, 0.2;
  Y2 << 1.0, 3.0, 2.0, kNaN;
  Y3 << 1.0, 3.0, 2.0, 5.0;
  full.set_data(X2, Y2);
  full.set_hyperparameters(h);
  const double with_missing = full.posterior_mean(X2.row(1))(0, 1);
  full.set_data(X2, Y3);
  const double with_value = full.posterior_mean(X2.row(1))(0, 1);
  EXPECT_GT(with_value, with_missing);
}

TEST(GpClosedForm, MeanHookEntersAsScaledStandardizedPrior) {
  // P = 1, one observation y0 at x0: c = y0, s = |y0|, r = -mu~(x0), and
  // mean(x) = c + s (mu~(x) + B k(x, x0) / (B + noise) * (-mu~(x0))),
  // mu~(x) = b + a (h(x) - c) / s.
  const double y0 = 4.0, b = 0.1, a = 0.7, noise = 0.02;
  MultiFidelityGp gp(2, 1);
  gp.set_mean_hook([](const Eigen::MatrixXd& Z) {
    Eigen::MatrixXd H(Z.rows(), 1);
    H.col(0) = (2.0 + 3.0 * Z.col(0).array()).matrix();
    return H;
  });
  Eigen::MatrixXd X(1, 2), Y(1, 1);
  X << 0.2, 1.0;
  Y << y0;
  gp.set_data(X, Y);
  Hyperparameters h = simple_hp(2, 1, 0.3, noise);
  h.mean_constant << b;
  h.mean_scale << a;
  gp.set_hyperparameters(h);
  const double B = h.coregionalization()(0, 0);
  auto mut = [&](double x) { return b + a * ((2.0 + 3.0 * x) - y0) / y0; };
  Eigen::MatrixXd Z(3, 2);
  Z << 0.25, 1.0, 0.6, 0.5, 0.95, 1.0;
  const Eigen::MatrixXd mean = gp.posterior_mean(Z);
  for (int z = 0; z < 3; ++z) {
    const double k = rbf(Z.row(z), X.row(0), 0.3);
    const double want = y0 + y0 * (mut(Z(z, 0)) + B * k / (B + noise) * (-mut(0.2)));
    EXPECT_NEAR(mean(z, 0), want, 1e-12);
  }
  // The calibrated prior alone, c + s mu~(x), away from the data as well.
  const Eigen::MatrixXd prior = gp.prior_mean(Z);
  for (int z = 0; z < 3; ++z) EXPECT_NEAR(prior(z, 0), y0 + y0 * mut(Z(z, 0)), 1e-12);
  // With a = 1 and b = 0 it is the hook itself.
  h.mean_constant << 0.0;
  h.mean_scale << 1.0;
  gp.set_hyperparameters(h);
  const Eigen::MatrixXd hook = gp.prior_mean(Z);
  for (int z = 0; z < 3; ++z) EXPECT_NEAR(hook(z, 0), 2.0 + 3.0 * Z(z, 0), 1e-12);
}

TEST(GpClosedForm, KernelHookAddsWeightedSigmaProduct) {
  // The training point has sigma = 0 (sigma(z) = z0 and x0 = 0) and lies far
  // from the test points, so the posterior covariance there is the prior:
  //   cov((z,m),(z',m')) = s_m s_m' B_mm' (k(z,z') + w sig~_m(z) sig~_m'(z')).
  MultiFidelityGp gp(2, 2);
  gp.set_kernel_hook([](const Eigen::MatrixXd& Z) {
    Eigen::MatrixXd S(Z.rows(), 2);
    S.col(0) = Z.col(0);
    S.col(1) = 2.0 * Z.col(0);
    return S;
  });
  Eigen::MatrixXd X(2, 2), Y(2, 2);
  X << 0.0, 0.0, 0.0, 0.0;
  Y << 1.0, 10.0, 3.0, 16.0;  // c = (2, 13), s = (sqrt2, sqrt18)
  gp.set_data(X, Y);
  Hyperparameters h = simple_hp(2, 2, 0.05, 0.01);
  h.log_hook_weight = std::log(1.7);
  gp.set_hyperparameters(h);
  const Eigen::MatrixXd B = h.coregionalization();
  const Eigen::Vector2d s(std::sqrt(2.0), std::sqrt(18.0));
  Eigen::MatrixXd Z(2, 2);
  Z << 0.9, 0.9, 0.95, 0.8;
  const Posterior post = gp.posterior(Z);
  auto sig = [&](int z, int m) { return (m == 0 ? 1.0 : 2.0) * Z(z, 0) / s[m]; };
  for (int m = 0; m < 2; ++m)
    for (int mp = 0; mp < 2; ++mp)
      for (int z = 0; z < 2; ++z)
        for (int zp = 0; zp < 2; ++zp) {
          const double want = s[m] * s[mp] *
                              (B(m, mp) * rbf(Z.row(z), Z.row(zp), 0.05) + 1.7 * sig(z, m) * sig(zp, mp) * B(m, mp));
          EXPECT_NEAR(post.covariance(m * 2 + z, mp * 2 + zp), want, 1e-10 * (1 + std::abs(want)));
        }
  EXPECT_NEAR(post.mean(0, 0), 2.0, 1e-9);  // no information reaches the test points
}

TEST(GpRobustness, DuplicatesSinglePointConstantAndExtremeScales) {
  Rng rng(3);
  // Duplicate inputs.
  Eigen::MatrixXd X = Eigen::MatrixXd::Constant(6, 3, 0.4);
  Eigen::MatrixXd Y(6, 2);
  for (int i = 0; i < 6; ++i) Y.row(i) << 1.0 + 0.1 * rng.normal(), 2.0 + 0.1 * rng.normal();
  MultiFidelityGp dup(3, 2);
  dup.set_data(X, Y);
  dup.fit(rng);
  const Eigen::MatrixXd m_dup = dup.posterior_mean(X.topRows(1));
  EXPECT_NEAR(m_dup(0, 0), Y.col(0).mean(), 0.1);
  EXPECT_NEAR(m_dup(0, 1), Y.col(1).mean(), 0.1);

  // N = 1.
  MultiFidelityGp one(3, 2);
  one.set_data(X.topRows(1), Y.topRows(1));
  one.fit(rng);
  EXPECT_NEAR(one.posterior_mean(X.topRows(1))(0, 0), Y(0, 0), 0.05 * std::abs(Y(0, 0)));

  // Constant outputs (one of them zero).
  Eigen::MatrixXd Xr = testing::uniform_matrix(8, 3, rng);
  Eigen::MatrixXd Yc(8, 2);
  Yc.col(0).setConstant(7.0);
  Yc.col(1).setZero();
  MultiFidelityGp cst(3, 2);
  cst.set_data(Xr, Yc);
  cst.fit(rng);
  Eigen::MatrixXd mean, var;
  cst.posterior_mean_variance(testing::uniform_matrix(4, 3, rng), mean, var);
  EXPECT_LE((mean.col(0).array() - 7.0).abs().maxCoeff(), 1e-6);
  EXPECT_LE(mean.col(1).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_TRUE(var.allFinite());

  // Outputs of scale 1e-9 and 1e9: predictions are equivariant with the scale.
  const Eigen::MatrixXd Y1 = testing::smooth_outputs(Xr, 2, rng);
  const Eigen::MatrixXd Zt = testing::uniform_matrix(5, 3, rng);
  Eigen::MatrixXd ref;
  for (double scale : {1.0, 1e-9, 1e9}) {
    MultiFidelityGp g(3, 2);
    g.set_data(Xr, scale * Y1);
    Rng fr(11);
    g.fit(fr);
    const Eigen::MatrixXd m = g.posterior_mean(Zt) / scale;
    ASSERT_TRUE(m.allFinite());
    if (scale == 1.0) ref = m;
    else EXPECT_LE(testing::max_abs(m - ref), 1e-6 * testing::max_abs(ref)) << "scale " << scale;
  }
}

TEST(GpErrors, BadInputThrowsWithStatus) {
  MultiFidelityGp gp(3, 2);
  Eigen::MatrixXd X = Eigen::MatrixXd::Constant(3, 3, 0.5), Y = Eigen::MatrixXd::Ones(3, 2);
  EXPECT_THROW(gp.posterior_mean(X), Error);  // no data yet
  EXPECT_THROW(gp.set_data(Eigen::MatrixXd::Zero(3, 2), Y), Error);
  EXPECT_THROW(gp.set_data(X, Eigen::MatrixXd::Ones(2, 2)), Error);
  Eigen::MatrixXd Yinf = Y;
  Yinf(0, 0) = std::numeric_limits<double>::infinity();
  EXPECT_THROW(gp.set_data(X, Yinf), Error);
  Eigen::MatrixXd Xnan = X;
  Xnan(1, 1) = kNaN;
  EXPECT_THROW(gp.set_data(Xnan, Y), Error);
  EXPECT_THROW(gp.set_data(X, Eigen::MatrixXd::Constant(3, 2, kNaN)), Error);
  EXPECT_THROW(MultiFidelityGp(0, 2), Error);
  GpOptions bad;
  bad.rank = 5;
  EXPECT_THROW(MultiFidelityGp(3, 2, bad), Error);

  gp.set_data(X, Y);
  Rng rng(1);
  const PreparedPool pool = gp.prepare_pool(X);
  EXPECT_THROW(gp.fantasy_means(pool, Eigen::VectorXd::Zero(2), gp.draw_base_samples(2, rng)), Error);
  EXPECT_THROW(gp.fantasy_means(pool, Eigen::VectorXd::Zero(3), Eigen::MatrixXd::Zero(2, 3)), Error);
  gp.set_data(X, 2.0 * Y);  // the pool is now stale
  EXPECT_THROW(gp.fantasy_means(pool, Eigen::VectorXd::Zero(3), gp.draw_base_samples(2, rng)), Error);
  const Eigen::MatrixXd before = gp.posterior_mean(X);
  EXPECT_THROW(gp.set_mean_hook([](const Eigen::MatrixXd& Z) { return Eigen::MatrixXd::Zero(Z.rows(), 5); }),
               Error);
  EXPECT_EQ(gp.posterior_mean(X), before);  // a failed hook leaves the model unchanged
  // The hooks are the library's own causal prior, so a non-finite value from
  // them (outputs so large that the estimates overflow) is a numerical
  // failure, not a user callback's.
  for (bool mean_hook : {true, false}) {
    SCOPED_TRACE(mean_hook ? "mean hook" : "kernel hook");
    try {
      const auto inf = [](const Eigen::MatrixXd& Z) {
        return Eigen::MatrixXd::Constant(Z.rows(), 2, std::numeric_limits<double>::infinity());
      };
      if (mean_hook)
        gp.set_mean_hook(inf);
      else
        gp.set_kernel_hook(inf);
      ADD_FAILURE() << "expected an error";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::Numerical) << e.what();
    }
    EXPECT_EQ(gp.posterior_mean(X), before);
  }

  // A matrix that no jitter can repair gives a clear numerical error.
  Eigen::MatrixXd neg = -Eigen::MatrixXd::Identity(3, 3);
  try {
    GramFactor::dense(neg);
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::Numerical);
  }
  // A singular one is rescued by jitter.
  const GramFactor f = GramFactor::dense(Eigen::MatrixXd::Ones(4, 4));
  EXPECT_TRUE(std::isfinite(f.log_det()));
}

// set_data and set_hyperparameters either succeed or leave the model as it
// was: a failure midway used to leave new data beside the old factorization
// (and then read past its end) or new hyperparameters beside the old weights.
// conditioned_on refuses what set_data refuses.
TEST(GpErrors, FailedSettersLeaveTheModelUnchanged) {
  Rng rng(1);
  const Eigen::MatrixXd X = testing::uniform_matrix(10, 3, rng);
  const Eigen::MatrixXd Y = testing::smooth_outputs(X, 2, rng);
  MultiFidelityGp gp(3, 2);
  // A prior mean that cannot be computed beyond a = 0.99 (as a causal estimate that overflows).
  gp.set_mean_hook([](const Eigen::MatrixXd& Z) {
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(Z.rows(), 2);
    for (Eigen::Index i = 0; i < Z.rows(); ++i)
      if (Z(i, 0) > 0.99) H(i, 0) = kNaN;
    return H;
  });
  gp.set_data(X, Y);
  const Eigen::MatrixXd Z = testing::uniform_matrix(4, 3, rng) * 0.9;
  const Eigen::MatrixXd before = gp.posterior_mean(Z);
  const double lml = gp.log_marginal_likelihood();
  const Hyperparameters h0 = gp.hyperparameters();
  auto unchanged = [&](const char* what) {
    SCOPED_TRACE(what);
    EXPECT_EQ(gp.num_points(), 10);
    EXPECT_EQ(gp.hyperparameters().log_noise, h0.log_noise);
    EXPECT_EQ(gp.hyperparameters().log_lengthscale, h0.log_lengthscale);
    EXPECT_EQ(gp.log_marginal_likelihood(), lml);
    EXPECT_EQ(gp.posterior_mean(Z), before);
  };
  Eigen::MatrixXd X2 = testing::uniform_matrix(40, 3, rng) * 0.9;
  X2(39, 0) = 0.995;
  EXPECT_THROW(gp.set_data(X2, testing::smooth_outputs(X2, 2, rng)), Error);
  unchanged("a hook failing at the new rows");
  X2(39, 0) = 0.5;
  EXPECT_THROW(gp.set_data(X2, Eigen::MatrixXd::Constant(40, 2, kNaN)), Error);
  unchanged("every new value missing");
  Hyperparameters bad = h0;
  bad.log_lengthscale.setConstant(std::log(0.05));
  bad.log_noise[0] = 800.0;  // finite, but its exponential overflows
  EXPECT_THROW(gp.set_hyperparameters(bad), Error);
  unchanged("hyperparameters that overflow");
  EXPECT_THROW(gp.restore_fit(bad), Error);
  unchanged("a restored fit that overflows");

  Eigen::MatrixXd Xa(11, 3), Ya(11, 2);
  Xa << X, Eigen::RowVector3d(0.3, 0.4, 1.0);
  Ya << Y, Eigen::RowVector2d(std::numeric_limits<double>::infinity(), 1.0);
  EXPECT_THROW(gp.set_data(Xa, Ya), Error);
  EXPECT_THROW(gp.conditioned_on(Xa, Ya), Error);
  unchanged("infinite outputs");
}

}  // namespace
}  // namespace rescue::gp
