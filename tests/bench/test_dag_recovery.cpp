#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/dag_recovery.hpp"
#include "bench/variant.hpp"
#include "problems/benchmark_problem.hpp"

using namespace rescue;
using namespace rescue::bench;

namespace {
std::string graph_json(const std::vector<Edge>& directed, const std::vector<Edge>& undirected = {}) {
  nlohmann::json edges = nlohmann::json::array();
  for (const auto& [a, b] : directed) edges.push_back({{"from", a}, {"to", b}, {"directed", true}});
  for (const auto& [a, b] : undirected) edges.push_back({{"from", a}, {"to", b}, {"directed", false}});
  return nlohmann::json{{"edges", edges}}.dump();
}
}  // namespace

TEST(DagRecovery, EachProblemsTrueGraphRecoversItself) {
  for (const std::string& name : problems::problem_names()) {
    const auto problem = problems::make_problem(name);
    const DagRecovery r = compare_with_true_dag(true_dag_json(*problem), problem->causal_edges());
    EXPECT_GT(r.true_edges, 0) << name;
    EXPECT_EQ(r.found, r.true_edges) << name;
    EXPECT_EQ(r.reversed, 0) << name;
    EXPECT_TRUE(r.missed.empty()) << name;
    EXPECT_TRUE(r.extra.empty()) << name;
  }
}

TEST(DagRecovery, CountsFoundReversedMissedAndExtraEdges) {
  const std::vector<Edge> truth = {{"a", "b"}, {"b", "c"}, {"a", "c"}, {"c", "d"}};
  // b -> a reversed, b - c undirected (found), c -> d found, a -> c missing, d -> e and a - e extra.
  const DagRecovery r =
      compare_with_true_dag(graph_json({{"b", "a"}, {"c", "d"}, {"d", "e"}}, {{"c", "b"}, {"a", "e"}}), truth);
  EXPECT_EQ(r.true_edges, 4);
  EXPECT_EQ(r.found, 2);
  EXPECT_EQ(r.reversed, 1);
  ASSERT_EQ(r.missed.size(), 1u);
  EXPECT_EQ(r.missed[0], Edge("a", "c"));
  EXPECT_EQ(r.extra, (std::vector<Edge>{{"a", "e"}, {"d", "e"}}));
  EXPECT_EQ(describe(r), "2 of 4 true edges found, 1 reversed, 1 missed; 2 extra");
}

// Repeated edges, a learned 2-cycle, an edge both directed and undirected and a
// self loop: every true edge counts once, every unlinked pair once.
TEST(DagRecovery, CountsEachEdgeAndEachPairOnce) {
  const std::vector<Edge> truth = {{"a", "b"}, {"a", "b"}, {"b", "c"}};
  const DagRecovery r = compare_with_true_dag(
      graph_json({{"a", "b"}, {"a", "b"}, {"c", "b"}, {"b", "c"}, {"x", "y"}, {"y", "x"}, {"z", "z"}, {"p", "q"}},
                 {{"q", "p"}, {"b", "a"}}),
      truth);
  EXPECT_EQ(r.true_edges, 2);
  EXPECT_EQ(r.found, 2);
  EXPECT_EQ(r.reversed, 0);
  EXPECT_TRUE(r.missed.empty());
  EXPECT_EQ(r.extra, (std::vector<Edge>{{"p", "q"}, {"x", "y"}, {"z", "z"}}));
}

// Against a plain count over random graphs on 8 nodes.
TEST(DagRecovery, MatchesABruteForceCountOnRandomGraphs) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const std::vector<std::string> nodes = {"n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7"};
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Edge> truth, directed, undirected;
    for (std::size_t i = 0; i < nodes.size(); ++i)
      for (std::size_t j = i + 1; j < nodes.size(); ++j) {
        if (u(gen) < 0.3) truth.push_back({nodes[i], nodes[j]});
        const double v = u(gen);
        if (v < 0.2)
          directed.push_back({nodes[i], nodes[j]});
        else if (v < 0.35)
          directed.push_back({nodes[j], nodes[i]});
        else if (v < 0.45)
          undirected.push_back({nodes[j], nodes[i]});
        // Now and then a second edge on the same pair: a 2-cycle or a directed and undirected pair.
        if (u(gen) < 0.1) directed.push_back({nodes[j], nodes[i]});
        if (u(gen) < 0.1) undirected.push_back({nodes[i], nodes[j]});
      }
    const DagRecovery r = compare_with_true_dag(graph_json(directed, undirected), truth);
    auto has = [](const std::vector<Edge>& v, const Edge& e) { return std::find(v.begin(), v.end(), e) != v.end(); };
    int found = 0, reversed = 0, missed = 0, extra = 0;
    for (const Edge& e : truth) {
      const Edge back{e.second, e.first};
      if (has(directed, e) || has(undirected, e) || has(undirected, back))
        ++found;
      else if (has(directed, back))
        ++reversed;
      else
        ++missed;
    }
    for (std::size_t i = 0; i < nodes.size(); ++i)  // unlinked pairs the learned graph links
      for (std::size_t j = i + 1; j < nodes.size(); ++j) {
        const Edge e{nodes[i], nodes[j]}, back{nodes[j], nodes[i]};
        const bool learned = has(directed, e) || has(directed, back) || has(undirected, e) || has(undirected, back);
        extra += learned && !has(truth, e) && !has(truth, back);
      }
    EXPECT_EQ(r.true_edges, static_cast<int>(truth.size()));
    EXPECT_EQ(r.found, found);
    EXPECT_EQ(r.reversed, reversed);
    EXPECT_EQ(static_cast<int>(r.missed.size()), missed);
    EXPECT_EQ(static_cast<int>(r.extra.size()), extra);
  }
}

TEST(DagRecovery, RejectsMalformedGraphs) {
  const std::vector<Edge> truth = {{"a", "b"}};
  EXPECT_THROW(compare_with_true_dag("{\"edges\": [", truth), std::invalid_argument);
  EXPECT_THROW(compare_with_true_dag("{\"nodes\": []}", truth), std::invalid_argument);
  EXPECT_THROW(compare_with_true_dag("{\"edges\": [{\"from\": \"a\"}]}", truth), std::invalid_argument);
}
