// A partially directed graph over the variables of a causal performance model:
// a DAG, or the CPDAG/PDAG that PC returns (some edges undirected). Edge i -> j
// is stored as mark(i, j) = 1, mark(j, i) = 0; an undirected edge sets both.
#pragma once
#include <Eigen/Dense>
#include <string>
#include <vector>

#include "causal/data_table.hpp"
#include "causal/structural_constraints.hpp"

namespace rescue::causal {

class Graph {
 public:
  Graph() = default;
  /// Empty graph (no edges) over the given variables.
  explicit Graph(std::vector<Variable> variables);

  /// A DAG from a list of named edges. Throws Status::UnknownName for an unknown
  /// variable, Status::InvalidArgument for a duplicate, self-loop or a directed cycle.
  static Graph dag_from_edges(std::vector<Variable> variables, const std::vector<NamedEdge>& edges);

  /// Reads the edges of a graph written by to_json() (or any JSON object with an
  /// "edges" array of {"from", "to"} objects; "directed" must be absent or true),
  /// so a user DAG can be given as JSON. Throws Status::InvalidArgument for
  /// malformed text.
  static std::vector<NamedEdge> edges_from_json(const std::string& text);

  int num_nodes() const { return static_cast<int>(variables_.size()); }
  const std::vector<Variable>& variables() const { return variables_; }

  bool has_directed(int from, int to) const { return mark(from, to) && !mark(to, from); }
  bool has_undirected(int a, int b) const { return mark(a, b) && mark(b, a); }
  bool adjacent(int a, int b) const { return mark(a, b) || mark(b, a); }

  void add_directed(int from, int to);
  void add_undirected(int a, int b);
  void remove_edge(int a, int b);
  /// Turns an undirected (or reversed) edge into from -> to.
  void orient(int from, int to) { add_directed(from, to); }

  /// Optional edge weight (NaN if none), e.g. the linear coefficient found by DirectLiNGAM.
  double weight(int from, int to) const;
  void set_weight(int from, int to, double w);

  /// Nodes with a directed edge into v, ascending.
  std::vector<int> parents(int v) const;
  int num_edges() const;
  bool has_undirected_edges() const;

  /// True if every edge is directed and there is no directed cycle.
  bool is_dag() const;
  /// True if adding from -> to would close a directed cycle (undirected edges ignored).
  bool creates_cycle(int from, int to) const;
  /// A topological order of a DAG (ties broken by index); throws Status::InvalidArgument otherwise.
  std::vector<int> topological_order() const;

  /// Graphviz DOT text: nodes shaped and grouped by role, undirected edges without arrowheads.
  std::string to_dot() const;
  /// JSON text: {"nodes":[{"name","role"}], "edges":[{"from","to","directed"[,"weight"]}]}.
  std::string to_json() const;

 private:
  bool mark(int a, int b) const { return marks_[index(a, b)] != 0; }
  std::size_t index(int a, int b) const {
    return static_cast<std::size_t>(a) * variables_.size() + static_cast<std::size_t>(b);
  }
  void check_node(int v) const;

  std::vector<Variable> variables_;
  std::vector<char> marks_;
  std::vector<double> weights_;
};

/// Structural Hamming distance: the number of node pairs whose edge differs
/// (missing, extra, or with a different orientation; undirected vs directed counts 1).
int structural_hamming_distance(const Graph& a, const Graph& b);

}  // namespace rescue::causal
