// rescue_cross_validate: leave-one-out predictions of the model behind
// rescue_predict, one row per observation. Exactness against refits on the
// other points is checked in the GP's own tests (LeaveOneOutPredictionsMatchRefits);
// here: the rows line up with the observations (failed ones NaN), objectives
// come back in their own sense, the held-out spread is never below what the
// same model reports with every point in, the errors of a noisy smooth problem
// are calibrated, bad calls are rejected, and nothing the optimizer does changes.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "rescue.h"
#include "test_helpers.hpp"

namespace {

constexpr int kD = 3, kM = 2, kQ = 1, kP = kM + kQ;

using rescue_test::fast_problem;

// Ask/tell steps with the stand-in simulator plus N(0, noise^2) on every output.
void run(rescue_optimizer* opt, int n, std::mt19937_64& gen, double noise) {
  std::normal_distribution<double> e(0.0, 1.0);
  for (int i = 0; i < n; ++i) {
    double x[kD], s, y[kM], g[kQ], z[1];
    int ticket = 0;
    ASSERT_EQ(rescue_suggest(opt, x, kD, &s, &ticket), RESCUE_OK) << rescue_errmsg(opt);
    rescue_test::simulate(x, s, y, g, z);
    for (double& v : y) v += noise * e(gen);
    g[0] += noise * e(gen);
    ASSERT_EQ(rescue_observe(opt, ticket, y, kM, g, kQ, z, 1), RESCUE_OK) << rescue_errmsg(opt);
  }
}

struct Rows {
  int count = 0;
  std::vector<double> mean, sd;
};

Rows cross_validate(rescue_optimizer* opt) {
  Rows r;
  EXPECT_EQ(rescue_cross_validate(opt, nullptr, nullptr, kP, 0, &r.count), RESCUE_OK) << rescue_errmsg(opt);
  r.mean.assign(static_cast<size_t>(r.count) * kP, -7.0);
  r.sd = r.mean;
  EXPECT_EQ(rescue_cross_validate(opt, r.mean.data(), r.sd.data(), kP, r.count, &r.count), RESCUE_OK)
      << rescue_errmsg(opt);
  return r;
}

// Observation i: configuration, fidelity, outputs (objectives then constraint metrics).
struct Observed {
  std::vector<double> x = std::vector<double>(kD), y = std::vector<double>(kP);
  double s = 0.0;
  int failed = 0;
};

Observed observed(const rescue_optimizer* opt, int i) {
  Observed o;
  EXPECT_EQ(rescue_get_observation(opt, i, o.x.data(), kD, &o.s, o.y.data(), kM, o.y.data() + kM, kQ, &o.failed),
            RESCUE_OK);
  return o;
}

TEST(CrossValidate, RowsFollowTheObservationsAndFailuresAreNaN) {
  rescue_problem* p = fast_problem("random", 4);
  rescue_optimizer* opt = nullptr;
  ASSERT_EQ(rescue_create(p, &opt), RESCUE_OK);
  std::mt19937_64 gen(11);
  run(opt, 12, gen, 0.01);
  double x[kD], s;
  int ticket = 0;
  ASSERT_EQ(rescue_suggest(opt, x, kD, &s, &ticket), RESCUE_OK);
  ASSERT_EQ(rescue_fail(opt, ticket), RESCUE_OK);
  run(opt, 12, gen, 0.01);
  const Rows r = cross_validate(opt);
  ASSERT_EQ(r.count, rescue_num_observations(opt));
  ASSERT_EQ(r.count, 25);
  for (int i = 0; i < r.count; ++i) {
    const Observed o = observed(opt, i);
    const std::vector<double>& y = o.y;
    for (int k = 0; k < kP; ++k) {
      const double m = r.mean[static_cast<size_t>(i) * kP + k], v = r.sd[static_cast<size_t>(i) * kP + k];
      if (o.failed) {
        EXPECT_TRUE(std::isnan(m) && std::isnan(v)) << "row " << i;
      } else {
        ASSERT_TRUE(std::isfinite(m) && std::isfinite(v)) << "row " << i << " output " << k;
        EXPECT_GT(v, 0.0);
        // Each held-out prediction lands near its own observation (the
        // maximized objective in its own sense, not negated).
        EXPECT_LT(std::abs(y[static_cast<size_t>(k)] - m), 6.0 * v + 0.05) << "row " << i << " output " << k;
      }
    }
  }
  rescue_destroy(opt);
  rescue_problem_free(p);
}

// A point held out is predicted no more surely than with it in, and the
// observed value carries the noise on top: the held-out sd is at least
// rescue_predict's noise-free sd at the same point of the same model. Both
// the fresh GP of a model-free strategy and rescue's own model.
TEST(CrossValidate, HeldOutSpreadIsAtLeastThePosteriorSpread) {
  for (const char* strategy : {"random", "rescue"}) {
    SCOPED_TRACE(strategy);
    rescue_problem* p = fast_problem(strategy, 6);
    rescue_optimizer* opt = nullptr;
    ASSERT_EQ(rescue_create(p, &opt), RESCUE_OK);
    std::mt19937_64 gen(3);
    run(opt, 16, gen, 0.02);
    const Rows r = cross_validate(opt);
    int compared = 0;
    double ratio_sum = 0.0;
    for (int i = 0; i < r.count; ++i) {
      const Observed o = observed(opt, i);
      if (o.failed) continue;
      double mean[kP], sd[kP];
      ASSERT_EQ(rescue_predict(opt, o.x.data(), 1, kD, &o.s, mean, sd, kP, nullptr), RESCUE_OK) << rescue_errmsg(opt);
      for (int k = 0; k < kP; ++k) {
        const double held = r.sd[static_cast<size_t>(i) * kP + k];
        EXPECT_GE(held, sd[k] * (1.0 - 1e-9)) << "row " << i << " output " << k;
        ratio_sum += held / sd[k];
        ++compared;
      }
    }
    EXPECT_EQ(compared, 16 * kP);
    EXPECT_GT(ratio_sum / compared, 1.0 + 1e-6) << "held out and in-sample spreads coincide";
    rescue_destroy(opt);
    rescue_problem_free(p);
  }
}

// On a smooth problem observed with noise of known size, the standardized
// held-out errors are centred with a root mean square near 1, and the
// held-out means track the observations.
TEST(CrossValidate, ErrorsOfANoisySmoothProblemAreCalibrated) {
  rescue_problem* p = fast_problem("random", 8);
  rescue_optimizer* opt = nullptr;
  ASSERT_EQ(rescue_create(p, &opt), RESCUE_OK);
  std::mt19937_64 gen(5);
  run(opt, 40, gen, 0.02);
  const Rows r = cross_validate(opt);
  for (int k = 0; k < kP; ++k) {
    double z2 = 0.0, zsum = 0.0, sy = 0.0, sm = 0.0, syy = 0.0, smm = 0.0, sym = 0.0;
    for (int i = 0; i < r.count; ++i) {
      const double y = observed(opt, i).y[static_cast<size_t>(k)];
      const double m = r.mean[static_cast<size_t>(i) * kP + k], v = r.sd[static_cast<size_t>(i) * kP + k];
      const double z = (y - m) / v;
      z2 += z * z;
      zsum += z;
      sy += y, sm += m, syy += y * y, smm += m * m, sym += y * m;
    }
    const double n = r.count, rms = std::sqrt(z2 / n);
    const double corr = (sym - sy * sm / n) / std::sqrt((syy - sy * sy / n) * (smm - sm * sm / n));
    std::cout << "output " << k << ": z mean " << zsum / n << ", rms " << rms << ", correlation " << corr << "\n";
    EXPECT_GT(rms, 0.6) << "output " << k;
    EXPECT_LT(rms, 1.6) << "output " << k;
    EXPECT_LT(std::abs(zsum / n), 0.5) << "output " << k;
    EXPECT_GT(corr, 0.9) << "output " << k;
  }
  rescue_destroy(opt);
  rescue_problem_free(p);
}

TEST(CrossValidate, BadCallsAreRejectedAndChangeNothing) {
  rescue_problem* p = fast_problem("random", 2);
  rescue_optimizer* opt = nullptr;
  ASSERT_EQ(rescue_create(p, &opt), RESCUE_OK);
  std::mt19937_64 gen(1);
  double mean[8 * kP], sd[8 * kP];
  int count = -1;
  EXPECT_EQ(rescue_cross_validate(nullptr, mean, sd, kP, 8, &count), RESCUE_ERR_NULL_POINTER);
  run(opt, 1, gen, 0.0);
  // The size is known at once; the predictions need two successful observations.
  EXPECT_EQ(rescue_cross_validate(opt, nullptr, nullptr, kP, 0, &count), RESCUE_OK);
  EXPECT_EQ(count, 1);
  EXPECT_EQ(rescue_cross_validate(opt, mean, sd, kP, 8, &count), RESCUE_ERR_INVALID_STATE);
  EXPECT_NE(std::string(rescue_errmsg(opt)).find("two successful observations"), std::string::npos);
  run(opt, 5, gen, 0.0);
  const std::string before = rescue_test::state(opt);
  EXPECT_EQ(rescue_cross_validate(opt, mean, sd, kP, 8, nullptr), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_cross_validate(opt, mean, sd, kM, 8, &count), RESCUE_ERR_SIZE_MISMATCH);
  EXPECT_EQ(rescue_cross_validate(opt, mean, sd, kP, -1, &count), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_cross_validate(opt, nullptr, sd, kP, 8, &count), RESCUE_ERR_NULL_POINTER);
  mean[0] = -7.0;
  count = 0;
  EXPECT_EQ(rescue_cross_validate(opt, mean, sd, kP, 5, &count), RESCUE_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(count, 6);
  EXPECT_EQ(mean[0], -7.0) << "a buffer too small was written to";
  EXPECT_EQ(rescue_cross_validate(opt, mean, nullptr, kP, 8, &count), RESCUE_OK) << rescue_errmsg(opt);
  EXPECT_TRUE(std::isfinite(mean[0]));
  EXPECT_EQ(rescue_test::state(opt), before);
  rescue_destroy(opt);
  rescue_problem_free(p);
}

// Cross-validating between suggestions changes nothing the optimizer does.
TEST(CrossValidate, LeavesTheSuggestionsUnchanged) {
  rescue_problem* p = fast_problem("rescue", 9);
  const auto states = rescue_test::twin_states(
      p, 12,
      [](rescue_optimizer* o, int i) {
        std::mt19937_64 gen(100 + i);  // the same noise for both
        run(o, 1, gen, 0.01);
      },
      [](rescue_optimizer* o, int i) {
        if (i >= 1) cross_validate(o);
      });
  ASSERT_FALSE(states.first.empty());
  EXPECT_EQ(states.first, states.second);
  rescue_problem_free(p);
}

}  // namespace
