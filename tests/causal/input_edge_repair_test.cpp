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

namespace {

// x1, x2, x3 options; y1 = 2 x1^2 + noise and y2 = x1^2 + 0.5 x3 + noise, two
// objectives with the shared cause x1 and no edge between them. The linear
// tests of PC see y1 and y2 dependent given x1 (through x1^2).
DataTable shared_cause_table(Rng& rng) {
  const int n = 500;
  Eigen::MatrixXd X(n, 5);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < 3; ++c) X(r, c) = rng.uniform(-1.0, 1.0);
    X(r, 3) = 2.0 * X(r, 0) * X(r, 0) + 0.1 * rng.normal();
    X(r, 4) = X(r, 0) * X(r, 0) + 0.5 * X(r, 2) + 0.1 * rng.normal();
  }
  return DataTable({{"x1", Role::Option},
                    {"x2", Role::Option},
                    {"x3", Role::Option},
                    {"y1", Role::Objective},
                    {"y2", Role::Objective}},
                   X);
}

// The true graph plus the two edges y2 does not need: y1 -> y2 (y2 is
// independent of y1 given x1) and x2 -> y2 (x2 has no effect).
Graph graph_with_spurious_parents(const DataTable& t) {
  Graph g(t.variables());
  g.add_directed(0, 3);
  g.add_directed(0, 4);
  g.add_directed(2, 4);
  g.add_directed(3, 4);
  g.add_directed(1, 4);
  return g;
}

}  // namespace

TEST(ParentPruning, DropsParentsTheEquationDoesNotNeed) {
  Rng rng(11);
  const DataTable t = shared_cause_table(rng);
  const StructuralConstraints c(t.variables());
  Graph g = graph_with_spurious_parents(t);
  Rng r1(12);
  EXPECT_EQ(prune_parents(t, c, &g, {}, r1), 2) << g.to_dot();
  EXPECT_FALSE(g.adjacent(3, 4)) << g.to_dot();
  EXPECT_FALSE(g.adjacent(1, 4)) << g.to_dot();
  // The true parents stay, the weaker x3 -> y2 included.
  EXPECT_TRUE(g.has_directed(0, 3));
  EXPECT_TRUE(g.has_directed(0, 4));
  EXPECT_TRUE(g.has_directed(2, 4));
  c.check(g);
  // A required edge stays even when the data do not need it.
  const StructuralConstraints cr(t.variables(), {{"x2", "y2"}});
  Graph h = graph_with_spurious_parents(t);
  Rng r2(12);
  EXPECT_EQ(prune_parents(t, cr, &h, {}, r2), 1) << h.to_dot();
  EXPECT_TRUE(h.has_directed(1, 4));
  EXPECT_FALSE(h.adjacent(3, 4));
  // Too few rows for the cross-validated comparison: nothing changes.
  const DataTable few(t.variables(), t.data().topRows(10));
  Graph k = graph_with_spurious_parents(t);
  Rng r3(12);
  EXPECT_EQ(prune_parents(few, c, &k, {}, r3), 0);
  EXPECT_EQ(k.num_edges(), 5);
  EXPECT_THROW(prune_parents(t, c, nullptr, {}, r3), Error);
}

// learn_cpm prunes only when asked, and only what discovery and repair produced.
TEST(ParentPruning, LearnCpmAppliesItOnRequest) {
  Rng rng(13);
  const DataTable t = shared_cause_table(rng);
  CpmOptions o;
  o.seed = 5;
  const CausalPerformanceModel kept = learn_cpm(t, o);
  o.prune = true;
  const CausalPerformanceModel pruned = learn_cpm(t, o);
  EXPECT_EQ(kept.pruned_edges, 0);
  ASSERT_TRUE(kept.dag.adjacent(3, 4)) << kept.dag.to_dot();  // PC's spurious edge
  EXPECT_FALSE(pruned.dag.adjacent(3, 4)) << pruned.dag.to_dot();
  EXPECT_EQ(pruned.dag.num_edges() + pruned.pruned_edges, kept.dag.num_edges());
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < 5; ++b)
      EXPECT_TRUE(!pruned.dag.has_directed(a, b) || kept.dag.has_directed(a, b)) << a << " -> " << b;
  EXPECT_TRUE(pruned.dag.has_directed(0, 3));
  EXPECT_TRUE(pruned.dag.has_directed(0, 4));
  // A user DAG is the user's: never pruned.
  o.user_dag = std::vector<NamedEdge>{{"x1", "y1"}, {"x1", "y2"}, {"x2", "y2"}, {"y1", "y2"}};
  const CausalPerformanceModel user = learn_cpm(t, o);
  EXPECT_EQ(user.pruned_edges, 0);
  EXPECT_EQ(user.dag.num_edges(), 4);
}
