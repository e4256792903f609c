// parse_number takes a string that is one number and nothing else.
#include <gtest/gtest.h>

#include <cmath>

#include "util/text.hpp"

namespace {

using rescue::parse_number;

TEST(ParseNumber, TakesWholeNumbersOnly) {
  EXPECT_EQ(parse_number("1.5"), 1.5);
  EXPECT_EQ(parse_number("-3e2"), -300.0);
  EXPECT_EQ(parse_number("0"), 0.0);
  EXPECT_EQ(parse_number(rescue::fmt17(0.1)), 0.1);  // what fmt17 writes reads back exactly
  EXPECT_TRUE(std::isinf(*parse_number("inf")));
  EXPECT_TRUE(std::isnan(*parse_number("nan")));
  EXPECT_FALSE(parse_number(""));
  EXPECT_FALSE(parse_number("x"));
  EXPECT_FALSE(parse_number("1.5x"));
  EXPECT_FALSE(parse_number("2 "));
}

}  // namespace
