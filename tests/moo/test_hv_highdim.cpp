// The kernels for four objectives and more (HV4D+ for m = 4, the 5-D sweep
// on its contributions, the limit-set sweep above), at sizes and shapes the
// small-set tests do not reach: hundreds of points, ties, duplicates,
// dominated and boundary points, against an independent slicing reference
// and against closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "brute_force.hpp"
#include "moo/hypervolume.hpp"

namespace rescue::moo {
namespace {

using test::cube_points;
using test::hv_slicing;
using test::sphere_points;

double rel_tol(double v) { return 1e-10 * std::max(1.0, std::fabs(v)); }

// Sizes the slicing reference handles quickly, above any size-based dispatch.
std::size_t size_for(std::size_t m) { return m == 4 ? 160 : m == 5 ? 60 : 28; }

// A front plus what must not change its hypervolume: exact duplicates,
// dominated copies (some dominated in one objective only), and points on
// or beyond the reference boundary.
std::vector<double> with_clutter(const std::vector<double>& front, std::size_t m,
                                 const std::vector<double>& ref, Rng& rng) {
  const std::size_t n = front.size() / m;
  std::vector<double> out = front;
  for (std::size_t t = 0; t < n / 2 + 1 && n > 0; ++t) {
    const std::size_t i = rng.below(n);
    std::vector<double> q(front.begin() + i * m, front.begin() + i * m + m);
    out.insert(out.end(), q.begin(), q.end());  // duplicate
    const std::size_t j = rng.below(m);
    q[j] += 0.05 * rng.uniform();  // dominated, maybe by this point alone
    if (t % 3 == 0) q[(j + 1) % m] += 0.01;
    out.insert(out.end(), q.begin(), q.end());
    q[rng.below(m)] = t % 2 ? ref[0] : ref[0] + 0.5;  // on or beyond the boundary
    out.insert(out.end(), q.begin(), q.end());
  }
  // Shuffle, so clutter and front interleave in every objective's order.
  const std::size_t total = out.size() / m;
  for (std::size_t i = total; i > 1; --i) {
    const std::size_t r = rng.below(i);
    for (std::size_t j = 0; j < m; ++j) std::swap(out[(i - 1) * m + j], out[r * m + j]);
  }
  return out;
}

TEST(HypervolumeHighDim, MatchesSlicingOnRandomFronts) {
  Rng rng(11);
  for (std::size_t m = 4; m <= 6; ++m) {
    const std::vector<double> ref(m, 1.1);
    for (int trial = 0; trial < 4; ++trial) {
      const std::size_t n = size_for(m);
      std::vector<double> p;
      switch (trial) {
        case 0: p = sphere_points(n, m, rng); break;
        case 1: p = cube_points(n, m, rng); break;  // mostly dominated points
        case 2: {  // a sphere front with a few cube points mixed in
          p = sphere_points(n - n / 4, m, rng);
          const auto c = cube_points(n / 4, m, rng);
          p.insert(p.end(), c.begin(), c.end());
          break;
        }
        default:  // coarse coordinates: ties in every objective
          p.resize(n * m);
          for (double& v : p) v = static_cast<double>(rng.below(9)) / 8.0;
      }
      const double expected = hv_slicing(p, m, ref);
      EXPECT_NEAR(hypervolume(p, m, ref), expected, rel_tol(expected)) << "m=" << m << " trial=" << trial;
    }
  }
}

TEST(HypervolumeHighDim, DuplicatesDominatedAndBoundaryPointsChangeNothing) {
  Rng rng(12);
  for (std::size_t m = 4; m <= 6; ++m) {
    const std::vector<double> ref(m, 1.1);
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{7}, size_for(m)}) {
      const auto front = sphere_points(n, m, rng);
      const auto cluttered = with_clutter(front, m, ref, rng);
      const double hv = hypervolume(front, m, ref);
      EXPECT_NEAR(hypervolume(cluttered, m, ref), hv, rel_tol(hv)) << "m=" << m << " n=" << n;
      const double expected = hv_slicing(cluttered, m, ref);
      EXPECT_NEAR(hv, expected, rel_tol(expected)) << "m=" << m << " n=" << n;
    }
  }
}

TEST(HypervolumeHighDim, EmptyAndSinglePoint) {
  for (std::size_t m = 4; m <= 7; ++m) {
    const std::vector<double> ref(m, 1.0);
    EXPECT_EQ(hypervolume(std::vector<double>{}, m, ref), 0.0);
    std::vector<double> one(m);
    double box = 1.0;
    for (std::size_t j = 0; j < m; ++j) {
      one[j] = 0.1 * static_cast<double>(j);
      box *= 1.0 - one[j];
    }
    EXPECT_NEAR(hypervolume(one, m, ref), box, 1e-14);
  }
}

TEST(HypervolumeHighDim, InvariantToOrder) {
  Rng rng(13);
  for (std::size_t m = 4; m <= 6; ++m) {
    const std::size_t n = m == 4 ? 1500 : m == 5 ? 400 : 60;
    auto p = sphere_points(n, m, rng);
    const auto c = cube_points(n / 5, m, rng);  // some dominated points too
    p.insert(p.end(), c.begin(), c.end());
    const std::size_t total = p.size() / m;
    const std::vector<double> ref(m, 1.1);
    const double hv = hypervolume(p, m, ref);
    for (int trial = 0; trial < 2; ++trial) {
      std::vector<std::size_t> perm(total);
      std::iota(perm.begin(), perm.end(), std::size_t{0});
      for (std::size_t i = total; i > 1; --i) std::swap(perm[i - 1], perm[rng.below(i)]);
      std::vector<double> q;
      for (std::size_t i : perm) q.insert(q.end(), p.begin() + i * m, p.begin() + i * m + m);
      EXPECT_NEAR(hypervolume(q, m, ref), hv, rel_tol(hv)) << "m=" << m;
    }
  }
}

// The m = 5 kernel's own paths: clipped sets below a point's fourth objective
// larger than its small-set sort handles (n = 90 on the sphere), members at a
// point's own fourth-objective height that it dominates (they must leave the
// active set), and clipped members equal to the point in two coordinates
// (slabs that lower the top of its box), above and below it.
TEST(HypervolumeHighDim, FiveObjectiveKernelPaths) {
  Rng rng(14);
  const std::size_t m = 5;
  const std::vector<double> ref(m, 1.1);
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<double> p;
    if (trial == 0) {
      p = sphere_points(90, m, rng);
    } else if (trial == 1) {
      // Few distinct fourth objectives, and dominated copies at the same one.
      p = sphere_points(40, m, rng);
      for (std::size_t i = 0; i < 40; ++i) p[i * m + 3] = 0.1 + 0.25 * static_cast<double>(rng.below(4));
      for (std::size_t t = 0; t < 15; ++t) {
        const std::size_t i = rng.below(40);
        std::vector<double> q(p.begin() + i * m, p.begin() + i * m + m);
        q[rng.below(3)] += 0.02 + 0.1 * rng.uniform();
        if (t % 2 == 0) q[4] += 0.05;
        p.insert(p.end(), q.begin(), q.end());
      }
    } else {
      // Three coarse objectives among continuous ones: many clipped members
      // equal a point in two coordinates.
      p = cube_points(50, m, rng);
      for (std::size_t i = 0; i < 50; ++i)
        for (std::size_t j : {std::size_t{0}, std::size_t{2}, std::size_t{3}})
          p[i * m + j] = 0.2 + 0.3 * static_cast<double>(rng.below(3));
      const auto s = sphere_points(20, m, rng);
      p.insert(p.end(), s.begin(), s.end());
    }
    const double expected = hv_slicing(p, m, ref);
    EXPECT_NEAR(hypervolume(p, m, ref), expected, rel_tol(expected)) << "trial=" << trial;
  }
}

// Members above a point's fourth objective that equal it in two of the first
// three objectives (slabs) become a face of its box in the m = 5 kernel
// rather than members of its clipped set. Coarse first three objectives make
// such members common in every axis, along with the ties around them: clipped
// members sharing the slab's coordinates, members equal to the point in one
// coordinate that cover the slab in the other two, several slabs on one axis
// in turn, and equal fourth objectives. Copies with the fourth and fifth
// objectives swapped, and with every objective reversed, reach such cases in
// other orders.
TEST(HypervolumeHighDim, FiveObjectiveSlabsAboveAPoint) {
  Rng rng(15);
  const std::size_t m = 5;
  const std::vector<double> ref(m, 1.1);
  for (int trial = 0; trial < 12; ++trial) {
    const std::size_t n = 40 + 5 * static_cast<std::size_t>(trial % 4);
    const int levels = 2 + trial % 3;
    std::vector<double> p(n * m);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < 3; ++j) {
        // Mostly a few levels, some continuous values among them.
        p[i * m + j] = rng.below(5) == 0 ? rng.uniform()
                                         : 0.2 + 0.6 * static_cast<double>(rng.below(levels)) /
                                                     static_cast<double>(levels - 1);
      }
      // Fourth and fifth objectives opposed, so members below one come above
      // the other; every sixth point repeats the fourth of an earlier one.
      const double t = rng.uniform();
      p[i * m + 3] = (i % 6 == 5) ? p[(i / 2) * m + 3] : t;
      p[i * m + 4] = 1.0 - t + 0.05 * rng.uniform();
    }
    const double expected = hv_slicing(p, m, ref);
    EXPECT_NEAR(hypervolume(p, m, ref), expected, rel_tol(expected)) << "trial=" << trial;
    if (trial % 3 == 0) {
      std::vector<double> swapped = p;
      for (std::size_t i = 0; i < n; ++i) std::swap(swapped[i * m + 3], swapped[i * m + 4]);
      EXPECT_NEAR(hypervolume(swapped, m, ref), hv_slicing(swapped, m, ref), rel_tol(expected))
          << "trial=" << trial << " swapped";
      std::vector<double> flipped = p;  // the levels in reverse order
      const std::vector<double> ref2(m, 1.0);
      for (double& v : flipped) v = 1.0 - v / 1.1;
      const double e2 = hv_slicing(flipped, m, ref2);
      EXPECT_NEAR(hypervolume(flipped, m, ref2), e2, rel_tol(e2)) << "trial=" << trial << " flipped";
    }
  }
}

// The 2-D front {(i, k-1-i)} with reference (k, k) has hypervolume
// k(k+1)/2, and the front of all pairs of points of fronts A and B (the
// Cartesian product) dominates exactly the product of their regions, so its
// hypervolume is HV(A) * HV(B). Large sets with known hypervolume, heavy ties.
std::vector<double> product(const std::vector<double>& a, std::size_t ma,
                            const std::vector<double>& b, std::size_t mb) {
  std::vector<double> out;
  for (std::size_t i = 0; i < a.size() / ma; ++i)
    for (std::size_t j = 0; j < b.size() / mb; ++j) {
      out.insert(out.end(), a.begin() + i * ma, a.begin() + i * ma + ma);
      out.insert(out.end(), b.begin() + j * mb, b.begin() + j * mb + mb);
    }
  return out;
}

std::vector<double> line_front(int k) {
  std::vector<double> f;
  for (int i = 0; i < k; ++i) {
    f.push_back(i);
    f.push_back(k - 1 - i);
  }
  return f;
}

TEST(HypervolumeHighDim, ProductOfFrontsClosedForm) {
  auto hv2 = [](double k) { return k * (k + 1) / 2; };
  // m = 4: 40 x 35 points.
  const auto f4 = product(line_front(40), 2, line_front(35), 2);
  EXPECT_NEAR(hypervolume(f4, 4, {40, 40, 35, 35}), hv2(40) * hv2(35), 1e-6);
  // m = 5: 12 x 3-D lattice simplex of side H = 9 (55 points): the simplex
  // {a >= 0, sum a = H} with reference (H, H, H) has HV H^3 - C(H+2, 3).
  std::vector<double> simplex;
  const int H = 9;
  for (int a = 0; a <= H; ++a)
    for (int b = 0; a + b <= H; ++b) simplex.insert(simplex.end(), {double(a), double(b), double(H - a - b)});
  const double hv_simplex = H * H * H - (H + 2) * (H + 1) * H / 6.0;
  const auto f5 = product(line_front(12), 2, simplex, 3);
  EXPECT_NEAR(hypervolume(f5, 5, {12, 12, H, H, H}), hv2(12) * hv_simplex, 1e-6);
  // m = 6: 6 x 6 x 5 points.
  const auto f6 = product(product(line_front(6), 2, line_front(6), 2), 4, line_front(5), 2);
  EXPECT_NEAR(hypervolume(f6, 6, {6, 6, 6, 6, 5, 5}), hv2(6) * hv2(6) * hv2(5), 1e-8);
}

}  // namespace
}  // namespace rescue::moo
