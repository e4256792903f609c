#include "acq/inner_selection.hpp"

#include <queue>
#include <utility>
#include <vector>

#include "moo/hv_kernels.hpp"
#include "moo/input_checks.hpp"

namespace rescue::acq {

double greedy_gp_ci(const double* gp, const double* ci, std::size_t n, std::size_t m, const double* ref, double w,
                    std::size_t max_points) {
  // The inputs are checked once here: the gains below run on the raw kernel,
  // since one inner maximization computes thousands of them.
  const char* where = "greedy_gp_ci";
  moo::detail::check_points(where, gp, n, m, "GP values");
  moo::detail::check_points(where, ci, n, m, "causal values");
  moo::detail::check_vector(where, ref, m, "reference point");
  std::vector<double> set_gp, set_ci, limit;
  set_gp.reserve(max_points * m);
  set_ci.reserve(max_points * m);
  auto gain = [&](std::size_t i) {
    const std::size_t k = set_gp.size() / m;
    return moo::detail::contribution(gp + i * m, set_gp.data(), k, m, ref, limit) +
           w * moo::detail::contribution(ci + i * m, set_ci.data(), k, m, ref, limit);
  };
  // Max-heap of (stale upper bound, -index): ties go to the lowest index.
  std::priority_queue<std::pair<double, long>> heap;
  for (std::size_t i = 0; i < n; ++i) heap.emplace(gain(i), -static_cast<long>(i));
  double total = 0.0;
  std::size_t chosen = 0;
  while (chosen < max_points && !heap.empty()) {
    const std::size_t i = static_cast<std::size_t>(-heap.top().second);
    heap.pop();
    const double g = gain(i);
    if (!heap.empty() && g < heap.top().first) {
      heap.emplace(g, -static_cast<long>(i));  // stale: its bound dropped below the next one
      continue;
    }
    if (g <= 0.0) break;  // nothing adds anything any more
    total += g;
    set_gp.insert(set_gp.end(), gp + i * m, gp + (i + 1) * m);
    set_ci.insert(set_ci.end(), ci + i * m, ci + (i + 1) * m);
    ++chosen;
  }
  return total;
}

}  // namespace rescue::acq
