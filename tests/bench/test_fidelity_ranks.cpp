#include <gtest/gtest.h>

#include <cmath>

#include "bench/fidelity_ranks.hpp"
#include "core/problem_spec.hpp"
#include "core/sampling.hpp"
#include "problems/benchmark_problem.hpp"
#include "util/error.hpp"
#include "util/rank_correlation.hpp"
#include "util/rng.hpp"

namespace rescue::bench {
namespace {

TEST(FidelityRanks, ComparedFidelitiesHoldTheLevelsOrAGridAndTheTarget) {
  FidelitySpec range;
  range.discrete = false;
  range.lower = 0.1;
  range.upper = 1.0;
  range.target = 0.7;
  EXPECT_EQ(compared_fidelities(range, 4), (std::vector<double>{0.1, 0.4, 0.7, 1.0}));
  range.target = 0.9;
  EXPECT_EQ(compared_fidelities(range, 4), (std::vector<double>{0.1, 0.4, 0.7, 0.9, 1.0}));
  FidelitySpec levels;
  levels.levels = {0.2, 0.5, 1.0};
  levels.lower = 0.2;
  levels.target = 1.0;
  EXPECT_EQ(compared_fidelities(levels, 5), (std::vector<double>{0.2, 0.5, 1.0}));
  EXPECT_THROW(compared_fidelities(range, 1), Error);
}

// The target's own row is 1 for every output, and a row is the correlation of
// the problem's noise-free values with the target's on the same draws.
TEST(FidelityRanks, EachRowIsTheRankCorrelationOfThatFidelityWithTheTarget) {
  const auto problem = problems::make_problem("branin-currin-reflected");
  const FidelityRanks r = fidelity_ranks(*problem, 30, 5, 3);
  ASSERT_EQ(r.fidelities, (std::vector<double>{0.0, 0.5, 1.0}));
  ASSERT_EQ(r.outputs, (std::vector<std::string>{"f1", "f2"}));
  ASSERT_EQ(r.rank.size(), 3u);
  for (double v : r.rank[2]) EXPECT_DOUBLE_EQ(v, 1.0);

  Rng rng(5);
  std::vector<std::vector<double>> x;
  for (int i = 0; i < 30; ++i) x.push_back(sample_configuration(problem->spec(), rng));
  for (std::size_t o = 0; o < 2; ++o) {
    std::vector<double> cheap, target;
    for (const auto& c : x) {
      cheap.push_back(problem->evaluate(c.data(), 0.5).y[o]);
      target.push_back(problem->evaluate(c.data(), 1.0).y[o]);
    }
    EXPECT_DOUBLE_EQ(r.rank[1][o], spearman(cheap, target));
  }
  // Reflected options move the optimum: on the same draws the faithful problem's cheapest fidelity
  // ranks as the target does, the reflected one's does not.
  const FidelityRanks faithful = fidelity_ranks(*problems::make_problem("branin-currin"), 30, 5, 3);
  for (std::size_t o = 0; o < 2; ++o) {
    EXPECT_GT(faithful.rank[0][o], 0.95);
    EXPECT_LT(r.rank[0][o], 0.5);
  }

  const std::string md = fidelity_ranks_markdown({r}, "cmd");
  EXPECT_NE(md.find("## branin-currin-reflected (30 configurations)"), std::string::npos) << md;
  EXPECT_NE(md.find("| 1 (target) | 1.000 | 1.000 |"), std::string::npos) << md;
  EXPECT_THROW(fidelity_ranks(*problem, 2, 5), Error);
}

}  // namespace
}  // namespace rescue::bench
