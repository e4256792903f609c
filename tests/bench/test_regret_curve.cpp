// Regret bookkeeping: log regret with its floor, best so far, and the
// trapezoidal area under regret against hand-computed and brute-force values.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "bench/regret_curve.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

namespace rb = rescue::bench;

TEST(LogRegret, FloorAndValue) {
  EXPECT_DOUBLE_EQ(rb::log10_regret(1.0, 0.9), std::log10(0.1));
  EXPECT_DOUBLE_EQ(rb::log10_regret(1.0, 1.0), -6.0);
  EXPECT_DOUBLE_EQ(rb::log10_regret(1.0, 1.5), -6.0);  // above the stored maximum: at the floor
  EXPECT_THROW(rb::log10_regret(1.0, NAN), rescue::Error);
}

TEST(RunningMin, BestSoFar) {
  EXPECT_EQ(rb::running_min({3, 1, 2, 0, 5}), (std::vector<double>{3, 1, 1, 0, 0}));
  EXPECT_TRUE(rb::running_min({}).empty());
}

TEST(AverageOverCost, HandComputed) {
  // Linear 0 -> 2 over [0, 2], then carried: average over [0, 4] is (2 + 4) / 4.
  EXPECT_NEAR(rb::average_over_cost({0, 2}, {0, 2}, 0, 4), 1.5, 1e-15);
  // Constant before the first point: [0, 1] at 5, then 5 -> 1 over [1, 3].
  EXPECT_NEAR(rb::average_over_cost({1, 3}, {5, 1}, 0, 3), (5.0 + 6.0) / 3.0, 1e-15);
  // Interval cutting inside segments: y = c on [0, 10], average over [2, 6] is 4.
  EXPECT_NEAR(rb::average_over_cost({0, 10}, {0, 10}, 2, 6), 4.0, 1e-14);
  // A vertical jump (two points at one cost) has no area.
  EXPECT_NEAR(rb::average_over_cost({0, 1, 1, 2}, {2, 2, 0, 0}, 0, 2), 1.0, 1e-15);
}

TEST(AverageOverCost, MatchesFineRiemannSum) {
  rescue::Rng rng(11);
  for (int rep = 0; rep < 20; ++rep) {
    std::vector<double> c, v;
    double x = rng.uniform(0.0, 1.0);
    for (int i = 0; i < 15; ++i) {
      x += rng.uniform(0.0, 0.5);
      c.push_back(x);
      v.push_back(rng.uniform(-5.0, 0.0));
    }
    const double from = rng.uniform(0.0, 2.0), to = from + rng.uniform(1.0, 8.0);
    const int n = 200000;
    double s = 0.0;
    for (int i = 0; i < n; ++i) s += rb::value_at_cost(c, v, from + (to - from) * (i + 0.5) / n);
    EXPECT_NEAR(rb::average_over_cost(c, v, from, to), s / n, 1e-6);
  }
}

TEST(AreaUnderRegret, UsesBestSoFarAndCarriesTheLastValue) {
  // Regret worsens at cost 3; the best so far stays at -2 from cost 2 on.
  const std::vector<double> cost{1, 2, 3}, reg{-1, -2, 0};
  // Over [2, 4] (init 2, budget 2) the best is -2 throughout.
  EXPECT_NEAR(rb::area_under_regret(cost, reg, 2.0, 2.0), -2.0, 1e-15);
  // Over [1, 3]: -1 -> -2 linearly on [1, 2], then -2: (-1.5 - 2) / 2.
  EXPECT_NEAR(rb::area_under_regret(cost, reg, 1.0, 2.0), -1.75, 1e-15);
}

TEST(AverageOverCost, BadInput) {
  EXPECT_THROW(rb::average_over_cost({}, {}, 0, 1), rescue::Error);
  EXPECT_THROW(rb::average_over_cost({0, 1}, {0}, 0, 1), rescue::Error);
  EXPECT_THROW(rb::average_over_cost({1, 0}, {0, 0}, 0, 1), rescue::Error);
  EXPECT_THROW(rb::average_over_cost({0, 1}, {0, 0}, 1, 1), rescue::Error);
  EXPECT_THROW(rb::area_under_regret({0, 1}, {0, 0}, 0, 0), rescue::Error);
}
