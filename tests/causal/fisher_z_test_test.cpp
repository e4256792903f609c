#include <gtest/gtest.h>

#include <cmath>

#include "causal/fisher_z_test.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

using namespace rescue;
using namespace rescue::causal;

namespace {

// Partial correlation by brute force: correlate the least-squares residuals of
// i and j on S (with intercept), straight from the raw data.
double brute_partial(const Eigen::MatrixXd& X, int i, int j, const std::vector<int>& s) {
  const Eigen::Index n = X.rows();
  Eigen::MatrixXd A(n, static_cast<Eigen::Index>(s.size()) + 1);
  A.col(0).setOnes();
  for (std::size_t c = 0; c < s.size(); ++c) A.col(static_cast<Eigen::Index>(c) + 1) = X.col(s[c]);
  const Eigen::VectorXd ri = X.col(i) - A * A.colPivHouseholderQr().solve(X.col(i));
  const Eigen::VectorXd rj = X.col(j) - A * A.colPivHouseholderQr().solve(X.col(j));
  return ri.dot(rj) / std::sqrt(ri.squaredNorm() * rj.squaredNorm());
}

double normal_cdf(double z) { return 0.5 * (1.0 + std::erf(z / std::sqrt(2.0))); }

Eigen::MatrixXd correlated_data(int n, int p, Rng& rng) {
  Eigen::MatrixXd L(p, p);
  for (int a = 0; a < p; ++a)
    for (int b = 0; b < p; ++b) L(a, b) = (a == b ? 1.0 : 0.0) + 0.6 * rng.normal() * (a > b ? 1.0 : 0.0);
  Eigen::MatrixXd X(n, p);
  for (int i = 0; i < n; ++i) {
    Eigen::VectorXd e(p);
    for (int a = 0; a < p; ++a) e(a) = rng.normal();
    X.row(i) = (L * e).transpose();
  }
  return X;
}

}  // namespace

TEST(FisherZ, PValuesMatchClosedForm) {
  Rng rng(11);
  for (int rep = 0; rep < 40; ++rep) {
    const int p = 6, n = 30 + static_cast<int>(rng.below(200));
    const Eigen::MatrixXd X = correlated_data(n, p, rng);
    const FisherZTest ci(X);
    const int i = static_cast<int>(rng.below(p));
    int j = static_cast<int>(rng.below(p - 1));
    if (j >= i) ++j;
    std::vector<int> s;
    for (int k = 0; k < p; ++k)
      if (k != i && k != j && rng.uniform() < 0.5) s.push_back(k);
    const auto r = ci.test(i, j, s);
    ASSERT_TRUE(r.informative);
    const double rho = brute_partial(X, i, j, s);
    EXPECT_NEAR(r.partial_correlation, rho, 1e-9);
    const double z = std::sqrt(n - static_cast<double>(s.size()) - 3.0) * 0.5 * std::log((1 + rho) / (1 - rho));
    const double p_closed = 2.0 * (1.0 - normal_cdf(std::abs(z)));
    EXPECT_NEAR(r.p_value, p_closed, 1e-9 + 1e-7 * p_closed);
  }
}

TEST(FisherZ, NullPValuesAreRoughlyUniform) {
  Rng rng(5);
  int below = 0;
  const int reps = 400;
  for (int rep = 0; rep < reps; ++rep) {
    Eigen::MatrixXd X(60, 3);
    for (int a = 0; a < 60; ++a)
      for (int b = 0; b < 3; ++b) X(a, b) = rng.normal();
    X.col(1) += X.col(2);
    X.col(0) += X.col(2);  // 0 and 1 are independent given 2
    if (FisherZTest(X).test(0, 1, {2}).p_value < 0.05) ++below;
  }
  EXPECT_GT(below, 5);   // about 20 expected
  EXPECT_LT(below, 40);
}

TEST(FisherZ, SingularSubMatrices) {
  Rng rng(3);
  Eigen::MatrixXd X(200, 5);
  for (int a = 0; a < 200; ++a)
    for (int b = 0; b < 5; ++b) X(a, b) = rng.normal();
  X.col(1) = X.col(0);                 // duplicated column
  X.col(3) = 2.0 * X.col(0) - X.col(2);  // deterministic indicator
  X.col(4).setConstant(0.7);            // constant column (e.g. a fixed fidelity)
  Eigen::MatrixXd Y = X;
  Y.col(2) += 0.5 * X.col(0);
  const FisherZTest ci(Y);
  // Conditioning on both copies equals conditioning on one.
  const auto one = ci.test(2, 3, {0});
  const auto two = ci.test(2, 3, {0, 1});
  ASSERT_TRUE(one.informative);
  EXPECT_NEAR(one.partial_correlation, two.partial_correlation, 1e-8);
  EXPECT_NEAR(one.p_value, two.p_value, 1e-8);
  // Y3 = 2.5 Y0 - Y2 exactly: given {Y0, Y2} the test is uninformative.
  const auto det = ci.test(3, 1, {0, 2});
  EXPECT_FALSE(det.informative);
  // A constant column is independent of everything.
  const auto c = ci.test(4, 0, {});
  EXPECT_TRUE(c.informative);
  EXPECT_DOUBLE_EQ(c.p_value, 1.0);
  EXPECT_TRUE(ci.is_constant(4));
  // Too few rows for the conditioning set.
  const FisherZTest small(Y.topRows(5));
  EXPECT_FALSE(small.test(0, 2, {1, 3}).informative);
  EXPECT_THROW(fisher_z_p_value(0.1, 5, 2), Error);
}
