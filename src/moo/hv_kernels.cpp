#include "moo/hv_kernels.hpp"

#include "moo/hv4d.hpp"
#include "moo/rank_set.hpp"

#include <algorithm>
#include <cstdint>
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

// m = 3: sweep upwards in the third objective. The staircase of the (x, y)
// projections seen so far (x increasing, y decreasing) is a RankSet of x-ranks
// (ranks by (x, y), so a step at equal x and lower y comes first and covers the
// later ones), and `area` its two-dimensional hypervolume, updated by the area
// each new point adds; between consecutive heights the slice volume is
// area * dz. Two sorts, then each point is inserted and erased at most once,
// each step O(log_64 k): O(k log k) in all, dominated by the sorts.
double hv3d(const double* p, std::size_t k, const double* ref) {
  // Ranks by (x, y); xr / yr hold the coordinates of each rank.
  std::vector<std::pair<std::pair<double, double>, std::uint32_t>> by_x(k);
  for (std::size_t i = 0; i < k; ++i) by_x[i] = {{p[3 * i], p[3 * i + 1]}, static_cast<std::uint32_t>(i)};
  std::sort(by_x.begin(), by_x.end());
  std::vector<double> xr(k), yr(k);
  std::vector<std::pair<double, std::uint32_t>> by_z(k);
  for (std::size_t r = 0; r < k; ++r) {
    xr[r] = by_x[r].first.first;
    yr[r] = by_x[r].first.second;
    const std::uint32_t i = by_x[r].second;
    by_z[r] = {p[3 * i + 2], static_cast<std::uint32_t>(r)};
  }
  std::sort(by_z.begin(), by_z.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  RankSet stair;
  stair.reset(k);
  double area = 0.0, volume = 0.0;
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t r = by_z[i].second;
    const double x = xr[r], y = yr[r];
    const std::size_t before = stair.pred(r);
    if (before == RankSet::npos || yr[before] > y) {
      // Not covered: add the area between the staircase and the point's box,
      // erasing the steps the point covers.
      double height = before == RankSet::npos ? ref[1] : yr[before];
      double left = x, added = 0.0;
      std::size_t after = stair.succ(r);
      while (after != RankSet::npos && yr[after] >= y) {
        added += (xr[after] - left) * (height - y);
        left = xr[after];
        height = yr[after];
        stair.erase(after);
        after = stair.succ(after);
      }
      const double right = after == RankSet::npos ? ref[0] : xr[after];
      added += (right - left) * (height - y);
      stair.insert(r);
      area += added;
    }
    const double next = i + 1 < k ? by_z[i + 1].first : ref[2];
    volume += area * (next - by_z[i].first);
  }
  return volume;
}

// Contribution of p (d = 3) to the members of a z-ordered linked list: sweep
// up in z over the members clipped to p's box; `stair` is the staircase of
// their (x, y) projections (x increasing, y decreasing) and `area` its area
// inside the box. The pass stops at the first member that covers the rest of
// the box.
double pass3(const double* p, const double* c, const std::int32_t* next, std::int32_t first,
             const double* ref, std::vector<std::pair<double, double>>& stair) {
  const double px = p[0], py = p[1], pz = p[2];
  if (!(px < ref[0] && py < ref[1] && pz < ref[2])) return 0.0;
  const double full = (ref[0] - px) * (ref[1] - py);
  stair.clear();
  double area = 0.0, below = pz, uncovered = 0.0;
  auto x_less = [](double v, const std::pair<double, double>& e) { return v < e.first; };
  for (std::int32_t node = first; node >= 0; node = next[node]) {
    const double* q = c + 3 * node;
    const double z = std::max(q[2], pz);
    if (z >= ref[2]) break;
    const double x = std::max(q[0], px), y = std::max(q[1], py);
    if (x >= ref[0] || y >= ref[1]) continue;
    auto it = std::upper_bound(stair.begin(), stair.end(), x, x_less);
    if (it != stair.begin() && std::prev(it)->second <= y) continue;  // already covered
    uncovered += (full - area) * (z - below);
    below = z;
    if (x == px && y == py) return uncovered;  // covers the whole rest of the box
    // it = first step with x' > x; back up over a step with x' == x (it is covered).
    auto lo = it;
    if (lo != stair.begin() && std::prev(lo)->first == x) --lo;
    double height = lo == stair.begin() ? ref[1] : std::prev(lo)->second;
    double left = x, added = 0.0;
    auto hi = lo;
    while (hi != stair.end() && hi->second >= y) {
      added += (hi->first - left) * (height - y);
      left = hi->first;
      height = hi->second;
      ++hi;
    }
    const double right = hi == stair.end() ? ref[0] : hi->first;
    added += (right - left) * (height - y);
    area += added;
    if (hi == lo) {
      stair.insert(lo, {x, y});
    } else {
      *lo = {x, y};
      stair.erase(lo + 1, hi);
    }
  }
  return std::max(0.0, uncovered + (full - area) * (ref[2] - below));
}

// m >= 6: sweep upwards in the last objective; each point adds its exclusive
// (m-1)-dimensional contribution, computed from its limit set (filtered to
// its non-dominated points, then measured recursively down to hv5d_sweep).
// O(n) limit sets per level, each filtered in O(n f) (f = survivors).
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
  // `active` holds the points seen so far minus those dominated in the
  // projection by a later one, which can never matter again.
  std::vector<double> limit, active;
  std::size_t n_active = 0;
  double slice = 0.0, volume = 0.0;
  for (std::size_t r = 0; r < k; ++r) {
    const double* q = proj.data() + r * dd;
    const double gain = contribution(q, active.data(), n_active, dd, ref, limit);
    slice += gain;
    const double next = r + 1 < k ? z[r + 1] : ref[dd];
    volume += slice * (next - z[r]);
    if (gain <= 0.0) continue;
    std::size_t kept = 0;
    for (std::size_t a = 0; a < n_active; ++a) {
      const double* c = active.data() + a * dd;
      std::size_t j = 0;
      while (j < dd && c[j] >= q[j]) ++j;
      if (j == dd) continue;
      if (kept != a) std::copy_n(c, dd, active.begin() + kept * dd);
      ++kept;
    }
    active.resize(kept * dd);
    active.insert(active.end(), q, q + dd);
    n_active = kept + 1;
  }
  return volume;
}

// Compacts the first k points of `pts` to those not weakly dominated by
// another (one copy of duplicates), as WFG does with its limit sets: clipping
// to a box leaves most points dominated, and dropping them here costs
// O(k log k + k f d) (f = survivors) instead of a contribution pass each.
std::size_t keep_nondominated(std::vector<double>& pts, std::size_t k, std::size_t d) {
  std::vector<std::pair<double, std::size_t>> by_sum(k);
  for (std::size_t i = 0; i < k; ++i) {
    double s = 0.0;
    for (std::size_t j = 0; j < d; ++j) s += pts[i * d + j];
    by_sum[i] = {s, i};
  }
  // A weak dominator never has a larger sum (rounding aside, which only
  // costs a kept dominated point, harmless to the hypervolume).
  std::sort(by_sum.begin(), by_sum.end());
  std::vector<double> kept;
  kept.reserve(k * d);
  std::size_t f = 0;
  for (const auto& [sum, i] : by_sum) {
    const double* q = pts.data() + i * d;
    bool dominated = false;
    for (std::size_t a = 0; a < f && !dominated; ++a) {
      const double* r = kept.data() + a * d;
      std::size_t j = 0;
      while (j < d && r[j] <= q[j]) ++j;
      dominated = j == d;
    }
    if (!dominated) {
      kept.insert(kept.end(), q, q + d);
      ++f;
    }
  }
  pts.swap(kept);
  return f;
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
    case 1:
      return ref[0] - *std::min_element(points, points + k);
    case 2:
      return hv2d(points, k, ref);
    case 3:
      return hv3d(points, k, ref);
    case 4:
      return hv4d_plus(points, k, ref);
    case 5:
      return hv5d_sweep(points, k, ref);
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
  if (d >= 4) count = keep_nondominated(limit, count, d);
  // hv_inside only reads the limit set; deeper levels use their own scratch.
  return std::max(0.0, box - hv_inside(limit.data(), count, d, ref));
}

void SortedList::insert(const double* p) {
  const auto t = static_cast<std::int32_t>(next.size());
  coords.insert(coords.end(), p, p + d);
  const double key = p[d - 1];
  std::int32_t pred = -1;
  for (std::int32_t s = first; s >= 0 && coords[s * d + d - 1] <= key; s = next[s]) pred = s;
  next.push_back(pred < 0 ? first : next[pred]);  // may reallocate: link t after it
  (pred < 0 ? first : next[pred]) = t;
}

double contribution_sorted(const double* p, const SortedList& set, const double* ref,
                           std::vector<std::pair<double, double>>& stair) {
  const double* c = set.coords.data();
  const std::int32_t* next = set.next.data();
  if (set.d == 2) {
    // Sweep up in y; `left` is the least clipped x seen, so [p.x, left) of the
    // current row of p's box is still uncovered.
    const double px = p[0], py = p[1];
    if (!(px < ref[0] && py < ref[1])) return 0.0;
    double left = ref[0], below = py, uncovered = 0.0;
    for (std::int32_t t = set.first; t >= 0; t = next[t]) {
      const double y = std::max(c[2 * t + 1], py);
      if (y >= ref[1]) break;
      const double x = std::max(c[2 * t], px);
      if (x >= left) continue;
      uncovered += (left - px) * (y - below);
      below = y;
      left = x;
      if (x == px) return uncovered;  // the rest of the box is covered
    }
    return uncovered + (left - px) * (ref[1] - below);
  }
  return pass3(p, c, next, set.first, ref, stair);
}

}  // namespace rescue::moo::detail
