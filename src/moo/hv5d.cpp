#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "moo/hv4d.hpp"

namespace rescue::moo::detail {
namespace {

using Point3 = std::array<double, 3>;
using Point4 = std::array<double, 4>;
// A step of a two-dimensional staircase, and its node in the ZStaircase
// being built (if one is).
struct Step {
  double x, y;
  ZStaircase::Node* node;
};

inline bool lex_less(const Point3& a, const Point3& b) {
  return a[2] < b[2] || (a[2] == b[2] && (a[1] < b[1] || (a[1] == b[1] && a[0] < b[0])));
}

// Sorts t[0, k) by `less`: insertion for the few points usual here.
template <class Less>
void sort_small(Point3* t, std::size_t k, Less less) {
  if (k > 24) {
    std::sort(t, t + k, less);
    return;
  }
  for (std::size_t i = 1; i < k; ++i) {
    const Point3 v = t[i];
    std::size_t j = i;
    for (; j > 0 && less(v, t[j - 1]); --j) t[j] = t[j - 1];
    t[j] = v;
  }
}

// Volume of the union of the boxes [t_i, top), every t_i strictly below top,
// given in (z, y, x) order: sweep up in z over the (x, y) staircase of the
// points seen so far (an array, x increasing and y decreasing), whose area
// grows by what each point adds. A point is weakly dominated exactly when the
// staircase already covers it (its dominators come first in that order); the
// others, if `set` is given, are appended to it in that order, with their
// neighbours on the staircase. O(k) per point on the staircase: O(k^2)
// worst, and k is small where this is used.
double union3(Point3* t, std::size_t k, const double* top, std::vector<Step>& buf,
              ZStaircase* set) {
  if (k == 0) return 0.0;
  if (k == 1) {
    if (set) set->append(t[0].data(), nullptr, nullptr);
    return (top[0] - t[0][0]) * (top[1] - t[0][1]) * (top[2] - t[0][2]);
  }
  if (buf.size() < k + 1) buf.resize(k + 1);
  Step* stair = buf.data();
  std::size_t size = 0;
  double area = 0.0, volume = 0.0, below = 0.0;
  for (std::size_t r = 0; r < k; ++r) {
    const double x = t[r][0], y = t[r][1];
    std::size_t i = 0;
    while (i < size && stair[i].x <= x) ++i;
    if (i > 0 && stair[i - 1].y <= y) continue;  // covered
    volume += area * (t[r][2] - below);
    below = t[r][2];
    std::size_t lo = i;
    if (lo > 0 && stair[lo - 1].x == x) --lo;  // a step the point covers
    double height = lo == 0 ? top[1] : stair[lo - 1].y;
    double left = x, added = 0.0;
    std::size_t hi = lo;
    for (; hi < size && stair[hi].y >= y; ++hi) {
      added += (stair[hi].x - left) * (height - y);
      left = stair[hi].x;
      height = stair[hi].y;
    }
    added += ((hi < size ? stair[hi].x : top[0]) - left) * (height - y);
    ZStaircase::Node* node = nullptr;
    if (set)
      node = set->append(t[r].data(), lo == 0 ? nullptr : stair[lo - 1].node,
                         hi < size ? stair[hi].node : nullptr);
    area += added;
    // Steps [lo, hi) give way to (x, y).
    if (hi == lo) {
      for (std::size_t j = size; j > lo; --j) stair[j] = stair[j - 1];
      ++size;
    } else if (hi > lo + 1) {
      const std::size_t gone = hi - lo - 1;
      for (std::size_t j = hi; j < size; ++j) stair[j - gone] = stair[j];
      size -= gone;
    }
    stair[lo] = {x, y, node};
  }
  return volume + area * (top[2] - below);
}

double box3(const double* lo, const double* top) {
  return (top[0] - lo[0]) * (top[1] - lo[1]) * (top[2] - lo[2]);
}

// Scratch reused across the contributions of one sweep.
struct Scratch {
  std::vector<Point3> base;  // clipped points awaiting union3
  std::vector<Point3> upper;  // those above the bottom face, before they join them
  std::vector<Step> stair;
};

// Four-dimensional contribution of q to the members of `active` (ascending
// fourth objective). The members at or below q's fourth objective, clipped to
// q's box in (x, y, z), give the part of that box still uncovered at q's
// height: those equal to q in two coordinates cover a slab and lower the top
// of the box, the others are measured by union3, which also appends the
// non-dominated ones, in (z, y, x) order, to the ZStaircase for the rest. The
// members above come in one by one in ascending fourth objective, each
// shrinking the uncovered part by its 3-D contribution (one ZStaircase pass),
// until one covers q's (x, y, z). O(b^2) for the b clipped members below (a
// few dozen at most in practice), then O(s) per member above for a clipped
// set of s: O(b^2 + a s) for a members above.
double contribution4(const std::vector<Point4>& active, const double* q, const double* ref,
                     Scratch& w, ZStaircase& set, std::size_t& from,
                     std::vector<std::size_t>& dominated) {
  dominated.clear();
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t n = active.size();
  const double q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
  // The members at or below q's height, clipped to q's box, in one pass: the
  // slabs give the top of the box, the others (equal to q in at most one
  // coordinate) are stored in two runs, those on its bottom face (z equal
  // to q's) and those above it. (Stored and reloaded coordinate by
  // coordinate: copies of whole points reloaded them with wider loads than
  // their stores, which stalls.)
  if (w.base.size() < n) {
    w.base.resize(n);
    w.upper.resize(n);
  }
  Point3* base = w.base.data();
  Point3* upper = w.upper.data();
  double t0 = ref[0], t1 = ref[1], t2 = ref[2];
  std::size_t i = 0, b = 0, u = 0;
  from = 0;
  for (; i < n; ++i) {
    const double* a = active[i].data();
    const double a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    if (a3 > q3) break;
    from += a3 < q3;
    const bool e0 = a0 <= q0, e1 = a1 <= q1, e2 = a2 <= q2;  // clipped to q's value
    if (e0 & e1 & e2) return 0.0;  // a dominates q
    t0 = std::min(t0, (e1 & e2) ? a0 : inf);
    t1 = std::min(t1, (e0 & e2) ? a1 : inf);
    t2 = std::min(t2, (e0 & e1) ? a2 : inf);
    const double c0 = std::max(a0, q0), c1 = std::max(a1, q1), c2 = std::max(a2, q2);
    base[b][0] = upper[u][0] = c0;
    base[b][1] = upper[u][1] = c1;
    base[b][2] = upper[u][2] = c2;
    const bool general = int(e0) + int(e1) + int(e2) <= 1;
    b += general & e2;
    u += general & !e2;
    // A member at q's height that q dominates (q itself is then kept).
    if (a3 == q3 && (a0 >= q0) & (a1 >= q1) & (a2 >= q2)) dominated.push_back(i);
  }
  // Then those strictly inside the top. A slab is equal to q in two
  // coordinates and at least the top in the third (the top is the least
  // such), so the members it covers drop out here. Sorted in (z, y, x) order
  // for union3: those on the bottom face first, by (y, x), then the others;
  // two short sorts cost fewer comparisons than one of both.
  std::size_t kb = 0, ku = 0;
  for (std::size_t j = 0; j < b; ++j) {
    const double c0 = base[j][0], c1 = base[j][1];
    base[kb][0] = c0;
    base[kb][1] = c1;
    base[kb][2] = q2;
    kb += (c0 < t0) & (c1 < t1);
  }
  for (std::size_t j = 0; j < u; ++j) {
    const double c0 = upper[j][0], c1 = upper[j][1], c2 = upper[j][2];
    upper[ku][0] = c0;
    upper[ku][1] = c1;
    upper[ku][2] = c2;
    ku += (c0 < t0) & (c1 < t1) & (c2 < t2);
  }
  b = kb;
  u = ku;
  sort_small(base, b, [](const Point3& s, const Point3& t) {
    return s[1] < t[1] || (s[1] == t[1] && s[0] < t[0]);
  });
  sort_small(upper, u, [](const Point3& s, const Point3& t) { return lex_less(s, t); });
  std::copy(upper, upper + u, base + b);
  const std::size_t m = b + u;
  assert(std::is_sorted(base, base + m, lex_less));
  double top[3] = {t0, t1, t2};
  if (i == n) {  // nothing above: no ZStaircase needed
    const double uncovered = box3(q, top) - union3(base, m, top, w.stair, nullptr);
    return std::max(0.0, uncovered * (ref[3] - q3));
  }
  set.reset(top, m + (n - i));
  double uncovered = box3(q, top) - union3(base, m, top, w.stair, &set);
  double volume = 0.0, below = q[3];
  for (; i < active.size(); ++i) {
    const double* a = active[i].data();
    volume += uncovered * (a[3] - below);
    below = a[3];
    const double c[3] = {std::max(a[0], q[0]), std::max(a[1], q[1]), std::max(a[2], q[2])};
    if (c[0] == a[0] && c[1] == a[1] && c[2] == a[2]) dominated.push_back(i);  // q dominates a
    if (c[0] >= top[0] || c[1] >= top[1] || c[2] >= top[2]) continue;  // in a covered slab
    const bool e0 = c[0] == q[0], e1 = c[1] == q[1], e2 = c[2] == q[2];
    if (e0 && e1 && e2) return volume;  // covers the rest
    ZStaircase::Node* n = set.make(c[0], c[1], c[2]);
    if (set.locate(n)) {
      // A slab lowers the top, so the members inside it are skipped at once.
      if (e1 && e2) {
        uncovered -= set.add_face(n, 0);
        top[0] = c[0];
      } else if (e0 && e2) {
        uncovered -= set.add_face(n, 1);
        top[1] = c[1];
      } else if (e0 && e1) {
        uncovered -= set.add_face(n, 2);
        top[2] = c[2];
      } else {
        uncovered -= set.add(n);
      }
    }
  }
  return std::max(0.0, volume + uncovered * (ref[3] - below));
}

}  // namespace

// m = 5: sweep up in the fifth objective; each point adds its exclusive 4-D
// contribution (contribution4) to the slice volume. Points weakly dominated
// in the first four objectives by a later one are dropped for good. O(n)
// contributions of O(b^2 + a s) each (b <= n members below, a <= n above, a
// clipped set of s <= n): O(n^3) at worst, far less on typical fronts.
double hv5d_sweep(const double* p, std::size_t k, const double* ref) {
  std::vector<std::int32_t> order(k);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::int32_t a, std::int32_t b) { return p[a * 5 + 4] < p[b * 5 + 4]; });
  // The members as values, not ids: the contributions read them in order.
  std::vector<Point4> active;
  active.reserve(k);
  Scratch w;
  ZStaircase set;
  std::vector<std::size_t> dominated;
  double slice = 0.0, volume = 0.0;
  for (std::size_t r = 0; r < k; ++r) {
    const double* q = p + order[r] * 5;
    std::size_t from = 0;
    const double gain = contribution4(active, q, ref, w, set, from, dominated);
    slice += gain;
    const double next = r + 1 < k ? p[order[r + 1] * 5 + 4] : ref[4];
    volume += slice * (next - q[4]);
    if (gain <= 0.0) continue;
    // Members q weakly dominates in the first four objectives never matter
    // again (contribution4 lists them: they lie at or above q's fourth
    // objective, and none beyond the member that covers q's (x, y, z),
    // which would dominate them); q goes in at `from`.
    if (!dominated.empty()) {
      std::size_t kept = dominated.front(), d = 0;
      for (std::size_t t = kept; t < active.size(); ++t) {
        if (d < dominated.size() && dominated[d] == t) {
          ++d;
        } else {
          active[kept++] = active[t];
        }
      }
      active.resize(kept);
    }
    active.insert(active.begin() + static_cast<std::ptrdiff_t>(from), {q[0], q[1], q[2], q[3]});
  }
  return volume;
}

}  // namespace rescue::moo::detail
