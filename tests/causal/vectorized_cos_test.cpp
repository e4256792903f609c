#include <gtest/gtest.h>

#include <cmath>

#include "causal/vectorized_cos.hpp"
#include "util/rng.hpp"

using namespace rescue;

TEST(VectorizedCos, MatchesStdCos) {
  Rng rng(1);
  for (double range : {1.0, 10.0, 1e3, 1e6}) {
    Eigen::VectorXd x(10000);
    for (Eigen::Index i = 0; i < x.size(); ++i) x(i) = rng.uniform(-range, range);
    Eigen::VectorXd c = x;
    causal::cos_in_place(c.data(), c.size());
    double err = 0.0;
    for (Eigen::Index i = 0; i < x.size(); ++i) err = std::max(err, std::abs(c(i) - std::cos(x(i))));
    EXPECT_LT(err, 1e-13 + range * 1e-15) << "range " << range;
  }
  double edge[5] = {0.0, M_PI, -M_PI, 2 * M_PI, 0.5 * M_PI};
  causal::cos_in_place(edge, 5);
  EXPECT_NEAR(edge[0], 1.0, 1e-15);
  EXPECT_NEAR(edge[1], -1.0, 1e-15);
  EXPECT_NEAR(edge[2], -1.0, 1e-15);
  EXPECT_NEAR(edge[3], 1.0, 1e-15);
  EXPECT_NEAR(edge[4], 0.0, 1e-15);
}

// Whichever build of the loop the CPU gets (AVX2 or the baseline), the values
// are the bits of the scalar formula: the Monte Carlo estimates, and with them
// every run, do not depend on the machine.
TEST(VectorizedCos, SameBitsAsTheScalarFormula) {
  Rng rng(2);
  Eigen::VectorXd x(4099);  // not a multiple of any vector width: the tail runs too
  for (Eigen::Index i = 0; i < x.size(); ++i) x(i) = rng.uniform(-50.0, 50.0);
  Eigen::VectorXd c = x;
  causal::cos_in_place(c.data(), c.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    volatile double in = x(i);  // keeps the reference out of any vectorized loop
    ASSERT_EQ(c(i), causal::polynomial_cos(in)) << "x = " << x(i);
  }
}
