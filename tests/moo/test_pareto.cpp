#include "moo/pareto.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "brute_force.hpp"
#include "moo/dominance.hpp"
#include "util/error.hpp"

namespace rescue::moo {
namespace {

// Constrained domination (Deb et al. 2002, Sec. V), the reference for
// nondominated_sort with violations: a feasible point beats an infeasible one,
// an infeasible point beats another with a larger violation, and two feasible
// points compare by Pareto dominance.
bool constrained_dominates(const double* a, double va, const double* b, double vb, std::size_t m) {
  const bool fa = va <= 0.0, fb = vb <= 0.0;
  if (fa && fb) return dominates(a, b, m);
  if (fa != fb) return fa;
  return va < vb;
}

std::vector<double> tied_points(std::size_t n, std::size_t m, Rng& rng, std::uint64_t levels) {
  std::vector<double> p(n * m);
  for (double& v : p) v = static_cast<double>(rng.below(levels));
  return p;
}

std::vector<std::size_t> brute_filter(const std::vector<double>& p, std::size_t m,
                                      const std::vector<double>* viol) {
  const std::size_t n = p.size() / m;
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < n; ++i) {
    bool dominated = false;
    for (std::size_t k = 0; k < n && !dominated; ++k) {
      if (viol)
        dominated = constrained_dominates(&p[k * m], (*viol)[k], &p[i * m], (*viol)[i], m);
      else
        dominated = dominates(&p[k * m], &p[i * m], m);
    }
    if (!dominated) out.push_back(i);
  }
  return out;
}

TEST(Pareto, FilterMatchesBruteForce) {
  Rng rng(10);
  for (std::size_t m = 1; m <= 6; ++m) {
    for (int trial = 0; trial < 40; ++trial) {
      const std::size_t n = rng.below(120);
      // Few levels give many ties and exact duplicates; continuous values none.
      const auto p = trial % 2 ? tied_points(n, m, rng, 2 + rng.below(6))
                               : test::cube_points(n, m, rng);
      EXPECT_EQ(nondominated_indices(p.data(), n, m), brute_filter(p, m, nullptr))
          << "m=" << m << " n=" << n;
    }
  }
}

TEST(Pareto, DropsDuplicatesOnRequest) {
  const std::vector<double> p = {1, 2, 2, 1, 1, 2, 3, 3, 2, 1, 1, 2};
  EXPECT_EQ(nondominated_indices(p.data(), 6, 2), (std::vector<std::size_t>{0, 1, 2, 4, 5}));
  EXPECT_EQ(nondominated_indices(p.data(), 6, 2, nullptr, false), (std::vector<std::size_t>{0, 1}));
  Rng rng(11);
  for (std::size_t m = 2; m <= 5; ++m) {
    const auto q = tied_points(80, m, rng, 3);
    const auto all = nondominated_indices(q.data(), 80, m);
    const auto unique = nondominated_indices(q.data(), 80, m, nullptr, false);
    // Every kept point is the first copy of its value, and every value is kept once.
    std::vector<std::vector<double>> seen;
    for (std::size_t i : all) {
      std::vector<double> row(q.begin() + i * m, q.begin() + i * m + m);
      if (std::find(seen.begin(), seen.end(), row) == seen.end()) seen.push_back(row);
    }
    ASSERT_EQ(unique.size(), seen.size());
    for (std::size_t i : unique)
      for (std::size_t k = 0; k < i; ++k)
        EXPECT_FALSE(std::equal(q.begin() + k * m, q.begin() + k * m + m, q.begin() + i * m));
  }
}

TEST(Pareto, ConstrainedFilterMatchesBruteForce) {
  Rng rng(12);
  for (std::size_t m = 2; m <= 4; ++m) {
    for (int trial = 0; trial < 40; ++trial) {
      const std::size_t n = 1 + rng.below(60);
      const auto p = tied_points(n, m, rng, 5);
      std::vector<double> v(n);
      const bool any_feasible = trial % 3 != 0;
      for (double& x : v) x = any_feasible && rng.uniform() < 0.5 ? 0.0 : static_cast<double>(1 + rng.below(4));
      EXPECT_EQ(nondominated_indices(p.data(), n, m, v.data()), brute_filter(p, m, &v));
      if (std::count(v.begin(), v.end(), 0.0) > 0) {
        for (std::size_t i : nondominated_indices(p.data(), n, m, v.data())) EXPECT_EQ(v[i], 0.0);
      }
    }
  }
}

// The fronts equal those of the definition: peel off, again and again, the
// points no remaining point dominates (brute force, O(n^3)); on tied points,
// with duplicates, m = 2..5, with and without violations.
TEST(Pareto, NondominatedSortEqualsPeelingByTheDefinition) {
  Rng rng(29);
  for (std::size_t m = 2; m <= 5; ++m)
    for (std::size_t n : {0, 1, 2, 7, 60, 300}) {
      const auto p = tied_points(n, m, rng, m == 2 ? 30 : 5);
      std::vector<double> v(n);
      for (double& x : v) x = rng.uniform() < 0.6 ? 0.0 : std::floor(4.0 * rng.uniform()) / 4.0;
      for (const double* viol : {static_cast<const double*>(nullptr), static_cast<const double*>(v.data())}) {
        auto dom = [&](std::size_t a, std::size_t b) {
          return viol ? constrained_dominates(&p[a * m], v[a], &p[b * m], v[b], m)
                      : dominates(&p[a * m], &p[b * m], m);
        };
        std::vector<std::vector<std::size_t>> expected;
        std::vector<bool> placed(n, false);
        for (std::size_t left = n; left > 0;) {
          std::vector<std::size_t> front;
          for (std::size_t i = 0; i < n; ++i) {
            if (placed[i]) continue;
            bool beaten = false;
            for (std::size_t k = 0; k < n && !beaten; ++k) beaten = !placed[k] && dom(k, i);
            if (!beaten) front.push_back(i);
          }
          for (std::size_t i : front) placed[i] = true;
          left -= front.size();
          expected.push_back(front);
        }
        EXPECT_EQ(nondominated_sort(p.data(), n, m, viol), expected) << "m=" << m << " n=" << n;
      }
    }
}

TEST(Pareto, NondominatedSortIsAConsistentLayering) {
  Rng rng(13);
  for (std::size_t m = 2; m <= 4; ++m) {
    const std::size_t n = 150;
    const auto p = tied_points(n, m, rng, 8);
    std::vector<double> v(n);
    for (double& x : v) x = rng.uniform() < 0.7 ? 0.0 : rng.uniform();
    for (const double* viol : {static_cast<const double*>(nullptr), static_cast<const double*>(v.data())}) {
      const auto fronts = nondominated_sort(p.data(), n, m, viol);
      std::vector<int> rank(n, -1);
      for (std::size_t r = 0; r < fronts.size(); ++r)
        for (std::size_t i : fronts[r]) {
          ASSERT_EQ(rank[i], -1);
          rank[i] = static_cast<int>(r);
        }
      auto dom = [&](std::size_t a, std::size_t b) {
        return viol ? constrained_dominates(&p[a * m], v[a], &p[b * m], v[b], m)
                    : dominates(&p[a * m], &p[b * m], m);
      };
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_GE(rank[i], 0);
        bool beaten_by_previous = rank[i] == 0;
        for (std::size_t k = 0; k < n; ++k) {
          if (dom(k, i)) {
            EXPECT_LT(rank[k], rank[i]);
          }
          if (rank[k] == rank[i] - 1 && dom(k, i)) beaten_by_previous = true;
        }
        EXPECT_TRUE(beaten_by_previous);
      }
      // Front 0 is the filter's answer.
      EXPECT_EQ(fronts[0], nondominated_indices(p.data(), n, m, viol));
    }
  }
}

TEST(Pareto, CrowdingDistanceByHand) {
  // Front of four points on a line; objective ranges are 3 and 6.
  const std::vector<double> p = {0, 6, 1, 4, 2, 2, 3, 0};
  const auto cd = crowding_distance(p.data(), 2, {0, 1, 2, 3});
  EXPECT_TRUE(std::isinf(cd[0]));
  EXPECT_TRUE(std::isinf(cd[3]));
  EXPECT_NEAR(cd[1], 2.0 / 3.0 + 4.0 / 6.0, 1e-15);
  EXPECT_NEAR(cd[2], 2.0 / 3.0 + 4.0 / 6.0, 1e-15);
  const auto two = crowding_distance(p.data(), 2, {1, 2});
  EXPECT_TRUE(std::isinf(two[0]) && std::isinf(two[1]));
  EXPECT_TRUE(crowding_distance(p.data(), 2, {}).empty());
}

TEST(Pareto, RejectsBadInput) {
  const double p[] = {0.0, NAN};
  EXPECT_THROW(nondominated_indices(p, 1, 2), Error);
  EXPECT_THROW(nondominated_indices(nullptr, 3, 2), Error);
  const double q[] = {0.0, 1.0};
  const double bad_v[] = {NAN};
  EXPECT_THROW(nondominated_indices(q, 1, 2, bad_v), Error);
  EXPECT_THROW(nondominated_sort(q, 1, 0), Error);
  EXPECT_TRUE(nondominated_indices(nullptr, 0, 2).empty());
}

}  // namespace
}  // namespace rescue::moo
