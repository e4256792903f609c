// Meek's orientation rules R1-R4 (Meek 1995), applied to closure on a PDAG. With
// background knowledge all four rules are needed; an orientation is only made
// in a direction the structural constraints allow and that closes no cycle.
#pragma once
#include "causal/graph.hpp"
#include "causal/structural_constraints.hpp"

namespace rescue::causal {

/// Orients undirected edges of g by R1-R4 until no rule applies; returns the
/// number of edges oriented.
int apply_meek_rules(Graph& g, const StructuralConstraints& constraints);

}  // namespace rescue::causal
