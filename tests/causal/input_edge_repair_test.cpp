#include <gtest/gtest.h>

#include "causal/input_edge_repair.hpp"
#include "causal/pc_algorithm.hpp"
#include "causal/pdag_to_dag.hpp"
#include "synthetic_scm.hpp"

using namespace rescue;
using namespace rescue::causal;
using namespace rescue::causal::testing;

// y = x1 * x2 + noise with x2 of mean zero: y is uncorrelated with x1 given
// anything linear, so PC drops x1 -> y; the repair puts it back.
TEST(InputEdgeRepair, RestoresMultiplicativeEffect) {
  Rng rng(1);
  const int n = 1000;
  Eigen::MatrixXd X(n, 3);
  for (int i = 0; i < n; ++i) {
    X(i, 0) = rng.uniform(-1.0, 1.0);
    X(i, 1) = rng.uniform(-1.0, 1.0);
    X(i, 2) = 2.0 * X(i, 0) * X(i, 1) + 0.5 * X(i, 1) + 0.1 * rng.normal();
  }
  const std::vector<Variable> v = {{"x1", Role::Option}, {"x2", Role::Option}, {"y", Role::Objective}};
  const DataTable t(v, X);
  const StructuralConstraints c(v);
  Graph dag = pdag_to_dag(discover_pc(t, c).cpdag, c);
  EXPECT_FALSE(dag.adjacent(0, 2));
  Rng r(2);
  EXPECT_EQ(repair_input_edges(t, c, &dag, {}, r), 1);
  EXPECT_TRUE(dag.has_directed(0, 2));
  EXPECT_TRUE(dag.has_directed(1, 2));
  // Forbidden edges stay out.
  const StructuralConstraints cf(v, {}, {{"x1", "y"}});
  Graph dag2 = pdag_to_dag(discover_pc(t, cf).cpdag, cf);
  EXPECT_EQ(repair_input_edges(t, cf, &dag2, {}, r), 0);
}

// On the true DAG of linear SCMs there is nothing to repair.
TEST(InputEdgeRepair, AddsNothingToTheTrueGraph) {
  int added = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    Rng rng(60 + seed);
    ScmSpec spec;
    spec.options = 3;
    spec.fidelity = true;
    spec.indicators = 2;
    spec.objectives = 2;
    spec.constraints = 1;
    const SyntheticScm scm(spec, rng);
    const DataTable t(scm.variables(), scm.sample(500, rng));
    Graph dag = scm.dag();
    added += repair_input_edges(t, StructuralConstraints(t.variables()), &dag, {}, rng);
  }
  EXPECT_EQ(added, 0);
}
