// C-HVKG's inner selection against a naive greedy and exhaustive search.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "acq/inner_selection.hpp"
#include "moo/hv_greedy.hpp"
#include "moo/hypervolume.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

namespace {

using rescue::Rng;

double combined(const std::vector<std::size_t>& set, const std::vector<double>& gp, const std::vector<double>& ci,
                std::size_t m, const std::vector<double>& ref, double w) {
  std::vector<double> a, b;
  for (std::size_t i : set) {
    a.insert(a.end(), &gp[i * m], &gp[i * m] + m);
    b.insert(b.end(), &ci[i * m], &ci[i * m] + m);
  }
  return rescue::moo::hypervolume(a, m, ref) + w * rescue::moo::hypervolume(b, m, ref);
}

std::vector<double> points(Rng& rng, std::size_t n, std::size_t m) {
  std::vector<double> p(n * m);
  for (double& v : p) v = rng.uniform();
  return p;
}

TEST(GreedyGpCi, EqualsNaiveGreedyAndIsNearTheBestSubset) {
  Rng rng(8);
  for (std::size_t m : {2u, 3u}) {
    for (int trial = 0; trial < 6; ++trial) {
      const std::size_t n = 9, P = 3;
      const auto gp = points(rng, n, m), ci = points(rng, n, m);
      const std::vector<double> ref(m, 1.05);
      const double w = rng.uniform(0.1, 1.0);
      const double lazy = rescue::acq::greedy_gp_ci(gp.data(), ci.data(), n, m, ref.data(), w, P);
      // Naive greedy: recompute every gain every round.
      std::vector<std::size_t> chosen;
      double naive = 0.0;
      for (std::size_t r = 0; r < P; ++r) {
        double best = 0.0;
        std::size_t arg = n;
        for (std::size_t i = 0; i < n; ++i) {
          if (std::find(chosen.begin(), chosen.end(), i) != chosen.end()) continue;
          auto with = chosen;
          with.push_back(i);
          const double g = combined(with, gp, ci, m, ref, w) - naive;
          if (g > best + 1e-15) best = g, arg = i;
        }
        if (arg == n) break;
        chosen.push_back(arg);
        naive += best;
      }
      EXPECT_NEAR(lazy, naive, 1e-12);
      // Exhaustive best subset of size <= P.
      double opt = 0.0;
      std::function<void(std::size_t, std::vector<std::size_t>&)> rec = [&](std::size_t from, std::vector<std::size_t>& s) {
        opt = std::max(opt, combined(s, gp, ci, m, ref, w));
        if (s.size() == P) return;
        for (std::size_t i = from; i < n; ++i) {
          s.push_back(i);
          rec(i + 1, s);
          s.pop_back();
        }
      };
      std::vector<std::size_t> s;
      rec(0, s);
      EXPECT_GE(lazy, (1.0 - 1.0 / std::exp(1.0)) * opt - 1e-12);
      EXPECT_LE(lazy, opt + 1e-12);
    }
  }
}

TEST(GreedyGpCi, WithoutTheCausalTermItIsPlainGreedyHypervolume) {
  Rng rng(2);
  const std::size_t n = 60, m = 2;
  const auto gp = points(rng, n, m), ci = points(rng, n, m);
  const std::vector<double> ref(m, 1.1);
  const double plain = rescue::moo::greedy_hv_selection(gp.data(), n, m, ref.data(), 10).hypervolume;
  EXPECT_NEAR(rescue::acq::greedy_gp_ci(gp.data(), ci.data(), n, m, ref.data(), 0.0, 10), plain, 1e-12);
  // Identical GP and causal values: the objective is (1 + w) times the plain one.
  EXPECT_NEAR(rescue::acq::greedy_gp_ci(gp.data(), gp.data(), n, m, ref.data(), 0.5, 10), 1.5 * plain, 1e-12);
}

TEST(GreedyGpCi, RefusesNonFiniteValues) {
  Rng rng(4);
  const std::size_t n = 12, m = 2;
  auto gp = points(rng, n, m), ci = points(rng, n, m);
  std::vector<double> ref(m, 1.1);
  const auto status_of = [&] {
    try {
      rescue::acq::greedy_gp_ci(gp.data(), ci.data(), n, m, ref.data(), 0.5, 4);
    } catch (const rescue::Error& e) {
      return e.status();
    }
    return rescue::Status::Ok;
  };
  EXPECT_EQ(status_of(), rescue::Status::Ok);
  ci[7] = std::nan("");
  EXPECT_EQ(status_of(), rescue::Status::NonFinite);
  ci[7] = 0.5;
  gp[n * m - 1] = INFINITY;
  EXPECT_EQ(status_of(), rescue::Status::NonFinite);
  gp[n * m - 1] = 0.5;
  ref[1] = -INFINITY;
  EXPECT_EQ(status_of(), rescue::Status::NonFinite);
}

}  // namespace
