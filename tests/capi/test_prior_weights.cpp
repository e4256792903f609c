// rescue_prior_weights: how much the model behind rescue_predict relies on the
// causal model. The GP's own tests check that a_m is learned (near 1 for a
// prior equal to the truth); here, through the C ABI: a causal model learned
// from logs that follow the evaluations is taken near face value, one learned
// from logs of another system is not, the paper's fixed prior reads as ones,
// a prior switched off reads as zeros, bad calls are rejected, and asking
// changes nothing the optimizer does.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "rescue.h"
#include "test_helpers.hpp"

namespace {

constexpr int kD = 2, kM = 2;

// The system the evaluations measure: an indicator z and two objectives.
void truth(const double* x, double* z, double* y) {
  z[0] = x[0] + x[1];
  y[0] = 2.0 * z[0] + x[0] * x[0];
  y[1] = (1.0 - x[0]) * (1.0 - x[0]) + 0.5 * x[1];
}

// Another system with the same variables: logs that say nothing true about this one.
void other(const double* x, double* z, double* y) {
  z[0] = x[0] - x[1];
  y[0] = std::sin(6.0 * x[0]) * std::cos(5.0 * x[1]);
  y[1] = std::cos(7.0 * x[1]) + 0.3 * std::sin(4.0 * x[0]);
}

rescue_problem* problem(unsigned seed) {
  rescue_problem* p = nullptr;
  rescue_problem_new(&p);
  rescue_problem_add_option(p, "a", 0.0, 1.0, RESCUE_CONTINUOUS);
  rescue_problem_add_option(p, "b", 0.0, 1.0, RESCUE_CONTINUOUS);
  rescue_problem_set_fidelity_range(p, 0.0, 1.0, 1.0);
  rescue_problem_add_objective(p, "f1", RESCUE_MINIMIZE);
  rescue_problem_add_objective(p, "f2", RESCUE_MINIMIZE);
  rescue_problem_add_indicator(p, "z");
  rescue_problem_set_strategy(p, "rescue");
  rescue_problem_set_seed(p, seed);
  rescue_test::set_fast(p);
  return p;
}

// 80 log rows at the target (options, fidelity, indicator, objectives) from `system`.
void add_logs(rescue_optimizer* opt, void (*system)(const double*, double*, double*)) {
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> rows;
  for (int i = 0; i < 80; ++i) {
    double x[kD] = {u(gen), u(gen)}, z[1], y[kM];
    system(x, z, y);
    rows.insert(rows.end(), {x[0], x[1], 1.0, z[0], y[0], y[1]});
  }
  ASSERT_EQ(rescue_add_observational(opt, rows.data(), 80, 6), RESCUE_OK) << rescue_errmsg(opt);
}

// Ask/tell steps; every evaluation measures `truth` (fidelity-independent).
void run(rescue_optimizer* opt, int n) {
  for (int i = 0; i < n; ++i) {
    double x[kD], s, z[1], y[kM];
    int ticket = 0;
    ASSERT_EQ(rescue_suggest(opt, x, kD, &s, &ticket), RESCUE_OK) << rescue_errmsg(opt);
    truth(x, z, y);
    ASSERT_EQ(rescue_observe(opt, ticket, y, kM, nullptr, 0, z, 1), RESCUE_OK) << rescue_errmsg(opt);
  }
}

struct Weights {
  double scale[kM] = {-7.0, -7.0};
  double w = -7.0;
  int in_use = -7;
};

Weights weights(rescue_optimizer* opt) {
  Weights r;
  EXPECT_EQ(rescue_prior_weights(opt, r.scale, kM, &r.w, &r.in_use), RESCUE_OK) << rescue_errmsg(opt);
  return r;
}

TEST(PriorWeights, ACausalModelOfTheSameSystemIsTakenNearFaceValue) {
  rescue_test::Opt opt(problem(3));
  add_logs(opt.h, truth);
  run(opt.h, 12);
  const Weights r = weights(opt.h);
  EXPECT_EQ(r.in_use, 1);
  for (double a : r.scale) EXPECT_NEAR(a, 1.0, 0.3);
  EXPECT_GT(r.w, 0.0);
}

TEST(PriorWeights, ACausalModelOfAnotherSystemIsNot) {
  rescue_test::Opt opt(problem(3));
  add_logs(opt.h, other);
  run(opt.h, 12);
  const Weights r = weights(opt.h);
  ASSERT_TRUE(r.in_use == 0 || r.in_use == 1);
  for (double a : r.scale) EXPECT_LT(std::abs(a), 0.5);
  // The prior-off model is reported as such: no weight on the estimate.
  if (r.in_use == 0) {
    for (double a : r.scale) EXPECT_EQ(a, 0.0);
  }
}

TEST(PriorWeights, ThePapersFixedPriorWeighsOne) {
  rescue_problem* p = problem(3);
  ASSERT_EQ(rescue_problem_set_param(p, "rescue.fixed_prior", 1), RESCUE_OK);
  rescue_test::Opt opt(p);
  add_logs(opt.h, other);
  run(opt.h, 6);
  const Weights r = weights(opt.h);
  EXPECT_EQ(r.in_use, 1);
  EXPECT_EQ(r.w, 1.0);
  for (double a : r.scale) EXPECT_EQ(a, 1.0);
}

TEST(PriorWeights, BadCallsAreRejectedWriteNothingAndChangeNothing) {
  double scale[kM] = {-7.0, -7.0}, w = -7.0;
  int in_use = -7;
  EXPECT_EQ(rescue_prior_weights(nullptr, scale, kM, &w, &in_use), RESCUE_ERR_NULL_POINTER);

  rescue_test::Opt opt(problem(3));
  add_logs(opt.h, truth);
  // No model before two successful observations.
  EXPECT_EQ(rescue_prior_weights(opt.h, scale, kM, &w, &in_use), RESCUE_ERR_INVALID_STATE);
  run(opt.h, 4);
  const std::string before = rescue_test::state(opt.h);
  EXPECT_EQ(rescue_prior_weights(opt.h, nullptr, kM, &w, &in_use), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_prior_weights(opt.h, scale, kM + 1, &w, &in_use), RESCUE_ERR_SIZE_MISMATCH);
  EXPECT_NE(std::string(rescue_errmsg(opt.h)).find("objectives plus constraints"), std::string::npos);
  EXPECT_EQ(scale[0], -7.0);
  EXPECT_EQ(w, -7.0);
  EXPECT_EQ(in_use, -7);
  EXPECT_EQ(rescue_test::state(opt.h), before);
  // The optional outputs may be NULL.
  EXPECT_EQ(rescue_prior_weights(opt.h, scale, kM, nullptr, nullptr), RESCUE_OK) << rescue_errmsg(opt.h);
  EXPECT_TRUE(std::isfinite(scale[0]) && std::isfinite(scale[1]));

  // A strategy without a causal model has no prior to weigh.
  rescue_problem* p = problem(3);
  ASSERT_EQ(rescue_problem_set_strategy(p, "hvkg"), RESCUE_OK);
  rescue_test::Opt plain(p);
  run(plain.h, 4);
  EXPECT_EQ(rescue_prior_weights(plain.h, scale, kM, &w, &in_use), RESCUE_ERR_INVALID_STATE);
  EXPECT_NE(std::string(rescue_errmsg(plain.h)).find("no causal prior"), std::string::npos) << rescue_errmsg(plain.h);
}

TEST(PriorWeights, LeavesTheSuggestionsUnchanged) {
  rescue_problem* p = problem(9);
  const auto states = rescue_test::twin_states(
      p, 8,
      [](rescue_optimizer* o, int i) {
        if (i == 0) add_logs(o, truth);
        run(o, 1);
      },
      [](rescue_optimizer* o, int i) {
        if (i >= 2) weights(o);
      });
  ASSERT_FALSE(states.first.empty());
  EXPECT_EQ(states.first, states.second);
  rescue_problem_free(p);
}

}  // namespace
