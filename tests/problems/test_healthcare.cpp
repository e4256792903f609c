// The healthcare problem against its printed equations (appendix), recomputed
// here, at S = 1, S = 0 and random fidelities.
#include <cmath>

#include <gtest/gtest.h>

#include "problems/benchmark_problem.hpp"
#include "test_helpers.hpp"

namespace rescue::problems {
namespace {

using testing::close;

// The printed equations with Age = 65, written out independently of the library.
void printed(double bmi, double aspirin, double S, double& statin, double& cancer, double& psa) {
  const double age = 65.0;
  statin = 1.0 / (1.0 + std::exp(-(S * (-13.0 + 0.1 * age + 0.2 * bmi))));
  cancer = 1.0 / (1.0 + std::exp(-(S * (2.2 - 0.05 * age + 0.01 * bmi - 0.04 * statin + 0.2 * aspirin))));
  psa = (S + 6.8) * (0.04 * age - 0.15 * bmi + 0.6 * statin + 0.55 * aspirin + cancer);
}

void expect_printed(const BenchmarkProblem& p, double bmi, double aspirin, double S) {
  double statin, cancer, psa;
  printed(bmi, aspirin, S, statin, cancer, psa);
  const double x[2] = {bmi, aspirin};
  const Evaluation e = p.evaluate(x, S);
  ASSERT_EQ(e.y.size(), 2u);
  ASSERT_EQ(e.g.size(), 1u);
  EXPECT_TRUE(e.z.empty());
  EXPECT_TRUE(close(e.y[0], statin));
  EXPECT_TRUE(close(e.y[1], psa));
  EXPECT_TRUE(close(e.g[0], cancer));
}

TEST(Healthcare, MatchesPrintedEquationsAtTargetAndLowestFidelity) {
  auto p = make_problem("healthcare");
  Rng rng(11);
  for (int i = 0; i < 40; ++i) {
    const double bmi = rng.uniform(20.0, 30.0), aspirin = rng.uniform();
    expect_printed(*p, bmi, aspirin, 1.0);
    expect_printed(*p, bmi, aspirin, 0.0);
    expect_printed(*p, bmi, aspirin, rng.uniform());
  }
  expect_printed(*p, 20.0, 0.0, 1.0);
  expect_printed(*p, 30.0, 1.0, 0.0);
}

TEST(Healthcare, LowestFidelityIsUninformativeAboutStatinAndCancer) {
  // At S = 0 both sigmoids have argument 0, so Statin = Cancer = 1/2 and
  // PSA = 6.8 (2.6 - 0.15 BMI + 0.8 + 0.55 Aspirin).
  auto p = make_problem("healthcare");
  const double x[2] = {24.0, 0.25};
  const Evaluation e = p->evaluate(x, 0.0);
  EXPECT_EQ(e.y[0], 0.5);
  EXPECT_EQ(e.g[0], 0.5);
  EXPECT_TRUE(close(e.y[1], 6.8 * (2.6 - 0.15 * 24.0 + 0.3 + 0.55 * 0.25 + 0.5)));
}

TEST(Healthcare, ThresholdIsAParameter) {
  auto p = make_problem("healthcare");
  ASSERT_EQ(p->spec().num_constraints(), 1);
  EXPECT_EQ(p->spec().constraints()[0].threshold, 0.35);
  EXPECT_EQ(p->spec().constraints()[0].sense, ConstraintSense::LessEqual);
  ProblemOptions o;
  o.set("cancer_threshold", 0.3);
  auto q = make_problem("healthcare", o);
  EXPECT_EQ(q->spec().constraints()[0].threshold, 0.3);
}

}  // namespace
}  // namespace rescue::problems
