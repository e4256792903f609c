// Turns the PDAG that PC returns into one DAG that keeps every directed edge and
// obeys the structural constraints, so that a structural causal model can be fit
// on it (issue: "a CPDAG from PC is turned into a DAG consistent with the
// constraints before fitting").
#pragma once
#include "causal/graph.hpp"
#include "causal/structural_constraints.hpp"

namespace rescue::causal {

/// Dor and Tarsi's (1992) consistent extension, choosing sinks so that every new
/// orientation is allowed. If the PDAG has no consistent extension (possible
/// with finite-sample errors), edges are added greedily instead: directed edges
/// first, each kept only if allowed and acyclic, then each undirected edge in the
/// allowed acyclic direction (lower tier first), dropped if neither exists.
/// The result always satisfies constraints.check().
Graph pdag_to_dag(const Graph& pdag, const StructuralConstraints& constraints);

}  // namespace rescue::causal
