// The misleading variants ("-adversarial", "-jump", "-growing", "-reflected",
// "-unrelated"): unchanged at the target fidelity, shifted by the documented
// bias or evaluated at the documented other configuration below it, and
// misleading (a point that is worse at the target looks better below it).
#include <cmath>

#include <gtest/gtest.h>

#include "problems/benchmark_problem.hpp"
#include "problems/misleading_fidelity.hpp"
#include "test_helpers.hpp"

namespace rescue::problems {
namespace {

using testing::close;

const char* const kBases[] = {"branin-currin", "park", "healthcare", "robot-standin"};

double lowest(const ProblemSpec& s) { return s.fidelity().discrete ? s.fidelity().levels.front() : s.fidelity().lower; }

TEST(Misleading, IdenticalAtTheTargetFidelity) {
  for (const char* base : kBases)
  for (const std::string& suffix : misleading_suffixes()) {
    SCOPED_TRACE(suffix);
    auto plain = make_problem(base);
    auto adv = make_problem(std::string(base) + suffix);
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

// The bias's profile over u = unit(s) below the target, by suffix.
double profile(const std::string& suffix, double u) {
  if (u >= 1.0) return 0.0;
  if (suffix == "-adversarial") return 1.0 - u;
  if (suffix == "-jump") return 1.0;
  return u;  // -growing
}

TEST(Misleading, ShiftIsTheDocumentedBias) {
  // shift_m = strength profile(unit(s)) scale_m h(x), h(x) = (1 - mean |u(x) - w|)^2,
  // in the improving direction; indicators and constraints are untouched.
  const std::vector<std::vector<double>> wrong = {
      {1, 1}, {1, 1, 0, 0}, {0.5, 1}, std::vector<double>(25, 0.0)};
  const std::vector<std::vector<double>> scale = {{14, 0.7}, {1.5, 1.5}, {0.3, 10}, {130, 0.3}};
  for (const char* suffix : {"-adversarial", "-jump", "-growing"})
  for (int b = 0; b < 4; ++b) {
    SCOPED_TRACE(suffix);
    ProblemOptions o;
    o.adversarial_bias = 2.5;
    auto plain = make_problem(kBases[b]);
    auto adv = make_problem(std::string(kBases[b]) + suffix, o);
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
        EXPECT_TRUE(close(e.y[m] - a.y[m], sign * 2.5 * profile(suffix, unit) * scale[b][m] * h, 1e-9)) << kBases[b];
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

TEST(Misleading, CheapFidelitiesPointTheWrongWay) {
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
    // The jump misleads at every cheap fidelity; the growing bias of a
    // continuous fidelity just below the target.
    const bool discrete = s.fidelity().discrete;
    const double below = discrete ? s.fidelity().levels[s.fidelity().levels.size() - 2] : 0.99;
    for (const char* suffix : {"-jump", "-growing"}) {
      if (discrete && std::string(suffix) == "-growing") continue;
      auto v = make_problem(std::string(kBases[b]) + suffix);
      EXPECT_TRUE(weakly_dominates(s, v->evaluate(wrong.data(), below).y, v->evaluate(g.data(), below).y))
          << kBases[b] << suffix;
    }
  }
}

// u_i(x') from u(x): reflected 1 - u_i, unrelated T(T(u_{i+1 mod d})) with the tent map T.
std::vector<double> mapped(const ProblemSpec& s, const std::vector<double>& x, bool reflected) {
  const int d = s.dim();
  std::vector<double> out(d);
  auto tent = [](double v) { return 1.0 - std::fabs(2.0 * v - 1.0); };
  for (int i = 0; i < d; ++i) {
    const int j = reflected ? i : (i + 1) % d;
    const auto& oj = s.options()[j];
    const auto& oi = s.options()[i];
    const double u = (x[j] - oj.lower) / (oj.upper - oj.lower);
    const double v = reflected ? 1.0 - u : tent(tent(u));
    out[i] = oi.lower + v * (oi.upper - oi.lower);
  }
  s.snap(out.data());
  return out;
}

TEST(Misleading, InputMapsEvaluateTheProblemElsewhereBelowTheTarget) {
  for (const bool reflected : {true, false})
  for (const char* base : kBases) {
    SCOPED_TRACE(base);
    auto plain = make_problem(base);
    auto v = make_problem(std::string(base) + (reflected ? "-reflected" : "-unrelated"));
    const ProblemSpec& s = plain->spec();
    const FidelitySpec& f = s.fidelity();
    Rng rng(23);
    for (int i = 0; i < 30; ++i) {
      const std::vector<double> x = testing::random_config(s, rng);
      const double fid = f.discrete ? f.levels[rng.below(f.levels.size() - 1)] : rng.uniform(0.0, 0.999);
      const std::vector<double> xm = mapped(s, x, reflected);
      const Evaluation a = plain->evaluate(xm.data(), fid), e = v->evaluate(x.data(), fid);
      for (std::size_t m = 0; m < a.y.size(); ++m) EXPECT_TRUE(close(e.y[m], a.y[m], 1e-9)) << m;
      for (std::size_t q = 0; q < a.g.size(); ++q) EXPECT_TRUE(close(e.g[q], a.g[q], 1e-9)) << q;
      for (std::size_t k = 0; k < a.z.size(); ++k) EXPECT_TRUE(close(e.z[k], a.z[k], 1e-9)) << k;
    }
  }
}

// Reflected, Branin-Currin's best point for f2 (x1 = 0 at the target) looks worst
// below the target and the worst looks best: the optimum has moved.
TEST(Misleading, ReflectionMovesTheOptimum) {
  auto plain = make_problem("branin-currin");
  auto v = make_problem("branin-currin-reflected");
  const double best[2] = {0.0, 0.5}, worst[2] = {1.0, 0.5};
  EXPECT_GT(plain->evaluate(best, 1.0).y[1], plain->evaluate(worst, 1.0).y[1]);
  EXPECT_LT(v->evaluate(best, 0.9).y[1], v->evaluate(worst, 0.9).y[1]);
}

TEST(Misleading, StrengthSetsTheName) {
  ProblemOptions o;
  o.adversarial_bias = 0.5;
  EXPECT_EQ(make_problem("park", o)->name(), "park-adversarial");
  EXPECT_EQ(make_problem("park")->name(), "park");
  EXPECT_EQ(make_problem("park-adversarial")->name(), "park-adversarial");
  EXPECT_EQ(make_problem("park-jump", o)->name(), "park-jump");
  EXPECT_EQ(make_problem("park-unrelated", o)->name(), "park-unrelated");
}

}  // namespace
}  // namespace rescue::problems
