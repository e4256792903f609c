// Background knowledge that every learned causal performance model obeys
// (paper, Background: structural constraints that make discovery feasible with
// little data). An edge a -> b is allowed only if
//   - b is neither an option nor the fidelity (options are set by the user),
//   - the tier of a is not above the tier of b (option/fidelity -> indicators
//     -> objectives/constraints), which also keeps objectives and constraint
//     metrics from causing options, the fidelity or indicators,
//   - it is not in the user's forbidden list.
// Required edges must themselves be allowed and acyclic.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "causal/data_table.hpp"

namespace rescue::causal {

class Graph;

/// An edge named by its endpoint variables.
struct NamedEdge {
  std::string from;
  std::string to;
};

class StructuralConstraints {
 public:
  StructuralConstraints() = default;
  /// Throws Status::UnknownName for an unknown variable, Status::InvalidArgument
  /// for a required edge that breaks the role rules, is also forbidden, or closes
  /// a directed cycle among required edges.
  StructuralConstraints(std::vector<Variable> variables, const std::vector<NamedEdge>& required = {},
                        const std::vector<NamedEdge>& forbidden = {});

  int size() const { return static_cast<int>(variables_.size()); }
  const std::vector<Variable>& variables() const { return variables_; }

  /// True if an edge from -> to may appear in a graph.
  bool allowed(int from, int to) const { return allowed_[index(from, to)] != 0; }
  /// True if the user requires the edge from -> to.
  bool required(int from, int to) const { return required_[index(from, to)] != 0; }
  /// True if a and b may be adjacent at all (in either direction).
  bool may_be_adjacent(int a, int b) const { return allowed(a, b) || allowed(b, a); }
  /// True if, by the role tiers and required edges, a must come before b in any
  /// causal order (a strict partial order used by DirectLiNGAM).
  bool must_precede(int a, int b) const;
  /// Required edges as index pairs.
  std::vector<std::pair<int, int>> required_edges() const;
  /// Reason the edge from -> to is not allowed ("" if it is allowed).
  std::string why_not(int from, int to) const;

  /// Throws Status::InvalidArgument naming the first edge of g that is not allowed
  /// or the first required edge g lacks (directed edges only; undirected edges are
  /// checked to be allowed in at least one direction).
  void check(const Graph& g) const;

 private:
  std::size_t index(int a, int b) const {
    return static_cast<std::size_t>(a) * variables_.size() + static_cast<std::size_t>(b);
  }
  bool role_allows(int from, int to) const;

  std::vector<Variable> variables_;
  std::vector<char> allowed_;
  std::vector<char> required_;
  std::vector<char> forbidden_;
  std::vector<char> precedes_;  // transitive closure of tiers and required edges
};

}  // namespace rescue::causal
