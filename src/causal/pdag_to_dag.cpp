#include "causal/pdag_to_dag.hpp"

#include "causal/data_table.hpp"
#include "util/error.hpp"

namespace rescue::causal {

namespace {

bool dor_tarsi(const Graph& pdag, const StructuralConstraints& c, Graph* out) {
  const int p = pdag.num_nodes();
  Graph work = pdag;
  Graph dag = pdag;
  std::vector<char> removed(static_cast<std::size_t>(p), 0);
  for (int step = 0; step < p; ++step) {
    int pick = -1;
    for (int x = 0; x < p && pick < 0; ++x) {
      if (removed[static_cast<std::size_t>(x)]) continue;
      bool ok = true;
      std::vector<int> und, adj;
      for (int y = 0; y < p && ok; ++y) {
        if (y == x || removed[static_cast<std::size_t>(y)]) continue;
        if (work.has_directed(x, y)) ok = false;  // x must be a sink
        if (work.has_undirected(x, y)) und.push_back(y);
        if (work.adjacent(x, y)) adj.push_back(y);
      }
      if (!ok) continue;
      for (int y : und) {
        if (!c.allowed(y, x)) {
          ok = false;
          break;
        }
        for (int z : adj)
          if (z != y && !work.adjacent(y, z)) {
            ok = false;
            break;
          }
        if (!ok) break;
      }
      if (ok) pick = x;
    }
    if (pick < 0) return false;
    for (int y = 0; y < p; ++y)
      if (!removed[static_cast<std::size_t>(y)] && work.has_undirected(pick, y)) dag.orient(y, pick);
    removed[static_cast<std::size_t>(pick)] = 1;
    for (int y = 0; y < p; ++y)
      if (work.adjacent(pick, y)) work.remove_edge(pick, y);
  }
  if (!dag.is_dag()) return false;
  *out = dag;
  return true;
}

Graph greedy(const Graph& pdag, const StructuralConstraints& c) {
  const int p = pdag.num_nodes();
  Graph dag(pdag.variables());
  for (auto [a, b] : c.required_edges())
    if (!dag.creates_cycle(a, b)) dag.add_directed(a, b);
  for (int a = 0; a < p; ++a)
    for (int b = 0; b < p; ++b)
      if (pdag.has_directed(a, b) && !dag.adjacent(a, b) && c.allowed(a, b) && !dag.creates_cycle(a, b)) {
        dag.add_directed(a, b);
        dag.set_weight(a, b, pdag.weight(a, b));
      }
  for (int a = 0; a < p; ++a)
    for (int b = a + 1; b < p; ++b) {
      if (!pdag.has_undirected(a, b) || dag.adjacent(a, b)) continue;
      int from = a, to = b;
      if (role_tier(pdag.variables()[static_cast<std::size_t>(b)].role) <
          role_tier(pdag.variables()[static_cast<std::size_t>(a)].role))
        std::swap(from, to);
      if (c.allowed(from, to) && !dag.creates_cycle(from, to))
        dag.add_directed(from, to);
      else if (c.allowed(to, from) && !dag.creates_cycle(to, from))
        dag.add_directed(to, from);
    }
  return dag;
}

}  // namespace

Graph pdag_to_dag(const Graph& pdag, const StructuralConstraints& constraints) {
  if (pdag.num_nodes() != constraints.size())
    fail(Status::SizeMismatch, "PDAG to DAG: graph and constraints have different numbers of variables");
  // Directed edges that break the constraints never enter the extension.
  Graph clean = pdag;
  for (int a = 0; a < pdag.num_nodes(); ++a)
    for (int b = 0; b < pdag.num_nodes(); ++b) {
      if (clean.has_directed(a, b) && !constraints.allowed(a, b)) clean.remove_edge(a, b);
      if (a < b && clean.has_undirected(a, b) && !constraints.may_be_adjacent(a, b)) clean.remove_edge(a, b);
    }
  for (auto [a, b] : constraints.required_edges()) clean.add_directed(a, b);
  Graph dag;
  if (!dor_tarsi(clean, constraints, &dag)) dag = greedy(clean, constraints);
  constraints.check(dag);
  return dag;
}

}  // namespace rescue::causal
