// How much of a benchmark problem's true causal graph a learned graph holds,
// as `rescue-bench --export-dag` prints it.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "problems/benchmark_problem.hpp"

namespace rescue::bench {

using Edge = std::pair<std::string, std::string>;

struct DagRecovery {
  int true_edges = 0;
  // found + reversed + missed = true_edges (a true edge listed twice counts once).
  int found = 0;     // true edges present with the true direction (or undirected)
  int reversed = 0;  // true edges present only in the other direction
  std::vector<Edge> missed;  // true edges absent in either direction
  std::vector<Edge> extra;   // pairs the learned graph links and the true one does not, each once, names in order
};

/// Compares a learned graph, as rescue_causal_graph writes it in JSON
/// ({"edges": [{"from", "to", "directed"}, ...]}; "directed" defaults to
/// true), with the true edges. Throws std::invalid_argument on malformed JSON.
DagRecovery compare_with_true_dag(const std::string& learned_json, const std::vector<Edge>& true_edges);

/// One line, e.g. "8 of 11 true edges found, 2 reversed, 1 missed; 0 extra".
std::string describe(const DagRecovery& r);

}  // namespace rescue::bench
