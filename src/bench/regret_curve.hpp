// Regret bookkeeping of one run (experiment protocol): log10 hypervolume
// regret with a floor, the best regret so far, and the area under the best
// log-regret-vs-cost curve (trapezoidal rule, divided by the budget).
#pragma once
#include <vector>

namespace rescue::bench {

/// Smallest regret the protocol resolves: log10 regret is at least -6.
constexpr double kRegretFloor = 1e-6;

/// log10(max(hv_max - hv, kRegretFloor)).
double log10_regret(double hv_max, double hv);

/// Running minimum of v (best so far).
std::vector<double> running_min(const std::vector<double>& v);

/// A curve through the points (cost[i], value[i]), cost non-decreasing:
/// linear between consecutive points, constant before the first point and
/// after the last one (the last value is carried to the end of the budget).
/// Returns its integral over [from, to] divided by (to - from): the trapezoidal
/// rule on the knots inside the interval. Throws for empty or mismatched input,
/// decreasing costs or to <= from.
double average_over_cost(const std::vector<double>& cost, const std::vector<double>& value, double from, double to);

/// The curve's value at cost c (as above).
double value_at_cost(const std::vector<double>& cost, const std::vector<double>& value, double c);

/// Area under regret: the average of the best log regret (running minimum of
/// log_regret) over cumulative cost in [init_end, init_end + budget].
double area_under_regret(const std::vector<double>& cost, const std::vector<double>& log_regret, double init_end,
                         double budget);

}  // namespace rescue::bench
