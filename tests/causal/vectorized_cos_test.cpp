#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "causal/vectorized_cos.hpp"
#include "util/rng.hpp"

using namespace rescue;

namespace {
// cos of each value through the feature map with no phase and unit scale.
void cos_values(double* x, Eigen::Index n) {
  const double zero = 0.0;
  causal::cos_features_in_place(x, n, 1, &zero, 1.0);
}
}  // namespace

TEST(VectorizedCos, MatchesStdCos) {
  Rng rng(1);
  for (double range : {1.0, 10.0, 1e3, 1e6}) {
    Eigen::VectorXd x(10000);
    for (Eigen::Index i = 0; i < x.size(); ++i) x(i) = rng.uniform(-range, range);
    Eigen::VectorXd c = x;
    cos_values(c.data(), c.size());
    double err = 0.0;
    for (Eigen::Index i = 0; i < x.size(); ++i) err = std::max(err, std::abs(c(i) - std::cos(x(i))));
    EXPECT_LT(err, 1e-13 + range * 1e-15) << "range " << range;
  }
  double edge[5] = {0.0, M_PI, -M_PI, 2 * M_PI, 0.5 * M_PI};
  cos_values(edge, 5);
  EXPECT_NEAR(edge[0], 1.0, 1e-15);
  EXPECT_NEAR(edge[1], -1.0, 1e-15);
  EXPECT_NEAR(edge[2], -1.0, 1e-15);
  EXPECT_NEAR(edge[3], 1.0, 1e-15);
  EXPECT_NEAR(edge[4], 0.0, 1e-15);
}

// Both builds of the loop (AVX2 where the CPU has it, and the baseline) give
// the bits of the scalar formula, so the random features do not depend on the
// CPU; on the std::cos path (an argument past kVectorizedCosLimit) they give
// libm's bits. Off x86-64, or without AVX2, only the baseline is compared.
TEST(VectorizedCos, BothBuildsGiveTheBitsOfTheScalarFormula) {
  using Build = void (*)(double*, Eigen::Index, Eigen::Index, const double*, double);
  std::vector<std::pair<const char*, Build>> builds = {{"baseline", causal::detail::cos_features_baseline}};
  if (causal::detail::cos_features_avx2_available()) builds.emplace_back("avx2", causal::detail::cos_features_avx2);
  const double phase[3] = {0.3, -1.7, 2.9};
  const double scale = 0.37;
  for (bool past_limit : {false, true}) {
    Rng rng(2);
    Eigen::MatrixXd x(1367, 3);  // not a multiple of any vector width: the tails run too
    for (Eigen::Index i = 0; i < x.size(); ++i) x(i) = rng.uniform(-50.0, 50.0);
    if (past_limit) x(700, 1) = 3e12;
    for (const auto& [name, build] : builds) {
      Eigen::MatrixXd c = x;
      build(c.data(), c.rows(), c.cols(), phase, scale);
      for (Eigen::Index j = 0; j < x.cols(); ++j)
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
          volatile double in = x(i, j) + phase[j];  // keeps the reference out of any vectorized loop
          const double want = past_limit ? std::cos(in) * scale : causal::polynomial_cos(in) * scale;
          ASSERT_EQ(c(i, j), want) << name << (past_limit ? " (std::cos path)" : "") << ": x = " << x(i, j);
        }
    }
  }
}

// The map adds each column's phase and scales; past the polynomial's range
// (any argument above kVectorizedCosLimit) the whole block takes std::cos.
TEST(VectorizedCos, FeatureMapAddsThePhasePerColumnAndScales) {
  Rng rng(3);
  for (double range : {3.0, 1e13}) {
    Eigen::MatrixXd a(37, 5);
    for (Eigen::Index i = 0; i < a.size(); ++i) a(i) = rng.uniform(-3.0, 3.0);
    a(5, 2) = range;
    const Eigen::RowVectorXd phase = Eigen::RowVectorXd::LinSpaced(5, 0.1, 6.0);
    Eigen::MatrixXd got = a;
    causal::cos_features_in_place(got.data(), got.rows(), got.cols(), phase.data(), 0.25);
    for (Eigen::Index j = 0; j < a.cols(); ++j)
      for (Eigen::Index i = 0; i < a.rows(); ++i) {
        const double arg = a(i, j) + phase(j);
        EXPECT_NEAR(got(i, j), 0.25 * std::cos(arg), range > 1e12 ? 1e-15 : 1e-13) << i << " " << j;
        if (range > 1e12) {
          EXPECT_EQ(got(i, j), std::cos(arg) * 0.25);
        }
      }
  }
}
