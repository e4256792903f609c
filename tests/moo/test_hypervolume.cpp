#include "moo/hypervolume.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numeric>

#include "brute_force.hpp"
#include "util/error.hpp"

namespace rescue::moo {
namespace {

using test::cube_points;
using test::hv_grid;
using test::hv_inclusion_exclusion;
using test::sphere_points;

double rel_tol(double v) { return 1e-10 * std::max(1.0, std::fabs(v)); }

// Coordinates rounded to a coarse grid create ties, duplicates and points on
// the reference boundary.
std::vector<double> coarse_points(std::size_t n, std::size_t m, Rng& rng) {
  std::vector<double> p(n * m);
  for (double& v : p) v = static_cast<double>(rng.below(6)) / 5.0;
  return p;
}

TEST(Hypervolume, MatchesInclusionExclusionOnSmallSets) {
  Rng rng(1);
  for (std::size_t m = 1; m <= 6; ++m) {
    const std::vector<double> ref(m, 1.0);
    for (int trial = 0; trial < 30; ++trial) {
      const std::size_t n = rng.below(11);
      std::vector<double> p;
      switch (trial % 3) {
        case 0: p = cube_points(n, m, rng); break;
        case 1: p = sphere_points(n, m, rng); break;
        default: p = coarse_points(n, m, rng); break;
      }
      const double expected = hv_inclusion_exclusion(p, m, ref);
      EXPECT_NEAR(hypervolume(p, m, ref), expected, rel_tol(expected)) << "m=" << m << " n=" << n;
    }
  }
}

TEST(Hypervolume, MatchesGridDecompositionOnModerateSets) {
  Rng rng(2);
  const std::size_t sizes[] = {0, 0, 300, 60, 22, 12, 8};
  for (std::size_t m = 2; m <= 6; ++m) {
    const std::vector<double> ref(m, 1.1);
    for (int trial = 0; trial < 6; ++trial) {
      const std::size_t n = sizes[m];
      std::vector<double> p;
      switch (trial % 3) {
        case 0: p = cube_points(n, m, rng); break;
        case 1: p = sphere_points(n, m, rng); break;
        default: p = coarse_points(n, m, rng); break;  // ties, duplicates, boundary
      }
      const double expected = hv_grid(p, m, ref);
      EXPECT_NEAR(hypervolume(p, m, ref), expected, rel_tol(expected)) << "m=" << m << " trial=" << trial;
    }
  }
}

// Many points on a coarse lattice: heavy ties in every objective, duplicates
// and boundary points, at sizes where the pruning of the sweeps matters.
TEST(Hypervolume, MatchesGridDecompositionWithHeavyTies) {
  Rng rng(5);
  for (std::size_t m = 2; m <= 6; ++m) {
    const std::vector<double> ref(m, 1.0);
    for (int trial = 0; trial < 4; ++trial) {
      const std::size_t n = trial == 0 ? 300 : 50 + rng.below(250);
      std::vector<double> p(n * m);
      for (double& v : p) v = static_cast<double>(rng.below(7)) / 6.0;
      const double expected = hv_grid(p, m, ref);
      EXPECT_NEAR(hypervolume(p, m, ref), expected, rel_tol(expected)) << "m=" << m << " n=" << n;
    }
  }
}

// An objective constant at 0 with reference 1 leaves the hypervolume of the
// others unchanged, so m-objective results must equal (m-1)-objective ones;
// the sizes reach both five-objective methods (up to 200 points and beyond).
TEST(Hypervolume, ConstantObjectiveReducesDimension) {
  Rng rng(6);
  for (std::size_t m = 3; m <= 6; ++m) {
    for (std::size_t n : {40u, 150u, 260u}) {
      if (m == 6 && n > 40) continue;  // keep the test fast
      const auto p = sphere_points(n, m - 1, rng);
      std::vector<double> lifted;
      for (std::size_t i = 0; i < n; ++i) {
        lifted.insert(lifted.end(), p.begin() + i * (m - 1), p.begin() + (i + 1) * (m - 1));
        lifted.push_back(0.0);
      }
      std::vector<double> ref(m - 1, 1.1);
      const double expected = hypervolume(p, m - 1, ref);
      ref.push_back(1.0);
      EXPECT_NEAR(hypervolume(lifted, m, ref), expected, rel_tol(expected)) << "m=" << m << " n=" << n;
    }
  }
}

TEST(Hypervolume, EdgeCases) {
  for (std::size_t m = 1; m <= 6; ++m) {
    const std::vector<double> ref(m, 2.0);
    EXPECT_EQ(hypervolume(std::vector<double>{}, m, ref), 0.0);
    std::vector<double> one(m, 0.5);
    EXPECT_NEAR(hypervolume(one, m, ref), std::pow(1.5, static_cast<double>(m)), 1e-12);
    // A point on the reference boundary, or beyond it, contributes nothing.
    std::vector<double> boundary = one;
    boundary[m - 1] = 2.0;
    EXPECT_EQ(hypervolume(boundary, m, ref), 0.0);
    std::vector<double> beyond = one;
    beyond[0] = 3.0;
    EXPECT_EQ(hypervolume(beyond, m, ref), 0.0);
    // Duplicates and dominated points change nothing.
    std::vector<double> many = one;
    many.insert(many.end(), one.begin(), one.end());
    std::vector<double> dominated(m, 1.0);
    many.insert(many.end(), dominated.begin(), dominated.end());
    many.insert(many.end(), boundary.begin(), boundary.end());
    EXPECT_NEAR(hypervolume(many, m, ref), std::pow(1.5, static_cast<double>(m)), 1e-12);
  }
}

// Integer lattice points with coordinates summing to H, reference (H, ..., H):
// the uncovered part of the cube is the cells a with sum(a) < H, so
// HV = H^m - C(H + m - 1, m).
TEST(Hypervolume, LatticeSimplexClosedForm) {
  auto binom = [](double a, std::size_t b) {
    double r = 1.0;
    for (std::size_t i = 1; i <= b; ++i) r = r * (a - static_cast<double>(b - i)) / static_cast<double>(i);
    return r;
  };
  const std::size_t H_of[] = {0, 0, 40, 12, 7, 5, 4};
  for (std::size_t m = 2; m <= 6; ++m) {
    const std::size_t H = H_of[m];
    std::vector<double> p;
    std::vector<std::size_t> a(m, 0);
    // Enumerate compositions of H into m parts.
    std::function<void(std::size_t, std::size_t)> rec = [&](std::size_t j, std::size_t left) {
      if (j + 1 == m) {
        a[j] = left;
        for (std::size_t t = 0; t < m; ++t) p.push_back(0.25 * static_cast<double>(a[t]));
        return;
      }
      for (std::size_t v = 0; v <= left; ++v) {
        a[j] = v;
        rec(j + 1, left - v);
      }
    };
    rec(0, H);
    const std::vector<double> ref(m, 0.25 * static_cast<double>(H));
    const double scale = std::pow(0.25, static_cast<double>(m));
    const double expected =
        scale * (std::pow(static_cast<double>(H), static_cast<double>(m)) - binom(static_cast<double>(H + m - 1), m));
    EXPECT_NEAR(hypervolume(p, m, ref), expected, 1e-9) << "m=" << m;
  }
}

// Points on the linear front x + y = 1, spacing h: HV w.r.t. (1, 1) = (1 - h) / 2.
TEST(Hypervolume, LinearFrontClosedForm2d) {
  for (std::size_t n : {2u, 7u, 1000u}) {
    std::vector<double> p;
    const double h = 1.0 / static_cast<double>(n - 1);
    for (std::size_t i = 0; i < n; ++i) {
      p.push_back(static_cast<double>(i) * h);
      p.push_back(1.0 - static_cast<double>(i) * h);
    }
    EXPECT_NEAR(hypervolume(p, 2, {1.0, 1.0}), 0.5 * (1.0 - h), 1e-12);
  }
}

// A dense set on the unit sphere approaches 1 - pi/6 from below (reference 1).
TEST(Hypervolume, SphericalFrontApproachesClosedForm) {
  std::vector<double> p;
  const int k = 120;
  for (int a = 0; a <= k; ++a)
    for (int b = 0; b <= k; ++b) {
      const double th = 0.5 * M_PI * a / k, ph = 0.5 * M_PI * b / k;
      p.push_back(std::sin(th) * std::cos(ph));
      p.push_back(std::sin(th) * std::sin(ph));
      p.push_back(std::cos(th));
    }
  const double hv = hypervolume(p, 3, {1.0, 1.0, 1.0});
  EXPECT_LT(hv, 1.0 - M_PI / 6.0);
  EXPECT_GT(hv, 1.0 - M_PI / 6.0 - 0.01);
}

TEST(Hypervolume, InvariantToOrderAndTranslation) {
  Rng rng(3);
  for (std::size_t m = 2; m <= 5; ++m) {
    const std::size_t n = m <= 3 ? 300 : 80;
    auto p = sphere_points(n, m, rng);
    std::vector<double> ref(m, 1.1);
    const double hv = hypervolume(p, m, ref);
    std::vector<std::size_t> perm(n);
    std::iota(perm.begin(), perm.end(), std::size_t{0});
    for (std::size_t i = n; i > 1; --i) std::swap(perm[i - 1], perm[rng.below(i)]);
    std::vector<double> q;
    for (std::size_t i : perm) q.insert(q.end(), p.begin() + i * m, p.begin() + i * m + m);
    EXPECT_NEAR(hypervolume(q, m, ref), hv, rel_tol(hv));
    for (double& v : q) v += 3.0;
    for (double& v : ref) v += 3.0;
    EXPECT_NEAR(hypervolume(q, m, ref), hv, 1e-9);
  }
}

TEST(Hypervolume, ContributionsMatchDifferences) {
  Rng rng(4);
  for (std::size_t m = 2; m <= 6; ++m) {
    const std::vector<double> ref(m, 1.1);
    for (int trial = 0; trial < 10; ++trial) {
      const std::size_t n = m <= 3 ? 50 : 9;
      auto set = trial % 2 ? sphere_points(n, m, rng) : cube_points(n, m, rng);
      auto cand = trial % 3 ? sphere_points(1, m, rng) : cube_points(1, m, rng);
      auto both = set;
      both.insert(both.end(), cand.begin(), cand.end());
      const double hv_set = hypervolume(set, m, ref);
      const double hv_both = hypervolume(both, m, ref);
      const double c = hv_contribution(cand.data(), set.data(), n, m, ref.data());
      EXPECT_NEAR(c, hv_both - hv_set, 1e-10);
      EXPECT_GE(c, 0.0);
    }
  }
  // Into an empty set the contribution is the box; a dominated point adds nothing.
  const double ref[] = {1.0, 1.0, 1.0};
  const double p[] = {0.5, 0.5, 0.5}, q[] = {0.6, 0.5, 0.7};
  EXPECT_NEAR(hv_contribution(p, nullptr, 0, 3, ref), 0.125, 1e-15);
  EXPECT_EQ(hv_contribution(q, p, 1, 3, ref), 0.0);
}

TEST(Hypervolume, RejectsBadInput) {
  const double ref[] = {1.0, 1.0};
  const double nan_pt[] = {0.1, NAN};
  EXPECT_THROW(hypervolume(nan_pt, 1, 2, ref), Error);
  EXPECT_THROW(hypervolume(nullptr, 1, 2, ref), Error);
  EXPECT_THROW(hypervolume(nan_pt, 0, 0, ref), Error);
  const double inf_ref[] = {1.0, INFINITY};
  const double ok[] = {0.1, 0.2};
  EXPECT_THROW(hypervolume(ok, 1, 2, inf_ref), Error);
  EXPECT_THROW(hypervolume(ok, 1, 2, nullptr), Error);
  EXPECT_THROW(hypervolume(std::vector<double>{0.1, 0.2, 0.3}, 2, {1.0, 1.0}), Error);
  try {
    hypervolume(nan_pt, 1, 2, ref);
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::NonFinite);
  }
}

}  // namespace
}  // namespace rescue::moo
