// GP regression of a structural equation against brute force: the posterior
// mean and the K-fold residuals recomputed from the Gram matrix of the fitted
// hyperparameters, and the fitted hyperparameters a local maximum of the
// evidence computed independently.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "causal/gp_regression.hpp"
#include "random_matrix.hpp"
#include "util/error.hpp"

using namespace rescue;
using namespace rescue::causal;

namespace {

Eigen::MatrixXd uniform_matrix(Eigen::Index rows, Eigen::Index cols, Rng& rng) {
  return rescue::causal::testing::uniform_matrix(rows, cols, rng, -1.5, 1.5);
}

// A smooth response, one parent's effect much shorter than the other's, plus noise.
Eigen::VectorXd response(const Eigen::MatrixXd& z, double noise, Rng& rng) {
  Eigen::VectorXd y(z.rows());
  for (Eigen::Index i = 0; i < z.rows(); ++i)
    y(i) = 3.0 + 2.0 * std::sin(2.5 * z(i, 0)) + 0.5 * z(i, 1) * z(i, 1) + noise * rng.normal();
  return y;
}

Eigen::MatrixXd gram(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, const Eigen::VectorXd& ell, double sf2) {
  Eigen::MatrixXd k(a.rows(), b.rows());
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < b.rows(); ++j) {
      double d2 = 0.0;
      for (Eigen::Index c = 0; c < a.cols(); ++c) d2 += std::pow((a(i, c) - b(j, c)) / ell(c), 2);
      k(i, j) = sf2 * std::exp(-0.5 * d2);
    }
  return k;
}

// Log evidence of standardized targets, written out from the textbook formula.
double log_evidence(const Eigen::MatrixXd& z, const Eigen::VectorXd& ys, const Eigen::VectorXd& ell, double sf2,
                    double sn2) {
  Eigen::MatrixXd K = gram(z, z, ell, sf2);
  K.diagonal().array() += sn2;
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(K);
  return -0.5 * ys.dot(ldlt.solve(ys)) - 0.5 * ldlt.vectorD().array().log().sum() -
         0.5 * static_cast<double>(z.rows()) * std::log(2.0 * M_PI);
}

// The posterior mean at t of a GP with g's hyperparameters conditioned on
// (z, ys), written out from the textbook formula (standardized units).
Eigen::VectorXd posterior(const GpRegression& g, const Eigen::MatrixXd& z, const Eigen::VectorXd& ys,
                          const Eigen::MatrixXd& t) {
  Eigen::MatrixXd K = gram(z, z, g.lengthscales(), g.signal_variance());
  K.diagonal().array() += g.noise_variance();
  return gram(t, z, g.lengthscales(), g.signal_variance()) * K.ldlt().solve(ys);
}

struct Standardized {
  double mean, sd;
  Eigen::VectorXd y;
};

Standardized standardize(const Eigen::VectorXd& y) {
  const double m = y.mean(), s = std::sqrt((y.array() - m).square().mean());
  return {m, s, ((y.array() - m) / s).matrix()};
}

}  // namespace

TEST(GpRegression, PredictIsThePosteriorMeanOfTheFittedHyperparameters) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    Rng rng(seed);
    const Eigen::MatrixXd z = uniform_matrix(50, 2, rng), t = uniform_matrix(30, 2, rng);
    const Eigen::VectorXd y = response(z, 0.05, rng);
    const GpRegression g = GpRegression::fit(z, y, 300, rng);
    const Standardized s = standardize(y);
    const Eigen::VectorXd brute = posterior(g, z, s.y, t).array() * s.sd + s.mean;
    EXPECT_LT((g.predict(t) - brute).cwiseAbs().maxCoeff(), 1e-6) << "seed " << seed;
    // And it has learned the response: error near the noise level on fresh points.
    Rng clean(seed + 100);
    const Eigen::VectorXd truth = response(t, 0.0, clean);
    EXPECT_LT(std::sqrt((g.predict(t) - truth).squaredNorm() / 30.0), 0.15) << "seed " << seed;
  }
}

TEST(GpRegression, FoldResidualsEqualPredictionsFromTheOtherFolds) {
  Rng rng(7);
  const Eigen::MatrixXd z = uniform_matrix(40, 2, rng);
  const Eigen::VectorXd y = response(z, 0.1, rng);
  const GpRegression g = GpRegression::fit(z, y, 300, rng);
  const Standardized s = standardize(y);
  const int folds = 5;
  std::vector<int> fold(40);
  for (int i = 0; i < 40; ++i) fold[static_cast<std::size_t>(i)] = (i * 3) % folds;
  const Eigen::VectorXd r = g.fold_residuals(fold, folds);
  for (int f = 0; f < folds; ++f) {
    std::vector<int> in, out;
    for (int i = 0; i < 40; ++i) (fold[static_cast<std::size_t>(i)] == f ? out : in).push_back(i);
    Eigen::MatrixXd zi(static_cast<Eigen::Index>(in.size()), 2), zo(static_cast<Eigen::Index>(out.size()), 2);
    Eigen::VectorXd yi(static_cast<Eigen::Index>(in.size()));
    for (std::size_t a = 0; a < in.size(); ++a) zi.row(static_cast<Eigen::Index>(a)) = z.row(in[a]), yi(static_cast<Eigen::Index>(a)) = s.y(in[a]);
    for (std::size_t a = 0; a < out.size(); ++a) zo.row(static_cast<Eigen::Index>(a)) = z.row(out[a]);
    const Eigen::VectorXd pred = posterior(g, zi, yi, zo);
    for (std::size_t a = 0; a < out.size(); ++a)
      EXPECT_NEAR(r(out[a]), y(out[a]) - (pred(static_cast<Eigen::Index>(a)) * s.sd + s.mean), 1e-6) << "row " << out[a];
  }
}

// Each log-hyperparameter moved by +-0.05 (within the bounds) lowers the
// evidence: the search, with its analytic gradient, found a maximum.
TEST(GpRegression, HyperparametersMaximizeTheEvidence) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    Rng rng(seed);
    const Eigen::MatrixXd z = uniform_matrix(60, 2, rng);
    const Eigen::VectorXd y = response(z, 0.1, rng);
    const GpRegression g = GpRegression::fit(z, y, 300, rng);
    const Standardized s = standardize(y);
    Eigen::VectorXd theta(4);
    theta << g.lengthscales().array().log(), std::log(g.signal_variance()), std::log(g.noise_variance());
    const auto at = [&](const Eigen::VectorXd& t) {
      return log_evidence(z, s.y, t.head(2).array().exp(), std::exp(t(2)), std::exp(t(3)));
    };
    const double best = at(theta);
    for (int j = 0; j < 4; ++j)
      for (double step : {-0.05, 0.05}) {
        Eigen::VectorXd t = theta;
        t(j) += step;
        EXPECT_LE(at(t), best + 1e-6) << "seed " << seed << ", parameter " << j << ", step " << step;
      }
  }
}

// Noise-free data: the fit nearly interpolates, far below the error of a
// smooth reading of the same rows.
TEST(GpRegression, NoiseFreeDataAreReproduced) {
  Rng rng(3);
  const Eigen::MatrixXd z = uniform_matrix(120, 2, rng), t = uniform_matrix(200, 2, rng);
  const Eigen::VectorXd y = response(z, 0.0, rng), truth = response(t, 0.0, rng);
  const GpRegression g = GpRegression::fit(z, y, 300, rng);
  EXPECT_LT(g.noise_variance(), 1e-4);
  EXPECT_LT(std::sqrt((g.predict(t) - truth).squaredNorm() / 200.0), 5e-3);
}

// The evidence is searched on a random subset of max_fit_rows rows; the
// posterior uses every row.
TEST(GpRegression, SubsetForTheEvidenceAllRowsForThePosterior) {
  Rng rng(5);
  const Eigen::MatrixXd z = uniform_matrix(200, 2, rng);
  const Eigen::VectorXd y = response(z, 0.05, rng);
  const GpRegression g = GpRegression::fit(z, y, 60, rng);
  const Standardized s = standardize(y);
  const Eigen::MatrixXd t = uniform_matrix(10, 2, rng);
  const Eigen::VectorXd brute = posterior(g, z, s.y, t).array() * s.sd + s.mean;
  EXPECT_LT((g.predict(t) - brute).cwiseAbs().maxCoeff(), 1e-6);
}

// The gradient of the posterior mean against central differences.
TEST(GpRegression, GradientMatchesFiniteDifferences) {
  Rng rng(11);
  const Eigen::MatrixXd z = uniform_matrix(60, 3, rng), t = uniform_matrix(15, 3, rng);
  Eigen::VectorXd y = response(z, 0.05, rng);
  y += 0.7 * z.col(2).array().cos().matrix();
  const GpRegression g = GpRegression::fit(z, y, 300, rng);
  Eigen::MatrixXd grad;
  const Eigen::VectorXd f = g.predict(t, &grad);
  EXPECT_LT((f - g.predict(t)).cwiseAbs().maxCoeff(), 1e-9 * (1.0 + f.cwiseAbs().maxCoeff()));
  const double h = 1e-5;
  for (Eigen::Index j = 0; j < 3; ++j) {
    Eigen::MatrixXd up = t, down = t;
    up.col(j).array() += h;
    down.col(j).array() -= h;
    const Eigen::VectorXd fd = (g.predict(up) - g.predict(down)) / (2 * h);
    EXPECT_LT((grad.col(j) - fd).cwiseAbs().maxCoeff(), 1e-5 * (1.0 + fd.cwiseAbs().maxCoeff())) << "parent " << j;
  }
}

TEST(GpRegression, BadInputIsAnError) {
  Rng rng(1);
  EXPECT_THROW(GpRegression::fit(Eigen::MatrixXd(1, 2), Eigen::VectorXd(1), 300, rng), Error);
  EXPECT_THROW(GpRegression::fit(Eigen::MatrixXd(5, 0), Eigen::VectorXd(5), 300, rng), Error);
  EXPECT_THROW(GpRegression::fit(Eigen::MatrixXd::Zero(5, 2), Eigen::VectorXd(4), 300, rng), Error);
  const Eigen::MatrixXd z = uniform_matrix(20, 2, rng);
  const GpRegression g = GpRegression::fit(z, response(z, 0.1, rng), 300, rng);
  EXPECT_THROW(g.predict(Eigen::MatrixXd(3, 3)), Error);
  EXPECT_THROW(g.fold_residuals(std::vector<int>(19, 0), 2), Error);
}
