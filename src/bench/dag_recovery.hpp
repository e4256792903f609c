// How much of a benchmark problem's true causal graph a learned graph holds:
// the figure behind "the graph learned from 200 rows finds 21 of the 48 true
// edges" in the results, printed by `rescue-bench --export-dag`.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "problems/benchmark_problem.hpp"

namespace rescue::bench {

using Edge = std::pair<std::string, std::string>;

struct DagRecovery {
  int true_edges = 0;
  int found = 0;     // true edges present with the true direction (or undirected)
  int reversed = 0;  // true edges present only in the other direction
  std::vector<Edge> missed;  // true edges absent in either direction
  std::vector<Edge> extra;   // learned edges between pairs the true graph leaves unlinked
};

/// Compares a learned graph, as rescue_causal_graph writes it in JSON
/// ({"edges": [{"from", "to", "directed"}, ...]}; "directed" defaults to
/// true), with the true edges. Throws std::invalid_argument on malformed JSON.
DagRecovery compare_with_true_dag(const std::string& learned_json, const std::vector<Edge>& true_edges);

/// One line: "21 of 48 true edges found (3 reversed, 24 missed), 5 extra".
std::string describe(const DagRecovery& r);

}  // namespace rescue::bench
