#include "acq/inner_selection.hpp"

#include <queue>
#include <utility>
#include <vector>

#include "moo/hypervolume.hpp"

namespace rescue::acq {

double greedy_gp_ci(const double* gp, const double* ci, std::size_t n, std::size_t m, const double* ref, double w,
                    std::size_t max_points) {
  std::vector<double> set_gp, set_ci;
  auto gain = [&](std::size_t i) {
    return moo::hv_contribution(gp + i * m, set_gp.data(), set_gp.size() / m, m, ref) +
           w * moo::hv_contribution(ci + i * m, set_ci.data(), set_ci.size() / m, m, ref);
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
