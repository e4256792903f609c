#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "util/error.hpp"
#include "util/sobol.hpp"

namespace {

// The next n points, row-major n x dim.
std::vector<double> take(rescue::Sobol& sobol, int n) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    const auto p = sobol.next();
    out.insert(out.end(), p.begin(), p.end());
  }
  return out;
}

TEST(Sobol, FirstPointsMatchThePublishedSequence) {
  rescue::Rng rng(1);
  rescue::Sobol sobol(3, false, rng);
  const double expected[10][3] = {{0, 0, 0},           {0.5, 0.5, 0.5},         {0.75, 0.25, 0.25},     {0.25, 0.75, 0.75},
                                  {0.375, 0.375, 0.625}, {0.875, 0.875, 0.125},   {0.625, 0.125, 0.875},  {0.125, 0.625, 0.375},
                                  {0.1875, 0.3125, 0.9375}, {0.6875, 0.8125, 0.4375}};
  for (const auto& e : expected) {
    const auto p = sobol.next();
    for (int j = 0; j < 3; ++j) EXPECT_EQ(p[j], e[j]);
  }
}

// Each one-dimensional projection of the first 2^k points puts exactly one
// point in each interval [i / 2^k, (i + 1) / 2^k); with a digital shift too.
TEST(Sobol, EveryDimensionIsStratified) {
  for (bool shift : {false, true}) {
    rescue::Rng rng(7);
    rescue::Sobol sobol(32, shift, rng);
    const int n = 1024;
    const auto pts = take(sobol, n);
    for (int j = 0; j < 32; ++j) {
      std::set<int> cells;
      for (int i = 0; i < n; ++i) cells.insert(static_cast<int>(pts[i * 32 + j] * n));
      EXPECT_EQ(cells.size(), static_cast<size_t>(n)) << "dimension " << j << " shift " << shift;
    }
  }
}

// Two-dimensional projections of a (t, s)-sequence: the first 2^k points fill
// the elementary boxes of area 2^(t-k) evenly. Joe and Kuo chose the direction
// numbers for small t in two-dimensional projections, so an 8 x 8 grid on 1024
// points (16 expected per cell) is close to balanced for every pair.
TEST(Sobol, PairsAreEvenlySpread) {
  rescue::Rng rng(3);
  rescue::Sobol sobol(27, false, rng);
  const int n = 1024;
  const auto pts = take(sobol, n);
  for (auto [a, b] : {std::pair<int, int>{0, 1}, {5, 17}, {20, 26}, {11, 12}}) {
    int counts[8][8] = {};
    for (int i = 0; i < n; ++i) counts[int(pts[i * 27 + a] * 8)][int(pts[i * 27 + b] * 8)]++;
    int lo = n, hi = 0;
    for (auto& row : counts)
      for (int c : row) lo = std::min(lo, c), hi = std::max(hi, c);
    EXPECT_GE(lo, 8) << a << "," << b;
    EXPECT_LE(hi, 24) << a << "," << b;
  }
}

TEST(Sobol, HighDimensionsFallBackToUniformAndRejectBadDim) {
  rescue::Rng rng(5);
  rescue::Sobol sobol(40, true, rng);
  const auto p = sobol.next();
  ASSERT_EQ(p.size(), 40u);
  for (double v : p) {
    EXPECT_GE(v, 0.0);
    EXPECT_LT(v, 1.0);
  }
  EXPECT_THROW(rescue::Sobol(0, false, rng), rescue::Error);
}

}  // namespace
