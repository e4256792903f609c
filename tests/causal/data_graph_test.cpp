#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "causal/data_table.hpp"
#include "causal/graph.hpp"
#include "causal/structural_constraints.hpp"
#include "util/error.hpp"

using namespace rescue;
using namespace rescue::causal;

namespace {

std::vector<Variable> five_vars() {
  return {{"x0", Role::Option}, {"x1", Role::Option}, {"s", Role::Fidelity}, {"z", Role::Indicator},
          {"y", Role::Objective}, {"h", Role::Constraint}};
}

Status status_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.status();
  }
  return Status::Ok;
}

}  // namespace

TEST(DataTable, ValidatesInput) {
  EXPECT_EQ(status_of([] { DataTable({{"a", Role::Option}, {"a", Role::Objective}}, Eigen::MatrixXd::Zero(3, 2)); }),
            Status::InvalidArgument);
  EXPECT_EQ(status_of([] { DataTable({{"a", Role::Fidelity}, {"b", Role::Fidelity}}, Eigen::MatrixXd::Zero(3, 2)); }),
            Status::InvalidArgument);
  EXPECT_EQ(status_of([] { DataTable({{"a", Role::Option}}, Eigen::MatrixXd::Zero(3, 2)); }), Status::SizeMismatch);
  Eigen::MatrixXd bad = Eigen::MatrixXd::Zero(3, 2);
  bad(1, 1) = std::nan("");
  EXPECT_EQ(status_of([&] { DataTable({{"a", Role::Option}, {"b", Role::Objective}}, bad); }), Status::NonFinite);
  const DataTable t = DataTable::from_complete_rows({{"a", Role::Option}, {"b", Role::Objective}}, bad);
  EXPECT_EQ(t.rows(), 2);
}

TEST(StructuralConstraints, RoleRules) {
  const auto vars = five_vars();
  const StructuralConstraints c(vars);
  const int p = static_cast<int>(vars.size());
  for (int a = 0; a < p; ++a)
    for (int b = 0; b < p; ++b) {
      const Role ra = vars[a].role, rb = vars[b].role;
      bool expected = a != b;
      if (rb == Role::Option || rb == Role::Fidelity) expected = false;
      if ((ra == Role::Objective || ra == Role::Constraint) && rb == Role::Indicator) expected = false;
      EXPECT_EQ(c.allowed(a, b), expected) << vars[a].name << " -> " << vars[b].name;
      if (!expected) {
        EXPECT_FALSE(c.why_not(a, b).empty());
      }
    }
  EXPECT_TRUE(c.allowed(4, 5));  // objectives and constraint metrics may affect each other
  EXPECT_TRUE(c.allowed(5, 4));
  EXPECT_TRUE(c.must_precede(0, 3));
  EXPECT_TRUE(c.must_precede(3, 4));
  EXPECT_FALSE(c.must_precede(4, 5));
}

TEST(StructuralConstraints, RequiredAndForbidden) {
  const auto vars = five_vars();
  const StructuralConstraints c(vars, {{"y", "h"}}, {{"x0", "y"}});
  EXPECT_FALSE(c.allowed(0, 4));
  EXPECT_TRUE(c.required(4, 5));
  EXPECT_FALSE(c.allowed(5, 4));  // the opposite of a required edge
  EXPECT_TRUE(c.must_precede(4, 5));
  EXPECT_EQ(status_of([&] { StructuralConstraints(vars, {{"y", "x0"}}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { StructuralConstraints(vars, {{"y", "z"}}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { StructuralConstraints(vars, {{"x0", "y"}}, {{"x0", "y"}}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { StructuralConstraints(vars, {{"y", "h"}, {"h", "y"}}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { StructuralConstraints(vars, {{"q", "h"}}); }), Status::UnknownName);
  std::vector<Variable> three = {{"a", Role::Indicator}, {"b", Role::Indicator}, {"c", Role::Indicator}};
  EXPECT_EQ(status_of([&] { StructuralConstraints(three, {{"a", "b"}, {"b", "c"}, {"c", "a"}}); }),
            Status::InvalidArgument);
}

TEST(Graph, DagFromEdgesAndOrder) {
  const auto vars = five_vars();
  const Graph g = Graph::dag_from_edges(vars, {{"x0", "z"}, {"z", "y"}, {"s", "y"}, {"y", "h"}});
  EXPECT_TRUE(g.is_dag());
  EXPECT_EQ(g.num_edges(), 4);
  const auto order = g.topological_order();
  std::vector<int> pos(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) pos[order[i]] = static_cast<int>(i);
  for (int a = 0; a < g.num_nodes(); ++a)
    for (int b = 0; b < g.num_nodes(); ++b)
      if (g.has_directed(a, b)) {
        EXPECT_LT(pos[a], pos[b]);
      }
  EXPECT_EQ(status_of([&] { Graph::dag_from_edges(vars, {{"z", "y"}, {"y", "h"}, {"h", "z"}}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { Graph::dag_from_edges(vars, {{"z", "y"}, {"y", "z"}}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { Graph::dag_from_edges(vars, {{"z", "nope"}}); }), Status::UnknownName);
  EXPECT_EQ(status_of([&] { StructuralConstraints(vars).check(Graph::dag_from_edges(vars, {{"y", "x0"}})); }),
            Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { StructuralConstraints(vars).check(g); }), Status::Ok);
}

TEST(Graph, JsonAndDotExport) {
  auto vars = five_vars();
  vars[3].name = "z \"quoted\"";
  Graph g(vars);
  g.add_directed(0, 3);
  g.set_weight(0, 3, 0.25);
  g.add_undirected(4, 5);
  g.add_directed(2, 4);
  const auto j = nlohmann::json::parse(g.to_json());
  ASSERT_EQ(j["nodes"].size(), vars.size());
  EXPECT_EQ(j["nodes"][3]["name"], vars[3].name);
  EXPECT_EQ(j["nodes"][2]["role"], "fidelity");
  ASSERT_EQ(j["edges"].size(), 3u);
  int directed = 0, weighted = 0;
  for (const auto& e : j["edges"]) {
    directed += e["directed"].get<bool>();
    if (e.contains("weight")) {
      ++weighted;
      EXPECT_DOUBLE_EQ(e["weight"].get<double>(), 0.25);
      EXPECT_EQ(e["from"], "x0");
    }
  }
  EXPECT_EQ(directed, 2);
  EXPECT_EQ(weighted, 1);
  const std::string dot = g.to_dot();
  EXPECT_NE(dot.find("\"x0\" -> \"z \\\"quoted\\\"\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"y\" -> \"h\" [dir=none]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"s\" -> \"y\""), std::string::npos) << dot;
}

TEST(Graph, StructuralHammingDistance) {
  const auto vars = five_vars();
  const Graph a = Graph::dag_from_edges(vars, {{"x0", "z"}, {"z", "y"}, {"y", "h"}});
  Graph b = a;
  EXPECT_EQ(structural_hamming_distance(a, b), 0);
  b.remove_edge(0, 3);  // missing
  b.add_directed(1, 4);  // extra
  b.add_undirected(3, 4);  // undirected instead of directed
  b.remove_edge(4, 5);
  b.add_directed(5, 4);  // reversed
  EXPECT_EQ(structural_hamming_distance(a, b), 4);
  EXPECT_EQ(structural_hamming_distance(b, a), 4);
}

TEST(Graph, JsonRoundTripAndBadJson) {
  const auto vars = five_vars();
  const Graph g = Graph::dag_from_edges(vars, {{"x0", "z"}, {"z", "y"}, {"s", "y"}, {"y", "h"}});
  const Graph back = Graph::dag_from_edges(vars, Graph::edges_from_json(g.to_json()));
  EXPECT_EQ(back.to_json(), g.to_json());
  EXPECT_EQ(status_of([] { Graph::edges_from_json("{not json"); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([] { Graph::edges_from_json("{\"edges\": 3}"); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([] { Graph::edges_from_json("{\"edges\": [{\"from\": \"a\"}]}"); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([] { Graph::edges_from_json("{\"edges\": [{\"from\": \"a\", \"to\": \"b\", \"directed\": false}]}"); }),
            Status::InvalidArgument);
}
