// Multi-fidelity Branin-Currin and Park against the check values of the
// definitions (docs/problems.md), to 1e-12.
#include <gtest/gtest.h>

#include "problems/benchmark_problem.hpp"
#include "problems/branin_currin_mixed.hpp"
#include "problems/max_hypervolume.hpp"
#include "test_helpers.hpp"

namespace rescue::problems {
namespace {

using testing::close;

struct Check {
  std::vector<double> x;
  double s, f1, f2;
};

void expect_checks(const std::string& name, const std::vector<Check>& checks) {
  auto p = make_problem(name);
  for (const Check& c : checks) {
    const Evaluation e = p->evaluate(c.x.data(), c.s);
    ASSERT_EQ(e.y.size(), 2u);
    EXPECT_TRUE(e.g.empty());
    EXPECT_TRUE(e.z.empty());
    EXPECT_TRUE(close(e.y[0], c.f1)) << name << " f1 at s=" << c.s;
    EXPECT_TRUE(close(e.y[1], c.f2)) << name << " f2 at s=" << c.s;
  }
}

TEST(BraninCurrin, CheckValues) {
  expect_checks("branin-currin", {
                                     {{0.5, 0.5}, 1.0, -0.1422711097101031, 0.1523510971786834},
                                     {{0.5, 0.5}, 0.0, -0.08244959423706467, 0.18108182803882295},
                                     {{0.0, 0.0}, 1.0, -13.051322545982119, 0.7333333333333333},
                                     {{1.0, 1.0}, 0.5, -5.6855435800756675, 0.2752814249492236},
                                 });
}

TEST(BraninCurrin, TargetCurrinDependsOnX1Only) {
  auto p = make_problem("branin-currin");
  Rng rng(3);
  for (int i = 0; i < 50; ++i) {
    const double x1 = rng.uniform();
    const double a[2] = {x1, rng.uniform()}, b[2] = {x1, rng.uniform()};
    EXPECT_EQ(p->evaluate(a, 1.0).y[1], p->evaluate(b, 1.0).y[1]);
  }
}

// The original copy is Branin-Currin; every other copy's value is the
// original's at its shifted options, lowered by 0.1 per rank in both
// objectives, so it is dominated there (what makes the stored maximum
// Branin-Currin's).
TEST(BraninCurrinMixed, CopiesAreShiftedAndDominatedOriginals) {
  auto mixed = make_problem("branin-currin-mixed");
  auto plain = make_problem("branin-currin");
  const ProblemSpec& spec = mixed->spec();
  ASSERT_EQ(spec.dim(), 3);
  EXPECT_EQ(spec.options()[2].labels, BraninCurrinMixed::copies());
  EXPECT_EQ(spec.options()[2].labels[BraninCurrinMixed::kOriginal], "original");
  EXPECT_EQ(max_hypervolume("branin-currin-mixed").value, max_hypervolume("branin-currin").value);
  Rng rng(8);
  int strictly = 0;
  for (int i = 0; i < 200; ++i) {
    const double x1 = rng.uniform(), x2 = rng.uniform(), s = rng.uniform();
    const double orig[3] = {x1, x2, double(BraninCurrinMixed::kOriginal)};
    const double bc[2] = {x1, x2};
    const Evaluation o = mixed->evaluate(orig, s), b = plain->evaluate(bc, s);
    EXPECT_EQ(o.y, b.y);
    for (int level = 0; level < 4; ++level) {
      if (level == BraninCurrinMixed::kOriginal) continue;
      const double x[3] = {x1, x2, double(level)};
      const auto u = BraninCurrinMixed::shifted(level, x1, x2);
      EXPECT_TRUE(u[0] != x1 || u[1] != x2) << "copy " << level << " is not shifted";
      const double at[2] = {u[0], u[1]};
      const Evaluation c = mixed->evaluate(x, s), t = plain->evaluate(at, s);
      for (int m = 0; m < 2; ++m) EXPECT_LT(c.y[m], t.y[m] - 0.099);
      strictly += c.y[0] != b.y[0];
    }
  }
  EXPECT_GT(strictly, 500);  // the copies are other functions of (x1, x2), not the original moved down
  // The level is a label index: anything else is refused.
  const double fractional[3] = {0.5, 0.5, 0.5};
  EXPECT_THROW(mixed->spec().check_config(fractional), Error);
}

TEST(Park, CheckValues) {
  expect_checks("park", {
                            {{0.5, 0.5, 0.5, 0.5}, 1.0, 0.29804474932655234, -0.24072296444266295},
                            {{0.5, 0.5, 0.5, 0.5}, 0.0, 0.18418119256799614, -0.28137978641233835},
                            {{0.0, 0.0, 0.0, 0.0}, 1.0, -0.5775745187707273, 0.2892447209433342},
                            {{1.0, 1.0, 1.0, 1.0}, 0.3, -0.25329713539224674, -0.3596560512776891},
                        });
}

}  // namespace
}  // namespace rescue::problems
