// The ask/tell loop through the C ABI: suggestions, tickets, budget, the
// initial design's fidelity law, the Pareto set, and that every rejected call
// leaves the optimizer's data unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "rescue.h"
#include "test_helpers.hpp"

namespace {

using rescue_test::Opt;
using rescue_test::simulate;
using rescue_test::small_problem;
using rescue_test::state;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

TEST(AskTell, SuggestionsRespectBoundsKindsAndFidelity) {
  Opt opt(small_problem("random"));
  for (int i = 0; i < 200; ++i) {
    double x[3], s;
    int t;
    ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK) << rescue_errmsg(opt.h);
    EXPECT_GE(x[0], 0.0);
    EXPECT_LE(x[0], 1.0);
    EXPECT_EQ(x[1], std::round(x[1]));
    EXPECT_GE(x[1], 1.0);
    EXPECT_LE(x[1], 8.0);
    EXPECT_GE(x[2], 1e-4);
    EXPECT_LE(x[2], 1e-1);
    EXPECT_GE(s, 0.0);
    EXPECT_LE(s, 1.0);
    EXPECT_EQ(t, i + 1);
    double y[2], g[1], z[1];
    simulate(x, s, y, g, z);
    ASSERT_EQ(rescue_observe(opt.h, t, y, 2, g, 1, z, 1), RESCUE_OK) << rescue_errmsg(opt.h);
  }
  EXPECT_EQ(rescue_num_observations(opt.h), 200);
}

TEST(AskTell, LogScaleOptionsAreUniformInLogSpace) {
  Opt opt(small_problem("random"));
  int below_geometric_mid = 0;
  const int n = 4000;
  for (int i = 0; i < n; ++i) {
    double x[3], s;
    int t;
    ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK);
    below_geometric_mid += x[2] < std::sqrt(1e-4 * 1e-1);
    ASSERT_EQ(rescue_cancel(opt.h, t), RESCUE_OK);
  }
  EXPECT_NEAR(below_geometric_mid / double(n), 0.5, 0.03);
}

TEST(AskTell, ResultsMayArriveInAnyOrder) {
  Opt opt(small_problem());
  std::vector<int> tickets;
  std::vector<std::vector<double>> xs;
  std::vector<double> ss;
  for (int i = 0; i < 5; ++i) {
    double x[3], s;
    int t;
    ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK);
    tickets.push_back(t);
    xs.emplace_back(x, x + 3);
    ss.push_back(s);
  }
  int pending[8], count = 0;
  ASSERT_EQ(rescue_pending(opt.h, pending, 8, &count), RESCUE_OK);
  EXPECT_EQ(count, 5);
  EXPECT_EQ(rescue_pending(opt.h, pending, 2, &count), RESCUE_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(count, 5);
  const int order[] = {3, 0, 4, 2, 1};
  for (int k : order) {
    double y[2], g[1], z[1];
    simulate(xs[k].data(), ss[k], y, g, z);
    ASSERT_EQ(rescue_observe(opt.h, tickets[k], y, 2, g, 1, z, 1), RESCUE_OK);
  }
  // Observations are stored in arrival order with the suggested (x, s).
  for (int i = 0; i < 5; ++i) {
    double x[3], s;
    int failed = -1;
    ASSERT_EQ(rescue_get_observation(opt.h, i, x, 3, &s, nullptr, 0, nullptr, 0, &failed), RESCUE_OK);
    EXPECT_EQ(std::vector<double>(x, x + 3), xs[order[i]]);
    EXPECT_EQ(s, ss[order[i]]);
    EXPECT_EQ(failed, 0);
  }
  ASSERT_EQ(rescue_pending(opt.h, nullptr, 0, &count), RESCUE_OK);
  EXPECT_EQ(count, 0);
}

TEST(AskTell, TicketErrors) {
  Opt opt(small_problem());
  double x[3], s, y[2] = {1, 2}, g[1] = {0}, z[1] = {0};
  int t;
  ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK);
  EXPECT_EQ(rescue_observe(opt.h, 999, y, 2, g, 1, z, 1), RESCUE_ERR_UNKNOWN_TICKET);
  EXPECT_NE(std::string(rescue_errmsg(opt.h)).find("never issued"), std::string::npos);
  EXPECT_EQ(rescue_observe(opt.h, -3, y, 2, g, 1, z, 1), RESCUE_ERR_UNKNOWN_TICKET);
  ASSERT_EQ(rescue_observe(opt.h, t, y, 2, g, 1, z, 1), RESCUE_OK);
  EXPECT_EQ(rescue_observe(opt.h, t, y, 2, g, 1, z, 1), RESCUE_ERR_UNKNOWN_TICKET);  // twice
  EXPECT_NE(std::string(rescue_errmsg(opt.h)).find("already"), std::string::npos);
  EXPECT_EQ(rescue_cancel(opt.h, t), RESCUE_ERR_UNKNOWN_TICKET);
  EXPECT_EQ(rescue_fail(opt.h, t), RESCUE_ERR_UNKNOWN_TICKET);
  ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK);
  ASSERT_EQ(rescue_cancel(opt.h, t), RESCUE_OK);
  EXPECT_EQ(rescue_observe(opt.h, t, y, 2, g, 1, z, 1), RESCUE_ERR_UNKNOWN_TICKET);
  ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK);
  ASSERT_EQ(rescue_fail(opt.h, t), RESCUE_OK);
  EXPECT_EQ(rescue_num_observations(opt.h), 2);
  int failed = 0;
  double yy[2];
  ASSERT_EQ(rescue_get_observation(opt.h, 1, nullptr, 0, nullptr, yy, 2, nullptr, 0, &failed), RESCUE_OK);
  EXPECT_EQ(failed, 1);
  EXPECT_TRUE(std::isnan(yy[0]));
  EXPECT_EQ(rescue_get_observation(opt.h, 2, nullptr, 0, nullptr, nullptr, 0, nullptr, 0, nullptr), RESCUE_ERR_OUT_OF_RANGE);
  EXPECT_EQ(rescue_get_observation(opt.h, 0, x, 2, nullptr, nullptr, 0, nullptr, 0, nullptr), RESCUE_ERR_SIZE_MISMATCH);
}

// Every class of bad input is rejected with its status, and the optimizer's
// full state (as written to a checkpoint) is unchanged by the rejected call.
TEST(AskTell, RejectedCallsLeaveTheDataUnchanged) {
  Opt opt(small_problem());
  double x[3], s;
  int t;
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK);
    double y[2], g[1], z[1];
    simulate(x, s, y, g, z);
    ASSERT_EQ(rescue_observe(opt.h, t, y, 2, g, 1, z, 1), RESCUE_OK);
  }
  ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK);  // one pending ticket
  const std::string before = state(opt.h);
  const double y_ok[2] = {0.1, 0.2}, g_ok[1] = {1.0}, z_ok[1] = {0.5};
  const double y_nan[2] = {kNaN, 0.2}, y_inf[2] = {0.1, kInf}, g_nan[1] = {kNaN}, z_inf[1] = {kInf};
  const double x_ok[3] = {0.5, 2.0, 0.01}, x_out[3] = {1.5, 2.0, 0.01}, x_frac[3] = {0.5, 2.5, 0.01},
               x_nan[3] = {0.5, kNaN, 0.01};
  double xb[3], sb;
  int tb;
  struct Case {
    const char* what;
    rescue_status expected;
    rescue_status got;
  } cases[] = {
      {"objectives NaN", RESCUE_ERR_NON_FINITE, rescue_observe(opt.h, t, y_nan, 2, g_ok, 1, z_ok, 1)},
      {"objectives Inf", RESCUE_ERR_NON_FINITE, rescue_observe(opt.h, t, y_inf, 2, g_ok, 1, z_ok, 1)},
      {"constraint NaN", RESCUE_ERR_NON_FINITE, rescue_observe(opt.h, t, y_ok, 2, g_nan, 1, z_ok, 1)},
      {"indicator Inf", RESCUE_ERR_NON_FINITE, rescue_observe(opt.h, t, y_ok, 2, g_ok, 1, z_inf, 1)},
      {"objectives size", RESCUE_ERR_SIZE_MISMATCH, rescue_observe(opt.h, t, y_ok, 1, g_ok, 1, z_ok, 1)},
      {"constraints size", RESCUE_ERR_SIZE_MISMATCH, rescue_observe(opt.h, t, y_ok, 2, g_ok, 0, z_ok, 1)},
      {"indicators size", RESCUE_ERR_SIZE_MISMATCH, rescue_observe(opt.h, t, y_ok, 2, g_ok, 1, z_ok, 3)},
      {"objectives NULL", RESCUE_ERR_NULL_POINTER, rescue_observe(opt.h, t, nullptr, 2, g_ok, 1, z_ok, 1)},
      {"unknown ticket", RESCUE_ERR_UNKNOWN_TICKET, rescue_observe(opt.h, t + 7, y_ok, 2, g_ok, 1, z_ok, 1)},
      {"observe_at out of bounds", RESCUE_ERR_OUT_OF_RANGE, rescue_observe_at(opt.h, x_out, 3, 1.0, y_ok, 2, g_ok, 1, nullptr, 0)},
      {"observe_at non-integer", RESCUE_ERR_INVALID_ARGUMENT, rescue_observe_at(opt.h, x_frac, 3, 1.0, y_ok, 2, g_ok, 1, nullptr, 0)},
      {"observe_at NaN option", RESCUE_ERR_NON_FINITE, rescue_observe_at(opt.h, x_nan, 3, 1.0, y_ok, 2, g_ok, 1, nullptr, 0)},
      {"observe_at bad fidelity", RESCUE_ERR_OUT_OF_RANGE, rescue_observe_at(opt.h, x_ok, 3, 1.2, y_ok, 2, g_ok, 1, nullptr, 0)},
      {"observe_at NaN fidelity", RESCUE_ERR_NON_FINITE, rescue_observe_at(opt.h, x_ok, 3, kNaN, y_ok, 2, g_ok, 1, nullptr, 0)},
      {"observe_at wrong d", RESCUE_ERR_SIZE_MISMATCH, rescue_observe_at(opt.h, x_ok, 2, 1.0, y_ok, 2, g_ok, 1, nullptr, 0)},
      {"suggest wrong d", RESCUE_ERR_SIZE_MISMATCH, rescue_suggest(opt.h, xb, 2, &sb, &tb)},
      {"suggest NULL x", RESCUE_ERR_NULL_POINTER, rescue_suggest(opt.h, nullptr, 3, &sb, &tb)},
      {"suggest NULL ticket", RESCUE_ERR_NULL_POINTER, rescue_suggest(opt.h, xb, 3, &sb, nullptr)},
      {"cancel unknown", RESCUE_ERR_UNKNOWN_TICKET, rescue_cancel(opt.h, 0)},
      {"fail unknown", RESCUE_ERR_UNKNOWN_TICKET, rescue_fail(opt.h, 12345)},
      {"observational width", RESCUE_ERR_SIZE_MISMATCH, rescue_add_observational(opt.h, y_ok, 1, 2)},
      {"observational NULL", RESCUE_ERR_NULL_POINTER, rescue_add_observational(opt.h, nullptr, 1, 8)},
      {"pareto NULL count", RESCUE_ERR_NULL_POINTER, rescue_pareto(opt.h, nullptr, nullptr, 0, nullptr)},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.got, c.expected) << c.what;
    EXPECT_EQ(state(opt.h), before) << c.what;
  }
  EXPECT_GT(std::string(rescue_errmsg(opt.h)).size(), 0u);
  // Observational rows: an invalid row anywhere rejects the whole call.
  double rows[2 * 8] = {0.5, 2, 0.01, 0.3, 0.7, 0.1, 0.2, 1.0,  // valid
                        0.5, 2, 0.01, 0.3, 0.7, 0.1, kInf, 1.0};  // Inf objective
  EXPECT_EQ(rescue_add_observational(opt.h, rows, 2, 8), RESCUE_ERR_NON_FINITE);
  EXPECT_EQ(rescue_num_observational(opt.h), 0);
  rows[14] = kNaN;  // NaN marks a missing value and is accepted
  EXPECT_EQ(rescue_add_observational(opt.h, rows, 2, 8), RESCUE_OK) << rescue_errmsg(opt.h);
  EXPECT_EQ(rescue_num_observational(opt.h), 2);
  // NULL handles everywhere.
  EXPECT_EQ(rescue_suggest(nullptr, xb, 3, &sb, &tb), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_observe(nullptr, 1, y_ok, 2, g_ok, 1, nullptr, 0), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_pareto(nullptr, nullptr, nullptr, 0, &tb), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_done(nullptr), -1);
  EXPECT_EQ(rescue_num_observations(nullptr), -1);
  EXPECT_STREQ(rescue_errmsg(nullptr), rescue_last_error());
}

TEST(Budget, AccountingAndExhaustion) {
  rescue_problem* p = small_problem("random");
  const double budget = 400.0;
  rescue_problem_set_budget(p, budget);
  Opt opt(p);
  double spent = -1, pending = -1, total = -1;
  ASSERT_EQ(rescue_budget(opt.h, &spent, &pending, &total), RESCUE_OK);
  EXPECT_EQ(spent, 0.0);
  EXPECT_EQ(total, budget);
  double sum = 0.0;
  int n = 0;
  while (!rescue_done(opt.h)) {
    double x[3], s, y[2], g[1], z[1], c;
    int t;
    ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK) << rescue_errmsg(opt.h);
    ASSERT_EQ(rescue_cost(opt.h, x, 3, s, &c), RESCUE_OK);
    EXPECT_NEAR(c, std::exp(4.8 * s), 1e-9 * c);
    ASSERT_EQ(rescue_budget(opt.h, &spent, &pending, nullptr), RESCUE_OK);
    EXPECT_NEAR(pending, c, 1e-12 * c);
    simulate(x, s, y, g, z);
    ASSERT_EQ(rescue_observe(opt.h, t, y, 2, g, 1, z, 1), RESCUE_OK);
    sum += c;
    ASSERT_LT(++n, 10000);
  }
  ASSERT_EQ(rescue_budget(opt.h, &spent, &pending, nullptr), RESCUE_OK);
  EXPECT_NEAR(spent, sum, 1e-9 * sum);
  EXPECT_LE(spent, budget + 1e-9);  // never overspent
  EXPECT_EQ(pending, 0.0);
  double x[3], s;
  int t;
  EXPECT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_ERR_BUDGET_EXHAUSTED);
  EXPECT_NE(std::string(rescue_errmsg(opt.h)).find("budget"), std::string::npos);
}

// Without a fidelity, every evaluation costs 1 whatever the cost rate, so a
// budget of n is n evaluations: the initial design's two, then the strategy's.
TEST(Budget, ASingleFidelityProblemCountsEvaluations) {
  for (const char* strategy : {"rescue", "hvkg", "ehvi", "random"}) {
    SCOPED_TRACE(strategy);
    rescue_problem* p = nullptr;
    ASSERT_EQ(rescue_problem_new(&p), RESCUE_OK);
    ASSERT_EQ(rescue_problem_add_option(p, "a", 0.0, 1.0, RESCUE_CONTINUOUS), RESCUE_OK);
    ASSERT_EQ(rescue_problem_add_option(p, "b", 0.0, 1.0, RESCUE_CONTINUOUS), RESCUE_OK);
    ASSERT_EQ(rescue_problem_add_objective(p, "f1", RESCUE_MINIMIZE), RESCUE_OK);
    ASSERT_EQ(rescue_problem_add_objective(p, "f2", RESCUE_MINIMIZE), RESCUE_OK);
    ASSERT_EQ(rescue_problem_set_strategy(p, strategy), RESCUE_OK);
    ASSERT_EQ(rescue_problem_set_cost_exponential(p, 2.0), RESCUE_OK);
    ASSERT_EQ(rescue_problem_set_budget(p, 7.0), RESCUE_OK);
    Opt opt(p);
    EXPECT_FALSE(rescue_done(opt.h));
    int n = 0;
    while (!rescue_done(opt.h)) {
      double x[2], s, c;
      int t;
      ASSERT_EQ(rescue_suggest(opt.h, x, 2, &s, &t), RESCUE_OK) << rescue_errmsg(opt.h);
      EXPECT_EQ(s, 1.0);
      ASSERT_EQ(rescue_cost(opt.h, x, 2, s, &c), RESCUE_OK);
      EXPECT_EQ(c, 1.0);
      const double y[2] = {x[0] * x[0] + x[1], (1.0 - x[0]) * (1.0 - x[0]) + x[1]};
      ASSERT_EQ(rescue_observe(opt.h, t, y, 2, nullptr, 0, nullptr, 0), RESCUE_OK) << rescue_errmsg(opt.h);
      ASSERT_LT(++n, 100);
    }
    EXPECT_EQ(n, 7);
    double spent = -1;
    ASSERT_EQ(rescue_budget(opt.h, &spent, nullptr, nullptr), RESCUE_OK);
    EXPECT_EQ(spent, 7.0);
  }
}

TEST(Budget, ObserveAtAndFailuresAreCharged) {
  Opt opt(small_problem());
  const double x[3] = {0.5, 2.0, 0.01}, y[2] = {1, 2}, g[1] = {1};
  ASSERT_EQ(rescue_observe_at(opt.h, x, 3, 0.5, y, 2, g, 1, nullptr, 0), RESCUE_OK);
  double spent;
  rescue_budget(opt.h, &spent, nullptr, nullptr);
  EXPECT_NEAR(spent, std::exp(2.4), 1e-12);
  double xs[3], s;
  int t;
  ASSERT_EQ(rescue_suggest(opt.h, xs, 3, &s, &t), RESCUE_OK);
  ASSERT_EQ(rescue_fail(opt.h, t), RESCUE_OK);
  double spent2;
  rescue_budget(opt.h, &spent2, nullptr, nullptr);
  EXPECT_NEAR(spent2 - spent, std::exp(4.8 * s), 1e-9 * std::exp(4.8 * s));
}

// The total cost spent is saved in every checkpoint: a cost that would make
// it overflow is refused before anything changes, so the observations given
// so far stay and the optimizer's own checkpoint still loads.
TEST(Budget, ACostThatWouldOverflowTheTotalIsRefused) {
  rescue_problem* p = small_problem();
  const double levels[] = {0.5, 1.0}, costs[] = {1.0, 1e308};
  ASSERT_EQ(rescue_problem_set_fidelity_levels(p, levels, 2, 1.0), RESCUE_OK);
  ASSERT_EQ(rescue_problem_set_cost_levels(p, costs, 2), RESCUE_OK);
  ASSERT_EQ(rescue_problem_set_budget(p, 1e300), RESCUE_OK);
  Opt opt(p);
  const double x[3] = {0.5, 2.0, 0.01}, y[2] = {1, 2}, g[1] = {1};
  ASSERT_EQ(rescue_observe_at(opt.h, x, 3, 1.0, y, 2, g, 1, nullptr, 0), RESCUE_OK);
  const std::string before = state(opt.h);
  EXPECT_EQ(rescue_observe_at(opt.h, x, 3, 1.0, y, 2, g, 1, nullptr, 0), RESCUE_ERR_OUT_OF_RANGE);
  EXPECT_NE(std::string(rescue_errmsg(opt.h)).find("overflow"), std::string::npos) << rescue_errmsg(opt.h);
  EXPECT_EQ(state(opt.h), before);
  ASSERT_EQ(rescue_observe_at(opt.h, x, 3, 0.5, y, 2, g, 1, nullptr, 0), RESCUE_OK);
  const std::string text = state(opt.h);
  rescue_optimizer* back = nullptr;
  ASSERT_EQ(rescue_load(text.data(), text.size(), &back), RESCUE_OK) << rescue_last_error();
  EXPECT_EQ(rescue_num_observations(back), 2);
  rescue_destroy(back);
}

// Every output the user gives is checked finite, but outputs of extreme
// magnitude can still overflow the strategy's arithmetic (their squares, a
// hypervolume): that is a numerical failure of the suggestion, which leaves
// the state as it was, not a complaint about an argument the user never gave.
TEST(AskTell, OutputsThatOverflowTheArithmeticAreANumericalFailure) {
  rescue_problem* p = small_problem("momf");
  ASSERT_EQ(rescue_problem_set_initial_budget(p, 10.0), RESCUE_OK);  // a few cheap evaluations
  Opt opt(p);
  double x[3], s, y[2], g[1], z[1];
  int t, observed = 0;
  rescue_status st = RESCUE_OK;
  std::string before;
  while (observed < 40) {  // the initial design passes; the model's suggestion does not
    before = state(opt.h);
    st = rescue_suggest(opt.h, x, 3, &s, &t);
    if (st != RESCUE_OK) break;
    simulate(x, s, y, g, z);
    y[0] *= 1e160;
    y[1] *= 1e160;
    ASSERT_EQ(rescue_observe(opt.h, t, y, 2, g, 1, z, 1), RESCUE_OK);
    ++observed;
  }
  EXPECT_EQ(st, RESCUE_ERR_NUMERICAL) << rescue_errmsg(opt.h);
  EXPECT_GE(observed, 2);
  // A prediction from such data is refused too, not returned as infinite.
  double mean[3], sd[3];
  const double xq[3] = {0.5, 2.0, 0.01}, sq = 1.0;
  EXPECT_EQ(rescue_predict(opt.h, xq, 1, 3, &sq, mean, sd, 3, nullptr), RESCUE_ERR_NUMERICAL) << rescue_errmsg(opt.h);
  // Held-out predictions are finite or refused, never infinite.
  std::vector<double> cm(static_cast<size_t>(observed) * 3), cs(cm.size());
  int rows = 0;
  const rescue_status cv = rescue_cross_validate(opt.h, cm.data(), cs.data(), 3, observed, &rows);
  EXPECT_TRUE(cv == RESCUE_OK || cv == RESCUE_ERR_NUMERICAL) << rescue_errmsg(opt.h);
  if (cv == RESCUE_OK)
    for (std::size_t k = 0; k < cm.size(); ++k) EXPECT_TRUE(std::isfinite(cm[k]) && std::isfinite(cs[k])) << k;
  std::cout << "cross-validation of outputs near 1e160: " << rescue_status_string(cv) << "\n";
  // So are the per-band figures.
  const double bands[2] = {0.0, 1.0};
  double rz[3] = {0, 0, 0}, rk[3];
  const rescue_status fa = rescue_fidelity_agreement(opt.h, bands, 1, rz, rk, nullptr, 3, nullptr);
  EXPECT_TRUE(fa == RESCUE_OK || fa == RESCUE_ERR_NUMERICAL) << rescue_errmsg(opt.h);
  if (fa == RESCUE_OK)
    for (double v : rz) EXPECT_FALSE(std::isinf(v));
  EXPECT_TRUE(state(opt.h) == before) << "the refused suggestion changed the state";
  EXPECT_EQ(rescue_num_observations(opt.h), observed);
}

// The cost-aware law of the paper's Appendix A: p(s) proportional to 1 / c(s).
// With c(s) = exp(4.8 s) on [0, 1], F(s) = (1 - exp(-4.8 s)) / (1 - exp(-4.8)).
TEST(FidelityLaw, ContinuousInverseCostMatchesClosedFormCdf) {
  Opt opt(small_problem("cost-aware-random", 11));
  const int n = 20000;
  std::vector<double> s_values;
  for (int i = 0; i < n; ++i) {
    double x[3], s;
    int t;
    ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK);
    s_values.push_back(s);
    rescue_cancel(opt.h, t);
  }
  std::sort(s_values.begin(), s_values.end());
  double ks = 0.0;
  for (int i = 0; i < n; ++i) {
    const double f = (1.0 - std::exp(-4.8 * s_values[i])) / (1.0 - std::exp(-4.8));
    ks = std::max(ks, std::max(std::fabs(f - (i + 1.0) / n), std::fabs(f - double(i) / n)));
  }
  EXPECT_LT(ks, 1.63 / std::sqrt(double(n)));  // Kolmogorov-Smirnov at the 1% level
}

TEST(FidelityLaw, DiscreteLevelsProportionalToInverseCost) {
  rescue_problem* p = small_problem("cost-aware-random", 5);
  const double levels[] = {0.0, 0.5, 1.0}, costs[] = {1.0, 4.0, 20.0};
  ASSERT_EQ(rescue_problem_set_fidelity_levels(p, levels, 3, 1.0), RESCUE_OK);
  ASSERT_EQ(rescue_problem_set_cost_levels(p, costs, 3), RESCUE_OK);
  Opt opt(p);
  int counts[3] = {0, 0, 0};
  const int n = 12000;
  for (int i = 0; i < n; ++i) {
    double x[3], s;
    int t;
    ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK);
    counts[s == 0.0 ? 0 : s == 0.5 ? 1 : 2]++;
    rescue_cancel(opt.h, t);
  }
  const double z = 1.0 + 0.25 + 0.05;
  EXPECT_NEAR(counts[0] / double(n), 1.0 / z, 0.015);
  EXPECT_NEAR(counts[1] / double(n), 0.25 / z, 0.015);
  EXPECT_NEAR(counts[2] / double(n), 0.05 / z, 0.01);
}

TEST(FidelityLaw, InitialDesignIsCostAwareForEveryStrategyAndStaysInItsBudget) {
  // "random" draws uniform fidelities, but only after the initial design, which
  // follows Algorithm 2 for every strategy and spends at most its budget.
  rescue_problem* p = small_problem("random", 9);
  rescue_problem_set_initial_budget(p, 60.0);
  Opt opt(p);
  double init_cost = 0.0;
  std::vector<double> first;
  for (int i = 0; i < 400; ++i) {
    double x[3], s, c;
    int t;
    ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK);
    rescue_cost(opt.h, x, 3, s, &c);
    double y[2], g[1], z[1];
    simulate(x, s, y, g, z);
    rescue_observe(opt.h, t, y, 2, g, 1, z, 1);
    if (init_cost + c <= 60.0 && i == static_cast<int>(first.size())) {
      init_cost += c;
      first.push_back(s);
    }
  }
  double mean = 0.0;
  for (double s : first) mean += s / first.size();
  EXPECT_LT(mean, 0.35);  // cost-aware: cheap fidelities dominate
  EXPECT_LE(init_cost, 60.0);
  // Later suggestions (uniform law) have a mean near 0.5.
  double later = 0.0;
  for (int i = static_cast<int>(first.size()); i < 400; ++i) {
    double s;
    rescue_get_observation(opt.h, i, nullptr, 0, &s, nullptr, 0, nullptr, 0, nullptr);
    later += s / (400 - first.size());
  }
  EXPECT_NEAR(later, 0.5, 0.06);
}

TEST(Pareto, BeforeAModelItIsTheObservationsAtTheTarget) {
  Opt opt(small_problem());
  int count = -1;
  ASSERT_EQ(rescue_pareto(opt.h, nullptr, nullptr, 0, &count), RESCUE_OK);
  EXPECT_EQ(count, 0);
  // One observation is too little for a model: the set is that observation,
  // reported with its observed values in each objective's own sense.
  const double x[3] = {0.1, 1, 0.01}, y[2] = {1.0, 5.0}, g[1] = {1.0};
  ASSERT_EQ(rescue_observe_at(opt.h, x, 3, 1.0, y, 2, g, 1, nullptr, 0), RESCUE_OK);
  double px[3 * 2], py[2 * 2];
  EXPECT_EQ(rescue_pareto(opt.h, px, py, 0, &count), RESCUE_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(count, 1);
  ASSERT_EQ(rescue_pareto(opt.h, px, py, 2, &count), RESCUE_OK);
  ASSERT_EQ(count, 1);
  EXPECT_EQ(px[0], 0.1);
  EXPECT_EQ(py[0], 1.0);
  EXPECT_EQ(py[1], 5.0);
}

TEST(Pareto, WithAModelTheSetIsPredictedFeasibleInTheObjectivesOwnSense) {
  Opt opt(small_problem("random", 4));
  for (int i = 0; i < 25; ++i) {
    double x[3], s, y[2], g[1], z[1];
    int t;
    ASSERT_EQ(rescue_suggest(opt.h, x, 3, &s, &t), RESCUE_OK);
    simulate(x, s, y, g, z);
    ASSERT_EQ(rescue_observe(opt.h, t, y, 2, g, 1, z, 1), RESCUE_OK);
  }
  int count = 0;
  ASSERT_EQ(rescue_pareto(opt.h, nullptr, nullptr, 0, &count), RESCUE_OK);
  ASSERT_GT(count, 1);
  std::vector<double> px(3 * count), py(2 * count);
  ASSERT_EQ(rescue_pareto(opt.h, px.data(), py.data(), count, &count), RESCUE_OK);
  for (int i = 0; i < count; ++i) {
    EXPECT_EQ(px[3 * i + 1], std::round(px[3 * i + 1]));  // integer option
    EXPECT_LE(px[3 * i + 1] / 2.0, 4.0 + 0.2);            // memory = n / 2 <= 4, learned by the model
    // speed (maximized) is predicted near its true value 1 - a + 0.05 n, so it is reported
    // in its own sense, not negated.
    EXPECT_NEAR(py[2 * i + 1], 1.0 - px[3 * i] + 0.05 * px[3 * i + 1], 0.25);
  }
}

TEST(CostCallback, IsUsedAndMisbehaviourIsReported) {
  rescue_problem* p = small_problem();
  struct Ctx {
    int calls = 0;
    double value = 2.0;
  } ctx;
  auto fn = [](const double* x, int d, double s, void* user) -> double {
    auto* c = static_cast<Ctx*>(user);
    ++c->calls;
    return c->value * (1.0 + s) + 0.0 * x[d - 1];
  };
  ASSERT_EQ(rescue_problem_set_cost_callback(p, fn, &ctx), RESCUE_OK);
  Opt opt(p);
  const double x[3] = {0.5, 2.0, 0.01};
  double c;
  ASSERT_EQ(rescue_cost(opt.h, x, 3, 0.5, &c), RESCUE_OK);
  EXPECT_EQ(rescue_cost(opt.h, x, 3, std::nan(""), &c), RESCUE_ERR_NON_FINITE);
  EXPECT_EQ(rescue_cost(opt.h, x, 3, 1.5, &c), RESCUE_ERR_OUT_OF_RANGE);
  EXPECT_EQ(c, 3.0);
  EXPECT_GT(ctx.calls, 0);
  ctx.value = kNaN;
  EXPECT_EQ(rescue_cost(opt.h, x, 3, 0.5, &c), RESCUE_ERR_CALLBACK);
  double xs[3], s;
  int t;
  const std::string before = state(opt.h);
  EXPECT_EQ(rescue_suggest(opt.h, xs, 3, &s, &t), RESCUE_ERR_CALLBACK);
  EXPECT_EQ(state(opt.h), before);
  ctx.value = -1.0;
  EXPECT_EQ(rescue_cost(opt.h, x, 3, 0.5, &c), RESCUE_ERR_CALLBACK);
  EXPECT_NE(std::string(rescue_errmsg(opt.h)).find("positive"), std::string::npos);
}

// Separate handles are independent: the same runs on several threads give the
// same results as run one after another.
TEST(Threads, HandlesOnManyThreadsMatchSequentialRuns) {
  auto run = [](unsigned seed) {
    rescue_problem* p = small_problem("cost-aware-random", seed);
    rescue_optimizer* opt = nullptr;
    rescue_create(p, &opt);
    rescue_problem_free(p);
    std::vector<double> trace;
    for (int i = 0; i < 300; ++i) {
      double x[3], s, y[2], g[1], z[1];
      int t;
      if (rescue_suggest(opt, x, 3, &s, &t) != RESCUE_OK) break;
      simulate(x, s, y, g, z);
      rescue_observe(opt, t, y, 2, g, 1, z, 1);
      trace.insert(trace.end(), {x[0], x[1], x[2], s});
    }
    rescue_destroy(opt);
    return trace;
  };
  std::vector<std::vector<double>> sequential, parallel(4);
  for (unsigned i = 0; i < 4; ++i) sequential.push_back(run(100 + i));
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < 4; ++i) threads.emplace_back([&, i] { parallel[i] = run(100 + i); });
  for (auto& th : threads) th.join();
  EXPECT_EQ(parallel, sequential);
  EXPECT_NE(sequential[0], sequential[1]);
}

// The same with a model strategy (GP fits, optimizers, fantasies and batches on every thread),
// so ThreadSanitizer (.ci/sanitize) sees the model code run concurrently too.
TEST(Threads, ModelStrategyHandlesOnManyThreadsMatchSequentialRuns) {
  auto run = [](unsigned seed) {
    rescue_problem* p = small_problem("hvkg", seed);
    rescue_problem_set_param(p, "kg.pool", 16);
    rescue_problem_set_param(p, "kg.fantasies", 2);
    rescue_problem_set_param(p, "acq.starts", 8);
    rescue_problem_set_initial_budget(p, 3.0);
    rescue_optimizer* opt = nullptr;
    rescue_create(p, &opt);
    rescue_problem_free(p);
    std::vector<double> trace;
    for (int round = 0; round < 8; ++round) {
      double x[2 * 3], s[2], y[2], g[1], z[1];
      int t[2], count = 0;
      if (rescue_suggest_batch(opt, 2, x, 3, s, t, &count) != RESCUE_OK) break;
      for (int i = 0; i < count; ++i) {
        simulate(x + 3 * i, s[i], y, g, z);
        rescue_observe(opt, t[i], y, 2, g, 1, z, 1);
        trace.insert(trace.end(), {x[3 * i], x[3 * i + 1], x[3 * i + 2], s[i]});
      }
    }
    rescue_destroy(opt);
    return trace;
  };
  std::vector<std::vector<double>> sequential, parallel(2);
  for (unsigned i = 0; i < 2; ++i) sequential.push_back(run(200 + i));
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < 2; ++i) threads.emplace_back([&, i] { parallel[i] = run(200 + i); });
  for (auto& th : threads) th.join();
  EXPECT_EQ(parallel, sequential);
  EXPECT_EQ(sequential[0].size(), 8u * 2u * 4u);
}

}  // namespace

namespace {

TEST(Batch, SuggestionsAreSpreadOutAndEqualSequentialCalls) {
  auto make = [] {
    rescue_problem* p = small_problem("hvkg", 12);
    rescue_problem_set_param(p, "kg.pool", 32);
    rescue_problem_set_param(p, "kg.fantasies", 4);
    rescue_problem_set_param(p, "acq.starts", 24);
    rescue_problem_set_initial_budget(p, 4.0);
    return p;
  };
  Opt a(make()), b(make());
  for (Opt* o : {&a, &b})
    for (int i = 0; i < 8; ++i) {
      double x[3], s, y[2], g[1], z[1];
      int t;
      ASSERT_EQ(rescue_suggest(o->h, x, 3, &s, &t), RESCUE_OK);
      simulate(x, s, y, g, z);
      ASSERT_EQ(rescue_observe(o->h, t, y, 2, g, 1, z, 1), RESCUE_OK);
    }
  double xb[4 * 3], sb[4];
  int tb[4], count = 0;
  ASSERT_EQ(rescue_suggest_batch(a.h, 4, xb, 3, sb, tb, &count), RESCUE_OK) << rescue_errmsg(a.h);
  ASSERT_EQ(count, 4);
  for (int i = 0; i < 4; ++i) {
    double x[3], s;
    int t;
    ASSERT_EQ(rescue_suggest(b.h, x, 3, &s, &t), RESCUE_OK);
    EXPECT_EQ(std::vector<double>(x, x + 3), std::vector<double>(xb + 3 * i, xb + 3 * i + 3));
    EXPECT_EQ(s, sb[i]);
    EXPECT_EQ(t, tb[i]);
  }
  // The believer spreads the batch: no two suggestions coincide.
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) {
      double dist = std::fabs(sb[i] - sb[j]);
      for (int k = 0; k < 3; ++k) dist += std::fabs(xb[3 * i + k] - xb[3 * j + k]);
      EXPECT_GT(dist, 1e-6) << i << " " << j;
    }
  int n = 0;
  EXPECT_EQ(rescue_suggest_batch(a.h, 0, xb, 3, sb, tb, &n), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_suggest_batch(a.h, 2, xb, 3, sb, tb, nullptr), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_suggest_batch(a.h, 2, xb, 2, sb, tb, &n), RESCUE_ERR_SIZE_MISMATCH);
  EXPECT_EQ(n, 0);
}

TEST(Batch, StopsAtTheBudget) {
  rescue_problem* p = small_problem("random", 2);
  const double levels[] = {1.0}, costs[] = {10.0};
  rescue_problem_set_fidelity_levels(p, levels, 1, 1.0);
  rescue_problem_set_cost_levels(p, costs, 1);
  rescue_problem_set_budget(p, 25.0);
  Opt opt(p);
  double x[5 * 3], s[5];
  int t[5], count = 0;
  ASSERT_EQ(rescue_suggest_batch(opt.h, 5, x, 3, s, t, &count), RESCUE_OK);
  EXPECT_EQ(count, 2);  // two evaluations of cost 10 fit in 25
  EXPECT_NE(std::string(rescue_errmsg(opt.h)).find("budget"), std::string::npos) << rescue_errmsg(opt.h);
  EXPECT_EQ(rescue_suggest_batch(opt.h, 5, x, 3, s, t, &count), RESCUE_ERR_BUDGET_EXHAUSTED);
  EXPECT_EQ(count, 0);
}

}  // namespace

namespace {

double cost_from_fidelity(const double*, int, double s, void*) { return 1.0 + s; }

// A suggestion refused because nothing is affordable changes nothing, also for the RESCUE
// strategy, which learns its causal model when it first runs (found by fuzz_capi).
TEST(AskTell, SuggestionRefusedForBudgetLeavesTheStateUnchanged) {
  for (bool callback : {false, true}) {
    rescue_problem* p = small_problem("rescue", 5);
    if (callback) rescue_problem_set_cost_callback(p, cost_from_fidelity, nullptr);
    rescue_problem_set_budget(p, 0.5);  // below the cheapest evaluation either way
    Opt o(p);
    const std::string before = state(o.h);
    double x[3], s;
    int t;
    EXPECT_EQ(rescue_suggest(o.h, x, 3, &s, &t), RESCUE_ERR_BUDGET_EXHAUSTED) << callback;
    EXPECT_EQ(state(o.h), before) << (callback ? "callback cost" : "exponential cost");
  }
}

double cost_until_broken(const double*, int, double s, void* user) {
  return *static_cast<const bool*>(user) ? kNaN : 1.0 + s;
}

// A cost callback that fails while a model-based strategy runs (after the initial design)
// leaves the state as it was, although the strategy had fitted its models and learned its
// causal model by then; the next suggestion, with the callback mended, is the one an
// untouched optimizer makes (found by fuzz_capi).
TEST(AskTell, FailingCostCallbackLeavesTheStrategyUntouched) {
  for (const char* strategy : {"rescue", "hvkg"}) {
    bool broken[2] = {false, false};
    Opt a(small_problem(strategy, 5)), b(small_problem(strategy, 5));
    rescue_optimizer* both[2] = {a.h, b.h};
    for (int k = 0; k < 2; ++k) {
      rescue_problem* p = small_problem(strategy, 5);
      rescue_problem_set_cost_callback(p, cost_until_broken, &broken[k]);
      rescue_problem_set_initial_budget(p, 3.0);  // over after the five below
      rescue_destroy(both[k]);
      ASSERT_EQ(rescue_create(p, &both[k]), RESCUE_OK) << rescue_last_error();
      rescue_problem_free(p);
    }
    a.h = both[0];
    b.h = both[1];
    // The initial design, the same for both.
    double x[3], s, y[2], g[1], z[1];
    int t;
    for (int i = 0; i < 5; ++i) {
      for (rescue_optimizer* h : both) {
        ASSERT_EQ(rescue_suggest(h, x, 3, &s, &t), RESCUE_OK) << rescue_errmsg(h);
        simulate(x, s, y, g, z);
        ASSERT_EQ(rescue_observe(h, t, y, 2, g, 1, z, 1), RESCUE_OK) << rescue_errmsg(h);
      }
    }
    // Break b's callback until the initial design is over and the strategy itself has run.
    broken[1] = true;
    const std::string before = state(b.h);
    int failures = 0;
    while (rescue_suggest(b.h, x, 3, &s, &t) == RESCUE_ERR_CALLBACK && ++failures < 2)
      EXPECT_EQ(state(b.h), before) << strategy;
    EXPECT_EQ(failures, 2) << strategy << ": " << rescue_errmsg(b.h);
    EXPECT_EQ(state(b.h), before) << strategy;
    broken[1] = false;
    double xa[3], xb[3], sa, sb;
    int ta, tb;
    ASSERT_EQ(rescue_suggest(a.h, xa, 3, &sa, &ta), RESCUE_OK) << rescue_errmsg(a.h);
    ASSERT_EQ(rescue_suggest(b.h, xb, 3, &sb, &tb), RESCUE_OK) << rescue_errmsg(b.h);
    for (int j = 0; j < 3; ++j) EXPECT_EQ(xa[j], xb[j]) << strategy;
    EXPECT_EQ(sa, sb) << strategy;
  }
}

}  // namespace

namespace {

// A one-option, two-objective problem on a continuous fidelity in [0, 1], no
// initial design, with a small knowledge-gradient pool and search (the probe
// of the tests below), optionally with a constraint c <= 0.5.
rescue_problem* line_probe(const char* strategy, std::uint64_t seed, bool constrained) {
  rescue_problem* p = nullptr;
  rescue_problem_new(&p);
  rescue_problem_add_option(p, "a", 0.0, 1.0, RESCUE_CONTINUOUS);
  rescue_problem_set_fidelity_range(p, 0.0, 1.0, 1.0);
  rescue_problem_add_objective(p, "f1", RESCUE_MINIMIZE);
  rescue_problem_add_objective(p, "f2", RESCUE_MINIMIZE);
  if (constrained) rescue_problem_add_constraint(p, "c", 0.5, RESCUE_LEQ);
  rescue_problem_set_strategy(p, strategy);
  rescue_problem_set_seed(p, seed);
  rescue_problem_set_initial_budget(p, 0.0);
  rescue_problem_set_param(p, "kg.pool", 32);
  rescue_problem_set_param(p, "acq.starts", 16);
  return p;
}

// When the model is sure of everything (a front it has seen at every fidelity,
// identical across fidelities), every knowledge-gradient gain is zero and cost
// normalization alone would pick the cheapest fidelity forever; the strategy
// instead checks its recommendation at the target fidelity. kg.zero_gain < 0
// turns the check off.
TEST(ZeroGain, ASettledModelChecksItsRecommendationAtTheTarget) {
  for (const char* strategy : {"hvkg", "rescue"}) {
    auto first_suggestion = [&](double zero_gain) {
      rescue_problem* p = line_probe(strategy, 11, false);
      if (zero_gain != 0.0) rescue_problem_set_param(p, "kg.zero_gain", zero_gain);
      rescue_optimizer* opt = nullptr;
      EXPECT_EQ(rescue_create(p, &opt), RESCUE_OK) << rescue_last_error();
      rescue_problem_free(p);
      for (int i = 0; i <= 20; ++i)
        for (double s : {0.0, 0.5, 1.0}) {
          const double x = i / 20.0, y[2] = {x, 1.0 - x};
          EXPECT_EQ(rescue_observe_at(opt, &x, 1, s, y, 2, nullptr, 0, nullptr, 0), RESCUE_OK) << rescue_errmsg(opt);
        }
      // A batch of three: pending checks are believed at their means, so the
      // next check goes to another configuration.
      double x[3] = {-1.0, -1.0, -1.0}, s[3] = {-1.0, -1.0, -1.0};
      int t[3], count = 0;
      EXPECT_EQ(rescue_suggest_batch(opt, 3, x, 1, s, t, &count), RESCUE_OK) << rescue_errmsg(opt);
      EXPECT_EQ(count, 3);
      rescue_destroy(opt);
      return std::vector<double>{x[0], x[1], x[2], s[0], s[1], s[2]};
    };
    const std::vector<double> on = first_suggestion(0.0), off = first_suggestion(-1.0);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(on[3 + i], 1.0) << strategy << " " << i;
      for (int j = i + 1; j < 3; ++j) EXPECT_GT(std::fabs(on[i] - on[j]), 1e-6) << strategy << " " << i << " " << j;
    }
    EXPECT_LT(off[3], 1.0) << strategy;
  }
}

// Observations of line_probe's line at cheap fidelities only, so that the
// model is unsure at the target and the knowledge gradient's gains are not
// zero; with_constraint adds the constraint metric (0.1 + 0.05 x, well inside
// its bound).
void observe_cheap_line(rescue_optimizer* opt, bool with_constraint) {
  for (int i = 0; i <= 5; ++i)
    for (double s : {0.0, 0.3}) {
      const double x = i / 5.0, y[2] = {x + 0.1 * (1.0 - s), 1.0 - x * x}, g[1] = {0.1 + 0.05 * x};
      EXPECT_EQ(rescue_observe_at(opt, &x, 1, s, y, 2, with_constraint ? g : nullptr, with_constraint ? 1 : 0,
                                  nullptr, 0),
                RESCUE_OK)
          << rescue_errmsg(opt);
    }
}

// A checkpoint of an earlier version may set a parameter this version no
// longer has. At the value this version behaves as, it loads and the run goes
// on as from a checkpoint without it; at any other value it is refused with
// UNSUPPORTED_VERSION, and set_param refuses the name with UNKNOWN_NAME.
TEST(RetiredParameters, CheckpointsLoadAtTheBehaviourInForce) {
  for (const char* strategy : {"hvkg", "rescue"}) {
    SCOPED_TRACE(strategy);
    rescue_problem* p = line_probe(strategy, 5, false);
    EXPECT_EQ(rescue_problem_set_param(p, "kg.verify_share", 0.3), RESCUE_ERR_UNKNOWN_NAME);
    EXPECT_NE(std::string(rescue_problem_errmsg(p)).find("no longer exists"), std::string::npos)
        << rescue_problem_errmsg(p);
    ASSERT_EQ(rescue_problem_set_param(p, "kg.set_size", 7), RESCUE_OK);
    rescue_optimizer* opt = nullptr;
    ASSERT_EQ(rescue_create(p, &opt), RESCUE_OK) << rescue_last_error();
    rescue_problem_free(p);
    observe_cheap_line(opt, false);
    const std::string text = rescue_test::state(opt);
    const std::string key = "\"kg.set_size\":";
    const std::size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos) << text.substr(0, 400);
    auto with = [&](const std::string& extra) {
      std::string t = text;
      t.insert(at, extra + ",");
      return t;
    };
    auto next = [](rescue_optimizer* o, double* x, double* s) {
      int t = 0;
      return rescue_suggest(o, x, 1, s, &t);
    };
    double x0 = -1.0, s0 = -1.0;
    ASSERT_EQ(next(opt, &x0, &s0), RESCUE_OK) << rescue_errmsg(opt);
    const std::string old = with("\"kg.verify_share\":0,\"rescue.prune\":0,\"rescue.log_lengthscale_var\":0.5");
    rescue_optimizer* loaded = nullptr;
    ASSERT_EQ(rescue_load(old.data(), old.size(), &loaded), RESCUE_OK) << rescue_last_error();
    double x1 = -1.0, s1 = -1.0;
    ASSERT_EQ(next(loaded, &x1, &s1), RESCUE_OK) << rescue_errmsg(loaded);
    EXPECT_EQ(x1, x0);
    EXPECT_EQ(s1, s0);
    rescue_destroy(loaded);
    const std::string other = with("\"rescue.prune\":1");
    EXPECT_EQ(rescue_load(other.data(), other.size(), &loaded), RESCUE_ERR_UNSUPPORTED_VERSION);
    EXPECT_NE(std::string(rescue_last_error()).find("rescue.prune"), std::string::npos) << rescue_last_error();
    rescue_destroy(opt);
  }
}

}  // namespace

namespace {

// While no configuration is predicted feasible at the target, every
// hypervolume gain is zero and a cost-aware random draw would mostly pick the
// cheap fidelities, whose observations here only repeat that the constraint is
// violated. The strategies instead value an observation by how much it can
// raise the best probability of feasibility at the target, or, where nothing
// is expected to raise it, check the configuration most likely feasible at
// the target; either way they look beyond the fidelities already seen (where
// the model knows the answer).
// Where at least kg.feasible_pool configurations of the inner pool are
// predicted feasible, the pool is left as it was: the suggestion is the one
// kg.feasible_pool = 0 (the pool without widening) gives, to the last bit.
// Where fewer pass (asking for 1000 here), the pool is widened and the random
// stream with it, so the two part.
TEST(FeasiblePool, AWideFeasibleRegionLeavesThePoolAsItWas) {
  for (const char* strategy : {"hvkg", "rescue"}) {
    auto suggestion = [&](double pool, double feasible_pool) {
      rescue_problem* p = line_probe(strategy, 7, true);
      rescue_problem_set_param(p, "kg.pool", pool);
      if (feasible_pool >= 0.0) rescue_problem_set_param(p, "kg.feasible_pool", feasible_pool);
      rescue_optimizer* opt = nullptr;
      EXPECT_EQ(rescue_create(p, &opt), RESCUE_OK) << rescue_last_error();
      rescue_problem_free(p);
      observe_cheap_line(opt, true);
      double x = -1.0, s = -1.0;
      int t = 0;
      EXPECT_EQ(rescue_suggest(opt, &x, 1, &s, &t), RESCUE_OK) << rescue_errmsg(opt);
      rescue_destroy(opt);
      return std::pair<double, double>(x, s);
    };
    const std::pair<double, double> plain = suggestion(96, 0.0);
    EXPECT_EQ(suggestion(96, -1.0), plain) << strategy;
    EXPECT_NE(suggestion(96, 1000.0), plain) << strategy;
  }
}

TEST(SeekFeasibility, NothingPredictedFeasibleLooksBeyondTheFidelitiesSeen) {
  for (const char* strategy : {"hvkg", "rescue"}) {
    for (std::uint64_t seed : {3u, 4u, 5u}) {
      rescue_problem* p = line_probe(strategy, seed, true);
      rescue_optimizer* opt = nullptr;
      ASSERT_EQ(rescue_create(p, &opt), RESCUE_OK) << rescue_last_error();
      rescue_problem_free(p);
      for (int i = 0; i <= 10; ++i)
        for (double s : {0.0, 0.2, 0.4}) {
          const double x = i / 10.0, y[2] = {x, 1.0 - x}, g[1] = {1.0 + 0.05 * std::sin(7.0 * x)};
          ASSERT_EQ(rescue_observe_at(opt, &x, 1, s, y, 2, g, 1, nullptr, 0), RESCUE_OK) << rescue_errmsg(opt);
        }
      double x = -1.0, s = -1.0;
      int t = 0;
      ASSERT_EQ(rescue_suggest(opt, &x, 1, &s, &t), RESCUE_OK) << rescue_errmsg(opt);
      EXPECT_GT(s, 0.4) << strategy << " seed " << seed << " x " << x;
      rescue_destroy(opt);
    }
  }
}

}  // namespace
