#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "moo/hv4d.hpp"

namespace rescue::moo::detail {
namespace {

// Clipped members that cover q's box in two of (x, y, z) are dominated by
// the one among them with the least third coordinate: `edge` holds those
// least values, so most clipped members are discarded in O(1) before any
// pass over the set.
struct Edges {
  double edge[3];  // edge[j]: least coordinate j of the members equal to q in the other two

  bool covers(const double* c) const { return c[0] >= edge[0] || c[1] >= edge[1] || c[2] >= edge[2]; }
  // Records c if it is such a member; false otherwise.
  bool note(const double* c, const double* q) {
    const bool e0 = c[0] == q[0], e1 = c[1] == q[1], e2 = c[2] == q[2];
    if (e1 && e2) edge[0] = std::min(edge[0], c[0]);
    if (e0 && e2) edge[1] = std::min(edge[1], c[1]);
    if (e0 && e1) edge[2] = std::min(edge[2], c[2]);
    return (e0 && e1) || (e0 && e2) || (e1 && e2);
  }
};

// Four-dimensional contribution of q to the members of `active` (ascending
// fourth objective): the members at or below q's fourth objective, clipped
// to q's box in (x, y, z), form a ZStaircase that gives the part of q's 3-D
// box still uncovered at q's height; the members above it come in one by
// one in ascending fourth objective, each shrinking that part by its 3-D
// contribution, until one covers q's (x, y, z) entirely. Each member costs
// at most one ZStaircase pass over the clipped set: O(a s) for a members and
// a clipped set of size s (s is small, since clipping makes most members
// dominated).
using Point3 = std::array<double, 3>;
using Point4 = std::array<double, 4>;

double contribution4(const std::vector<Point4>& active, const double* q, const double* ref,
                     ZStaircase& set, std::vector<Point3>& base) {
  set.reset(ref, active.size() + 1);
  const double inf = std::numeric_limits<double>::infinity();
  Edges edges{{inf, inf, inf}};
  base.clear();
  std::size_t i = 0;
  for (; i < active.size(); ++i) {
    const double* a = active[i].data();
    if (a[3] > q[3]) break;
    const Point3 c = {std::max(a[0], q[0]), std::max(a[1], q[1]), std::max(a[2], q[2])};
    if (c[0] == q[0] && c[1] == q[1] && c[2] == q[2]) return 0.0;  // a dominates q
    if (!edges.note(c.data(), q)) base.push_back(c);
  }
  // The (at most three) edge members and the others they leave, appended in
  // (z, y, x) order: each costs a walk along the top staircase only.
  base.erase(std::remove_if(base.begin(), base.end(),
                            [&](const Point3& c) { return edges.covers(c.data()); }),
             base.end());
  for (int j = 0; j < 3; ++j) {
    if (edges.edge[j] == inf) continue;
    base.push_back({q[0], q[1], q[2]});
    base.back()[j] = edges.edge[j];
  }
  std::sort(base.begin(), base.end(), [](const Point3& a, const Point3& b) {
    return a[2] < b[2] || (a[2] == b[2] && (a[1] < b[1] || (a[1] == b[1] && a[0] < b[0])));
  });
  for (const Point3& c : base) set.append(set.make(c[0], c[1], c[2]));
  ZStaircase::Node* u = set.make(q[0], q[1], q[2]);
  if (!set.locate(u)) return 0.0;
  double uncovered = set.contribution(u);
  double volume = 0.0, below = q[3];
  for (; i < active.size(); ++i) {
    const double* a = active[i].data();
    volume += uncovered * (a[3] - below);
    below = a[3];
    const double c[3] = {std::max(a[0], q[0]), std::max(a[1], q[1]), std::max(a[2], q[2])};
    if (c[0] == q[0] && c[1] == q[1] && c[2] == q[2]) return volume;  // covers the rest
    if (edges.covers(c)) continue;
    ZStaircase::Node* n = set.make(c[0], c[1], c[2]);
    if (set.locate(n)) {
      uncovered -= set.add(n);
      edges.note(c, q);
    }
  }
  return std::max(0.0, volume + uncovered * (ref[3] - below));
}

}  // namespace

// m = 5: sweep up in the fifth objective; each point adds its exclusive 4-D
// contribution (contribution4) to the slice volume. Points weakly dominated
// in the first four objectives by a later one are dropped for good. O(n)
// contributions of O(n s) each: O(n^2 s), O(n^3) at worst.
double hv5d_sweep(const double* p, std::size_t k, const double* ref) {
  std::vector<std::int32_t> order(k);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::int32_t a, std::int32_t b) { return p[a * 5 + 4] < p[b * 5 + 4]; });
  // The members as values, not ids: the contributions read them in order.
  std::vector<Point4> active;
  active.reserve(k);
  ZStaircase set;
  std::vector<Point3> base;
  double slice = 0.0, volume = 0.0;
  for (std::size_t r = 0; r < k; ++r) {
    const double* q = p + order[r] * 5;
    const double gain = contribution4(active, q, ref, set, base);
    slice += gain;
    const double next = r + 1 < k ? p[order[r + 1] * 5 + 4] : ref[4];
    volume += slice * (next - q[4]);
    if (gain <= 0.0) continue;
    // Members q weakly dominates in the first four objectives never matter
    // again; they lie at or above q's fourth objective, where q goes in.
    const std::size_t from = static_cast<std::size_t>(
        std::lower_bound(active.begin(), active.end(), q[3],
                         [](const Point4& a, double w) { return a[3] < w; }) -
        active.begin());
    std::size_t kept = from;
    for (std::size_t t = from; t < active.size(); ++t) {
      const Point4& s = active[t];
      if (!(s[0] >= q[0] && s[1] >= q[1] && s[2] >= q[2] && s[3] >= q[3])) active[kept++] = s;
    }
    active.resize(kept);
    active.insert(active.begin() + static_cast<std::ptrdiff_t>(from), {q[0], q[1], q[2], q[3]});
  }
  return volume;
}

}  // namespace rescue::moo::detail
