#include "moo/hv_greedy.hpp"

#include <queue>

#include "moo/hv_kernels.hpp"
#include "moo/input_checks.hpp"

namespace rescue::moo {
namespace {

struct Entry {
  double gain;          // exact gain when computed; an upper bound once stale
  std::size_t index;    // pool index
  std::size_t version;  // size of the chosen set when the gain was computed
};

struct Lower {
  bool operator()(const Entry& a, const Entry& b) const {
    if (a.gain != b.gain) return a.gain < b.gain;
    return a.index > b.index;  // equal gains: the lower index on top
  }
};

}  // namespace

GreedyHvResult greedy_hv_selection(const double* pool, std::size_t n_pool, std::size_t m,
                                   const double* ref, std::size_t max_points,
                                   const double* base, std::size_t n_base) {
  const char* where = "greedy_hv_selection";
  detail::check_points(where, pool, n_pool, m, "pool");
  detail::check_points(where, base, n_base, m, "base");
  detail::check_vector(where, ref, m, "reference point");

  // The current set: base points strictly inside ref, then the chosen points.
  std::vector<double> current;
  std::size_t k = 0;
  for (std::size_t i = 0; i < n_base; ++i) {
    const double* q = base + i * m;
    if (detail::box_volume(q, m, ref) <= 0.0) continue;
    current.insert(current.end(), q, q + m);
    ++k;
  }
  GreedyHvResult result;
  result.hypervolume = detail::hv_inside(current.data(), k, m, ref);
  if (max_points == 0) return result;

  // For m = 2, 3 the current set is also kept in ascending last objective, so
  // each gain is one early-stopping pass with no sorting or allocation.
  const bool sorted = m == 2 || m == 3;
  detail::SortedList list;
  std::vector<std::pair<double, double>> stair;
  if (sorted) {
    list.reset(m);
    for (std::size_t i = 0; i < k; ++i) list.insert(current.data() + i * m);
  }
  std::vector<double> limit;
  auto gain = [&](std::size_t i) {
    return sorted ? detail::contribution_sorted(pool + i * m, list, ref, stair)
                  : detail::contribution(pool + i * m, current.data(), k, m, ref, limit);
  };
  std::priority_queue<Entry, std::vector<Entry>, Lower> heap;
  for (std::size_t i = 0; i < n_pool; ++i) {
    const double g = gain(i);
    if (g > 0.0) heap.push({g, i, 0});
  }
  while (!heap.empty() && result.indices.size() < max_points) {
    Entry top = heap.top();
    heap.pop();
    const std::size_t version = result.indices.size();
    if (top.version != version) {
      top.gain = gain(top.index);
      top.version = version;
      if (top.gain <= 0.0) continue;  // by submodularity it can never gain again
      if (!heap.empty() && Lower()(top, heap.top())) {
        heap.push(top);  // another bound may still beat it
        continue;
      }
    }
    result.indices.push_back(top.index);
    result.gains.push_back(top.gain);
    result.hypervolume += top.gain;
    if (sorted) {
      list.insert(pool + top.index * m);
    } else {
      current.insert(current.end(), pool + top.index * m, pool + top.index * m + m);
      ++k;
    }
  }
  return result;
}

}  // namespace rescue::moo
