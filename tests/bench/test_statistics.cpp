// Statistics of the benchmark summary against closed forms and tables.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "bench/statistics.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

namespace rb = rescue::bench;

TEST(StudentT, OneDegreeOfFreedomIsCauchy) {
  rescue::Rng rng(3);
  for (int i = 0; i < 200; ++i) {
    const double t = rng.uniform(-50.0, 50.0);
    EXPECT_NEAR(rb::student_t_cdf(t, 1.0), 0.5 + std::atan(t) / M_PI, 1e-13) << t;
  }
}

TEST(StudentT, TwoDegreesOfFreedomClosedForm) {
  rescue::Rng rng(4);
  for (int i = 0; i < 200; ++i) {
    const double t = rng.uniform(-30.0, 30.0);
    EXPECT_NEAR(rb::student_t_cdf(t, 2.0), 0.5 + t / (2.0 * std::sqrt(2.0 + t * t)), 1e-13) << t;
  }
}

TEST(StudentT, ThreeDegreesOfFreedomClosedForm) {
  // F(t) = 1/2 + (1/pi) [ t/(sqrt(3)(1 + t^2/3)) + atan(t/sqrt(3)) ].
  rescue::Rng rng(5);
  for (int i = 0; i < 200; ++i) {
    const double t = rng.uniform(-20.0, 20.0);
    const double r3 = std::sqrt(3.0);
    const double expected = 0.5 + (t / (r3 * (1.0 + t * t / 3.0)) + std::atan(t / r3)) / M_PI;
    EXPECT_NEAR(rb::student_t_cdf(t, 3.0), expected, 1e-13) << t;
  }
}

TEST(StudentT, TabulatedQuantiles) {
  // Two-sided 5% and 1% critical values (standard tables, 6 decimals).
  struct Row {
    double df, t975, t995;
  };
  const Row rows[] = {{5, 2.570582, 4.032143}, {10, 2.228139, 3.169273}, {19, 2.093024, 2.860935},
                      {30, 2.042272, 2.749996}, {100, 1.983972, 2.625891}};
  for (const auto& r : rows) {
    EXPECT_NEAR(rb::student_t_cdf(r.t975, r.df), 0.975, 1e-6) << r.df;
    EXPECT_NEAR(rb::student_t_cdf(r.t995, r.df), 0.995, 1e-6) << r.df;
    EXPECT_NEAR(rb::student_t_cdf(-r.t975, r.df), 0.025, 1e-6) << r.df;
  }
}

TEST(StudentT, LargeDfApproachesNormal) {
  EXPECT_NEAR(rb::student_t_cdf(1.959963984540054, 1e7), 0.975, 1e-6);
  EXPECT_DOUBLE_EQ(rb::student_t_cdf(0.0, 7.0), 0.5);
}

TEST(IncompleteBeta, ClosedForms) {
  rescue::Rng rng(6);
  for (int i = 0; i < 100; ++i) {
    const double x = rng.uniform();
    const double a = rng.uniform(0.2, 5.0);
    EXPECT_NEAR(rb::incomplete_beta(a, 1.0, x), std::pow(x, a), 1e-13);            // I_x(a, 1) = x^a
    EXPECT_NEAR(rb::incomplete_beta(1.0, a, x), 1.0 - std::pow(1.0 - x, a), 1e-13);  // I_x(1, b)
    EXPECT_NEAR(rb::incomplete_beta(2.0, 2.0, x), x * x * (3.0 - 2.0 * x), 1e-13);
  }
  EXPECT_THROW(rb::incomplete_beta(0.0, 1.0, 0.5), rescue::Error);
  EXPECT_THROW(rb::incomplete_beta(1.0, 1.0, 1.5), rescue::Error);
}

TEST(PairedTTest, HandComputedExample) {
  // Differences 1, 2, 3, 4: mean 2.5, sd sqrt(5/3), t = 2.5 / (sd / 2) = 3.872983346,
  // df 3; two-sided p from the closed-form df-3 distribution.
  const std::vector<double> a{3, 5, 7, 9}, b{2, 3, 4, 5};
  const auto r = rb::paired_t_test(a, b);
  const double sd = std::sqrt(5.0 / 3.0);
  EXPECT_EQ(r.n, 4);
  EXPECT_NEAR(r.mean_difference, 2.5, 1e-14);
  EXPECT_NEAR(r.sd_difference, sd, 1e-14);
  EXPECT_NEAR(r.t, 2.5 / (sd / 2.0), 1e-12);
  EXPECT_NEAR(r.cohens_d, 2.5 / sd, 1e-12);
  const double t = r.t, r3 = std::sqrt(3.0);
  const double upper = 0.5 - (t / (r3 * (1.0 + t * t / 3.0)) + std::atan(t / r3)) / M_PI;
  EXPECT_NEAR(r.p_value, 2.0 * upper, 1e-12);
  // Swapping the samples flips t and d, keeps p.
  const auto s = rb::paired_t_test(b, a);
  EXPECT_NEAR(s.t, -r.t, 1e-12);
  EXPECT_NEAR(s.cohens_d, -r.cohens_d, 1e-12);
  EXPECT_NEAR(s.p_value, r.p_value, 1e-14);
}

TEST(PairedTTest, PairingMatters) {
  // A constant shift with large between-pair spread: a paired test sees it clearly.
  std::vector<double> a, b;
  rescue::Rng rng(9);
  for (int i = 0; i < 20; ++i) {
    const double base = rng.uniform(-10.0, 10.0);
    b.push_back(base);
    a.push_back(base - 0.5 + 0.01 * rng.normal());
  }
  const auto r = rb::paired_t_test(a, b);
  EXPECT_LT(r.p_value, 1e-10);
  EXPECT_LT(r.t, 0.0);
}

TEST(PairedTTest, DegenerateAndBadInput) {
  const auto same = rb::paired_t_test({1, 2, 3}, {1, 2, 3});
  EXPECT_EQ(same.t, 0.0);
  EXPECT_EQ(same.p_value, 1.0);
  const auto shift = rb::paired_t_test({2, 3, 4}, {1, 2, 3});
  EXPECT_TRUE(std::isinf(shift.t));
  EXPECT_EQ(shift.p_value, 0.0);
  EXPECT_THROW(rb::paired_t_test({1, 2}, {1}), rescue::Error);
  EXPECT_THROW(rb::paired_t_test({1}, {1}), rescue::Error);
  EXPECT_THROW(rb::paired_t_test({1, NAN}, {1, 2}), rescue::Error);
}

TEST(Descriptive, MeanSdGain) {
  EXPECT_DOUBLE_EQ(rb::mean({1, 2, 3, 4}), 2.5);
  EXPECT_NEAR(rb::sample_sd({2, 4, 4, 4, 5, 5, 7, 9}), std::sqrt(32.0 / 7.0), 1e-14);
  EXPECT_EQ(rb::sample_sd({3}), 0.0);
  EXPECT_THROW(rb::mean({}), rescue::Error);
  // Lower-is-better: a = -3 against b = -2 is a 50% gain.
  EXPECT_DOUBLE_EQ(rb::relative_gain(-3.0, -2.0), 0.5);
  EXPECT_DOUBLE_EQ(rb::relative_gain(1.0, 2.0), 0.5);
  EXPECT_DOUBLE_EQ(rb::relative_gain(-1.0, -2.0), -0.5);
  EXPECT_THROW(rb::relative_gain(1.0, 0.0), rescue::Error);
}
