// EHVI against brute-force Monte Carlo of the hypervolume improvement.
#include <gtest/gtest.h>

#include <cmath>

#include "acq/expected_improvement.hpp"
#include "moo/hypervolume.hpp"
#include "util/rng.hpp"

namespace {

using rescue::Rng;

std::vector<double> random_front(Rng& rng, int n) {
  std::vector<double> f;
  for (int i = 0; i < n; ++i) {
    const double t = rng.uniform();
    f.push_back(t + 0.1 * rng.normal());
    f.push_back(1.0 - t + 0.1 * rng.normal());
  }
  return f;
}

TEST(Ehvi2d, MatchesMonteCarloOnRandomCases) {
  Rng rng(42);
  for (int trial = 0; trial < 12; ++trial) {
    const int n = static_cast<int>(rng.below(6));
    const std::vector<double> front = random_front(rng, n);
    const std::vector<double> ref = {1.3, 1.4};
    const double mu[2] = {rng.uniform(-0.2, 1.2), rng.uniform(-0.2, 1.2)};
    const double sd[2] = {rng.uniform(0.01, 0.5), rng.uniform(0.01, 0.5)};
    const double exact = rescue::acq::ehvi_2d(front, ref, mu, sd);
    const int samples = 60000;
    double sum = 0.0, sum2 = 0.0;
    for (int k = 0; k < samples; ++k) {
      const double y[2] = {mu[0] + sd[0] * rng.normal(), mu[1] + sd[1] * rng.normal()};
      const double hvi = rescue::moo::hv_contribution(y, front.data(), front.size() / 2, 2, ref.data());
      sum += hvi;
      sum2 += hvi * hvi;
    }
    const double mean = sum / samples;
    const double se = std::sqrt(std::max(sum2 / samples - mean * mean, 0.0) / samples);
    EXPECT_NEAR(exact, mean, 4.0 * se + 1e-9) << "trial " << trial;
  }
}

TEST(Ehvi2d, DegenerateCasesHaveClosedForms) {
  const std::vector<double> ref = {1.0, 1.0};
  // Zero variance: the plain improvement. Empty front: the box to the reference.
  const double mu[2] = {0.25, 0.5}, zero[2] = {0.0, 0.0};
  EXPECT_NEAR(rescue::acq::ehvi_2d({}, ref, mu, zero), 0.75 * 0.5, 1e-12);
  const std::vector<double> front = {0.5, 0.25};
  // Box [0.25,1]x[0.5,1] minus its overlap with [0.5,1]x[0.25,1] = 0.375 - 0.25.
  EXPECT_NEAR(rescue::acq::ehvi_2d(front, ref, mu, zero), 0.375 - 0.25, 1e-12);
  // A point far beyond the reference adds nothing.
  const double far[2] = {5.0, 5.0}, small[2] = {1e-3, 1e-3};
  EXPECT_NEAR(rescue::acq::ehvi_2d(front, ref, far, small), 0.0, 1e-12);
}

TEST(EhviMc, AgreesWithExactForIndependentObjectivesAndHandlesCorrelation) {
  Rng rng(3);
  const std::vector<double> front = random_front(rng, 4);
  const std::vector<double> ref = {1.3, 1.4};
  Eigen::VectorXd mu(2);
  mu << 0.4, 0.5;
  Eigen::MatrixXd cov(2, 2);
  cov << 0.04, 0.0, 0.0, 0.09;
  const int n = 40000;
  Eigen::MatrixXd base(n, 2);
  for (int i = 0; i < n; ++i) base(i, 0) = rng.normal(), base(i, 1) = rng.normal();
  const double mu2[2] = {0.4, 0.5}, sd2[2] = {0.2, 0.3};
  EXPECT_NEAR(rescue::acq::ehvi_mc(front, 2, ref, mu, cov, base), rescue::acq::ehvi_2d(front, ref, mu2, sd2), 4e-3);
  // Perfect positive correlation along a diagonal: samples mu + t (0.2, 0.3).
  cov << 0.04, 0.06, 0.06, 0.09;
  double brute = 0.0;
  for (int i = 0; i < n; ++i) {
    const double t = base(i, 0);
    const double y[2] = {0.4 + 0.2 * t, 0.5 + 0.3 * t};
    brute += rescue::moo::hv_contribution(y, front.data(), front.size() / 2, 2, ref.data());
  }
  EXPECT_NEAR(rescue::acq::ehvi_mc(front, 2, ref, mu, cov, base), brute / n, 2e-3);
}

}  // namespace
