#include "moo/pareto.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>

#include "moo/dominance.hpp"
#include "moo/input_checks.hpp"

namespace rescue::moo {
namespace {

bool lex_less(const double* a, const double* b, std::size_t m) { return std::lexicographical_compare(a, a + m, b, b + m); }

bool equal_rows(const double* a, const double* b, std::size_t m) { return std::equal(a, a + m, b); }

// Pareto filter of the candidate indices `cand`. The candidates are sorted
// lexicographically and exact duplicates grouped, so that among distinct
// points an earlier point can only dominate a later one and weak dominance by
// an earlier point means dominance; each group is then judged once.
std::vector<std::size_t> pareto_filter(const double* p, std::size_t m,
                                       std::vector<std::size_t> cand, bool keep_duplicates) {
  std::sort(cand.begin(), cand.end(), [&](std::size_t a, std::size_t b) {
    if (lex_less(p + a * m, p + b * m, m)) return true;
    if (lex_less(p + b * m, p + a * m, m)) return false;
    return a < b;
  });
  // group_start[g] .. group_start[g+1] are the copies of distinct point g.
  std::vector<std::size_t> group_start;
  for (std::size_t k = 0; k < cand.size(); ++k)
    if (k == 0 || !equal_rows(p + cand[k] * m, p + cand[k - 1] * m, m)) group_start.push_back(k);
  const std::size_t groups = group_start.size();
  group_start.push_back(cand.size());
  std::vector<char> keep(groups, 0);
  auto row = [&](std::size_t g) { return p + cand[group_start[g]] * m; };

  if (m == 1) {
    if (groups > 0) keep[0] = 1;
  } else if (m == 2) {
    // O(n log n): a point survives iff its second objective beats every earlier one.
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t g = 0; g < groups; ++g) {
      if (row(g)[1] < best) {
        keep[g] = 1;
        best = row(g)[1];
      }
    }
  } else if (m == 3) {
    // O(n log n): staircase of the (f1, f2) projections of the earlier points,
    // keyed by f1 with f2 decreasing; the entry with the largest f1 <= p1 holds
    // the least f2 among all earlier points with f1 <= p1.
    std::map<double, double> stair;
    for (std::size_t g = 0; g < groups; ++g) {
      const double* q = row(g);
      auto it = stair.upper_bound(q[1]);
      if (it != stair.begin() && std::prev(it)->second <= q[2]) continue;
      keep[g] = 1;
      it = stair.lower_bound(q[1]);
      while (it != stair.end() && it->second >= q[2]) it = stair.erase(it);
      stair.emplace_hint(it, q[1], q[2]);
    }
  } else {
    // Simple and correct for higher m: compare with the survivors so far (a
    // dominated earlier point's dominator is itself an earlier survivor).
    std::vector<std::size_t> kept;
    for (std::size_t g = 0; g < groups; ++g) {
      const double* q = row(g);
      if (std::none_of(kept.begin(), kept.end(), [&](std::size_t k) { return weakly_dominates(row(k), q, m); })) {
        keep[g] = 1;
        kept.push_back(g);
      }
    }
  }

  std::vector<std::size_t> out;
  for (std::size_t g = 0; g < groups; ++g) {
    if (!keep[g]) continue;
    if (keep_duplicates) {
      for (std::size_t k = group_start[g]; k < group_start[g + 1]; ++k) out.push_back(cand[k]);
    } else {
      out.push_back(cand[group_start[g]]);  // the lowest index of the group (ties sort by index)
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<std::size_t> nondominated_indices(const double* points, std::size_t n, std::size_t m,
                                              const double* violation, bool keep_duplicates) {
  detail::check_points("nondominated_indices", points, n, m);
  std::vector<std::size_t> cand;
  if (violation == nullptr) {
    cand.resize(n);
    std::iota(cand.begin(), cand.end(), std::size_t{0});
    return pareto_filter(points, m, std::move(cand), keep_duplicates);
  }
  detail::check_vector("nondominated_indices", violation, n, "violation");
  for (std::size_t i = 0; i < n; ++i)
    if (violation[i] <= 0.0) cand.push_back(i);
  if (!cand.empty()) return pareto_filter(points, m, std::move(cand), keep_duplicates);
  // No feasible point: the least violation wins; equal violations do not
  // dominate each other, so only exact duplicates can be dropped.
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) least = std::min(least, violation[i]);
  for (std::size_t i = 0; i < n; ++i) {
    if (violation[i] != least) continue;
    const bool duplicate = !keep_duplicates && std::any_of(cand.begin(), cand.end(), [&](std::size_t k) {
      return equal_rows(points + k * m, points + i * m, m);
    });
    if (!duplicate) cand.push_back(i);
  }
  return cand;
}

// Efficient non-dominated sorting (Zhang et al., "An efficient approach to
// non-dominated sorting for evolutionary multi-objective optimization", IEEE
// TEVC 2015, with binary search over the fronts). The feasible points are
// taken in lexicographic order, so a point can only be dominated by points
// placed before it; it joins the first front none of whose members dominates
// it. If front k holds a dominator, so does every front before k, hence the
// binary search. For m = 2 the members of a front, in insertion order, have
// the second objective non-increasing, and only the last one can dominate a
// later point: O(n log n) in all. For m > 2 a front is scanned from its last
// member: O(m n^2) at worst, far less on typical populations. Infeasible
// points (constrained domination compares them by violation only) follow in
// fronts of equal violation.
std::vector<std::vector<std::size_t>> nondominated_sort(const double* points, std::size_t n,
                                                        std::size_t m, const double* violation) {
  detail::check_points("nondominated_sort", points, n, m);
  if (violation != nullptr) detail::check_vector("nondominated_sort", violation, n, "violation");
  std::vector<std::size_t> feasible, infeasible;
  for (std::size_t i = 0; i < n; ++i)
    (violation == nullptr || violation[i] <= 0.0 ? feasible : infeasible).push_back(i);
  auto row = [&](std::size_t i) { return points + i * m; };
  std::stable_sort(feasible.begin(), feasible.end(),
                   [&](std::size_t a, std::size_t b) { return lex_less(row(a), row(b), m); });
  std::vector<std::vector<std::size_t>> fronts;
  auto front_dominates = [&](const std::vector<std::size_t>& front, std::size_t p) {
    if (m == 2) return dominates(row(front.back()), row(p), m);
    for (auto it = front.rbegin(); it != front.rend(); ++it)
      if (dominates(row(*it), row(p), m)) return true;
    return false;
  };
  for (std::size_t p : feasible) {
    std::size_t lo = 0, hi = fronts.size();  // the answer is in [lo, hi]; hi means a new front
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (front_dominates(fronts[mid], p))
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo == fronts.size()) fronts.emplace_back();
    fronts[lo].push_back(p);
  }
  std::stable_sort(infeasible.begin(), infeasible.end(),
                   [&](std::size_t a, std::size_t b) { return violation[a] < violation[b]; });
  for (std::size_t k = 0; k < infeasible.size(); ++k) {
    if (k == 0 || violation[infeasible[k]] != violation[infeasible[k - 1]]) fronts.emplace_back();
    fronts.back().push_back(infeasible[k]);
  }
  for (auto& f : fronts) std::sort(f.begin(), f.end());
  return fronts;
}

std::vector<double> crowding_distance(const double* points, std::size_t m,
                                      const std::vector<std::size_t>& front) {
  const std::size_t k = front.size();
  std::vector<double> dist(k, 0.0);
  if (k == 0) return dist;
  if (points == nullptr) fail(Status::NullPointer, "crowding_distance: points is null");
  if (m == 0) fail(Status::InvalidArgument, "crowding_distance: the number of objectives is 0");
  const double inf = std::numeric_limits<double>::infinity();
  if (k <= 2) {
    std::fill(dist.begin(), dist.end(), inf);
    return dist;
  }
  std::vector<std::size_t> order(k);
  for (std::size_t j = 0; j < m; ++j) {
    std::iota(order.begin(), order.end(), std::size_t{0});
    auto f = [&](std::size_t pos) { return points[front[pos] * m + j]; };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return f(a) < f(b); });
    const double lo = f(order.front()), hi = f(order.back());
    if (!std::isfinite(lo) || !std::isfinite(hi))
      fail(Status::NonFinite, "crowding_distance: a point has a non-finite objective");
    dist[order.front()] = inf;
    dist[order.back()] = inf;
    if (hi <= lo) continue;
    for (std::size_t r = 1; r + 1 < k; ++r)
      dist[order[r]] += (f(order[r + 1]) - f(order[r - 1])) / (hi - lo);
  }
  return dist;
}

}  // namespace rescue::moo
