#include "moo/hv_greedy.hpp"

#include <gtest/gtest.h>

#include "brute_force.hpp"
#include "moo/hv_kernels.hpp"
#include "moo/hypervolume.hpp"
#include "util/error.hpp"

namespace rescue::moo {
namespace {

// Plain greedy: at every step recompute the full hypervolume with each
// remaining candidate and take the best (lowest index on ties).
GreedyHvResult naive_greedy(const std::vector<double>& pool, std::size_t m,
                            const std::vector<double>& ref, std::size_t P,
                            const std::vector<double>& base) {
  GreedyHvResult r;
  std::vector<double> cur = base;
  r.hypervolume = hypervolume(cur, m, ref);
  std::vector<char> used(pool.size() / m, 0);
  for (std::size_t step = 0; step < P; ++step) {
    double best = 0.0;
    std::size_t arg = 0;
    for (std::size_t i = 0; i < used.size(); ++i) {
      if (used[i]) continue;
      auto trial = cur;
      trial.insert(trial.end(), pool.begin() + i * m, pool.begin() + i * m + m);
      const double g = hypervolume(trial, m, ref) - r.hypervolume;
      if (g > best + 1e-12) {
        best = g;
        arg = i;
      }
    }
    if (best <= 1e-12) break;
    used[arg] = 1;
    cur.insert(cur.end(), pool.begin() + arg * m, pool.begin() + arg * m + m);
    r.indices.push_back(arg);
    r.gains.push_back(best);
    r.hypervolume += best;
  }
  return r;
}

TEST(GreedyHv, MatchesPlainGreedy) {
  Rng rng(20);
  for (std::size_t m = 2; m <= 5; ++m) {
    const std::vector<double> ref(m, 1.1);
    for (int trial = 0; trial < 6; ++trial) {
      const std::size_t n = m <= 3 ? 60 : 25;
      const auto pool = trial % 2 ? test::sphere_points(n, m, rng) : test::cube_points(n, m, rng);
      const auto base = trial % 3 == 0 ? std::vector<double>{} : test::sphere_points(5, m, rng);
      const std::size_t P = 1 + rng.below(8);
      const auto got = greedy_hv_selection(pool.data(), n, m, ref.data(), P, base.data(), base.size() / m);
      const auto want = naive_greedy(pool, m, ref, P, base);
      EXPECT_EQ(got.indices, want.indices) << "m=" << m << " trial=" << trial;
      EXPECT_NEAR(got.hypervolume, want.hypervolume, 1e-10);
      ASSERT_EQ(got.gains.size(), want.gains.size());
      for (std::size_t k = 0; k < got.gains.size(); ++k) EXPECT_NEAR(got.gains[k], want.gains[k], 1e-10);
      // The reported hypervolume is that of base + chosen.
      auto all = base;
      for (std::size_t i : got.indices) all.insert(all.end(), pool.begin() + i * m, pool.begin() + i * m + m);
      EXPECT_NEAR(got.hypervolume, hypervolume(all, m, ref), 1e-10);
    }
  }
}

TEST(GreedyHv, WithinOneMinusOneOverEOfBestPair) {
  Rng rng(21);
  const std::size_t m = 3, n = 30;
  const std::vector<double> ref(m, 1.1);
  const auto pool = test::cube_points(n, m, rng);
  double best = 0.0;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b) {
      std::vector<double> s(pool.begin() + a * m, pool.begin() + a * m + m);
      s.insert(s.end(), pool.begin() + b * m, pool.begin() + b * m + m);
      best = std::max(best, hypervolume(s, m, ref));
    }
  const auto got = greedy_hv_selection(pool.data(), n, m, ref.data(), 2);
  EXPECT_EQ(got.indices.size(), 2u);
  EXPECT_LE(got.hypervolume, best + 1e-12);
  EXPECT_GE(got.hypervolume, (1.0 - std::exp(-1.0)) * best);
}

TEST(GreedyHv, StopsWhenNothingAddsVolume) {
  const double ref[] = {1.0, 1.0};
  const double base[] = {0.1, 0.1};
  const double pool[] = {0.2, 0.3, 0.5, 0.5, 1.0, 0.0, 0.1, 0.1};
  const auto r = greedy_hv_selection(pool, 4, 2, ref, 3, base, 1);
  EXPECT_TRUE(r.indices.empty());
  EXPECT_NEAR(r.hypervolume, 0.81, 1e-15);
  const double pool2[] = {0.5, 0.5, 0.5, 0.5, 0.0, 0.6};
  const auto r2 = greedy_hv_selection(pool2, 3, 2, ref, 5);
  EXPECT_EQ(r2.indices, (std::vector<std::size_t>{2, 0}));  // the duplicate adds nothing
  EXPECT_NEAR(r2.hypervolume, 0.25 + 0.5 * 0.4, 1e-15);
  EXPECT_TRUE(greedy_hv_selection(pool2, 3, 2, ref, 0).indices.empty());
  EXPECT_THROW(greedy_hv_selection(nullptr, 3, 2, ref, 1), Error);
}

}  // namespace
}  // namespace rescue::moo

namespace rescue::moo {
namespace {

// The sorted-list contribution used by the greedy selection and the
// four-objective sweep, on sets with ties, duplicates and boundary points.
TEST(SortedListContribution, MatchesHypervolumeDifferences) {
  Rng rng(22);
  for (std::size_t m = 2; m <= 3; ++m) {
    const std::vector<double> ref(m, 1.0);
    for (int trial = 0; trial < 200; ++trial) {
      const std::size_t n = rng.below(25);
      std::vector<double> set(n * m), p(m);
      const bool coarse = trial % 2 == 0;
      for (double& v : set) v = coarse ? static_cast<double>(rng.below(6)) / 5.0 : rng.uniform();
      for (double& v : p) v = coarse ? static_cast<double>(rng.below(5)) / 5.0 : rng.uniform();
      detail::SortedList list;
      list.reset(m);
      for (std::size_t i = 0; i < n; ++i) list.insert(set.data() + i * m);
      std::vector<std::pair<double, double>> stair;
      auto both = set;
      both.insert(both.end(), p.begin(), p.end());
      const double want = test::hv_grid(both, m, ref) - test::hv_grid(set, m, ref);
      EXPECT_NEAR(detail::contribution_sorted(p.data(), list, ref.data(), stair), want, 1e-12)
          << "m=" << m << " trial=" << trial;
    }
  }
}

}  // namespace
}  // namespace rescue::moo
