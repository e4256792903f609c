#include "causal/pc_algorithm.hpp"

#include <algorithm>

#include "causal/fisher_z_test.hpp"
#include "causal/meek_rules.hpp"
#include "util/error.hpp"

namespace rescue::causal {

namespace {

// Calls f on every subset of `pool` of size k (lexicographic); stops when f returns true.
template <class F>
bool for_each_subset(const std::vector<int>& pool, int k, F&& f) {
  const int m = static_cast<int>(pool.size());
  if (k > m) return false;
  std::vector<int> idx(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) idx[static_cast<std::size_t>(i)] = i;
  std::vector<int> subset(static_cast<std::size_t>(k));
  while (true) {
    for (int i = 0; i < k; ++i) subset[static_cast<std::size_t>(i)] = pool[static_cast<std::size_t>(idx[static_cast<std::size_t>(i)])];
    if (f(subset)) return true;
    int i = k - 1;
    while (i >= 0 && idx[static_cast<std::size_t>(i)] == m - k + i) --i;
    if (i < 0) return false;
    ++idx[static_cast<std::size_t>(i)];
    for (int j = i + 1; j < k; ++j) idx[static_cast<std::size_t>(j)] = idx[static_cast<std::size_t>(j - 1)] + 1;
  }
}

}  // namespace

PcResult discover_pc(const DataTable& table, const StructuralConstraints& constraints, const PcOptions& options) {
  const int p = table.cols(), n = table.rows();
  if (constraints.size() != p)
    fail(Status::SizeMismatch, "PC: constraints cover " + std::to_string(constraints.size()) + " variables, table has " +
                                   std::to_string(p));
  if (!(options.alpha > 0.0 && options.alpha < 1.0))
    fail(Status::InvalidArgument, "PC: alpha must be in (0, 1), got " + std::to_string(options.alpha));
  if (n < 4) fail(Status::InvalidArgument, "PC: needs at least 4 rows for a Fisher-z test, got " + std::to_string(n));

  const FisherZTest ci(table.data());
  PcResult result;
  auto at = [p](int a, int b) { return static_cast<std::size_t>(a) * static_cast<std::size_t>(p) + static_cast<std::size_t>(b); };

  // Skeleton. Pairs that the constraints keep apart are still tested, so that
  // their separating sets are real; they are removed only afterwards and never
  // feed a collider (a pair without a separating set cannot make one).
  std::vector<char> adj(static_cast<std::size_t>(p) * static_cast<std::size_t>(p), 0);
  std::vector<char> separated(adj.size(), 0);
  std::vector<std::vector<int>> sepset(adj.size());
  for (int a = 0; a < p; ++a)
    for (int b = 0; b < p; ++b) adj[at(a, b)] = (a != b);

  const int max_depth = n - 4;  // a Fisher-z test needs n - |S| - 3 > 0
  for (int depth = 0; depth <= max_depth; ++depth) {
    // Stable PC: conditioning sets come from the adjacencies frozen at the start
    // of the level, so the order of the columns cannot change the skeleton.
    std::vector<std::vector<int>> frozen(static_cast<std::size_t>(p));
    bool any = false;
    for (int a = 0; a < p; ++a) {
      for (int b = 0; b < p; ++b)
        if (adj[at(a, b)]) frozen[static_cast<std::size_t>(a)].push_back(b);
      if (static_cast<int>(frozen[static_cast<std::size_t>(a)].size()) - 1 >= depth) any = true;
    }
    if (!any) break;
    result.depth = depth;
    for (int a = 0; a < p; ++a) {
      for (int b : frozen[static_cast<std::size_t>(a)]) {
        if (!adj[at(a, b)]) continue;
        if (constraints.required(a, b) || constraints.required(b, a)) continue;
        std::vector<int> pool;
        for (int c : frozen[static_cast<std::size_t>(a)])
          if (c != b) pool.push_back(c);
        for_each_subset(pool, depth, [&](const std::vector<int>& s) {
          ++result.tests;
          const auto r = ci.test(a, b, s);
          if (r.informative && r.p_value > options.alpha) {
            adj[at(a, b)] = adj[at(b, a)] = 0;
            separated[at(a, b)] = separated[at(b, a)] = 1;
            sepset[at(a, b)] = sepset[at(b, a)] = s;
            return true;
          }
          return false;
        });
      }
    }
  }

  Graph g(table.variables());
  for (int a = 0; a < p; ++a)
    for (int b = a + 1; b < p; ++b)
      if (adj[at(a, b)] && constraints.may_be_adjacent(a, b)) g.add_undirected(a, b);

  // Colliders a -> k <- b for unshielded triples whose separating set lacks k.
  // All candidates are gathered first and conflicting arrowheads cancelled, so
  // the result does not depend on the order the triples are visited.
  std::vector<char> arrow(adj.size(), 0);
  for (int k = 0; k < p; ++k)
    for (int a = 0; a < p; ++a) {
      if (a == k || !g.adjacent(a, k)) continue;
      for (int b = a + 1; b < p; ++b) {
        if (b == k || !g.adjacent(b, k) || g.adjacent(a, b) || !separated[at(a, b)]) continue;
        const auto& s = sepset[at(a, b)];
        if (std::find(s.begin(), s.end(), k) != s.end()) continue;
        if (!constraints.allowed(a, k) || !constraints.allowed(b, k)) continue;
        arrow[at(a, k)] = 1;
        arrow[at(b, k)] = 1;
      }
    }
  for (int a = 0; a < p; ++a)
    for (int b = 0; b < p; ++b)
      if (arrow[at(a, b)] && !arrow[at(b, a)] && g.has_undirected(a, b) && !g.creates_cycle(a, b)) g.orient(a, b);

  // Background knowledge: required edges and edges with a single allowed direction.
  for (auto [a, b] : constraints.required_edges()) g.add_directed(a, b);
  for (int a = 0; a < p; ++a)
    for (int b = 0; b < p; ++b)
      if (g.has_undirected(a, b) && constraints.allowed(a, b) && !constraints.allowed(b, a)) g.orient(a, b);
  // A collider that the knowledge contradicts may leave an arrowhead the wrong way;
  // knowledge wins.
  for (int a = 0; a < p; ++a)
    for (int b = 0; b < p; ++b)
      if (g.has_directed(a, b) && !constraints.allowed(a, b)) {
        g.remove_edge(a, b);
        g.add_directed(b, a);
      }

  apply_meek_rules(g, constraints);
  constraints.check(g);
  result.cpdag = std::move(g);
  return result;
}

}  // namespace rescue::causal
