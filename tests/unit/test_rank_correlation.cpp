// Average ranks and Spearman's correlation against their definitions on random
// inputs: ranks by counting, the correlation as the Pearson correlation of those
// ranks, and the closed form 1 - 6 sum d^2 / (n (n^2 - 1)) without ties.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "util/rank_correlation.hpp"

namespace {

using rescue::average_ranks;
using rescue::spearman;

// Rank of v[i]: one plus the values below it plus half of the other values equal to it.
std::vector<double> ranks_by_counting(const std::vector<double>& v) {
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    double below = 0, equal = 0;
    for (double w : v) {
      below += w < v[i];
      equal += w == v[i];
    }
    r[i] = 1.0 + below + 0.5 * (equal - 1.0);
  }
  return r;
}

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
  double ma = 0, mb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) ma += a[i] / a.size(), mb += b[i] / b.size();
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ab += (a[i] - ma) * (b[i] - mb);
    aa += (a[i] - ma) * (a[i] - ma);
    bb += (b[i] - mb) * (b[i] - mb);
  }
  return ab / std::sqrt(aa * bb);
}

TEST(RankCorrelation, RanksAndCorrelationMatchTheirDefinitionsWithTies) {
  std::mt19937 gen(7);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 3 + static_cast<int>(gen() % 40);
    std::uniform_int_distribution<int> level(0, 1 + static_cast<int>(gen() % 8));  // few levels: many ties
    std::vector<double> a(n), b(n);
    for (int i = 0; i < n; ++i) a[i] = level(gen), b[i] = level(gen) + 0.5 * a[i];
    const std::vector<double> ra = ranks_by_counting(a), rb = ranks_by_counting(b);
    const std::vector<double> got = average_ranks(a);
    for (int i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(got[i], ra[i]);
    if (ra == std::vector<double>(n, ra[0]) || rb == std::vector<double>(n, rb[0])) continue;
    EXPECT_NEAR(spearman(a, b), pearson(ra, rb), 1e-12);
  }
}

TEST(RankCorrelation, ClosedFormWithoutTies) {
  std::mt19937 gen(11);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 3 + static_cast<int>(gen() % 60);
    std::vector<double> a(n), b(n);
    for (int i = 0; i < n; ++i) a[i] = normal(gen), b[i] = a[i] + normal(gen);
    const std::vector<double> ra = average_ranks(a), rb = average_ranks(b);
    double d2 = 0;
    for (int i = 0; i < n; ++i) d2 += (ra[i] - rb[i]) * (ra[i] - rb[i]);
    EXPECT_NEAR(spearman(a, b), 1.0 - 6.0 * d2 / (n * (static_cast<double>(n) * n - 1.0)), 1e-12);
  }
}

TEST(RankCorrelation, MonotoneMapsReversalAndNoSpread) {
  const std::vector<double> a = {0.3, -2.0, 5.0, 1.0, 0.0};
  std::vector<double> up, down;
  for (double v : a) up.push_back(std::exp(v)), down.push_back(-v * v * v);
  EXPECT_DOUBLE_EQ(spearman(a, up), 1.0);
  EXPECT_DOUBLE_EQ(spearman(a, down), -1.0);
  EXPECT_TRUE(std::isnan(spearman(a, std::vector<double>(a.size(), 2.0))));
}

}  // namespace
