// Rounds to reach a regret level (--batch-rounds): the first round at which
// the best regret so far is at or below the level.
#include <vector>

#include <gtest/gtest.h>

#include "bench/batch_rounds.hpp"

namespace rb = rescue::bench;

TEST(RoundsToReach, FirstRoundOfTheBestSoFar) {
  const std::vector<double> curve{-1.0, -1.5, -1.2, -2.1, -1.9};
  EXPECT_EQ(rb::rounds_to_reach(curve, -0.5), 0);
  EXPECT_EQ(rb::rounds_to_reach(curve, -1.5), 1);  // reaching the level exactly counts
  EXPECT_EQ(rb::rounds_to_reach(curve, -1.4), 1);  // later worse rounds do not undo it
  EXPECT_EQ(rb::rounds_to_reach(curve, -2.0), 3);
  EXPECT_EQ(rb::rounds_to_reach(curve, -3.0), -1);
  EXPECT_EQ(rb::rounds_to_reach({}, 0.0), -1);
}
