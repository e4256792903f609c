#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "causal/adaptive_lasso.hpp"
#include "causal/direct_lingam.hpp"
#include "causal/pc_algorithm.hpp"
#include "causal/pdag_to_dag.hpp"
#include "synthetic_scm.hpp"
#include "util/error.hpp"

using namespace rescue;
using namespace rescue::causal;
using namespace rescue::causal::testing;

namespace {

DataTable table_of(const SyntheticScm& scm, int n, Rng& rng) { return DataTable(scm.variables(), scm.sample(n, rng)); }

}  // namespace

// Structural Hamming distances over 20 random SCMs with 3 options, 3
// indicators and 2 objectives (edge probability 0.3, n = 2000). mode 0: PC,
// linear-Gaussian, edges only across tiers (knowledge orients every edge), SHD
// of the PDAG itself; mode 1: PC, edges within tiers too, SHD of the extended
// DAG; mode 2: DirectLiNGAM, linear with uniform noise, edges within tiers too.
std::vector<int> shd_sweep(int mode) {
  std::vector<int> out;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Rng rng(seed + 1000 * static_cast<std::uint64_t>(mode));
    ScmSpec spec;
    spec.options = 3;
    spec.indicators = 3;
    spec.objectives = 2;
    spec.edge_probability = 0.3;
    spec.within_tier_edges = mode != 0;
    if (mode == 2) spec.noise = NoiseKind::Uniform;
    const SyntheticScm scm(spec, rng);
    const DataTable t = table_of(scm, 2000, rng);
    const StructuralConstraints c(t.variables());
    if (mode < 2) {
      const PcResult r = discover_pc(t, c, {0.01});
      out.push_back(structural_hamming_distance(mode == 0 ? r.cpdag : pdag_to_dag(r.cpdag, c), scm.dag()));
    } else {
      out.push_back(structural_hamming_distance(discover_lingam(t, c).dag, scm.dag()));
    }
  }
  return out;
}

int count_exact(const std::vector<int>& v) { return static_cast<int>(std::count(v.begin(), v.end(), 0)); }
int total(const std::vector<int>& v) { return std::accumulate(v.begin(), v.end(), 0); }

// Easy case for PC: cross-tier linear-Gaussian graphs. The few misses are
// near-cancellations of path effects (e.g. conditioning on a common child that
// almost cancels a direct dependence), which no finite-sample test resolves.
TEST(PcAlgorithm, RecoversCrossTierGraphsExactly) {
  const auto shd = shd_sweep(0);
  EXPECT_GE(count_exact(shd), 15);
  EXPECT_LE(total(shd), 20);
}

// Harder: edges inside tiers too (orientations partly decided only up to Markov
// equivalence): small errors, never a collapse.
TEST(PcAlgorithm, DegradesGracefullyWithinTiers) {
  const auto shd = shd_sweep(1);
  EXPECT_GE(count_exact(shd), 8);
  EXPECT_LE(total(shd), 30);
  EXPECT_LE(*std::max_element(shd.begin(), shd.end()), 4);
}

TEST(PcAlgorithm, SkeletonDoesNotDependOnColumnOrder) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Rng rng(500 + seed);
    ScmSpec spec;
    spec.options = 2 + static_cast<int>(rng.below(3));
    spec.indicators = 1 + static_cast<int>(rng.below(4));
    spec.objectives = 1 + static_cast<int>(rng.below(3));
    spec.constraints = static_cast<int>(rng.below(2));
    spec.fidelity = rng.uniform() < 0.5;
    const SyntheticScm scm(spec, rng);
    const int n = 60 + static_cast<int>(rng.below(300));  // small n: many borderline tests
    const Eigen::MatrixXd X = scm.sample(n, rng);
    const int p = scm.size();
    std::vector<int> perm(p);
    std::iota(perm.begin(), perm.end(), 0);
    for (int i = p - 1; i > 0; --i) std::swap(perm[i], perm[rng.below(i + 1)]);
    std::vector<Variable> pv;
    Eigen::MatrixXd PX(n, p);
    for (int j = 0; j < p; ++j) {
      pv.push_back(scm.variables()[perm[j]]);
      PX.col(j) = X.col(perm[j]);
    }
    const DataTable t1(scm.variables(), X), t2(pv, PX);
    const double alpha = 0.05;
    const Graph g1 = discover_pc(t1, StructuralConstraints(t1.variables()), {alpha}).cpdag;
    const Graph g2 = discover_pc(t2, StructuralConstraints(t2.variables()), {alpha}).cpdag;
    for (int a = 0; a < p; ++a)
      for (int b = 0; b < p; ++b) ASSERT_EQ(g2.adjacent(a, b), g1.adjacent(perm[a], perm[b])) << "seed " << seed;
  }
}

// Chain z0 -> z1 -> z2 with the adjacency z0 - z2 forbidden by the user: the
// missing edge has a true separating set {z1}, so no collider may appear at z1.
TEST(PcAlgorithm, ForbiddenAdjacencyCreatesNoFalseCollider) {
  Rng rng(9);
  const int n = 1500;
  Eigen::MatrixXd X(n, 4);
  for (int i = 0; i < n; ++i) {
    X(i, 0) = rng.uniform(-1.0, 1.0);
    X(i, 1) = 0.9 * X(i, 0) + 0.5 * rng.normal();
    X(i, 2) = 0.9 * X(i, 1) + 0.5 * rng.normal();
    X(i, 3) = 0.9 * X(i, 2) + 0.5 * rng.normal();
  }
  const std::vector<Variable> chain = {{"z0", Role::Indicator}, {"z1", Role::Indicator}, {"z2", Role::Indicator}};
  const DataTable t3(chain, X.leftCols(3));
  const StructuralConstraints c3(chain, {}, {{"z0", "z2"}, {"z2", "z0"}});
  const Graph g = discover_pc(t3, c3).cpdag;
  EXPECT_TRUE(g.has_undirected(0, 1)) << g.to_dot();
  EXPECT_TRUE(g.has_undirected(1, 2)) << g.to_dot();
  EXPECT_FALSE(g.adjacent(0, 2));
  // With an option in front, knowledge and Meek R1 orient the whole chain forward.
  const std::vector<Variable> opt = {{"x", Role::Option}, {"z0", Role::Indicator}, {"z1", Role::Indicator},
                                     {"z2", Role::Indicator}};
  const DataTable t4(opt, X);
  const StructuralConstraints c4(opt, {}, {{"z0", "z2"}, {"z2", "z0"}});
  const Graph h = discover_pc(t4, c4).cpdag;
  EXPECT_TRUE(h.has_directed(0, 1)) << h.to_dot();
  EXPECT_TRUE(h.has_directed(1, 2)) << h.to_dot();
  EXPECT_TRUE(h.has_directed(2, 3)) << h.to_dot();
}

TEST(PcAlgorithm, OrientsColliderAndMeekRules) {
  // Two independent indicators cause a third, which causes a fourth: collider
  // at z2 from the data, then R1 orients z2 -> z3.
  Rng rng(4);
  const int n = 2000;
  Eigen::MatrixXd X(n, 4);
  for (int i = 0; i < n; ++i) {
    X(i, 0) = rng.normal();
    X(i, 1) = rng.normal();
    X(i, 2) = 0.8 * X(i, 0) - 0.7 * X(i, 1) + 0.5 * rng.normal();
    X(i, 3) = 0.9 * X(i, 2) + 0.5 * rng.normal();
  }
  const std::vector<Variable> v = {{"a", Role::Indicator}, {"b", Role::Indicator}, {"c", Role::Indicator},
                                   {"d", Role::Indicator}};
  const Graph g = discover_pc(DataTable(v, X), StructuralConstraints(v)).cpdag;
  EXPECT_TRUE(g.has_directed(0, 2)) << g.to_dot();
  EXPECT_TRUE(g.has_directed(1, 2)) << g.to_dot();
  EXPECT_TRUE(g.has_directed(2, 3)) << g.to_dot();
  EXPECT_EQ(g.num_edges(), 3);
}

TEST(PcAlgorithm, RejectsBadInput) {
  const std::vector<Variable> v = {{"x", Role::Option}, {"y", Role::Objective}};
  EXPECT_THROW(discover_pc(DataTable(v, Eigen::MatrixXd::Random(3, 2)), StructuralConstraints(v)), Error);
  EXPECT_THROW(discover_pc(DataTable(v, Eigen::MatrixXd::Random(30, 2)), StructuralConstraints(v), {1.5}), Error);
}

TEST(DirectLingam, EntropyOfGaussianIsNearClosedForm) {
  Rng rng(2);
  Eigen::VectorXd u(20000);
  for (Eigen::Index i = 0; i < u.size(); ++i) u(i) = rng.normal();
  u = (u.array() - u.mean()) / std::sqrt((u.array() - u.mean()).square().mean());
  EXPECT_NEAR(lingam_entropy(u), 0.5 * (1.0 + std::log(2.0 * M_PI)), 0.01);
  // Uniform has less entropy than a Gaussian of the same variance.
  for (Eigen::Index i = 0; i < u.size(); ++i) u(i) = std::sqrt(3.0) * rng.uniform(-1.0, 1.0);
  EXPECT_LT(lingam_entropy(u), 0.5 * (1.0 + std::log(2.0 * M_PI)) - 0.05);
}

TEST(DirectLingam, FindsDirectionOfTwoVariables) {
  for (int flip = 0; flip < 2; ++flip) {
    Rng rng(21 + flip);
    const int n = 1000;
    Eigen::MatrixXd X(n, 2);
    for (int i = 0; i < n; ++i) {
      const double a = rng.uniform(-1.0, 1.0);
      const double b = 0.8 * a + 0.5 * rng.uniform(-1.0, 1.0);
      X(i, flip) = a;
      X(i, 1 - flip) = b;
    }
    const std::vector<Variable> v = {{"p", Role::Indicator}, {"q", Role::Indicator}};
    const auto r = discover_lingam(DataTable(v, X), StructuralConstraints(v));
    EXPECT_EQ(r.causal_order.front(), flip);
    EXPECT_TRUE(r.dag.has_directed(flip, 1 - flip));
    EXPECT_NEAR(r.dag.weight(flip, 1 - flip), 0.8, 0.05);
  }
}

// Easy case for DirectLiNGAM: linear with uniform noise, edges within tiers as well.
TEST(DirectLingam, RecoversLinearNonGaussianGraphsExactly) {
  const auto shd = shd_sweep(2);
  EXPECT_GE(count_exact(shd), 17);
  EXPECT_LE(total(shd), 6);
}

TEST(DirectLingam, EdgeWeightsMatchTruth) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    Rng rng(300 + seed);
    ScmSpec spec;
    spec.options = 2;
    spec.indicators = 3;
    spec.objectives = 3;
    spec.noise = NoiseKind::Uniform;
    const SyntheticScm scm(spec, rng);
    const DataTable t = table_of(scm, 2000, rng);
    const auto r = discover_lingam(t, StructuralConstraints(t.variables()));
    int matched = 0;
    for (int a = 0; a < scm.size(); ++a)
      for (int b = 0; b < scm.size(); ++b)
        if (scm.dag().has_directed(a, b) && r.dag.has_directed(a, b)) {
          ++matched;
          EXPECT_NEAR(r.dag.weight(a, b), scm.weights()(a, b), 0.1);
        }
    EXPECT_GE(matched, scm.dag().num_edges() - 1);
  }
}

TEST(AdaptiveLasso, SelectsTrueSupportAndKeepsForced) {
  Rng rng(8);
  const int n = 500, k = 8;
  Eigen::MatrixXd X(n, k);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < k; ++j) X(i, j) = rng.normal();
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(k);
  beta(1) = 1.5;
  beta(4) = -0.7;
  Eigen::VectorXd y = (X * beta).array() + 2.0;
  for (int i = 0; i < n; ++i) y(i) += 0.3 * rng.normal();
  const auto fit = adaptive_lasso_bic(X, y);
  EXPECT_EQ(fit.support, (std::vector<int>{1, 4}));
  // The kept coefficients are the least-squares fit on the support (normal equations).
  Eigen::MatrixXd A(n, 3);
  A << Eigen::VectorXd::Ones(n), X.col(1), X.col(4);
  const Eigen::VectorXd ls = (A.transpose() * A).ldlt().solve(A.transpose() * y);
  EXPECT_NEAR(fit.intercept, ls(0), 1e-9);
  EXPECT_NEAR(fit.coefficients(1), ls(1), 1e-9);
  EXPECT_NEAR(fit.coefficients(4), ls(2), 1e-9);
  const auto forced = adaptive_lasso_bic(X, y, {6});
  EXPECT_EQ(forced.support, (std::vector<int>{1, 4, 6}));
}
