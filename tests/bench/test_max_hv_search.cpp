// The maximum-hypervolume search on problems whose Pareto front is known in
// closed form (ZDT1-like: f1 = x1, f2 = g (1 - sqrt(x1 / g)), g = 1 + 9 mean(x2..),
// reference (1, 1): maximum hypervolume 2/3), by the grid path (d = 2), the
// NSGA-II path (d = 3), and with a constraint x1 <= 0.5.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "bench/max_hv_search.hpp"
#include "problems/benchmark_problem.hpp"
#include "util/error.hpp"

namespace {

class Zdt1Like : public rescue::problems::BenchmarkProblem {
 public:
  Zdt1Like(int d, bool constrained) : name_("zdt1-like") {
    for (int j = 0; j < d; ++j) spec_.add_option("x" + std::to_string(j + 1), 0.0, 1.0, rescue::OptionKind::Continuous);
    spec_.add_objective("f1", rescue::Sense::Minimize);
    // Maximized in this problem's own sense, to exercise the sign convention.
    spec_.add_objective("neg_f2", rescue::Sense::Maximize);
    if (constrained) spec_.add_constraint("x1_limit", 0.5, rescue::ConstraintSense::LessEqual);
    spec_.set_reference_point({1.0, -1.0});
  }
  const std::string& name() const override { return name_; }
  const rescue::ProblemSpec& spec() const override { return spec_; }
  rescue::problems::Evaluation evaluate(const double* x, double) const override {
    double g = 0.0;
    for (int j = 1; j < spec_.dim(); ++j) g += x[j];
    g = 1.0 + 9.0 * g / std::max(1, spec_.dim() - 1);
    rescue::problems::Evaluation e;
    e.y = {x[0], -g * (1.0 - std::sqrt(x[0] / g))};
    if (spec_.num_constraints() > 0) e.g = {x[0]};
    return e;
  }
  rescue::problems::Evaluation evaluate_noisy(const double* x, double s, rescue::Rng&) const override {
    return evaluate(x, s);
  }
  std::vector<double> sample_observational(rescue::Rng&) const override { return {}; }
  std::vector<std::pair<int, double>> target_fixed_options() const override { return fixed_; }
  std::vector<std::pair<int, double>> fixed_;  // x2.. at 0 is where g is lowest: a sound choice
  std::vector<std::pair<std::string, std::string>> causal_edges() const override {
    std::vector<std::pair<std::string, std::string>> e{{"x1", "f1"}, {"x1", "neg_f2"}};
    for (int j = 1; j < spec_.dim(); ++j) e.emplace_back(spec_.options()[j].name, "neg_f2");
    if (spec_.num_constraints() > 0) e.emplace_back("x1", "x1_limit");
    return e;
  }

 private:
  std::string name_;
  rescue::ProblemSpec spec_;
};

}  // namespace

TEST(MaxHvSearch, GridPathReachesTheKnownMaximum) {
  const Zdt1Like p(2, false);
  auto o = rescue::bench::MaxHvOptions::quick();
  o.refine_levels = 5;
  o.refine_max_points = 20000;
  const auto r = rescue::bench::compute_max_hypervolume(p, o);
  const double truth = 2.0 / 3.0;
  EXPECT_LE(r.value, truth + 1e-12);  // the hypervolume of real points cannot exceed the supremum
  EXPECT_LT(truth - r.value, 1e-4);
  EXPECT_GT(r.evaluations, 129 * 129);
  EXPECT_NE(r.method.find("grid 129^2"), std::string::npos);
}

TEST(MaxHvSearch, NsgaPathReachesTheKnownMaximum) {
  const Zdt1Like p(3, false);
  auto o = rescue::bench::MaxHvOptions::quick();
  o.generations = 150;
  o.refine_levels = 4;
  const auto r = rescue::bench::compute_max_hypervolume(p, o);
  const double truth = 2.0 / 3.0;
  EXPECT_LE(r.value, truth + 1e-12);
  EXPECT_LT(truth - r.value, 1e-3);
  EXPECT_NE(r.method.find("NSGA-II"), std::string::npos);
}

TEST(MaxHvSearch, RespectsConstraints) {
  const Zdt1Like p(2, true);
  auto o = rescue::bench::MaxHvOptions::quick();
  o.refine_levels = 5;
  o.refine_max_points = 20000;
  const auto r = rescue::bench::compute_max_hypervolume(p, o);
  // Only x1 <= 0.5 is feasible: int_0^0.5 sqrt(t) dt + 0.5 sqrt(0.5).
  const double truth = (2.0 / 3.0) * std::pow(0.5, 1.5) + 0.5 * std::sqrt(0.5);
  EXPECT_LE(r.value, truth + 1e-12);
  EXPECT_LT(truth - r.value, 1e-4);
}

TEST(MaxHvSearch, RepeatsTakeTheUnionAndEstimatePrecision) {
  const Zdt1Like p(2, false);
  auto o = rescue::bench::MaxHvOptions::quick();
  o.repeats = 2;
  const auto two = rescue::bench::compute_max_hypervolume(p, o);
  o.repeats = 1;
  const auto one = rescue::bench::compute_max_hypervolume(p, o);
  EXPECT_GE(two.value, one.value);  // the union contains the first search
  EXPECT_GE(two.precision, two.value - one.value);
  EXPECT_NE(two.method.find("union of 2"), std::string::npos);
}

TEST(MaxHvSearch, RejectsBadInput) {
  const Zdt1Like p(2, false);
  auto o = rescue::bench::MaxHvOptions::quick();
  o.repeats = 0;
  EXPECT_THROW(rescue::bench::compute_max_hypervolume(p, o), rescue::Error);
  o = rescue::bench::MaxHvOptions::quick();
  o.grid = 1;
  EXPECT_THROW(rescue::bench::compute_max_hypervolume(p, o), rescue::Error);
}

TEST(MaxHvSearch, HoldsTheProblemsFixedOptions) {
  // d = 4 with x3 and x4 held at 0 (their best value): the search varies x1
  // and x2 only, so it takes the grid path and reaches the maximum.
  Zdt1Like p(4, false);
  p.fixed_ = {{2, 0.0}, {3, 0.0}};
  auto o = rescue::bench::MaxHvOptions::quick();
  o.refine_levels = 5;
  o.refine_max_points = 20000;
  const auto r = rescue::bench::compute_max_hypervolume(p, o);
  EXPECT_NE(r.method.find("2 options held"), std::string::npos);
  EXPECT_NE(r.method.find("grid 129^2"), std::string::npos);
  EXPECT_LE(r.value, 2.0 / 3.0 + 1e-12);
  EXPECT_LT(2.0 / 3.0 - r.value, 1e-4);
  // Held at a poor value, the front is that of g = 1 + 9 * 2 / 3 = 7: lower.
  p.fixed_ = {{2, 1.0}, {3, 1.0}};
  const auto worse = rescue::bench::compute_max_hypervolume(p, o);
  EXPECT_LT(worse.value, r.value - 0.1);
}

TEST(MaxHvSearch, RejectsInvalidFixedOptions) {
  Zdt1Like p(3, false);
  const auto o = rescue::bench::MaxHvOptions::quick();
  p.fixed_ = {{3, 0.0}};  // no such option
  EXPECT_THROW(rescue::bench::compute_max_hypervolume(p, o), rescue::Error);
  p.fixed_ = {{1, 0.0}, {1, 0.5}};  // repeated
  EXPECT_THROW(rescue::bench::compute_max_hypervolume(p, o), rescue::Error);
  p.fixed_ = {{1, 1.5}};  // out of range
  EXPECT_THROW(rescue::bench::compute_max_hypervolume(p, o), rescue::Error);
  p.fixed_ = {{0, 0.0}, {1, 0.0}, {2, 0.0}};  // nothing left to search
  EXPECT_THROW(rescue::bench::compute_max_hypervolume(p, o), rescue::Error);
}

// Given configurations (a benchmark's target evaluations) enter the first
// search's archive: on a grid of the four corners, whose front has no area,
// two points of the true front give exactly their own hypervolume,
// (0.64 - 0.25)(1 - 0.5) + (1 - 0.64)(1 - 0.2) = 0.483.
TEST(MaxHvSearch, GivenConfigurationsJoinTheFirstSearch) {
  const Zdt1Like p(2, false);
  auto o = rescue::bench::MaxHvOptions::quick();
  o.grid = 2;
  o.refine_levels = 0;
  o.seeded_generations = 0;
  o.repeats = 2;
  EXPECT_EQ(rescue::bench::compute_max_hypervolume(p, o).value, 0.0);
  o.start_points = {{0.25, 0.0}, {0.64, 0.0}};
  const auto r = rescue::bench::compute_max_hypervolume(p, o);
  EXPECT_NEAR(r.value, 0.483, 1e-12);
  EXPECT_EQ(r.evaluations, 2 * 4 + 2);  // only the first search evaluates them
  EXPECT_NE(r.method.find("the first starting from 2 given configurations"), std::string::npos) << r.method;
  o.start_points = {{0.25}};
  EXPECT_THROW(rescue::bench::compute_max_hypervolume(p, o), rescue::Error);
}
