// Progress bar text: the bar, the durations, and the overall fraction.
#include <sstream>

#include <gtest/gtest.h>

#include "bench/progress_bar.hpp"

namespace rb = rescue::bench;

TEST(ProgressBar, RenderAndDurations) {
  EXPECT_EQ(rb::render_bar(0.5, 10), "[#####.....]  50.0%");
  EXPECT_EQ(rb::render_bar(-1.0, 4), "[....]   0.0%");
  EXPECT_EQ(rb::render_bar(2.0, 4), "[####] 100.0%");
  EXPECT_EQ(rb::format_duration(6.2), "6s");
  EXPECT_EQ(rb::format_duration(245), "4m05s");
  EXPECT_EQ(rb::format_duration(3723), "1h02m03s");
}

TEST(ProgressBar, FractionIsTheMeanOverRunsAndNotesArePrinted) {
  std::ostringstream out;
  rb::ProgressBar bar(4, out, false, 1e9);
  bar.update(0, 0.5);
  bar.update(1, 1.5);  // clipped to 1
  EXPECT_DOUBLE_EQ(bar.fraction(), 0.375);
  bar.finish(2, "run 2 done");
  EXPECT_DOUBLE_EQ(bar.fraction(), 0.625);
  EXPECT_NE(out.str().find("run 2 done\n"), std::string::npos);
  bar.update(7, 1.0);  // an unknown run index is ignored
  EXPECT_DOUBLE_EQ(bar.fraction(), 0.625);
}
