// Repair of missed direct effects of the inputs (options and fidelity) on the
// objectives and constraint metrics. Inputs have no parents, so they are
// non-descendants of every variable, and the local Markov condition of the DAG
// says Y is independent of every input outside Pa(Y) given Pa(Y). PC's Fisher-z
// tests are linear and miss dependences such as (S + 6.8) * g(x) with g of mean
// near zero (a fidelity that scales an option's effect), which would bias E[Y | do(x), s]. Here the
// condition is checked with a nonparametric test: an input joins Pa(Y) when the
// cross-validated error of the structural equation (the best of its forms:
// linear, random features and, when enabled, pairwise products) drops by more
// than 5%. Greedy forward selection; to keep refits cheap with many options,
// each round first screens the missing inputs by how much of the current
// residual r they explain (R^2 of r on x_i, x_i^2 and x_i * fitted) and
// cross-validates only the best three of them.
//
// The same argument holds for any variable of an earlier role tier: edges never
// go from a later tier to an earlier one, so every option, the fidelity and
// every indicator is a non-descendant of an objective, and every option and the
// fidelity of an indicator. RepairScope::All applies the check there too: the
// inputs of each indicator (products of an option and the fidelity, which PC
// misses in the same way), then the inputs and
// indicators of each objective and constraint. An edge from an earlier tier can
// never close a cycle. Missed parents of the same tier (an indicator of an
// indicator, a constraint metric of another) are not restored; the check can
// only add their earlier-tier causes in their place.
#pragma once
#include "causal/data_table.hpp"
#include "causal/graph.hpp"
#include "causal/structural_constraints.hpp"
#include "causal/structural_equation.hpp"
#include "util/rng.hpp"

namespace rescue::causal {

/// Which missed parents the repair looks for.
enum class RepairScope {
  None,     // no repair
  Outputs,  // options and fidelity -> objectives and constraint metrics
  All,      // also options and fidelity -> indicators, and indicators -> outputs
};

struct InputRepairOptions {
  EquationOptions equations;
  RepairScope scope = RepairScope::Outputs;
};

/// Adds allowed edges from earlier role tiers (inputs -> outputs, or with
/// RepairScope::All also inputs -> indicators and indicators -> outputs) to the
/// DAG where the local Markov condition fails; returns the number added. Does nothing with fewer rows than
/// kMinRowsNonlinear or with RepairScope::None. The DAG stays acyclic
/// and within the constraints.
int repair_input_edges(const DataTable& table, const StructuralConstraints& constraints, Graph* dag,
                       const InputRepairOptions& options, Rng& rng);

}  // namespace rescue::causal
