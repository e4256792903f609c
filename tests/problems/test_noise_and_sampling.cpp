// Observation noise (sample standard deviations against the stated ones) and
// the observational samplers (row layout, bounds, determinism).
#include <cmath>

#include <gtest/gtest.h>

#include "problems/benchmark_problem.hpp"
#include "test_helpers.hpp"

namespace rescue::problems {
namespace {

using testing::close;

struct Moments {
  double mean = 0.0, sd = 0.0;
};

template <class F>
Moments moments(int n, F&& draw) {
  double sum = 0.0, sum2 = 0.0;
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) sum += (v[i] = draw());
  const double mean = sum / n;
  for (double x : v) sum2 += (x - mean) * (x - mean);
  return {mean, std::sqrt(sum2 / (n - 1))};
}

constexpr int kDraws = 20000;  // sd estimates within about 0.5% (one standard error)

TEST(Noise, SyntheticProblemsAreNoiseFreeByDefault) {
  for (const char* name : {"branin-currin", "park"}) {
    auto p = make_problem(name);
    Rng rng(2);
    for (int i = 0; i < 20; ++i) {
      const std::vector<double> x = testing::random_config(p->spec(), rng);
      const double s = rng.uniform();
      const Evaluation a = p->evaluate(x.data(), s), b = p->evaluate_noisy(x.data(), s, rng);
      EXPECT_EQ(a.y, b.y) << name;
    }
  }
}

TEST(Noise, SyntheticNoiseWhenEnabled) {
  ProblemOptions o;
  o.synthetic_noise = true;
  o.synthetic_noise_sd = 0.05;
  for (const char* name : {"branin-currin", "park"}) {
    auto p = make_problem(name, o);
    const std::vector<double> x(p->spec().dim(), 0.4);
    const Evaluation clean = p->evaluate(x.data(), 0.7);
    Rng rng(4);
    for (int m = 0; m < 2; ++m) {
      const Moments mo = moments(kDraws, [&] { return p->evaluate_noisy(x.data(), 0.7, rng).y[m]; });
      EXPECT_NEAR(mo.sd, 0.05, 0.05 * 0.03) << name << " objective " << m;
      EXPECT_NEAR(mo.mean, clean.y[m], 4 * 0.05 / std::sqrt(kDraws)) << name;
    }
  }
}

TEST(Noise, HealthcareStatedStandardDeviations) {
  auto p = make_problem("healthcare");
  const double x[2] = {26.0, 0.3};
  const Evaluation clean = p->evaluate(x, 0.6);
  Rng rng(6);
  std::vector<std::vector<double>> cols(3);
  for (int i = 0; i < kDraws; ++i) {
    const Evaluation e = p->evaluate_noisy(x, 0.6, rng);
    cols[0].push_back(e.y[0]);
    cols[1].push_back(e.y[1]);
    cols[2].push_back(e.g[0]);
  }
  const double sds[3] = {0.005, 0.05, 0.005};
  const double means[3] = {clean.y[0], clean.y[1], clean.g[0]};
  for (int c = 0; c < 3; ++c) {
    std::size_t k = 0;
    const Moments mo = moments(kDraws, [&] { return cols[c][k++]; });
    EXPECT_NEAR(mo.sd, sds[c], sds[c] * 0.03) << "column " << c;
    EXPECT_NEAR(mo.mean, means[c], 4 * sds[c] / std::sqrt(kDraws)) << "column " << c;
  }
  // Parameters change the noise.
  ProblemOptions o;
  o.psa_sd = 0.0;
  auto q = make_problem("healthcare", o);
  EXPECT_EQ(q->evaluate_noisy(x, 0.6, rng).y[1], clean.y[1]);
}

TEST(Noise, RobotStatedNoise) {
  auto p = make_problem("robot-standin");
  const ProblemSpec& s = p->spec();
  // Find a configuration whose completion is well inside (0, 1) at the target,
  // so that clipping does not shrink its noise.
  Rng pick(9);
  std::vector<double> x;
  for (int t = 0; t < 1000; ++t) {
    x = testing::random_config(s, pick);
    const double c = p->evaluate(x.data(), 1.0).g[1];
    if (c > 0.3 && c < 0.7) break;
  }
  const Evaluation clean = p->evaluate(x.data(), 1.0);
  ASSERT_GT(clean.g[1], 0.3);
  ASSERT_LT(clean.g[1], 0.7);
  Rng rng(10);
  std::vector<double> time, energy, completion;
  for (int i = 0; i < kDraws; ++i) {
    const Evaluation e = p->evaluate_noisy(x.data(), 1.0, rng);
    EXPECT_EQ(e.g[0], clean.g[0]);  // risk is deterministic
    EXPECT_EQ(e.z, clean.z);        // indicators are noise-free
    time.push_back(e.y[0]);
    energy.push_back(e.y[1]);
    completion.push_back(e.g[1]);
  }
  std::size_t k = 0;
  Moments mo = moments(kDraws, [&] { return time[k++]; });
  EXPECT_NEAR(mo.sd, 0.03 * clean.y[0], 0.03 * clean.y[0] * 0.03);
  k = 0;
  mo = moments(kDraws, [&] { return energy[k++]; });
  EXPECT_NEAR(mo.sd, 0.02, 0.02 * 0.03);
  k = 0;
  mo = moments(kDraws, [&] { return completion[k++]; });
  EXPECT_NEAR(mo.sd, 0.02, 0.02 * 0.03);

  // Near completion 1 the clipped value never leaves [0, 1].
  std::vector<double> z(s.dim());
  for (int i = 0; i < s.dim(); ++i) z[i] = s.options()[i].lower;
  for (int i = 0; i < 2000; ++i) {
    const double c = p->evaluate_noisy(z.data(), 0.5, rng).g[1];
    EXPECT_GE(c, 0.0);
    EXPECT_LE(c, 1.0);
  }
}

TEST(Observational, RowsHaveTheDocumentedLayout) {
  for (const auto& name : problem_names()) {
    auto p = make_problem(name);
    const ProblemSpec& s = p->spec();
    const std::size_t d = s.dim(), k = s.num_indicators(), m = s.num_objectives(), q = s.num_constraints();
    Rng rng(12);
    for (int i = 0; i < 200; ++i) {
      const std::vector<double> row = p->sample_observational(rng);
      ASSERT_EQ(row.size(), d + 1 + k + m + q) << name;
      EXPECT_NO_THROW(s.check_config(row.data())) << name;  // bounds and integrality
      EXPECT_TRUE(s.fidelity().valid(row[d])) << name;
      for (double v : row) EXPECT_TRUE(std::isfinite(v)) << name;
      const Evaluation e = p->evaluate(row.data(), row[d]);
      // Noise-free problems reproduce the evaluation exactly; noisy ones within 6 sd.
      auto expect_near = [&](double got, double want, double tol) {
        EXPECT_LE(std::fabs(got - want), tol) << name;
      };
      const bool robot = name.rfind("robot-standin", 0) == 0, health = name.rfind("healthcare", 0) == 0;
      for (std::size_t j = 0; j < k; ++j)
        expect_near(row[d + 1 + j], e.z[j], health ? 6 * 0.005 : 0.0);
      for (std::size_t j = 0; j < m; ++j) {
        double tol = 0.0;
        if (health) tol = 6 * (j == 0 ? 0.005 : 0.05);
        if (robot) tol = j == 0 ? 6 * 0.03 * std::fabs(e.y[0]) : 6 * 0.02;
        expect_near(row[d + 1 + k + j], e.y[j], tol);
      }
      for (std::size_t j = 0; j < q; ++j) {
        double tol = health ? 6 * 0.005 : 0.0;
        if (robot && j == 1) tol = 6 * 0.02;
        expect_near(row[d + 1 + k + m + j], e.g[j], tol);
      }
    }
  }
}

TEST(Observational, DeterministicForASeedAndCoversTheFidelities) {
  for (const auto& name : problem_names()) {
    auto p = make_problem(name);
    Rng a(77), b(77), c(78);
    bool differs = false;
    for (int i = 0; i < 50; ++i) {
      const std::vector<double> ra = p->sample_observational(a), rb = p->sample_observational(b);
      EXPECT_EQ(ra, rb) << name;
      differs = differs || ra != p->sample_observational(c);
    }
    EXPECT_TRUE(differs) << name;
  }
  // Robot: fidelity uniform among the three levels; continuous: uniform on [0, 1].
  auto robot = make_problem("robot-standin");
  const int d = robot->spec().dim();
  Rng rng(13);
  int counts[3] = {0, 0, 0};
  const int n = 3000;
  for (int i = 0; i < n; ++i) counts[robot->spec().fidelity().level_index(robot->sample_observational(rng)[d])]++;
  for (int c : counts) EXPECT_NEAR(c, n / 3.0, 5 * std::sqrt(n * (1.0 / 3) * (2.0 / 3)));
  auto hc = make_problem("healthcare");
  const Moments mo = moments(n, [&] { return hc->sample_observational(rng)[2]; });
  EXPECT_NEAR(mo.mean, 0.5, 5 * std::sqrt(1.0 / 12 / n));
  EXPECT_NEAR(mo.sd, std::sqrt(1.0 / 12), 0.02);
}

}  // namespace
}  // namespace rescue::problems
