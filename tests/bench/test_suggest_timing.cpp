#include <gtest/gtest.h>

#include "bench/suggest_timing.hpp"
#include "util/error.hpp"

namespace rescue::bench {
namespace {

TEST(SuggestTiming, RecordsColdAndWarmSuggestionsPerRepeat) {
  const auto t = time_suggestions({"branin-currin"}, {"random", "hvkg"}, {4, 6}, 2, 1, 0);
  ASSERT_EQ(t.size(), 4u);
  for (const auto& r : t) {
    EXPECT_EQ(r.problem, "branin-currin");
    ASSERT_EQ(r.seconds.size(), 2u);
    ASSERT_EQ(r.warm_seconds.size(), 2u);
    ASSERT_EQ(r.warm_cpu_seconds.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_GE(r.seconds[i], 0.0);
      EXPECT_GE(r.warm_seconds[i], 0.0);
      EXPECT_GE(r.warm_cpu_seconds[i], 0.0);
    }
    EXPECT_GE(r.median, std::min(r.seconds[0], r.seconds[1]));
    EXPECT_LE(r.median, std::max(r.seconds[0], r.seconds[1]));
  }
  EXPECT_EQ(t[0].strategy, "random");
  EXPECT_EQ(t[1].observations, 6);
  EXPECT_EQ(t[2].strategy, "hvkg");
  const std::string md = suggest_timing_markdown(t, "cmd");
  EXPECT_NE(md.find("| branin-currin | hvkg | 6 |"), std::string::npos) << md;
  EXPECT_NE(md.find("warm CPU s"), std::string::npos);
}

// A variant runs as its library strategy with its parameters set on the
// problem: a misspelt parameter or a value outside its domain is refused,
// as is a variant with another causal graph.
TEST(SuggestTiming, VariantsRunTheirStrategyWithTheirParameters) {
  const auto t = time_suggestions({"branin-currin"}, {"hvkg", "hvkg-tiny"}, {6}, 1, 1, 0,
                                  {parse_variant("hvkg-tiny=hvkg:acq.starts=1:acq.refine=0:kg.pool=8")});
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[1].strategy, "hvkg-tiny");
  EXPECT_EQ(t[1].seconds.size(), 1u);
  EXPECT_THROW(time_suggestions({"branin-currin"}, {"bad"}, {6}, 1, 1, 0, {parse_variant("bad=hvkg:kg.pol=8")}),
               Error);
  EXPECT_THROW(time_suggestions({"branin-currin"}, {"bad"}, {6}, 1, 1, 0, {parse_variant("bad=hvkg:kg.pool=1")}),
               Error);
  EXPECT_THROW(time_suggestions({"branin-currin"}, {"wrong"}, {6}, 1, 1, 200, {parse_variant("wrong=rescue:dag=shuffled")}),
               Error);
}

TEST(SuggestTiming, RejectsEmptyOrNegativeSettings) {
  EXPECT_THROW(time_suggestions({"branin-currin"}, {"random"}, {0}, 1, 1, 0), Error);
  EXPECT_THROW(time_suggestions({"branin-currin"}, {"random"}, {3}, 0, 1, 0), Error);
  EXPECT_THROW(time_suggestions({"no-such-problem"}, {"random"}, {3}, 1, 1, 0), Error);
}

}  // namespace
}  // namespace rescue::bench
