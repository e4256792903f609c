// rescue_fidelity_agreement: how well each band of fidelities predicts the
// target. Checked here: the target band's figures equal those computed by
// brute force from rescue_cross_validate when every observation is at the
// target (leave-one-out on the same model); a faithful cheap band orders the
// target's configurations as the target does and a reflected one does not;
// bad calls are rejected, write nothing and change nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "rescue.h"
#include "test_helpers.hpp"

namespace {

constexpr int kD = 2, kM = 2;

// Two objectives on [0,1]^2 whose fronts depend on where x sits.
void target_function(const double* x, double* y) {
  y[0] = (x[0] - 0.2) * (x[0] - 0.2) + (x[1] - 0.3) * (x[1] - 0.3);
  y[1] = (x[0] - 0.8) * (x[0] - 0.8) + 0.5 * (x[1] - 0.6) * (x[1] - 0.6);
}

rescue_problem* two_option_problem() {
  rescue_problem* p = nullptr;
  rescue_problem_new(&p);
  rescue_problem_add_option(p, "u", 0.0, 1.0, RESCUE_CONTINUOUS);
  rescue_problem_add_option(p, "v", 0.0, 1.0, RESCUE_CONTINUOUS);
  rescue_problem_set_fidelity_range(p, 0.0, 1.0, 1.0);
  rescue_problem_add_objective(p, "f", RESCUE_MINIMIZE);
  rescue_problem_add_objective(p, "g", RESCUE_MAXIMIZE);
  rescue_problem_set_strategy(p, "random");
  rescue_problem_set_seed(p, 4);
  rescue_problem_set_budget(p, 1e9);
  return p;
}

// Observes x at s with the target function, reflected (x -> 1 - x) below the
// target when reflect; "g" is maximized, so its value is negated.
void observe(rescue_optimizer* opt, const double* x, double s, bool reflect) {
  double xr[kD] = {x[0], x[1]};
  if (reflect && s < 1.0) xr[0] = 1.0 - x[0], xr[1] = 1.0 - x[1];
  double y[kM];
  target_function(xr, y);
  y[0] += 0.05 * (1.0 - s);
  y[1] = -y[1];
  ASSERT_EQ(rescue_observe_at(opt, x, kD, s, y, kM, nullptr, 0, nullptr, 0), RESCUE_OK) << rescue_errmsg(opt);
}

// Average ranks, then Pearson on them: Spearman's coefficient by its definition.
double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  auto ranks = [](const std::vector<double>& v) {
    std::vector<double> r(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      double below = 0.0, equal = 0.0;
      for (double w : v) below += w < v[i] ? 1.0 : 0.0, equal += w == v[i] ? 1.0 : 0.0;
      r[i] = below + (equal + 1.0) / 2.0;
    }
    return r;
  };
  const std::vector<double> ra = ranks(a), rb = ranks(b);
  const double n = static_cast<double>(a.size());
  double ma = 0, mb = 0;
  for (size_t i = 0; i < a.size(); ++i) ma += ra[i] / n, mb += rb[i] / n;
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    sab += (ra[i] - ma) * (rb[i] - mb);
    saa += (ra[i] - ma) * (ra[i] - ma);
    sbb += (rb[i] - mb) * (rb[i] - mb);
  }
  return sab / std::sqrt(saa * sbb);
}

struct Agreement {
  std::vector<double> rms, rank;
  std::vector<int> rows;
  int target_rows = -1;
};

Agreement agreement(rescue_optimizer* opt, const std::vector<double>& bands) {
  const int nb = static_cast<int>(bands.size() / 2);
  Agreement a;
  a.rms.assign(static_cast<size_t>(nb) * kM, -7.0);
  a.rank = a.rms;
  a.rows.assign(static_cast<size_t>(nb), -1);
  EXPECT_EQ(rescue_fidelity_agreement(opt, bands.data(), nb, a.rms.data(), a.rank.data(), a.rows.data(), kM,
                                      &a.target_rows),
            RESCUE_OK)
      << rescue_errmsg(opt);
  return a;
}

TEST(FidelityAgreement, TheTargetBandIsLeaveOneOutAtTheTarget) {
  rescue_problem* p = two_option_problem();
  rescue_optimizer* opt = nullptr;
  ASSERT_EQ(rescue_create(p, &opt), RESCUE_OK);
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const int n = 14;
  for (int i = 0; i < n; ++i) {
    const double x[kD] = {u(gen), u(gen)};
    observe(opt, x, 1.0, false);
  }
  std::vector<double> mean(n * kM), sd(n * kM), y(n * kM);
  int count = 0;
  ASSERT_EQ(rescue_cross_validate(opt, mean.data(), sd.data(), kM, n, &count), RESCUE_OK) << rescue_errmsg(opt);
  for (int i = 0; i < n; ++i) {
    double x[kD], s;
    int failed = 0;
    ASSERT_EQ(rescue_get_observation(opt, i, x, kD, &s, &y[i * kM], kM, nullptr, 0, &failed), RESCUE_OK);
  }
  const Agreement a = agreement(opt, {1.0, 1.0, 0.0, 1.0});
  EXPECT_EQ(a.target_rows, n);
  EXPECT_EQ(a.rows, (std::vector<int>{n, n}));
  for (int k = 0; k < kM; ++k) {
    double z2 = 0.0;
    std::vector<double> yk, mk;
    for (int i = 0; i < n; ++i) {
      const double z = (y[i * kM + k] - mean[i * kM + k]) / sd[i * kM + k];
      z2 += z * z;
      yk.push_back(y[i * kM + k]);
      mk.push_back(mean[i * kM + k]);
    }
    const double rms = std::sqrt(z2 / n), rank = spearman(mk, yk);
    for (int b = 0; b < 2; ++b) {
      EXPECT_NEAR(a.rms[b * kM + k], rms, 1e-6 * rms) << "band " << b << " output " << k;
      EXPECT_NEAR(a.rank[b * kM + k], rank, 1e-9) << "band " << b << " output " << k;
    }
    EXPECT_GT(rank, 0.8) << "a smooth function is predicted from its own observations";
  }
  rescue_destroy(opt);
  rescue_problem_free(p);
}

// Cheap observations at s = 0.2 (faithful: the target plus an offset;
// reflected: the target at 1 - x), then a few at the target.
rescue_optimizer* with_cheap_band(rescue_problem* p, bool reflect) {
  rescue_optimizer* opt = nullptr;
  EXPECT_EQ(rescue_create(p, &opt), RESCUE_OK);
  std::mt19937_64 gen(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = 0; i < 30; ++i) {
    const double x[kD] = {u(gen), u(gen)};
    observe(opt, x, 0.2, reflect);
  }
  for (int i = 0; i < 8; ++i) {
    const double x[kD] = {u(gen), u(gen)};
    observe(opt, x, 1.0, reflect);
  }
  return opt;
}

TEST(FidelityAgreement, AFaithfulBandRanksTheTargetAndAReflectedOneDoesNot) {
  rescue_problem* p = two_option_problem();
  rescue_optimizer* faithful = with_cheap_band(p, false);
  rescue_optimizer* reflected = with_cheap_band(p, true);
  // The last band mixes both: each target row predicted from the cheap rows and the other target rows.
  const std::vector<double> bands = {0.0, 0.5, 1.0, 1.0, 0.0, 1.0};
  const Agreement f = agreement(faithful, bands), r = agreement(reflected, bands);
  EXPECT_EQ(f.rows, (std::vector<int>{30, 8, 38}));
  EXPECT_EQ(f.target_rows, 8);
  for (int k = 0; k < kM; ++k) {
    std::cout << "output " << k << ": faithful rms_z " << f.rms[k] << " rank " << f.rank[k] << "; reflected rms_z "
              << r.rms[k] << " rank " << r.rank[k] << "\n";
    EXPECT_GT(f.rank[k], 0.8) << "output " << k;
    EXPECT_LT(r.rank[k], 0.3) << "output " << k;
    EXPECT_TRUE(std::isfinite(f.rms[kM + k]) && std::isfinite(r.rms[kM + k])) << "the target band's reference";
    EXPECT_GT(f.rank[2 * kM + k], 0.8) << "faithful cheap rows and the other target rows, output " << k;
  }
  rescue_destroy(faithful);
  rescue_destroy(reflected);
  rescue_problem_free(p);
}

TEST(FidelityAgreement, BadCallsAreRejectedWriteNothingAndChangeNothing) {
  rescue_problem* p = two_option_problem();
  rescue_optimizer* opt = nullptr;
  ASSERT_EQ(rescue_create(p, &opt), RESCUE_OK);
  double rms[4] = {-7, -7, -7, -7}, rank[4] = {-7, -7, -7, -7};
  int rows[2] = {-1, -1}, tr = -1;
  const double band[2] = {0.0, 1.0};
  EXPECT_EQ(rescue_fidelity_agreement(nullptr, band, 1, rms, rank, rows, kM, &tr), RESCUE_ERR_NULL_POINTER);
  const double x[kD] = {0.5, 0.5};
  observe(opt, x, 1.0, false);
  EXPECT_EQ(rescue_fidelity_agreement(opt, band, 1, rms, rank, rows, kM, &tr), RESCUE_ERR_INVALID_STATE);
  for (int i = 0; i < 6; ++i) {
    const double xi[kD] = {0.1 * i, 0.9 - 0.1 * i};
    observe(opt, xi, i % 2 ? 1.0 : 0.3, false);
  }
  const std::string before = rescue_test::state(opt);
  EXPECT_EQ(rescue_fidelity_agreement(opt, nullptr, 1, rms, rank, rows, kM, &tr), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_fidelity_agreement(opt, band, 1, nullptr, rank, rows, kM, &tr), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_fidelity_agreement(opt, band, 0, rms, rank, rows, kM, &tr), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_fidelity_agreement(opt, band, 1, rms, rank, rows, kM + 1, &tr), RESCUE_ERR_SIZE_MISMATCH);
  const double reversed[2] = {0.8, 0.2}, outside[2] = {0.5, 1.5}, nan[2] = {NAN, 1.0};
  EXPECT_EQ(rescue_fidelity_agreement(opt, reversed, 1, rms, rank, rows, kM, &tr), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_fidelity_agreement(opt, outside, 1, rms, rank, rows, kM, &tr), RESCUE_ERR_OUT_OF_RANGE);
  EXPECT_EQ(rescue_fidelity_agreement(opt, nan, 1, rms, rank, rows, kM, &tr), RESCUE_ERR_NON_FINITE);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(rms[i] == -7.0 && rank[i] == -7.0) << "a rejected call wrote to its buffers";
  EXPECT_TRUE(rows[0] == -1 && rows[1] == -1 && tr == -1) << "a rejected call wrote its counts";
  // Optional outputs may be NULL; a band with no observation gives NaN.
  const double two[4] = {0.0, 0.1, 0.0, 1.0};
  EXPECT_EQ(rescue_fidelity_agreement(opt, two, 2, rms, nullptr, nullptr, kM, nullptr), RESCUE_OK)
      << rescue_errmsg(opt);
  EXPECT_TRUE(std::isnan(rms[0]) && std::isnan(rms[1]));
  EXPECT_TRUE(std::isfinite(rms[2]) && std::isfinite(rms[3]));
  EXPECT_EQ(rescue_test::state(opt), before);
  rescue_destroy(opt);
  rescue_problem_free(p);
}

}  // namespace
