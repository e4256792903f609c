// The "-adversarial" variants: unchanged at the target fidelity, shifted by the
// documented bias elsewhere, and misleading (a point that is worse at the target
// looks better at the cheapest fidelity).
#include <cmath>

#include <gtest/gtest.h>

#include "problems/benchmark_problem.hpp"
#include "test_helpers.hpp"

namespace rescue::problems {
namespace {

using testing::close;

const char* const kBases[] = {"branin-currin", "park", "healthcare", "robot-standin"};

double lowest(const ProblemSpec& s) { return s.fidelity().discrete ? s.fidelity().levels.front() : s.fidelity().lower; }

TEST(Adversarial, IdenticalAtTheTargetFidelity) {
  for (const char* base : kBases) {
    auto plain = make_problem(base);
    auto adv = make_problem(std::string(base) + "-adversarial");
    Rng rng(21);
    for (int i = 0; i < 30; ++i) {
      const std::vector<double> x = testing::random_config(plain->spec(), rng);
      const Evaluation a = plain->evaluate(x.data(), 1.0), b = adv->evaluate(x.data(), 1.0);
      EXPECT_EQ(a.y, b.y) << base;
      EXPECT_EQ(a.g, b.g) << base;
      EXPECT_EQ(a.z, b.z) << base;
    }
  }
}

TEST(Adversarial, ShiftIsTheDocumentedBias) {
  // shift_m = strength (1 - unit(s)) scale_m h(x), h(x) = (1 - mean |u(x) - w|)^2,
  // in the improving direction; indicators and constraints are untouched.
  const std::vector<std::vector<double>> wrong = {
      {1, 1}, {1, 1, 0, 0}, {0.5, 1}, std::vector<double>(25, 0.0)};
  const std::vector<std::vector<double>> scale = {{14, 0.7}, {1.5, 1.5}, {0.3, 10}, {130, 0.3}};
  for (int b = 0; b < 4; ++b) {
    ProblemOptions o;
    o.adversarial_bias = 2.5;
    auto plain = make_problem(kBases[b]);
    auto adv = make_problem(std::string(kBases[b]) + "-adversarial", o);
    const ProblemSpec& s = plain->spec();
    const FidelitySpec& f = s.fidelity();
    Rng rng(22);
    for (int i = 0; i < 30; ++i) {
      const std::vector<double> x = testing::random_config(s, rng);
      const double fid = f.discrete ? f.levels[rng.below(f.levels.size())] : rng.uniform();
      double dist = 0.0;
      for (int j = 0; j < s.dim(); ++j) {
        const auto& opt = s.options()[j];
        dist += std::fabs((x[j] - opt.lower) / (opt.upper - opt.lower) - wrong[b][j]);
      }
      const double h = (1.0 - dist / s.dim()) * (1.0 - dist / s.dim());
      const double unit = (fid - f.lower) / (f.upper - f.lower);
      const Evaluation a = plain->evaluate(x.data(), fid), e = adv->evaluate(x.data(), fid);
      for (int m = 0; m < 2; ++m) {
        const double sign = s.objectives()[m].sense == Sense::Maximize ? 1.0 : -1.0;
        EXPECT_TRUE(close(e.y[m] - a.y[m], sign * 2.5 * (1.0 - unit) * scale[b][m] * h, 1e-9)) << kBases[b];
      }
      EXPECT_EQ(a.g, e.g);
      EXPECT_EQ(a.z, e.z);
    }
  }
}

// Better-or-equal in every objective, in each objective's own sense.
bool weakly_dominates(const ProblemSpec& s, const std::vector<double>& a, const std::vector<double>& b) {
  for (int m = 0; m < s.num_objectives(); ++m)
    if (s.to_min(m, a[m]) > s.to_min(m, b[m])) return false;
  return true;
}

TEST(Adversarial, CheapestFidelityPointsTheWrongWay) {
  // For each problem: a point `good` that dominates the wrong region at the
  // target, while at the cheapest fidelity the biased wrong region dominates it.
  const std::vector<std::vector<double>> good = {
      {1.0, 0.0}, {0.5, 0.5, 0.5, 0.5}, {25.0, 0.0}, {}};
  for (int b = 0; b < 4; ++b) {
    auto plain = make_problem(kBases[b]);
    auto adv = make_problem(std::string(kBases[b]) + "-adversarial");
    const ProblemSpec& s = plain->spec();
    std::vector<double> wrong(s.dim()), g = good[b];
    for (int j = 0; j < s.dim(); ++j) wrong[j] = s.options()[j].lower;
    if (b == 0) wrong = {1.0, 1.0};
    if (b == 1) wrong = {1.0, 1.0, 0.0, 0.0};
    if (b == 2) wrong = {25.0, 1.0};
    if (b == 3) {  // the middle of the robot's box
      g.resize(s.dim());
      for (int j = 0; j < s.dim(); ++j) g[j] = 0.5 * (s.options()[j].lower + s.options()[j].upper);
      s.snap(g.data());
    }
    EXPECT_TRUE(weakly_dominates(s, plain->evaluate(g.data(), 1.0).y, plain->evaluate(wrong.data(), 1.0).y))
        << kBases[b];
    EXPECT_FALSE(weakly_dominates(s, plain->evaluate(wrong.data(), 1.0).y, plain->evaluate(g.data(), 1.0).y))
        << kBases[b];
    const double lo = lowest(s);
    EXPECT_TRUE(weakly_dominates(s, adv->evaluate(wrong.data(), lo).y, adv->evaluate(g.data(), lo).y))
        << kBases[b];
  }
}

TEST(Adversarial, StrengthSetsTheName) {
  ProblemOptions o;
  o.adversarial_bias = 0.5;
  EXPECT_EQ(make_problem("park", o)->name(), "park-adversarial");
  EXPECT_EQ(make_problem("park")->name(), "park");
  EXPECT_EQ(make_problem("park-adversarial")->name(), "park-adversarial");
}

}  // namespace
}  // namespace rescue::problems
