#include "bench/regret_curve.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "util/error.hpp"

namespace rescue::bench {

double log10_regret(double hv_max, double hv) {
  if (!std::isfinite(hv_max) || !std::isfinite(hv)) fail(Status::NonFinite, "log regret of a non-finite hypervolume");
  return std::log10(std::max(hv_max - hv, kRegretFloor));
}

std::vector<double> running_min(const std::vector<double>& v) {
  std::vector<double> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = i == 0 ? v[0] : std::min(out[i - 1], v[i]);
  return out;
}

namespace {
void check_curve(const std::vector<double>& cost, const std::vector<double>& value) {
  if (cost.empty()) fail(Status::InvalidArgument, "a curve needs at least one point");
  if (cost.size() != value.size())
    fail(Status::SizeMismatch, "curve: " + std::to_string(cost.size()) + " costs, " + std::to_string(value.size()) +
                                   " values");
  for (std::size_t i = 0; i < cost.size(); ++i) {
    if (!std::isfinite(cost[i]) || !std::isfinite(value[i])) fail(Status::NonFinite, "curve: non-finite point");
    if (i > 0 && cost[i] < cost[i - 1]) fail(Status::InvalidArgument, "curve: costs must be non-decreasing");
  }
}
}  // namespace

double value_at_cost(const std::vector<double>& cost, const std::vector<double>& value, double c) {
  check_curve(cost, value);
  if (c <= cost.front()) return value.front();
  if (c >= cost.back()) return value.back();
  // First knot strictly above c; its predecessor is at or below c.
  const std::size_t j = static_cast<std::size_t>(std::upper_bound(cost.begin(), cost.end(), c) - cost.begin());
  const double c0 = cost[j - 1], c1 = cost[j];
  if (c1 == c0) return value[j];
  return value[j - 1] + (value[j] - value[j - 1]) * (c - c0) / (c1 - c0);
}

double average_over_cost(const std::vector<double>& cost, const std::vector<double>& value, double from, double to) {
  check_curve(cost, value);
  if (!(to > from)) fail(Status::InvalidArgument, "average over cost: empty interval");
  // Knots: the interval's ends and every curve point strictly inside it, in
  // order. Points sharing a cost form a vertical jump, which has no area.
  std::vector<double> c{from};
  std::vector<double> v{value_at_cost(cost, value, from)};
  for (std::size_t i = 0; i < cost.size(); ++i) {
    if (cost[i] > from && cost[i] < to) {
      c.push_back(cost[i]);
      v.push_back(value[i]);
    }
  }
  c.push_back(to);
  v.push_back(value_at_cost(cost, value, to));
  double area = 0.0;
  for (std::size_t k = 1; k < c.size(); ++k) area += 0.5 * (v[k] + v[k - 1]) * (c[k] - c[k - 1]);
  return area / (to - from);
}

double area_under_regret(const std::vector<double>& cost, const std::vector<double>& log_regret, double init_end,
                         double budget) {
  if (!(budget > 0.0)) fail(Status::InvalidArgument, "area under regret: the budget must be positive");
  return average_over_cost(cost, running_min(log_regret), init_end, init_end + budget);
}

}  // namespace rescue::bench
