// Reference implementations for the tests: obviously correct, slow.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "moo/dominance.hpp"
#include "util/rng.hpp"

namespace rescue::moo::test {

inline std::vector<double> inside_points(const std::vector<double>& p, std::size_t m,
                                         const std::vector<double>& ref) {
  std::vector<double> out;
  for (std::size_t i = 0; i < p.size() / m; ++i) {
    bool in = true;
    for (std::size_t j = 0; j < m; ++j) in = in && p[i * m + j] < ref[j];
    if (in) out.insert(out.end(), p.begin() + i * m, p.begin() + i * m + m);
  }
  return out;
}

/// Inclusion-exclusion over the boxes of all non-empty subsets (n <= ~16).
inline double hv_inclusion_exclusion(const std::vector<double>& points, std::size_t m,
                                     const std::vector<double>& ref) {
  const auto p = inside_points(points, m, ref);
  const std::size_t n = p.size() / m;
  double total = 0.0;
  std::vector<double> corner(m);
  for (unsigned long mask = 1; mask < (1ul << n); ++mask) {
    std::fill(corner.begin(), corner.end(), -INFINITY);
    int bits = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (mask & (1ul << i)) {
        ++bits;
        for (std::size_t j = 0; j < m; ++j) corner[j] = std::max(corner[j], p[i * m + j]);
      }
    double box = 1.0;
    for (std::size_t j = 0; j < m; ++j) box *= ref[j] - corner[j];
    total += (bits % 2 == 1 ? 1.0 : -1.0) * box;
  }
  return total;
}

/// Exact decomposition into the cells of the grid spanned by all coordinates:
/// a cell is dominated iff some point weakly dominates its lower corner.
inline double hv_grid(const std::vector<double>& points, std::size_t m,
                      const std::vector<double>& ref) {
  const auto p = inside_points(points, m, ref);
  const std::size_t n = p.size() / m;
  if (n == 0) return 0.0;
  std::vector<std::vector<double>> axis(m);
  for (std::size_t j = 0; j < m; ++j) {
    for (std::size_t i = 0; i < n; ++i) axis[j].push_back(p[i * m + j]);
    axis[j].push_back(ref[j]);
    std::sort(axis[j].begin(), axis[j].end());
    axis[j].erase(std::unique(axis[j].begin(), axis[j].end()), axis[j].end());
  }
  std::vector<std::size_t> cell(m, 0);
  std::vector<double> lower(m);
  double total = 0.0;
  while (true) {
    double vol = 1.0;
    for (std::size_t j = 0; j < m; ++j) {
      lower[j] = axis[j][cell[j]];
      vol *= axis[j][cell[j] + 1] - axis[j][cell[j]];
    }
    for (std::size_t i = 0; i < n; ++i)
      if (weakly_dominates(p.data() + i * m, lower.data(), m)) {
        total += vol;
        break;
      }
    std::size_t j = 0;
    while (j < m && ++cell[j] + 1 >= axis[j].size()) cell[j++] = 0;
    if (j == m) break;
  }
  return total;
}

/// Exact hypervolume by slicing: sort by the last objective and add, for
/// each level, the (m-1)-dimensional hypervolume of the points at or below
/// it times the slab height, down to a 2-D sweep. O(n^(m-1) log n): shares
/// nothing with the library's kernels, and handles a few hundred points.
inline double hv_slicing(const std::vector<double>& points, std::size_t m,
                         const std::vector<double>& ref) {
  const auto p = inside_points(points, m, ref);
  const std::size_t n = p.size() / m;
  if (n == 0) return 0.0;
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return p[a * m + m - 1] < p[b * m + m - 1]; });
  if (m == 1) return ref[0] - p[order[0]];
  double total = 0.0, least_x = ref[0];  // m = 2: the least x so far
  std::vector<double> below;
  const std::vector<double> sub_ref(ref.begin(), ref.end() - 1);
  for (std::size_t r = 0; r < n; ++r) {
    const double* q = p.data() + order[r] * m;
    const double next = r + 1 < n ? p[order[r + 1] * m + m - 1] : ref[m - 1];
    if (m == 2) {
      least_x = std::min(least_x, q[0]);
      total += (ref[0] - least_x) * (next - q[1]);
      continue;
    }
    below.insert(below.end(), q, q + m - 1);
    if (next > q[m - 1]) total += hv_slicing(below, m - 1, sub_ref) * (next - q[m - 1]);
  }
  return total;
}

/// n points uniform on the positive part of the unit sphere (mutually non-dominated).
inline std::vector<double> sphere_points(std::size_t n, std::size_t m, Rng& rng) {
  std::vector<double> p(n * m);
  for (std::size_t i = 0; i < n; ++i) {
    double norm = 0.0;
    for (std::size_t j = 0; j < m; ++j) {
      p[i * m + j] = std::fabs(rng.normal());
      norm += p[i * m + j] * p[i * m + j];
    }
    norm = std::sqrt(norm);
    for (std::size_t j = 0; j < m; ++j) p[i * m + j] /= norm;
  }
  return p;
}

/// n points uniform in [0, 1)^m (a mix of dominated and non-dominated points).
inline std::vector<double> cube_points(std::size_t n, std::size_t m, Rng& rng) {
  std::vector<double> p(n * m);
  for (double& v : p) v = rng.uniform();
  return p;
}

}  // namespace rescue::moo::test
