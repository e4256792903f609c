// Problem-spec geometry and the samplers of the initial design.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "core/sampling.hpp"

namespace {

rescue::ProblemSpec spec3() {
  rescue::ProblemSpec p;
  p.add_option("c", -2.0, 3.0, rescue::OptionKind::Continuous);
  p.add_option("i", 1.0, 4.0, rescue::OptionKind::Integer);
  p.add_option("l", 1e-3, 10.0, rescue::OptionKind::LogScale);
  p.add_objective("f", rescue::Sense::Minimize);
  p.set_fidelity_range(0.0, 1.0, 1.0);
  return p;
}

TEST(ProblemSpec, UnitMappingRoundTripsAndSnaps) {
  const auto p = spec3();
  rescue::Rng rng(1);
  for (int k = 0; k < 100; ++k) {
    auto x = rescue::sample_configuration(p, rng);
    double u[3], back[3];
    p.to_unit(x.data(), u);
    for (double v : u) {
      EXPECT_GE(v, 0.0);
      EXPECT_LE(v, 1.0);
    }
    p.from_unit(u, back);
    EXPECT_NEAR(back[0], x[0], 1e-12);
    EXPECT_EQ(back[1], x[1]);
    EXPECT_NEAR(back[2], x[2], 1e-12 * x[2]);
  }
  const double u_mid[3] = {0.5, 0.5, 0.5};
  double x[3];
  p.from_unit(u_mid, x);
  EXPECT_DOUBLE_EQ(x[0], 0.5);
  EXPECT_EQ(x[1], 3.0);                         // 2.5 rounds to 3 (away from zero)
  EXPECT_NEAR(x[2], std::sqrt(1e-3 * 10.0), 1e-12);  // geometric middle
}

TEST(Sampling, IntegerOptionsAreUniformOverTheirValues) {
  const auto p = spec3();
  rescue::Rng rng(2);
  std::map<double, int> counts;
  const int n = 8000;
  for (int k = 0; k < n; ++k) counts[rescue::sample_configuration(p, rng)[1]]++;
  ASSERT_EQ(counts.size(), 4u);
  for (auto [value, c] : counts) EXPECT_NEAR(c / double(n), 0.25, 0.02) << value;
}

// Level k of L maps to the middle of the k-th of L bins, every u in the bin
// maps back to k, and uniform draws (of configurations or of u) give every
// level the same share.
TEST(ProblemSpec, CategoricalLevelsMapToEqualBins) {
  rescue::ProblemSpec p;
  p.add_option("x", 0.0, 1.0, rescue::OptionKind::Continuous);
  p.add_categorical("c", {"a", "b", "c", "d", "e"});
  EXPECT_EQ(p.categorical_levels(), (std::vector<int>{0, 5}));
  EXPECT_TRUE(p.has_categorical());
  EXPECT_EQ(p.options()[1].lower, 0.0);
  EXPECT_EQ(p.options()[1].upper, 4.0);
  for (int k = 0; k < 5; ++k) {
    const double x[2] = {0.5, double(k)};
    double u[2], back[2];
    p.to_unit(x, u);
    EXPECT_DOUBLE_EQ(u[1], (k + 0.5) / 5.0);
    for (double t : {k / 5.0, (k + 0.999) / 5.0}) {
      const double w[2] = {0.5, t};
      p.from_unit(w, back);
      EXPECT_EQ(back[1], double(k)) << t;
    }
  }
  const double ends[2] = {0.5, 1.0};
  double back[2];
  p.from_unit(ends, back);
  EXPECT_EQ(back[1], 4.0);
  double snapped[2] = {0.5, 2.6};
  p.snap(snapped);
  EXPECT_EQ(snapped[1], 3.0);
  std::map<int, int> from_unit, sampled;
  rescue::Rng rng(2);
  for (int i = 0; i < 5000; ++i) {
    const double w[2] = {rng.uniform(), rng.uniform()};
    p.from_unit(w, back);
    ++from_unit[static_cast<int>(back[1])];
    ++sampled[static_cast<int>(rescue::sample_configuration(p, rng)[1])];
  }
  for (const auto* counts : {&from_unit, &sampled}) {
    ASSERT_EQ(counts->size(), 5u);
    for (const auto& [level, n] : *counts) {
      EXPECT_GE(level, 0);
      EXPECT_LE(level, 4);
      EXPECT_NEAR(n, 1000, 120);  // about 4 standard deviations
    }
  }
  const double fractional[2] = {0.5, 1.5};
  try {
    p.check_config(fractional);
    ADD_FAILURE() << "a fractional level was accepted";
  } catch (const rescue::Error& e) {
    EXPECT_EQ(e.status(), rescue::Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("not a level index (an integer from 0 to 4)"), std::string::npos) << e.what();
  }
  // A numeric option cannot be declared categorical without its levels.
  EXPECT_THROW(p.add_option("k", 0.0, 3.0, rescue::OptionKind::Categorical), rescue::Error);
  EXPECT_EQ(p.dim(), 2);
}

TEST(Sampling, FidelityNeverExceedsTheAffordableCost) {
  auto p = spec3();
  rescue::Rng rng(3);
  const double x[3] = {0.0, 2.0, 1.0};
  for (double max_cost : {1.0, 1.5, 10.0, 100.0}) {
    for (int k = 0; k < 2000; ++k) {
      double s;
      ASSERT_TRUE(rescue::sample_fidelity(p, x, rescue::FidelityLaw::InverseCost, max_cost, rng, &s));
      EXPECT_LE(p.cost(x, s), max_cost);
    }
  }
  double s;
  EXPECT_FALSE(rescue::sample_fidelity(p, x, rescue::FidelityLaw::Uniform, 0.5, rng, &s));  // cheapest costs 1
  // Uniform law truncated at exp(4.8 s) <= e^2.4: uniform on [0, 0.5].
  double mean = 0.0;
  for (int k = 0; k < 4000; ++k) {
    ASSERT_TRUE(rescue::sample_fidelity(p, x, rescue::FidelityLaw::Uniform, std::exp(2.4), rng, &s));
    mean += s / 4000;
  }
  EXPECT_NEAR(mean, 0.25, 0.01);
  p.set_fidelity_levels({0.2, 0.5, 1.0}, 1.0);
  for (int k = 0; k < 500; ++k) {
    ASSERT_TRUE(rescue::sample_fidelity(p, x, rescue::FidelityLaw::InverseCost, std::exp(4.8 * 0.5), rng, &s));
    EXPECT_TRUE(s == 0.2 || s == 0.5);
  }
}

TEST(ProblemSpec, RejectedSettersLeaveTheSpecUnchanged) {
  auto p = spec3();
  EXPECT_THROW(p.add_option("c", 0, 1, rescue::OptionKind::Continuous), rescue::Error);
  EXPECT_THROW(p.set_fidelity_levels({0.1, 0.1}, 0.1), rescue::Error);
  EXPECT_EQ(p.dim(), 3);
  EXPECT_FALSE(p.fidelity().discrete);
  EXPECT_THROW(p.set_cost_levels({1.0}), rescue::Error);  // continuous fidelity
  EXPECT_EQ(p.cost_model().kind, rescue::CostKind::Exponential);
}

}  // namespace
