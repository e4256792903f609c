#include <gtest/gtest.h>

#include "causal/causal_performance_model.hpp"
#include "causal/direct_lingam.hpp"
#include "causal/pc_algorithm.hpp"
#include "healthcare_data.hpp"
#include "synthetic_scm.hpp"
#include "util/error.hpp"

using namespace rescue;
using namespace rescue::causal;
using namespace rescue::causal::testing;

namespace {

// Fits a CPM by both methods and checks the constraints and finite estimates.
void learn_and_query(const DataTable& t, const char* what) {
  for (auto method : {DiscoveryMethod::PC, DiscoveryMethod::DirectLiNGAM}) {
    CpmOptions opt;
    opt.method = method;
    CausalPerformanceModel cpm = learn_cpm(t, opt);
    StructuralConstraints(t.variables()).check(cpm.dag);
    EXPECT_TRUE(cpm.dag.is_dag()) << what;
    const int d = static_cast<int>(t.columns_with_role(Role::Option).size());
    Eigen::MatrixXd xs = Eigen::MatrixXd::Random(50, d);
    Eigen::VectorXd s = Eigen::VectorXd::Random(t.fidelity_column() >= 0 ? 50 : 0);
    Eigen::MatrixXd mean, sd;
    cpm.model.estimate(xs, s, &mean, &sd);
    EXPECT_TRUE(mean.allFinite()) << what << " " << cpm.source;
    EXPECT_TRUE(sd.allFinite()) << what << " " << cpm.source;
    EXPECT_GE(sd.minCoeff(), 0.0) << what;
  }
}

}  // namespace

TEST(EdgeCases, SingleRowIsAClearError) {
  Rng rng(1);
  const DataTable t = healthcare_table(1, rng);
  try {
    learn_cpm(t);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("2 rows"), std::string::npos) << e.what();
  }
  EXPECT_THROW(discover_pc(t, StructuralConstraints(t.variables())), Error);
  EXPECT_THROW(discover_lingam(t, StructuralConstraints(t.variables())), Error);
  EXPECT_THROW(CausalModel::fit(t, Graph(t.variables())), Error);
}

TEST(EdgeCases, VeryFewRowsUseThePriorGraph) {
  Rng rng(2);
  const DataTable t = healthcare_table(3, rng);
  CausalPerformanceModel cpm = learn_cpm(t);
  EXPECT_EQ(cpm.source, "prior");
  EXPECT_TRUE(cpm.dag.has_directed(0, 3));
  EXPECT_TRUE(cpm.dag.has_directed(2, 5));
  learn_and_query(t, "three rows");
}

TEST(EdgeCases, ConstantColumns) {
  Rng rng(3);
  DataTable base = healthcare_table(300, rng);
  Eigen::MatrixXd X = base.data();
  X.col(2).setConstant(1.0);   // a single fidelity
  X.col(4).setConstant(0.25);  // a constant constraint metric
  const DataTable t(base.variables(), X);
  const Graph g = discover_pc(t, StructuralConstraints(t.variables())).cpdag;
  for (int v : {2, 4})
    for (int u = 0; u < g.num_nodes(); ++u) EXPECT_FALSE(u != v && g.adjacent(u, v)) << v << " " << g.to_dot();
  learn_and_query(t, "constant columns");
}

TEST(EdgeCases, PerfectlyCollinearColumns) {
  Rng rng(4);
  ScmSpec spec;
  spec.options = 2;
  spec.indicators = 2;
  spec.objectives = 2;
  const SyntheticScm scm(spec, rng);
  Eigen::MatrixXd X = scm.sample(400, rng);
  std::vector<Variable> v = scm.variables();
  // A duplicated option and an indicator that is an exact copy of another.
  Eigen::MatrixXd Y(X.rows(), X.cols() + 2);
  Y << X, X.col(0), X.col(2);
  v.push_back({"x0_copy", Role::Option});
  v.push_back({"z0_copy", Role::Indicator});
  learn_and_query(DataTable(v, Y), "collinear columns");
}

TEST(EdgeCases, MoreVariablesThanRows) {
  Rng rng(5);
  ScmSpec spec;
  spec.options = 6;
  spec.indicators = 8;
  spec.objectives = 4;
  spec.constraints = 2;
  spec.fidelity = true;
  const SyntheticScm scm(spec, rng);
  learn_and_query(DataTable(scm.variables(), scm.sample(12, rng)), "p > n");
}

// No observational data: a handful of interventional rows (options uniform at
// random) must still give a constraint-respecting graph and usable estimates.
TEST(EdgeCases, SmallInterventionalOnlyData) {
  Rng rng(6);
  for (int n : {5, 10, 20, 30}) {
    const DataTable t = healthcare_table(n, rng);
    learn_and_query(t, "small interventional data");
  }
}

TEST(EdgeCases, BadUserDagIsRejected) {
  Rng rng(7);
  const DataTable t = healthcare_table(50, rng);
  auto status = [&](const std::vector<NamedEdge>& edges) {
    CpmOptions opt;
    opt.user_dag = edges;
    try {
      learn_cpm(t, opt);
    } catch (const Error& e) {
      return e.status();
    }
    return Status::Ok;
  };
  EXPECT_EQ(status({{"BMI", "Statin"}, {"Statin", "PSA"}}), Status::Ok);
  EXPECT_EQ(status({{"Statin", "PSA"}, {"PSA", "Cancer"}, {"Cancer", "Statin"}}), Status::InvalidArgument);
  EXPECT_EQ(status({{"Statin", "BMI"}}), Status::InvalidArgument);  // into an option
  EXPECT_EQ(status({{"BMI", "S"}}), Status::InvalidArgument);       // into the fidelity
  EXPECT_EQ(status({{"BMI", "Weight"}}), Status::UnknownName);
  CpmOptions opt;
  opt.user_dag = std::vector<NamedEdge>{{"BMI", "Statin"}};
  opt.required = {{"Aspirin", "PSA"}};
  EXPECT_THROW(learn_cpm(t, opt), Error);  // the user DAG lacks a required edge
  opt.user_dag.reset();
  opt.forbidden = {{"BMI", "Statin"}};
  const auto cpm = learn_cpm(t, opt);
  EXPECT_FALSE(cpm.dag.adjacent(0, 3));
  EXPECT_TRUE(cpm.dag.has_directed(1, 5));
}
