#include "causal/meek_rules.hpp"

namespace rescue::causal {

namespace {

// R1: c -> a - b, c and b nonadjacent  =>  a -> b (no new collider).
bool rule1(const Graph& g, int a, int b) {
  for (int c = 0; c < g.num_nodes(); ++c)
    if (c != b && g.has_directed(c, a) && !g.adjacent(c, b)) return true;
  return false;
}

// R2: a -> c -> b and a - b  =>  a -> b (no cycle).
bool rule2(const Graph& g, int a, int b) {
  for (int c = 0; c < g.num_nodes(); ++c)
    if (g.has_directed(a, c) && g.has_directed(c, b)) return true;
  return false;
}

// R3: a - c -> b, a - d -> b, c and d nonadjacent, a - b  =>  a -> b.
bool rule3(const Graph& g, int a, int b) {
  const int p = g.num_nodes();
  for (int c = 0; c < p; ++c) {
    if (!(g.has_undirected(a, c) && g.has_directed(c, b))) continue;
    for (int d = c + 1; d < p; ++d)
      if (g.has_undirected(a, d) && g.has_directed(d, b) && !g.adjacent(c, d)) return true;
  }
  return false;
}

// R4: a - d -> c -> b, a adjacent to c, d and b nonadjacent, a - b  =>  a -> b.
bool rule4(const Graph& g, int a, int b) {
  const int p = g.num_nodes();
  for (int c = 0; c < p; ++c) {
    if (c == a || !g.has_directed(c, b) || !g.adjacent(a, c)) continue;
    for (int d = 0; d < p; ++d)
      if (d != b && d != a && g.has_undirected(a, d) && g.has_directed(d, c) && !g.adjacent(d, b)) return true;
  }
  return false;
}

}  // namespace

int apply_meek_rules(Graph& g, const StructuralConstraints& constraints) {
  const int p = g.num_nodes();
  int oriented = 0;
  bool changed = true;
  while (changed) {
    changed = false;
    for (int a = 0; a < p; ++a)
      for (int b = 0; b < p; ++b) {
        if (a == b || !g.has_undirected(a, b) || !constraints.allowed(a, b)) continue;
        if (rule1(g, a, b) || rule2(g, a, b) || rule3(g, a, b) || rule4(g, a, b)) {
          if (g.creates_cycle(a, b)) continue;
          g.orient(a, b);
          ++oriented;
          changed = true;
        }
      }
  }
  return oriented;
}

}  // namespace rescue::causal
