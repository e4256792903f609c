// Hyperparameter learning: recovery of known hyperparameters from a GP draw,
// and the benefit of cheap low-fidelity data on multi-fidelity Branin-Currin.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "gp/multi_fidelity_gp.hpp"
#include "gp_test_support.hpp"
#include "problems/benchmark_problem.hpp"

namespace rescue::gp {
namespace {

TEST(GpLearning, RecoversLengthscalesAndNoiseOfAKnownGp) {
  Rng rng(2024);
  const int n = 150, P = 2;
  const Eigen::MatrixXd X = testing::uniform_matrix(n, 3, rng);
  Hyperparameters truth;
  truth.log_lengthscale = Eigen::Vector3d(std::log(0.2), std::log(0.5), std::log(0.6));
  truth.coreg_factor.resize(2, 2);
  truth.coreg_factor << 1.0, 0.0, 0.7, 0.5;
  truth.log_kappa = Eigen::Vector2d::Constant(std::log(0.05));
  truth.log_noise = Eigen::Vector2d::Constant(std::log(0.01));
  truth.mean_constant = Eigen::Vector2d::Zero();
  truth.mean_scale = Eigen::Vector2d::Ones();
  testing::Reference ref;
  ref.X = X;
  ref.Y = Eigen::MatrixXd::Zero(n, P);
  ref.center = Eigen::Vector2d::Zero();
  ref.scale = Eigen::Vector2d::Ones();
  ref.h = truth;
  ref.P = P;
  const Eigen::MatrixXd K = ref.gram();  // includes the noise
  const Eigen::MatrixXd L = K.llt().matrixL();
  Eigen::VectorXd e(n * P);
  for (Eigen::Index i = 0; i < e.size(); ++i) e[i] = rng.normal();
  const Eigen::VectorXd y = L * e;
  const Eigen::MatrixXd Y = Eigen::Map<const Eigen::MatrixXd>(y.data(), n, P);

  MultiFidelityGp gp(3, P);
  gp.set_data(X, Y);
  Rng fit_rng(7);
  gp.fit(fit_rng);
  const Hyperparameters& h = gp.hyperparameters();
  const Eigen::VectorXd ls = h.log_lengthscale.array().exp();
  const Eigen::VectorXd noise = h.noise().cwiseProduct(gp.output_scale().cwiseAbs2());
  std::cout << "fitted lengthscales " << ls.transpose() << " (truth 0.2 0.5 0.6), noise "
            << noise.transpose() << " (truth 0.01 0.01)\n";
  EXPECT_NEAR(std::log(ls[0]), std::log(0.2), std::log(1.4));
  EXPECT_NEAR(std::log(ls[1]), std::log(0.5), std::log(1.4));
  EXPECT_NEAR(std::log(ls[2]), std::log(0.6), std::log(2.5));
  for (int m = 0; m < P; ++m) EXPECT_NEAR(std::log(noise[m]), std::log(0.01), std::log(2.0));
  // The output correlation of K_obj is recovered too (truth 0.7 / sqrt(0.74 * 1.05)).
  const Eigen::MatrixXd B = h.coregionalization();
  const Eigen::MatrixXd Bt = truth.coregionalization();
  EXPECT_NEAR(B(0, 1) / std::sqrt(B(0, 0) * B(1, 1)), Bt(0, 1) / std::sqrt(Bt(0, 0) * Bt(1, 1)), 0.15);
}

double rmse(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, int col) {
  return std::sqrt((a.col(col) - b.col(col)).squaredNorm() / a.rows());
}

TEST(GpLearning, LowFidelityDataHelpsOnBraninCurrin) {
  const auto problem = problems::make_problem("branin-currin");
  auto eval = [&](const Eigen::MatrixXd& X) {
    Eigen::MatrixXd Y(X.rows(), 2);
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      const double x[2] = {X(i, 0), X(i, 1)};
      const auto r = problem->evaluate(x, X(i, 2));
      Y(i, 0) = r.y[0];
      Y(i, 1) = r.y[1];
    }
    return Y;
  };
  const int n_target = 10, n_low = 40, seeds = 4;
  Eigen::Vector2d sum_target = Eigen::Vector2d::Zero(), sum_mf = Eigen::Vector2d::Zero();
  for (int seed = 0; seed < seeds; ++seed) {
    Rng rng(500 + seed);
    Eigen::MatrixXd Xt = testing::uniform_matrix(n_target, 3, rng);
    Xt.col(2).setOnes();
    Eigen::MatrixXd Xl = testing::uniform_matrix(n_low, 3, rng);
    Xl.col(2) *= 0.5;  // low fidelities s in [0, 0.5]
    Eigen::MatrixXd Xtest = testing::uniform_matrix(300, 3, rng);
    Xtest.col(2).setOnes();
    const Eigen::MatrixXd Ytest = eval(Xtest);

    MultiFidelityGp target_only(3, 2);
    target_only.set_data(Xt, eval(Xt));
    Rng r1(seed);
    target_only.fit(r1);
    const Eigen::MatrixXd m1 = target_only.posterior_mean(Xtest);

    Eigen::MatrixXd Xmf(n_target + n_low, 3);
    Xmf << Xt, Xl;
    MultiFidelityGp mf(3, 2);
    mf.set_data(Xmf, eval(Xmf));
    Rng r2(seed);
    mf.fit(r2);
    const Eigen::MatrixXd m2 = mf.posterior_mean(Xtest);
    for (int c = 0; c < 2; ++c) {
      sum_target[c] += rmse(m1, Ytest, c);
      sum_mf[c] += rmse(m2, Ytest, c);
    }
  }
  sum_target /= seeds;
  sum_mf /= seeds;
  std::cout << "Branin-Currin RMSE at s = 1 (mean of " << seeds << " seeds): " << n_target
            << " target points: f1 " << sum_target[0] << ", f2 " << sum_target[1] << "; plus " << n_low
            << " points at s in [0, 0.5]: f1 " << sum_mf[0] << ", f2 " << sum_mf[1] << "\n";
  EXPECT_LT(sum_mf[0], 0.8 * sum_target[0]);
  EXPECT_LT(sum_mf[1], 0.8 * sum_target[1]);
}

TEST(GpLearning, WarmStartRefitIsCheapAndNoWorse) {
  Rng rng(8);
  Eigen::MatrixXd X = testing::uniform_matrix(40, 3, rng);
  Eigen::MatrixXd Y = testing::smooth_outputs(X, 2, rng);
  MultiFidelityGp gp(3, 2);
  gp.set_data(X, Y);
  const FitReport cold = gp.fit(rng);
  const FitReport warm = gp.fit(rng);  // same data: starts at the optimum
  EXPECT_LT(warm.starts, cold.starts);
  EXPECT_GE(warm.objective, cold.objective - 1e-8 * std::abs(cold.objective));
  // The learned objective beats the defaults.
  MultiFidelityGp fresh(3, 2);
  fresh.set_data(X, Y);
  const Eigen::VectorXd t0 = fresh.layout().pack(fresh.default_hyperparameters());
  EXPECT_GT(cold.objective, fresh.objective(t0, nullptr, true));
}

}  // namespace
}  // namespace rescue::gp
