// The causal prior of the two problems without indicators, Branin-Currin and
// Park: every output is a smooth function of the options and the fidelity,
// so the prior is as good as the regression of its structural equations. From
// 200 log rows and the learned graph, the GP form of the equations cuts the
// error at the target fidelity by two orders of magnitude or more (measured:
// 250 to 50,000 times on seeds 1 and 2).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "prior_error.hpp"

using namespace rescue;
using namespace rescue::causal;
using rescue::causal::testing::relative_errors;

TEST(SmoothPrior, GpFormSharpensTheLearnedGraphsEstimates) {
  for (const std::string name : {"branin-currin", "park"}) {
    const auto problem = problems::make_problem(name);
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      const std::vector<double> without = relative_errors(*problem, {false, RepairScope::All, true}, seed);
      rescue::causal::testing::Setting with_gp{false, RepairScope::All, true};
      with_gp.kernel = true;
      const std::vector<double> with = relative_errors(*problem, with_gp, seed);
      ASSERT_EQ(with.size(), 2u);
      for (std::size_t k = 0; k < 2; ++k) {
        std::printf("%s seed %llu output %zu: relative error without the GP form %.2e, with %.2e\n", name.c_str(),
                    static_cast<unsigned long long>(seed), k, without[k], with[k]);
        EXPECT_LT(with[k], 0.01 * without[k]) << name << " seed " << seed << " output " << k;
        EXPECT_LT(with[k], 1e-3) << name << " seed " << seed << " output " << k;
      }
    }
  }
}
