#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "moo/hv4d.hpp"

namespace rescue::moo::detail {
namespace {

// Four-dimensional contribution of q (5 coordinates, only the first four
// read) to the members of `active` (ids into p, ascending fourth objective):
// the members at or below q's fourth objective, clipped to q's box in
// (x, y, z), form a ZStaircase that gives the part of q's 3-D box still
// uncovered at q's height; the members above it come in one by one in
// ascending fourth objective, each shrinking that part by its 3-D
// contribution, until one covers q's (x, y, z) entirely. Each member costs
// one ZStaircase pass over the clipped set: O(a s) for a members and a
// clipped set of size s (s is small, since clipping makes most members
// dominated).
double contribution4(const double* p, const std::vector<std::int32_t>& active, const double* q,
                     const double* ref, ZStaircase& set) {
  set.reset(ref, active.size() + 1);
  std::size_t i = 0;
  for (; i < active.size(); ++i) {
    const double* a = p + active[i] * 5;
    if (a[3] > q[3]) break;
    if (a[0] <= q[0] && a[1] <= q[1] && a[2] <= q[2]) return 0.0;  // dominates q
    ZStaircase::Node* u =
        set.make(std::max(a[0], q[0]), std::max(a[1], q[1]), std::max(a[2], q[2]));
    if (set.locate(u)) set.insert(u);
  }
  ZStaircase::Node* u = set.make(q[0], q[1], q[2]);
  if (!set.locate(u)) return 0.0;
  double uncovered = set.contribution(u);
  double volume = 0.0, below = q[3];
  for (; i < active.size(); ++i) {
    const double* a = p + active[i] * 5;
    volume += uncovered * (a[3] - below);
    below = a[3];
    if (a[0] <= q[0] && a[1] <= q[1] && a[2] <= q[2]) return volume;  // covers the rest
    ZStaircase::Node* c =
        set.make(std::max(a[0], q[0]), std::max(a[1], q[1]), std::max(a[2], q[2]));
    if (set.locate(c)) {
      uncovered -= set.contribution(c);
      set.insert(c);
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
  std::vector<std::int32_t> active;
  active.reserve(k);
  ZStaircase set;
  double slice = 0.0, volume = 0.0;
  for (std::size_t r = 0; r < k; ++r) {
    const std::int32_t id = order[r];
    const double* q = p + id * 5;
    const double gain = contribution4(p, active, q, ref, set);
    slice += gain;
    const double next = r + 1 < k ? p[order[r + 1] * 5 + 4] : ref[4];
    volume += slice * (next - q[4]);
    if (gain <= 0.0) continue;
    active.erase(std::remove_if(active.begin(), active.end(),
                                [&](std::int32_t a) {
                                  const double* s = p + a * 5;
                                  return s[0] >= q[0] && s[1] >= q[1] && s[2] >= q[2] &&
                                         s[3] >= q[3];
                                }),
                 active.end());
    const auto at = std::upper_bound(active.begin(), active.end(), q[3],
                                     [&](double w, std::int32_t a) { return w < p[a * 5 + 3]; });
    active.insert(at, id);
  }
  return volume;
}

}  // namespace rescue::moo::detail
