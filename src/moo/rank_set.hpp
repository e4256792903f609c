// A set of integers in [0, n) with predecessor and successor queries, as a
// tree of 64-bit words: level 0 holds one bit per integer, each higher level one
// bit per non-empty word below it. Every operation touches one word per level,
// O(log_64 n) (three levels up to 262,144 members): the three-dimensional
// hypervolume sweep keeps its staircase here, indexed by x-rank, instead of a
// balanced tree of heap nodes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rescue::moo::detail {

class RankSet {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  /// Empties the set and sizes it for integers in [0, n).
  void reset(std::size_t n) {
    levels_.clear();
    std::size_t words = n;
    do {
      words = (words + 63) / 64;
      levels_.emplace_back(words, 0);
    } while (words > 1);
  }

  void insert(std::size_t i) {
    for (auto& level : levels_) {
      std::uint64_t& w = level[i >> 6];
      const bool was_empty = w == 0;
      w |= std::uint64_t{1} << (i & 63);
      if (!was_empty) return;  // the levels above already mark this word
      i >>= 6;
    }
  }

  void erase(std::size_t i) {
    for (auto& level : levels_) {
      std::uint64_t& w = level[i >> 6];
      w &= ~(std::uint64_t{1} << (i & 63));
      if (w != 0) return;  // the word still has members: the levels above stay
      i >>= 6;
    }
  }

  /// The largest member below i, or npos.
  std::size_t pred(std::size_t i) const {
    std::size_t l = 0;
    for (;; ++l) {
      if (l == levels_.size()) return npos;
      const std::uint64_t below = levels_[l][i >> 6] & ((std::uint64_t{1} << (i & 63)) - 1);
      if (below != 0) {
        i = (i & ~std::size_t{63}) | static_cast<std::size_t>(63 - __builtin_clzll(below));
        break;
      }
      i >>= 6;
    }
    // Down through the highest non-empty word of each level below.
    while (l-- > 0) i = (i << 6) | static_cast<std::size_t>(63 - __builtin_clzll(levels_[l][i]));
    return i;
  }

  /// The smallest member above i, or npos.
  std::size_t succ(std::size_t i) const {
    std::size_t l = 0;
    for (;; ++l) {
      if (l == levels_.size()) return npos;
      const std::size_t b = i & 63;
      const std::uint64_t above = b == 63 ? 0 : levels_[l][i >> 6] & (~std::uint64_t{0} << (b + 1));
      if (above != 0) {
        i = (i & ~std::size_t{63}) | static_cast<std::size_t>(__builtin_ctzll(above));
        break;
      }
      i >>= 6;
    }
    while (l-- > 0) i = (i << 6) | static_cast<std::size_t>(__builtin_ctzll(levels_[l][i]));
    return i;
  }

 private:
  std::vector<std::vector<std::uint64_t>> levels_;
};

}  // namespace rescue::moo::detail
