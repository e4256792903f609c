#include "moo/hv_kernels.hpp"

#include "moo/hv4d.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
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

// Contribution of p (d = 3) to the members of a z-ordered linked list: sweep
// up in z over the members clipped to p's box; `stair` is the staircase of
// their (x, y) projections (x increasing, y decreasing) and `area` its area
// inside the box. The pass stops at the first member that covers the rest of
// the box. If pred is given, *pred receives the last visited node below index
// t (the list position where p belongs), and `dominated` the visited nodes
// above t that p weakly dominates.
double pass3(const double* p, const double* c, const std::int32_t* next, std::int32_t first,
             const double* ref, std::vector<std::pair<double, double>>& stair, std::int32_t t,
             std::int32_t* pred, std::vector<std::int32_t>* dominated) {
  const double px = p[0], py = p[1], pz = p[2];
  if (!(px < ref[0] && py < ref[1] && pz < ref[2])) return 0.0;
  const double full = (ref[0] - px) * (ref[1] - py);
  stair.clear();
  double area = 0.0, below = pz, uncovered = 0.0;
  auto x_less = [](double v, const std::pair<double, double>& e) { return v < e.first; };
  for (std::int32_t node = first; node >= 0; node = next[node]) {
    const double* q = c + 3 * node;
    if (pred != nullptr) {
      if (node < t) {
        *pred = node;
      } else if (q[0] >= px && q[1] >= py && q[2] >= pz) {
        dominated->push_back(node);
      }
    }
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

// m = 5: sweep upwards in the fifth objective; each point adds its exclusive
// four-dimensional contribution, found without limit sets by one level more
// of the same idea: sweep up in the fourth objective over the members seen
// so far, clipped to the point's box, while a z-ordered linked list of the
// clipped members (pruned as in hv4d) gives the covered three-dimensional
// volume of the box, grown by pass3. The sweep stops at the first member
// that covers the rest of the box, and members dominated in the first four
// objectives by a later point are dropped for good. O(n^2) passes of pass3
// in all: O(n^3 log s) worst case.
double hv5d(const double* p, std::size_t k, const double* ref) {
  std::vector<std::int32_t> by_v(k), by_z(k), by_w(k), zpos(k), wpos(k);
  std::iota(by_v.begin(), by_v.end(), 0);
  std::iota(by_z.begin(), by_z.end(), 0);
  std::iota(by_w.begin(), by_w.end(), 0);
  auto coord_less = [&](std::size_t j) {
    return [&, j](std::int32_t a, std::int32_t b) { return p[a * 5 + j] < p[b * 5 + j]; };
  };
  std::sort(by_v.begin(), by_v.end(), coord_less(4));
  std::sort(by_z.begin(), by_z.end(), coord_less(2));
  std::sort(by_w.begin(), by_w.end(), coord_less(3));
  for (std::size_t t = 0; t < k; ++t) {
    zpos[by_z[t]] = static_cast<std::int32_t>(t);
    wpos[by_w[t]] = static_cast<std::int32_t>(t);
  }
  SortedList clipped;
  clipped.reset(3);
  clipped.coords.resize(3 * k);
  clipped.next.assign(k, -1);
  clipped.prev.assign(k, -1);
  std::vector<std::int32_t> active, dominated;  // active: ids in ascending w
  std::vector<std::pair<double, double>> stair;

  auto contribution4 = [&](const double* q) {
    const double full = (ref[0] - q[0]) * (ref[1] - q[1]) * (ref[2] - q[2]);
    clipped.first = -1;
    double covered = 0.0, below = q[3], uncovered = 0.0;
    for (std::int32_t a : active) {
      const double* s = p + a * 5;
      const std::int32_t t = zpos[a];
      double* c = clipped.coords.data() + 3 * t;
      c[0] = std::max(s[0], q[0]);
      c[1] = std::max(s[1], q[1]);
      c[2] = std::max(s[2], q[2]);
      const double w = std::max(s[3], q[3]);
      std::int32_t pred = -1;
      dominated.clear();
      const double g = pass3(c, clipped.coords.data(), clipped.next.data(), clipped.first, ref,
                             stair, t, &pred, &dominated);
      if (g <= 0.0) continue;
      uncovered += (full - covered) * (w - below);
      below = w;
      covered += g;
      clipped.link_after(pred, t);
      for (std::int32_t node : dominated) clipped.unlink(node);
      if (c[0] == q[0] && c[1] == q[1] && c[2] == q[2]) return uncovered;  // the rest is covered
    }
    return std::max(0.0, uncovered + (full - covered) * (ref[3] - below));
  };

  double slice = 0.0, volume = 0.0;
  for (std::size_t r = 0; r < k; ++r) {
    const std::int32_t id = by_v[r];
    const double* q = p + id * 5;
    const double gain = contribution4(q);
    slice += gain;
    const double next = r + 1 < k ? p[by_v[r + 1] * 5 + 4] : ref[4];
    volume += slice * (next - q[4]);
    if (gain <= 0.0) continue;
    active.erase(std::remove_if(active.begin(), active.end(),
                                [&](std::int32_t a) {
                                  const double* s = p + a * 5;
                                  return s[0] >= q[0] && s[1] >= q[1] && s[2] >= q[2] && s[3] >= q[3];
                                }),
                 active.end());
    const auto at = std::lower_bound(active.begin(), active.end(), id, [&](std::int32_t a, std::int32_t b) {
      return wpos[a] < wpos[b];
    });
    active.insert(at, id);
  }
  return volume;
}

// m >= 5: sweep upwards in the last objective; each point adds its exclusive
// (m-1)-dimensional contribution, computed from its limit set (filtered to
// its non-dominated points, then measured recursively down to hv4d or hv5d).
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
    case 1: {
      double best = points[0];
      for (std::size_t i = 1; i < k; ++i) best = std::min(best, points[i]);
      return ref[0] - best;
    }
    case 2:
      return hv2d(points, k, ref);
    case 3:
      return hv3d(points, k, ref);
    case 4:
      return hv4d_plus(points, k, ref);
    case 5:
      // hv5d avoids the limit sets' sorting and filtering, which pays while
      // the sets are small; beyond about 200 points (measured on random
      // fronts) the filtered limit sets of hv_sweep are cheaper.
      return k <= 200 ? hv5d(points, k, ref) : hv_sweep(points, k, d, ref);
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
  next.push_back(-1);
  prev.push_back(-1);
  const double key = p[d - 1];
  std::int32_t pred = -1;
  for (std::int32_t s = first; s >= 0 && coords[s * d + d - 1] <= key; s = next[s]) pred = s;
  link_after(pred, t);
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
  return pass3(p, c, next, set.first, ref, stair, INT32_MAX, nullptr, nullptr);
}

}  // namespace rescue::moo::detail
