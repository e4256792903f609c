// Structural constraints hold in every output graph, on many random inputs:
// random roles in random column order, random required and forbidden edges,
// data from random SCMs or plain noise, from 5 to 400 rows.
#include <gtest/gtest.h>

#include <numeric>

#include "causal/causal_performance_model.hpp"
#include "causal/direct_lingam.hpp"
#include "causal/pc_algorithm.hpp"
#include "causal/pdag_to_dag.hpp"
#include "synthetic_scm.hpp"

using namespace rescue;
using namespace rescue::causal;
using namespace rescue::causal::testing;

namespace {

int tier(Role r) { return (r == Role::Option || r == Role::Fidelity) ? 0 : (r == Role::Indicator ? 1 : 2); }

// Written out independently of StructuralConstraints.
void expect_respects(const Graph& g, const std::vector<Variable>& v, const std::vector<NamedEdge>& required,
                     const std::vector<NamedEdge>& forbidden, const std::string& what) {
  auto idx = [&](const std::string& name) {
    for (std::size_t j = 0; j < v.size(); ++j)
      if (v[j].name == name) return static_cast<int>(j);
    return -1;
  };
  const int p = static_cast<int>(v.size());
  for (int a = 0; a < p; ++a)
    for (int b = 0; b < p; ++b) {
      if (!g.adjacent(a, b)) continue;
      const bool undirected = g.has_undirected(a, b);
      const bool into_b = g.has_directed(a, b) || undirected;
      if (!into_b) continue;
      if (!undirected) {
        ASSERT_NE(v[b].role, Role::Option) << what << ": edge into option " << v[b].name;
        ASSERT_NE(v[b].role, Role::Fidelity) << what << ": edge into fidelity";
        ASSERT_LE(tier(v[a].role), tier(v[b].role)) << what << ": " << v[a].name << " -> " << v[b].name;
      } else {
        // An undirected edge must be orientable one way at least.
        const bool ab = v[b].role != Role::Option && v[b].role != Role::Fidelity && tier(v[a].role) <= tier(v[b].role);
        const bool ba = v[a].role != Role::Option && v[a].role != Role::Fidelity && tier(v[b].role) <= tier(v[a].role);
        ASSERT_TRUE(ab || ba) << what;
      }
    }
  for (const auto& e : forbidden) ASSERT_FALSE(g.has_directed(idx(e.from), idx(e.to))) << what << " forbidden";
  for (const auto& e : required) ASSERT_TRUE(g.has_directed(idx(e.from), idx(e.to))) << what << " required";
}

}  // namespace

TEST(RandomConstraints, EveryOutputGraphRespectsThem) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    Rng rng(9000 + seed);
    ScmSpec spec;
    spec.options = 1 + static_cast<int>(rng.below(4));
    spec.fidelity = rng.uniform() < 0.6;
    spec.indicators = static_cast<int>(rng.below(4));
    spec.objectives = 1 + static_cast<int>(rng.below(3));
    spec.constraints = static_cast<int>(rng.below(2));
    spec.noise = rng.uniform() < 0.5 ? NoiseKind::Gaussian : NoiseKind::Uniform;
    const SyntheticScm scm(spec, rng);
    const int p = scm.size();
    const int sizes[4] = {5, 15, 60, 400};
    const int n = sizes[rng.below(4)];
    Eigen::MatrixXd X = scm.sample(n, rng);
    if (rng.uniform() < 0.25)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < p; ++j) X(i, j) = rng.normal();  // no structure at all
    // Shuffle the columns so roles are interleaved.
    std::vector<int> perm(p);
    std::iota(perm.begin(), perm.end(), 0);
    for (int i = p - 1; i > 0; --i) std::swap(perm[i], perm[rng.below(i + 1)]);
    std::vector<Variable> v;
    Eigen::MatrixXd PX(n, p);
    for (int j = 0; j < p; ++j) {
      v.push_back(scm.variables()[perm[j]]);
      PX.col(j) = X.col(perm[j]);
    }
    // Random forbidden edges, and required edges drawn from the allowed ones
    // along the tier order (so they cannot form a cycle).
    std::vector<NamedEdge> required, forbidden;
    for (int a = 0; a < p; ++a)
      for (int b = 0; b < p; ++b) {
        if (a == b) continue;
        const double u = rng.uniform();
        const bool role_ok = v[b].role != Role::Option && v[b].role != Role::Fidelity && tier(v[a].role) <= tier(v[b].role);
        const bool forward = tier(v[a].role) < tier(v[b].role) || (tier(v[a].role) == tier(v[b].role) && a < b);
        if (u < 0.08) {
          forbidden.push_back({v[a].name, v[b].name});
        } else if (u < 0.12 && role_ok && forward) {
          required.push_back({v[a].name, v[b].name});
        }
      }
    // Drop required edges that are also forbidden.
    std::vector<NamedEdge> req;
    for (const auto& r : required) {
      bool clash = false;
      for (const auto& f : forbidden) clash = clash || (f.from == r.from && f.to == r.to) || (f.from == r.to && f.to == r.from);
      if (!clash) req.push_back(r);
    }
    const DataTable t(v, PX);
    const StructuralConstraints c(v, req, forbidden);
    const std::string what = "seed " + std::to_string(seed) + " n " + std::to_string(n);
    const PcResult pc = discover_pc(t, c);
    expect_respects(pc.cpdag, v, req, forbidden, what + " pc");
    const Graph dag = pdag_to_dag(pc.cpdag, c);
    ASSERT_TRUE(dag.is_dag()) << what;
    expect_respects(dag, v, req, forbidden, what + " pc dag");
    const LingamResult lg = discover_lingam(t, c);
    expect_respects(lg.dag, v, req, forbidden, what + " lingam");
    for (auto method : {DiscoveryMethod::PC, DiscoveryMethod::DirectLiNGAM}) {
      CpmOptions opt;
      opt.method = method;
      opt.required = req;
      opt.forbidden = forbidden;
      opt.seed = seed;
      const auto cpm = learn_cpm(t, opt);
      expect_respects(cpm.dag, v, req, forbidden, what + " cpm");
    }
  }
}

// Random PDAGs (any marks at all) always extend to a constraint-respecting DAG.
TEST(RandomConstraints, PdagExtensionOfArbitraryGraphs) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    Rng rng(seed);
    const int p = 2 + static_cast<int>(rng.below(8));
    std::vector<Variable> v;
    const Role roles[5] = {Role::Option, Role::Fidelity, Role::Indicator, Role::Objective, Role::Constraint};
    bool fid = false;
    for (int j = 0; j < p; ++j) {
      Role r = roles[rng.below(5)];
      if (r == Role::Fidelity && fid) r = Role::Indicator;
      fid = fid || r == Role::Fidelity;
      v.push_back({"v" + std::to_string(j), r});
    }
    Graph g(v);
    for (int a = 0; a < p; ++a)
      for (int b = a + 1; b < p; ++b) {
        const double u = rng.uniform();
        if (u < 0.25) g.add_directed(a, b);
        else if (u < 0.5) g.add_directed(b, a);
        else if (u < 0.75) g.add_undirected(a, b);
      }
    const StructuralConstraints c(v);
    const Graph dag = pdag_to_dag(g, c);
    ASSERT_TRUE(dag.is_dag());
    expect_respects(dag, v, {}, {}, "pdag seed " + std::to_string(seed));
  }
}
