#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bench/replicates.hpp"
#include "bench/statistics.hpp"
#include "bench/summary.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

namespace rescue::bench {
namespace {

TEST(Replicates, ParsesGroups) {
  const ReplicateGroup g = parse_replicate_group("hvkg-all=hvkg,hvkg-pool255,hvkg-starts127");
  EXPECT_EQ(g.name, "hvkg-all");
  EXPECT_EQ(g.members, (std::vector<std::string>{"hvkg", "hvkg-pool255", "hvkg-starts127"}));
  EXPECT_EQ(parse_replicate_group("ehvi=ehvi").members, std::vector<std::string>{"ehvi"});

  const std::vector<std::pair<std::string, std::string>> cases = {
      {"hvkg,hvkg2", "expected NAME="},  {"=hvkg,hvkg2", "name is empty"}, {"x=", "empty strategy"},
      {"x=a,,b", "empty strategy"},      {"x=a,b,", "empty strategy"},   {"x=a,b,a", "listed twice"},
  };
  for (const auto& [text, why] : cases) {
    try {
      parse_replicate_group(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument) << text;
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << text << ": " << e.what();
    }
  }
}

StrategyStats stats(const std::string& name, const std::map<std::uint64_t, double>& areas) {
  StrategyStats s;
  s.strategy = name;
  for (const auto& [seed, a] : areas) {
    s.seeds.push_back(seed);
    s.aur.push_back(a);
  }
  return s;
}

// Random areas on overlapping seed sets, pooled, against the averages and
// tests computed here seed by seed.
TEST(Replicates, PoolsSeedBySeedOverTheCommonSeeds) {
  Rng rng(7);
  std::vector<std::map<std::uint64_t, double>> areas(5);
  for (std::uint64_t seed = 1; seed <= 12; ++seed)
    for (std::size_t k = 0; k < areas.size(); ++k)
      // Member k lacks seed k + 1 (members 0 to 2 form pool a, 3 and 4 pool b).
      if (seed != k + 1) areas[k][seed] = -3.0 + 0.3 * rng.normal() + (k >= 3 ? 0.1 : 0.0);
  ProblemSummary summary;
  summary.problem = "p";
  const std::vector<std::string> names = {"a1", "a2", "a3", "b1", "b2"};
  for (std::size_t k = 0; k < names.size(); ++k) summary.strategies.push_back(stats(names[k], areas[k]));
  summary.strategies.push_back(stats("empty", {}));

  const PooledSummary pooled = pool_replicates(
      summary, {{"a", {"a1", "a2", "a3"}}, {"b", {"b1", "b2"}}, {"c", {"a1", "missing"}}, {"d", {"empty"}}});
  EXPECT_EQ(pooled.problem, "p");
  ASSERT_EQ(pooled.pools.size(), 2u);
  EXPECT_EQ(pooled.skipped, (std::vector<std::string>{"c", "d"}));

  const PooledStrategy& a = pooled.pools[0];
  const PooledStrategy& b = pooled.pools[1];
  EXPECT_EQ(a.seeds, (std::vector<std::uint64_t>{4, 5, 6, 7, 8, 9, 10, 11, 12}));
  EXPECT_EQ(b.seeds, (std::vector<std::uint64_t>{1, 2, 3, 6, 7, 8, 9, 10, 11, 12}));
  std::vector<double> mean_a, sum_members(3, 0.0);
  for (std::size_t i = 0; i < a.seeds.size(); ++i) {
    const std::uint64_t seed = a.seeds[i];
    const double avg = (areas[0].at(seed) + areas[1].at(seed) + areas[2].at(seed)) / 3.0;
    EXPECT_NEAR(a.aur[i], avg, 1e-12) << seed;
    mean_a.push_back(avg);
    for (std::size_t k = 0; k < 3; ++k) sum_members[k] += areas[k].at(seed);
  }
  double grand = 0.0;
  for (double v : mean_a) grand += v;
  grand /= static_cast<double>(mean_a.size());
  EXPECT_NEAR(a.aur_mean, grand, 1e-12);
  double ss = 0.0;
  for (double v : mean_a) ss += (v - grand) * (v - grand);
  EXPECT_NEAR(a.aur_sd, std::sqrt(ss / static_cast<double>(mean_a.size() - 1)), 1e-12);
  ASSERT_EQ(a.member_means.size(), 3u);
  double mm = 0.0;
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_NEAR(a.member_means[k], sum_members[k] / 9.0, 1e-12);
    mm += a.member_means[k] / 3.0;
  }
  double spread = 0.0;
  for (double v : a.member_means) spread += (v - mm) * (v - mm) / 2.0;
  EXPECT_NEAR(a.member_spread, std::sqrt(spread), 1e-12);

  // The pairs run over the seeds both pools have (6 to 12), in both orders.
  ASSERT_EQ(pooled.pairs.size(), 2u);
  const PooledPair& ab = pooled.pairs[0];
  EXPECT_EQ(ab.a, "a");
  EXPECT_EQ(ab.b, "b");
  std::vector<double> va, vb;
  for (std::uint64_t seed = 6; seed <= 12; ++seed) {
    va.push_back((areas[0].at(seed) + areas[1].at(seed) + areas[2].at(seed)) / 3.0);
    vb.push_back((areas[3].at(seed) + areas[4].at(seed)) / 2.0);
  }
  const PairedTTest direct = paired_t_test(va, vb);
  EXPECT_EQ(ab.test.n, 7);
  EXPECT_NEAR(ab.test.mean_difference, direct.mean_difference, 1e-12);
  EXPECT_NEAR(ab.test.t, direct.t, 1e-9);
  EXPECT_NEAR(ab.test.p_value, direct.p_value, 1e-12);
  EXPECT_NEAR(pooled.pairs[1].test.t, -direct.t, 1e-9);

  const std::string md = pooled_markdown({pooled});
  EXPECT_NE(md.find("## p, replicates pooled"), std::string::npos) << md;
  EXPECT_NE(md.find("| a | a1, a2, a3 | 9 | "), std::string::npos) << md;
  EXPECT_NE(md.find("| a | b | 7 | "), std::string::npos) << md;
  EXPECT_NE(md.find("Pool `c`"), std::string::npos) << md;
  EXPECT_TRUE(pooled_markdown({}).empty());
}

// A pool of one strategy is that strategy: its areas unchanged, no spread.
TEST(Replicates, APoolOfOneIsTheStrategyItself) {
  ProblemSummary summary;
  summary.problem = "p";
  summary.strategies.push_back(stats("x", {{1, -3.1}, {2, -3.3}, {3, -2.9}}));
  const PooledSummary pooled = pool_replicates(summary, {{"x-pool", {"x"}}});
  ASSERT_EQ(pooled.pools.size(), 1u);
  EXPECT_EQ(pooled.pools[0].aur, (std::vector<double>{-3.1, -3.3, -2.9}));
  EXPECT_TRUE(std::isnan(pooled.pools[0].member_spread));
  EXPECT_TRUE(pooled.pairs.empty());
}

}  // namespace
}  // namespace rescue::bench
