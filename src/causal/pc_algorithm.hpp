// The PC algorithm (Spirtes, Glymour and Scheines 2000) with the order-independent
// ("stable") skeleton of Colombo and Maathuis (2014), Fisher-z tests, collider
// orientation from separating sets, background knowledge from the structural
// constraints and Meek's rules R1-R4 to closure (paper, Background: the CPM is
// learned with PC under structural constraints).
#pragma once
#include <cstdint>

#include "causal/data_table.hpp"
#include "causal/graph.hpp"
#include "causal/structural_constraints.hpp"

namespace rescue::causal {

struct PcOptions {
  double alpha = 0.05;  // significance level of the Fisher-z tests
};

struct PcResult {
  Graph cpdag;         // the PDAG: directed where data or knowledge decide, else undirected
  long tests = 0;      // number of conditional independence tests run
  int depth = 0;       // largest conditioning-set size tested
};

/// Runs PC on the table under the constraints. Throws Status::InvalidArgument if
/// the table has fewer than 4 rows (no Fisher-z test is possible) or if alpha is
/// not in (0, 1). The result always satisfies constraints.check().
PcResult discover_pc(const DataTable& table, const StructuralConstraints& constraints, const PcOptions& options = {});

}  // namespace rescue::causal
