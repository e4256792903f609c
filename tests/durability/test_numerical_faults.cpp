// Numerical faults are statuses, never crashes: the model-based strategies are
// fed duplicate points, nearly coincident points (an ill-conditioned Gram
// matrix), constant objectives, objectives at 1e-12 and 1e12, and failed
// evaluations. Every call must return RESCUE_OK or RESCUE_ERR_NUMERICAL (never
// an internal error), and every suggestion must be a valid configuration.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "rescue.h"

namespace {

rescue_optimizer* make(const char* strategy) {
  rescue_problem* p = nullptr;
  rescue_problem_new(&p);
  rescue_problem_add_option(p, "a", 0.0, 1.0, RESCUE_CONTINUOUS);
  rescue_problem_add_option(p, "b", 0.0, 1.0, RESCUE_CONTINUOUS);
  rescue_problem_set_fidelity_range(p, 0.0, 1.0, 1.0);
  rescue_problem_add_objective(p, "f1", RESCUE_MINIMIZE);
  rescue_problem_add_objective(p, "f2", RESCUE_MINIMIZE);
  rescue_problem_set_strategy(p, strategy);
  rescue_problem_set_seed(p, 2);
  rescue_problem_set_initial_budget(p, 0.0);  // the model takes over at once
  rescue_problem_set_param(p, "kg.pool", 8);
  rescue_problem_set_param(p, "kg.fantasies", 2);
  rescue_problem_set_param(p, "acq.starts", 2);
  rescue_problem_set_param(p, "acq.refine", 1);
  rescue_problem_set_param(p, "acq.refine_evals", 10);
  rescue_problem_set_param(p, "acq.mc_samples", 16);
  rescue_optimizer* opt = nullptr;
  EXPECT_EQ(rescue_create(p, &opt), RESCUE_OK) << rescue_last_error();
  rescue_problem_free(p);
  return opt;
}

// The model is asked for suggestions and a Pareto set: each must succeed or
// report a numerical failure, and suggestions must be valid.
void expect_statuses_not_crashes(rescue_optimizer* opt, const std::string& what) {
  for (int i = 0; i < 2; ++i) {
    double x[2] = {-1, -1}, s = -1;
    int t = 0;
    const rescue_status st = rescue_suggest(opt, x, 2, &s, &t);
    ASSERT_TRUE(st == RESCUE_OK || st == RESCUE_ERR_NUMERICAL) << what << ": " << rescue_status_string(st) << ": "
                                                                << rescue_errmsg(opt);
    if (st != RESCUE_OK) continue;
    EXPECT_TRUE(x[0] >= 0.0 && x[0] <= 1.0 && x[1] >= 0.0 && x[1] <= 1.0 && s >= 0.0 && s <= 1.0) << what;
    const double y[2] = {x[0], 1.0 - x[0]};
    EXPECT_EQ(rescue_observe(opt, t, y, 2, nullptr, 0, nullptr, 0), RESCUE_OK) << what;
  }
  int count = 0;
  const rescue_status st = rescue_pareto(opt, nullptr, nullptr, 0, &count);
  EXPECT_TRUE(st == RESCUE_OK || st == RESCUE_ERR_NUMERICAL) << what << ": " << rescue_errmsg(opt);
}

struct Fault {
  const char* name;
  // Fills observation i: configuration, fidelity and objectives.
  std::function<void(int i, double* x, double* s, double* y)> point;
};

const std::vector<Fault>& faults() {
  static const std::vector<Fault> all = {
      {"duplicate points",
       [](int i, double* x, double* s, double* y) {
         x[0] = 0.25, x[1] = 0.75, *s = 1.0;
         y[0] = 0.1 * (i % 3), y[1] = 1.0 - 0.1 * (i % 3);
       }},
      {"nearly coincident points",
       [](int i, double* x, double* s, double* y) {
         x[0] = 0.5 + 1e-13 * i, x[1] = 0.5 - 1e-13 * i, *s = 1.0;
         y[0] = std::sin(3.0 * i), y[1] = std::cos(3.0 * i);
       }},
      {"constant objectives",
       [](int i, double* x, double* s, double* y) {
         x[0] = (i * 0.37) - std::floor(i * 0.37), x[1] = (i * 0.61) - std::floor(i * 0.61), *s = (i % 4) / 3.0;
         y[0] = 3.0, y[1] = 3.0;
       }},
      {"objectives at 1e-12",
       [](int i, double* x, double* s, double* y) {
         x[0] = (i * 0.37) - std::floor(i * 0.37), x[1] = (i * 0.61) - std::floor(i * 0.61), *s = 1.0;
         y[0] = 1e-12 * x[0], y[1] = 1e-12 * (1.0 - x[0] * x[1]);
       }},
      {"objectives at 1e12",
       [](int i, double* x, double* s, double* y) {
         x[0] = (i * 0.37) - std::floor(i * 0.37), x[1] = (i * 0.61) - std::floor(i * 0.61), *s = 1.0;
         y[0] = 1e12 * x[0], y[1] = 1e12 * (1.0 - x[0] * x[1]);
       }},
      {"mixed scales 1e-12 and 1e12",
       [](int i, double* x, double* s, double* y) {
         x[0] = (i * 0.37) - std::floor(i * 0.37), x[1] = (i * 0.61) - std::floor(i * 0.61), *s = 0.5;
         y[0] = 1e-12 * x[0], y[1] = 1e12 * x[1];
       }},
  };
  return all;
}

TEST(NumericalFaults, ModelStrategiesReportStatusesNotCrashes) {
  for (const char* strategy : {"ehvi", "hvkg", "momf"}) {
    for (const Fault& f : faults()) {
      rescue_optimizer* opt = make(strategy);
      ASSERT_NE(opt, nullptr);
      for (int i = 0; i < 8; ++i) {
        double x[2], s, y[2];
        f.point(i, x, &s, y);
        ASSERT_EQ(rescue_observe_at(opt, x, 2, s, y, 2, nullptr, 0, nullptr, 0), RESCUE_OK) << f.name;
      }
      expect_statuses_not_crashes(opt, std::string(strategy) + ", " + f.name);
      rescue_destroy(opt);
    }
  }
}

// A simulator that returns NaN: the observation is refused with a status and the
// ticket stays pending; reported as failed it is charged, stored as failed, left
// out of the model, and the run goes on.
TEST(NumericalFaults, FailedEvaluationsAreStoredAndLeftOutOfTheModel) {
  for (const char* strategy : {"random", "ehvi"}) {
    rescue_optimizer* opt = make(strategy);
    int failed_tickets = 0;
    for (int i = 0; i < 10; ++i) {
      double x[2], s;
      int t;
      const rescue_status st = rescue_suggest(opt, x, 2, &s, &t);
      ASSERT_TRUE(st == RESCUE_OK || st == RESCUE_ERR_NUMERICAL) << strategy << ": " << rescue_errmsg(opt);
      if (st != RESCUE_OK) continue;
      if (i % 3 == 1) {
        const double nan_y[2] = {std::nan(""), 1.0};
        EXPECT_EQ(rescue_observe(opt, t, nan_y, 2, nullptr, 0, nullptr, 0), RESCUE_ERR_NON_FINITE);
        int count = 0, ticket = 0;
        ASSERT_EQ(rescue_pending(opt, &ticket, 1, &count), RESCUE_OK);
        EXPECT_EQ(count, 1);
        EXPECT_EQ(ticket, t);
        double spent_before = 0, spent_after = 0;
        rescue_budget(opt, &spent_before, nullptr, nullptr);
        ASSERT_EQ(rescue_fail(opt, t), RESCUE_OK);
        rescue_budget(opt, &spent_after, nullptr, nullptr);
        EXPECT_GT(spent_after, spent_before);
        ++failed_tickets;
        continue;
      }
      const double y[2] = {x[0] * x[0], (1.0 - x[0]) * (1.0 - x[0]) + x[1]};
      ASSERT_EQ(rescue_observe(opt, t, y, 2, nullptr, 0, nullptr, 0), RESCUE_OK);
    }
    int failed_seen = 0;
    for (int i = 0; i < rescue_num_observations(opt); ++i) {
      double y[2];
      int failed = 0;
      ASSERT_EQ(rescue_get_observation(opt, i, nullptr, 0, nullptr, y, 2, nullptr, 0, &failed), RESCUE_OK);
      if (failed) {
        ++failed_seen;
        EXPECT_TRUE(std::isnan(y[0]) && std::isnan(y[1]));
      }
    }
    EXPECT_EQ(failed_seen, failed_tickets);
    // Failed evaluations never enter the Pareto set: every point is finite.
    int count = 0;
    ASSERT_EQ(rescue_pareto(opt, nullptr, nullptr, 0, &count), RESCUE_OK) << rescue_errmsg(opt);
    std::vector<double> px(2 * count), py(2 * count);
    if (count > 0) {
      ASSERT_EQ(rescue_pareto(opt, px.data(), py.data(), count, &count), RESCUE_OK);
      for (double v : py) EXPECT_TRUE(std::isfinite(v));
    }
    rescue_destroy(opt);
  }
}

}  // namespace
