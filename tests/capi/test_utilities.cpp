// The multi-objective utilities of the C ABI, checked against closed forms.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "rescue.h"

namespace {

TEST(Hypervolume, ClosedFormsAndErrors) {
  // Two boxes of a staircase: [1,3]x[2,3] union [2,3]x[1,3] = 2 + 2 - 1 = 3.
  const double pts[] = {1.0, 2.0, 2.0, 1.0};
  const double ref[] = {3.0, 3.0};
  double hv = -1;
  ASSERT_EQ(rescue_hypervolume(pts, 2, 2, ref, &hv), RESCUE_OK);
  EXPECT_DOUBLE_EQ(hv, 3.0);
  ASSERT_EQ(rescue_hypervolume(nullptr, 0, 2, ref, &hv), RESCUE_OK);
  EXPECT_EQ(hv, 0.0);
  const double cube[] = {0.0, 0.0, 0.0};
  const double ref3[] = {2.0, 3.0, 4.0};
  ASSERT_EQ(rescue_hypervolume(cube, 1, 3, ref3, &hv), RESCUE_OK);
  EXPECT_DOUBLE_EQ(hv, 24.0);
  EXPECT_EQ(rescue_hypervolume(pts, -1, 2, ref, &hv), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_hypervolume(pts, 2, 0, ref, &hv), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_hypervolume(pts, 2, 2, nullptr, &hv), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_hypervolume(pts, 2, 2, ref, nullptr), RESCUE_ERR_NULL_POINTER);
  const double nan_pts[] = {1.0, std::numeric_limits<double>::quiet_NaN()};
  EXPECT_NE(rescue_hypervolume(nan_pts, 1, 2, ref, &hv), RESCUE_OK);
  EXPECT_GT(std::string(rescue_last_error()).size(), 0u);
}

TEST(ParetoFilter, PlainAndConstrained) {
  const double pts[] = {1, 4, 2, 2, 3, 3, 4, 1, 0.5, 0.5};
  int keep[5], n = -1;
  ASSERT_EQ(rescue_pareto_filter(pts, 4, 2, nullptr, keep, &n), RESCUE_OK);
  ASSERT_EQ(n, 3);
  EXPECT_EQ(keep[0], 0);
  EXPECT_EQ(keep[1], 1);
  EXPECT_EQ(keep[2], 3);
  // The fifth point dominates all but is infeasible: feasible points win.
  const double viol[] = {0, 0, 0, 0, 1.0};
  ASSERT_EQ(rescue_pareto_filter(pts, 5, 2, viol, keep, &n), RESCUE_OK);
  EXPECT_EQ(n, 3);
  ASSERT_EQ(rescue_pareto_filter(pts, 5, 2, nullptr, keep, &n), RESCUE_OK);
  ASSERT_EQ(n, 1);
  EXPECT_EQ(keep[0], 4);
  EXPECT_EQ(rescue_pareto_filter(pts, 5, 2, nullptr, nullptr, &n), RESCUE_ERR_NULL_POINTER);
  EXPECT_EQ(rescue_pareto_filter(pts, -2, 2, nullptr, keep, &n), RESCUE_ERR_INVALID_ARGUMENT);
  // Violations are non-negative; a negative one is not quietly taken as feasible.
  const double negative[] = {0, 0, -0.5, 0, 1.0};
  EXPECT_EQ(rescue_pareto_filter(pts, 5, 2, negative, keep, &n), RESCUE_ERR_OUT_OF_RANGE);
  EXPECT_NE(std::string(rescue_last_error()).find("violation[2]"), std::string::npos) << rescue_last_error();
  ASSERT_EQ(rescue_pareto_filter(nullptr, 0, 2, nullptr, nullptr, &n), RESCUE_OK);
  EXPECT_EQ(n, 0);
}

}  // namespace
