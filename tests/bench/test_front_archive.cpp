// The non-dominated archive against brute force: the same front and the same
// hypervolume as filtering and measuring all points at once.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "bench/front_archive.hpp"
#include "moo/hypervolume.hpp"
#include "moo/pareto.hpp"
#include "util/rng.hpp"

TEST(FrontArchive, MatchesBruteForce) {
  rescue::Rng rng(21);
  for (int rep = 0; rep < 30; ++rep) {
    rescue::bench::FrontArchive archive;
    std::vector<double> pts;
    const int n = 50 + static_cast<int>(rng.below(300));
    for (int i = 0; i < n; ++i) {
      // Coarse values give ties and duplicates.
      const double a = std::round(rng.uniform(0.0, 1.0) * 40) / 40, b = std::round(rng.uniform(0.0, 1.0) * 40) / 40;
      pts.push_back(a);
      pts.push_back(b);
      archive.insert(a, b, {static_cast<double>(i)});
    }
    const auto keep = rescue::moo::nondominated_indices(pts.data(), n, 2, nullptr, false);
    EXPECT_EQ(archive.size(), keep.size());
    const std::vector<double> ref{0.9, 1.1};
    EXPECT_NEAR(archive.hypervolume(ref[0], ref[1]), rescue::moo::hypervolume(pts, 2, ref), 1e-12);
    // Members are non-dominated and carry the configuration they came with.
    for (const auto& m : archive.members()) {
      const int i = static_cast<int>(m.x[0]);
      EXPECT_EQ(pts[2 * i], m.f1);
      EXPECT_EQ(pts[2 * i + 1], m.f2);
    }
  }
}

TEST(FrontArchive, RejectsWeaklyDominated) {
  rescue::bench::FrontArchive a;
  EXPECT_TRUE(a.insert(1, 1, {}));
  EXPECT_FALSE(a.insert(1, 1, {}));
  EXPECT_FALSE(a.insert(2, 1, {}));
  EXPECT_FALSE(a.insert(1, 2, {}));
  EXPECT_TRUE(a.insert(0.5, 0.5, {}));
  EXPECT_EQ(a.size(), 1u);
  EXPECT_DOUBLE_EQ(a.hypervolume(1, 1), 0.25);
  EXPECT_DOUBLE_EQ(a.hypervolume(0.5, 2), 0.0);  // not strictly dominating the reference
}
