// Several runs of one strategy pooled as replicates. Two runs of the same
// strategy on the same seeds differ once rounding parts them (another BLAS
// kernel, a neutral change of the search such as 255 pool points instead of
// 256), and on Branin-Currin and Park the mean area under regret of two such
// runs differs by 0.03 to 0.04, significantly by a paired test over 20 seeds
// (docs/results/README.md). One run per strategy then compares
// draws, not strategies. Averaging each seed's area over a strategy's
// replicates before the paired test compares the strategies, with the
// run-to-run part of the noise divided by the number of replicates.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "bench/statistics.hpp"
#include "bench/summary.hpp"

namespace rescue::bench {

/// A name for the pool and the strategies (as run) whose runs it pools.
struct ReplicateGroup {
  std::string name;
  std::vector<std::string> members;
};

/// Parses "NAME=A,B,..." (one member or more, no member twice). Throws
/// InvalidArgument with the text and the reason otherwise.
ReplicateGroup parse_replicate_group(const std::string& text);

struct PooledStrategy {
  std::string name;
  std::vector<std::string> members;
  std::vector<std::uint64_t> seeds;  ///< the seeds every member has a run for, ascending
  std::vector<double> aur;           ///< per seed, the mean of the members' areas
  double aur_mean = 0.0, aur_sd = 0.0;  ///< over the seeds (sd: of the pooled values)
  std::vector<double> member_means;  ///< each member's mean area over the same seeds
  double member_spread = 0.0;        ///< sample sd of member_means (NaN for one member)
};

struct PooledPair {
  std::string a, b;  ///< a compared against b
  PairedTTest test;  ///< on the pooled areas over the seeds both pools have
};

struct PooledSummary {
  std::string problem;
  std::vector<PooledStrategy> pools;   ///< in the order of the groups
  std::vector<PooledPair> pairs;       ///< every ordered pair with at least two common seeds
  std::vector<std::string> skipped;    ///< groups with a member without runs here, or no common seed
};

/// Pools the areas of `summary`'s strategies by `groups`.
PooledSummary pool_replicates(const ProblemSummary& summary, const std::vector<ReplicateGroup>& groups);

/// The summary's section for pooled replicates (empty for no summaries).
std::string pooled_markdown(const std::vector<PooledSummary>& summaries);

}  // namespace rescue::bench
