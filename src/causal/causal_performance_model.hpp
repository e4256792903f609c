// One call that learns the causal performance model (paper, Algorithm 1 line 2,
// refit from scratch on line 6): structural constraints, discovery by PC or
// DirectLiNGAM (or a user DAG instead), a DAG consistent with the constraints,
// and the fitted structural causal model.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "causal/causal_model.hpp"
#include "causal/data_table.hpp"
#include "causal/graph.hpp"
#include "causal/input_edge_repair.hpp"
#include "causal/structural_constraints.hpp"

namespace rescue::causal {

enum class DiscoveryMethod { PC, DirectLiNGAM };

struct CpmOptions {
  DiscoveryMethod method = DiscoveryMethod::PC;
  double alpha = 0.05;  // PC significance level
  std::uint64_t seed = 0;
  /// A DAG from the user replaces discovery entirely (edges by variable name).
  std::optional<std::vector<NamedEdge>> user_dag;
  std::vector<NamedEdge> required;
  std::vector<NamedEdge> forbidden;
  ScmOptions scm;  // its seed is replaced by `seed`
  /// After discovery, add the edges from earlier role tiers that the local
  /// Markov condition needs under a nonparametric check (see
  /// input_edge_repair.hpp): input -> output edges, with RepairScope::All
  /// also input -> indicator and indicator -> output edges (the rescue
  /// strategy's default, rescue.repair = 2), none with RepairScope::None. Not
  /// applied to a user DAG.
  RepairScope repair = RepairScope::Outputs;
};

struct CausalPerformanceModel {
  /// What discovery produced: PC's PDAG, DirectLiNGAM's weighted DAG, the user
  /// DAG, or the prior graph used when the data are too few for discovery.
  Graph learned;
  Graph dag;  // the DAG the structural equations are fit on (after any repair)
  int repaired_edges = 0;  // edges added by the repair
  CausalModel model;
  /// "pc", "lingam", "user" or "prior" (too few rows for discovery: every option
  /// and the fidelity point to every indicator, objective and constraint).
  std::string source;
};

/// Fewest rows with which discovery is attempted (below it the prior graph is used).
constexpr int kMinDiscoveryRows = 5;

/// Learns the CPM from the table. Throws rescue::Error for an invalid user DAG
/// (unknown names, cycles, edges that break the constraints), bad constraints,
/// or fewer than 2 rows.
CausalPerformanceModel learn_cpm(const DataTable& table, const CpmOptions& options = {});

/// The graph used when there are too few rows for discovery: every allowed edge
/// from an option or the fidelity into an indicator, objective or constraint,
/// plus the required edges.
Graph prior_graph(const StructuralConstraints& constraints);

}  // namespace rescue::causal
