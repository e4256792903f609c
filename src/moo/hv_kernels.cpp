#include "moo/hv_kernels.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <utility>

namespace rescue::moo::detail {
namespace {

// m = 2: sort by the first objective, then each point that improves the
// second objective adds the strip between its height and the previous one.
// O(k log k).
double hv2d(const double* p, std::size_t k, const double* ref) {
  std::vector<std::pair<double, double>> q(k);
  for (std::size_t i = 0; i < k; ++i) q[i] = {p[2 * i], p[2 * i + 1]};
  std::sort(q.begin(), q.end());
  double volume = 0.0, height = ref[1];
  for (const auto& [x, y] : q) {
    if (y < height) {
      volume += (ref[0] - x) * (height - y);
      height = y;
    }
  }
  return volume;
}

// m = 3: sweep upwards in the third objective. The tree holds the staircase
// of the (x, y) projections seen so far (x increasing, y decreasing) and
// `area` its two-dimensional hypervolume, updated by the area each new point
// adds; between consecutive heights the slice volume is area * dz.
// Each point is inserted and erased at most once: O(k log k).
double hv3d(const double* p, std::size_t k, const double* ref) {
  std::vector<std::array<double, 3>> q(k);
  for (std::size_t i = 0; i < k; ++i) q[i] = {p[3 * i], p[3 * i + 1], p[3 * i + 2]};
  std::sort(q.begin(), q.end(),
            [](const std::array<double, 3>& a, const std::array<double, 3>& b) { return a[2] < b[2]; });
  std::map<double, double> stair;
  double area = 0.0, volume = 0.0;
  for (std::size_t i = 0; i < k; ++i) {
    const double x = q[i][0], y = q[i][1];
    auto it = stair.upper_bound(x);
    if (it == stair.begin() || std::prev(it)->second > y) {
      // Not covered: add the area between the staircase and the point's box,
      // erasing the steps the point covers.
      it = stair.lower_bound(x);
      double height = it == stair.begin() ? ref[1] : std::prev(it)->second;
      double left = x, added = 0.0;
      while (it != stair.end() && it->second >= y) {
        added += (it->first - left) * (height - y);
        left = it->first;
        height = it->second;
        it = stair.erase(it);
      }
      const double right = it == stair.end() ? ref[0] : it->first;
      added += (right - left) * (height - y);
      stair.emplace_hint(it, x, y);
      area += added;
    }
    const double next = i + 1 < k ? q[i + 1][2] : ref[2];
    volume += area * (next - q[i][2]);
  }
  return volume;
}

// m >= 4: sweep upwards in the last objective; `slice` is the (d-1)-dimensional
// hypervolume of the points seen so far, grown by each point's exclusive
// contribution.
double hv_sweep(const double* p, std::size_t k, std::size_t d, const double* ref) {
  const std::size_t dd = d - 1;
  std::vector<std::size_t> order(k);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return p[a * d + dd] < p[b * d + dd]; });
  std::vector<double> proj(k * dd), z(k);
  for (std::size_t r = 0; r < k; ++r) {
    std::copy(p + order[r] * d, p + order[r] * d + dd, proj.begin() + r * dd);
    z[r] = p[order[r] * d + dd];
  }
  std::vector<double> limit;
  double slice = 0.0, volume = 0.0;
  for (std::size_t r = 0; r < k; ++r) {
    slice += contribution(proj.data() + r * dd, proj.data(), r, dd, ref, limit);
    const double next = r + 1 < k ? z[r + 1] : ref[dd];
    volume += slice * (next - z[r]);
  }
  return volume;
}

}  // namespace

double box_volume(const double* p, std::size_t d, const double* ref) {
  double v = 1.0;
  for (std::size_t j = 0; j < d; ++j) {
    if (p[j] >= ref[j]) return 0.0;
    v *= ref[j] - p[j];
  }
  return v;
}

double hv_inside(const double* points, std::size_t k, std::size_t d, const double* ref) {
  if (k == 0) return 0.0;
  switch (d) {
    case 1: {
      double best = points[0];
      for (std::size_t i = 1; i < k; ++i) best = std::min(best, points[i]);
      return ref[0] - best;
    }
    case 2:
      return hv2d(points, k, ref);
    case 3:
      return hv3d(points, k, ref);
    default:
      return hv_sweep(points, k, d, ref);
  }
}

double contribution(const double* p, const double* set, std::size_t k, std::size_t d,
                    const double* ref, std::vector<double>& limit) {
  const double box = box_volume(p, d, ref);
  if (box <= 0.0) return 0.0;
  // The limit set: each member clipped to p's box. Only the part of p's box
  // that the set already covers is the hypervolume of the limit set.
  limit.resize(k * d);
  std::size_t count = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const double* q = set + i * d;
    double* l = limit.data() + count * d;
    bool covers = true, inside = true;
    for (std::size_t j = 0; j < d; ++j) {
      if (q[j] > p[j]) {
        covers = false;
        l[j] = q[j];
        if (q[j] >= ref[j]) inside = false;
      } else {
        l[j] = p[j];
      }
    }
    if (covers) return 0.0;  // q weakly dominates p: nothing new
    if (inside) ++count;
  }
  if (count == 0) return box;
  // hv_inside only reads the limit set; deeper levels use their own scratch.
  return std::max(0.0, box - hv_inside(limit.data(), count, d, ref));
}

}  // namespace rescue::moo::detail
