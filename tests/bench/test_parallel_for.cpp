// parallel_for: every index exactly once, any number of jobs, and the first
// exception reaches the caller after the threads have stopped.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "bench/parallel_for.hpp"

namespace rescue::bench {
namespace {

TEST(ParallelFor, VisitsEveryIndexOnce) {
  for (int jobs : {-1, 0, 1, 2, 3, 8}) {
    for (std::size_t count : {0u, 1u, 2u, 7u, 100u}) {
      std::vector<std::atomic<int>> hits(count);
      parallel_for(count, jobs, [&](std::size_t i) { ++hits[i]; });
      for (std::size_t i = 0; i < count; ++i) EXPECT_EQ(hits[i].load(), 1) << "jobs " << jobs << " count " << count;
    }
  }
}

// Every run but the failing one takes a millisecond, as real runs take far
// longer than an exception takes to reach the stop flag: with instant runs the
// other threads could finish all indices first, and nothing would be skipped.
TEST(ParallelFor, RethrowsTheFirstErrorAndStops) {
  for (int jobs : {1, 3}) {
    std::atomic<int> ran{0};
    EXPECT_THROW(parallel_for(1000, jobs,
                              [&](std::size_t i) {
                                ++ran;
                                if (i == 5) throw std::runtime_error("run 5 failed");
                                std::this_thread::sleep_for(std::chrono::milliseconds(1));
                              }),
                 std::runtime_error);
    EXPECT_LT(ran.load(), 1000);  // the rest was skipped
    if (jobs == 1) {
      EXPECT_EQ(ran.load(), 6);  // one thread stops right at the failure
    }
  }
}

}  // namespace
}  // namespace rescue::bench
