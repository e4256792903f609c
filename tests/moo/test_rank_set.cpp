#include "moo/rank_set.hpp"

#include <gtest/gtest.h>

#include <iterator>
#include <set>

#include "util/rng.hpp"

namespace rescue::moo::detail {
namespace {

// Random inserts and erases against std::set, with every predecessor and
// successor query checked, on sizes at and around the word and level edges.
TEST(RankSet, MatchesAnOrderedSet) {
  Rng rng(11);
  for (std::size_t n : {1u, 2u, 63u, 64u, 65u, 130u, 4095u, 4096u, 4097u, 300000u}) {
    RankSet s;
    s.reset(n);
    std::set<std::size_t> ref;
    const std::size_t ops = n < 5000 ? 20 * n + 50 : 40000;
    for (std::size_t op = 0; op < ops; ++op) {
      // Sparse phases and dense ones, so that whole words and summaries empty and refill.
      const std::size_t i = op % 3 == 0 ? rng.below(n) : rng.below(std::min<std::size_t>(n, 200));
      if (rng.below(3) != 0) {
        if (!ref.count(i)) {
          s.insert(i);
          ref.insert(i);
        }
      } else if (ref.count(i)) {
        s.erase(i);
        ref.erase(i);
      }
      const std::size_t q = rng.below(n);
      auto above = ref.upper_bound(q);
      const std::size_t want_succ = above == ref.end() ? RankSet::npos : *above;
      auto at = ref.lower_bound(q);
      const std::size_t want_pred = at == ref.begin() ? RankSet::npos : *std::prev(at);
      ASSERT_EQ(s.succ(q), want_succ) << "n " << n << " query " << q;
      ASSERT_EQ(s.pred(q), want_pred) << "n " << n << " query " << q;
    }
    // Emptied completely, nothing is found from either end.
    for (std::size_t i : ref) s.erase(i);
    EXPECT_EQ(s.pred(n - 1), RankSet::npos);
    EXPECT_EQ(s.succ(0), RankSet::npos);
  }
}

}  // namespace
}  // namespace rescue::moo::detail
