#include <gtest/gtest.h>

#include "causal/causal_performance_model.hpp"
#include "causal/input_edge_repair.hpp"
#include "causal/pc_algorithm.hpp"
#include "causal/pdag_to_dag.hpp"
#include "synthetic_scm.hpp"
#include "util/error.hpp"

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
  // RepairScope::None leaves the graph as discovery left it.
  Graph untouched = dag;
  InputRepairOptions none;
  none.scope = RepairScope::None;
  EXPECT_EQ(repair_input_edges(t, c, &untouched, none, r), 0);
  EXPECT_FALSE(untouched.adjacent(0, 2));
  EXPECT_EQ(repair_input_edges(t, c, &dag, {}, r), 1);
  EXPECT_TRUE(dag.has_directed(0, 2));
  EXPECT_TRUE(dag.has_directed(1, 2));
  // Forbidden edges stay out.
  const StructuralConstraints cf(v, {}, {{"x1", "y"}});
  Graph dag2 = pdag_to_dag(discover_pc(t, cf).cpdag, cf);
  EXPECT_EQ(repair_input_edges(t, cf, &dag2, {}, r), 0);
}

namespace {

// x1, x2 options; an indicator i = 2 x1 x2 + 0.5 x2 + noise, so PC misses
// x1 -> i as it missed x1 -> y above; the objective y = i + noise.
DataTable indicator_table(Rng& rng) {
  const int n = 1000;
  Eigen::MatrixXd X(n, 4);
  for (int r = 0; r < n; ++r) {
    X(r, 0) = rng.uniform(-1.0, 1.0);
    X(r, 1) = rng.uniform(-1.0, 1.0);
    X(r, 2) = 2.0 * X(r, 0) * X(r, 1) + 0.5 * X(r, 1) + 0.1 * rng.normal();
    X(r, 3) = X(r, 2) + 0.1 * rng.normal();
  }
  return DataTable({{"x1", Role::Option}, {"x2", Role::Option}, {"i", Role::Indicator}, {"y", Role::Objective}}, X);
}

InputRepairOptions scoped(RepairScope scope) {
  InputRepairOptions o;
  o.scope = scope;
  return o;
}

}  // namespace

// The inputs of an indicator are repaired only with RepairScope::All; y, whose
// parent i screens it off from both inputs, gains nothing either way.
TEST(InputEdgeRepair, AllScopeRestoresInputsOfIndicators) {
  Rng rng(3);
  const DataTable t = indicator_table(rng);
  const StructuralConstraints c(t.variables());
  const Graph pc = pdag_to_dag(discover_pc(t, c).cpdag, c);
  ASSERT_FALSE(pc.adjacent(0, 2));
  ASSERT_TRUE(pc.has_directed(2, 3));
  Graph outputs_only = pc;
  Rng r1(4);
  EXPECT_EQ(repair_input_edges(t, c, &outputs_only, scoped(RepairScope::Outputs), r1), 0);
  EXPECT_FALSE(outputs_only.adjacent(0, 2));
  Graph all = pc;
  Rng r2(4);
  EXPECT_EQ(repair_input_edges(t, c, &all, scoped(RepairScope::All), r2), 1);
  EXPECT_TRUE(all.has_directed(0, 2));
  EXPECT_TRUE(all.has_directed(1, 2));
  EXPECT_FALSE(all.adjacent(0, 3));
  EXPECT_FALSE(all.adjacent(1, 3));
  EXPECT_TRUE(all.is_dag());
  c.check(all);
}

// A missed indicator -> objective edge: the outputs-only repair can only
// stand in the indicator's inputs for it, the full repair restores the edge
// itself and then has nothing left to add.
TEST(InputEdgeRepair, AllScopeRestoresIndicatorParentsOfOutputs) {
  Rng rng(5);
  const DataTable t = indicator_table(rng);
  const StructuralConstraints c(t.variables());
  Graph start(t.variables());
  start.add_directed(0, 2);
  start.add_directed(1, 2);
  Graph outputs_only = start;
  Rng r1(6);
  EXPECT_GE(repair_input_edges(t, c, &outputs_only, scoped(RepairScope::Outputs), r1), 1);
  EXPECT_FALSE(outputs_only.adjacent(2, 3));
  EXPECT_TRUE(outputs_only.has_directed(0, 3) || outputs_only.has_directed(1, 3));
  Graph all = start;
  Rng r2(6);
  EXPECT_EQ(repair_input_edges(t, c, &all, scoped(RepairScope::All), r2), 1);
  EXPECT_TRUE(all.has_directed(2, 3));
  EXPECT_EQ(all.parents(3).size(), 1u);
  // A forbidden indicator -> objective edge stays out; the inputs stand in.
  const StructuralConstraints cf(t.variables(), {}, {{"i", "y"}});
  Graph forbidden = start;
  Rng r3(6);
  EXPECT_GE(repair_input_edges(t, cf, &forbidden, scoped(RepairScope::All), r3), 1);
  EXPECT_FALSE(forbidden.adjacent(2, 3));
  cf.check(forbidden);
}

// On the true DAG of linear SCMs there is nothing to repair, in either scope.
class InputEdgeRepairScope : public ::testing::TestWithParam<RepairScope> {};

TEST_P(InputEdgeRepairScope, AddsNothingToTheTrueGraph) {
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
    added += repair_input_edges(t, StructuralConstraints(t.variables()), &dag, scoped(GetParam()), rng);
  }
  EXPECT_EQ(added, 0);
}

INSTANTIATE_TEST_SUITE_P(RepairingScopes, InputEdgeRepairScope, ::testing::Values(RepairScope::Outputs, RepairScope::All));
