// Repair of missed direct effects of the inputs (options and fidelity) on the
// objectives and constraint metrics. Inputs have no parents, so they are
// non-descendants of every variable, and the local Markov condition of the DAG
// says Y is independent of every input outside Pa(Y) given Pa(Y). PC's Fisher-z
// tests are linear and miss dependences such as (S + 6.8) * g(x) with g of mean
// near zero (the healthcare model), which would bias E[Y | do(x), s]. Here the
// condition is checked with a nonparametric test: an input joins Pa(Y) when the
// cross-validated error of the structural equation (linear or random features,
// whichever is better) drops by more than `min_gain`. Greedy forward selection;
// to keep refits cheap with many options, each round first screens the missing
// inputs by how much of the current residual r they explain (R^2 of r on x_i,
// x_i^2 and x_i * fitted) and cross-validates only the best `screen` of them.
#pragma once
#include "causal/data_table.hpp"
#include "causal/graph.hpp"
#include "causal/structural_constraints.hpp"
#include "causal/structural_equation.hpp"
#include "util/rng.hpp"

namespace rescue::causal {

struct InputRepairOptions {
  EquationOptions equations;
  double min_gain = 0.05;  // relative drop of cross-validated error needed to add an edge
  int screen = 3;          // candidates cross-validated per round
};

/// Adds allowed input -> output edges to the DAG where the local Markov
/// condition fails; returns the number added. Does nothing with fewer rows than
/// equations.min_rows_nonlinear. The DAG stays acyclic and within the constraints.
int repair_input_edges(const DataTable& table, const StructuralConstraints& constraints, Graph* dag,
                       const InputRepairOptions& options, Rng& rng);

}  // namespace rescue::causal
