#include "causal/causal_performance_model.hpp"

#include <algorithm>

#include "causal/direct_lingam.hpp"
#include "causal/input_edge_repair.hpp"
#include "causal/pc_algorithm.hpp"
#include "causal/pdag_to_dag.hpp"
#include "util/error.hpp"

namespace rescue::causal {

Graph prior_graph(const StructuralConstraints& constraints) {
  Graph g(constraints.variables());
  const int p = constraints.size();
  for (int a = 0; a < p; ++a) {
    if (role_tier(constraints.variables()[static_cast<std::size_t>(a)].role) != 0) continue;
    for (int b = 0; b < p; ++b)
      if (constraints.allowed(a, b)) g.add_directed(a, b);
  }
  for (auto [a, b] : constraints.required_edges()) g.add_directed(a, b);
  if (!g.is_dag()) g = pdag_to_dag(g, constraints);
  constraints.check(g);
  return g;
}

CausalPerformanceModel learn_cpm(const DataTable& table, const CpmOptions& options) {
  if (table.rows() < 2)
    fail(Status::InvalidArgument, "causal performance model: needs at least 2 rows of data, got " +
                                      std::to_string(table.rows()));
  const StructuralConstraints constraints(table.variables(), options.required, options.forbidden);
  CausalPerformanceModel cpm;
  if (options.user_dag) {
    cpm.learned = Graph::dag_from_edges(table.variables(), *options.user_dag);
    constraints.check(cpm.learned);
    cpm.dag = cpm.learned;
    cpm.source = "user";
  } else if (table.rows() < kMinDiscoveryRows) {
    cpm.learned = prior_graph(constraints);
    cpm.dag = cpm.learned;
    cpm.source = "prior";
  } else if (options.method == DiscoveryMethod::PC) {
    PcOptions pc;
    pc.alpha = options.alpha;
    cpm.learned = discover_pc(table, constraints, pc).cpdag;
    cpm.dag = pdag_to_dag(cpm.learned, constraints);
    cpm.source = "pc";
  } else {
    cpm.learned = discover_lingam(table, constraints).dag;
    cpm.dag = cpm.learned;
    cpm.source = "lingam";
  }
  if (cpm.source == "pc" || cpm.source == "lingam") {
    if (options.repair != RepairScope::None) {
      InputRepairOptions repair;
      repair.equations = options.scm.equations;
      repair.scope = options.repair;
      Rng rng(options.seed ^ 0x5eedu);
      cpm.repaired_edges = repair_input_edges(table, constraints, &cpm.dag, repair, rng);
      constraints.check(cpm.dag);
    }
  }
  ScmOptions scm = options.scm;
  scm.seed = options.seed;
  cpm.model = CausalModel::fit(table, cpm.dag, scm);
  return cpm;
}

}  // namespace rescue::causal
