#include "causal/graph.hpp"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "util/error.hpp"

namespace rescue::causal {

Graph::Graph(std::vector<Variable> variables) : variables_(std::move(variables)) {
  const std::size_t p = variables_.size();
  marks_.assign(p * p, 0);
  weights_.assign(p * p, std::numeric_limits<double>::quiet_NaN());
}

void Graph::check_node(int v) const {
  if (v < 0 || v >= num_nodes())
    fail(Status::OutOfRange, "graph: node " + std::to_string(v) + " out of range [0, " +
                                 std::to_string(num_nodes()) + ")");
}

Graph Graph::dag_from_edges(std::vector<Variable> variables, const std::vector<NamedEdge>& edges) {
  Graph g(std::move(variables));
  auto find = [&](const std::string& name) {
    for (int j = 0; j < g.num_nodes(); ++j)
      if (g.variables_[static_cast<std::size_t>(j)].name == name) return j;
    fail(Status::UnknownName, "DAG: edge names unknown variable '" + name + "'");
  };
  for (const auto& e : edges) {
    const int a = find(e.from), b = find(e.to);
    if (a == b) fail(Status::InvalidArgument, "DAG: self-loop on '" + e.from + "'");
    if (g.adjacent(a, b))
      fail(Status::InvalidArgument, "DAG: duplicate or opposite edge between '" + e.from + "' and '" + e.to + "'");
    if (g.creates_cycle(a, b))
      fail(Status::InvalidArgument, "DAG: edge " + e.from + " -> " + e.to + " closes a directed cycle");
    g.add_directed(a, b);
  }
  return g;
}

std::vector<NamedEdge> Graph::edges_from_json(const std::string& text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    fail(Status::InvalidArgument, std::string("graph JSON: cannot parse: ") + e.what());
  }
  if (!j.is_object() || !j.contains("edges") || !j["edges"].is_array())
    fail(Status::InvalidArgument, "graph JSON: expected an object with an \"edges\" array");
  std::vector<NamedEdge> edges;
  for (const auto& e : j["edges"]) {
    if (!e.is_object() || !e.contains("from") || !e.contains("to") || !e["from"].is_string() || !e["to"].is_string())
      fail(Status::InvalidArgument, "graph JSON: every edge needs string \"from\" and \"to\"");
    if (e.contains("directed") && !(e["directed"].is_boolean() && e["directed"].get<bool>()))
      fail(Status::InvalidArgument, "graph JSON: edge " + e["from"].get<std::string>() + " -- " +
                                        e["to"].get<std::string>() + " is not directed; a DAG is required");
    edges.push_back({e["from"].get<std::string>(), e["to"].get<std::string>()});
  }
  return edges;
}

void Graph::add_directed(int from, int to) {
  check_node(from);
  check_node(to);
  if (from == to) fail(Status::InvalidArgument, "graph: self-loop");
  marks_[index(from, to)] = 1;
  marks_[index(to, from)] = 0;
}

void Graph::add_undirected(int a, int b) {
  check_node(a);
  check_node(b);
  if (a == b) fail(Status::InvalidArgument, "graph: self-loop");
  marks_[index(a, b)] = 1;
  marks_[index(b, a)] = 1;
}

void Graph::remove_edge(int a, int b) {
  check_node(a);
  check_node(b);
  marks_[index(a, b)] = 0;
  marks_[index(b, a)] = 0;
  weights_[index(a, b)] = weights_[index(b, a)] = std::numeric_limits<double>::quiet_NaN();
}

double Graph::weight(int from, int to) const {
  check_node(from);
  check_node(to);
  return weights_[index(from, to)];
}

void Graph::set_weight(int from, int to, double w) {
  check_node(from);
  check_node(to);
  weights_[index(from, to)] = w;
}

std::vector<int> Graph::parents(int v) const {
  check_node(v);
  std::vector<int> out;
  for (int u = 0; u < num_nodes(); ++u)
    if (has_directed(u, v)) out.push_back(u);
  return out;
}

int Graph::num_edges() const {
  int n = 0;
  for (int a = 0; a < num_nodes(); ++a)
    for (int b = a + 1; b < num_nodes(); ++b) n += adjacent(a, b);
  return n;
}

bool Graph::has_undirected_edges() const {
  for (int a = 0; a < num_nodes(); ++a)
    for (int b = a + 1; b < num_nodes(); ++b)
      if (has_undirected(a, b)) return true;
  return false;
}

bool Graph::creates_cycle(int from, int to) const {
  // A cycle appears iff `from` is reachable from `to` along directed edges.
  std::vector<char> seen(static_cast<std::size_t>(num_nodes()), 0);
  std::vector<int> stack{to};
  seen[static_cast<std::size_t>(to)] = 1;
  while (!stack.empty()) {
    const int u = stack.back();
    stack.pop_back();
    if (u == from) return true;
    for (int w = 0; w < num_nodes(); ++w)
      if (!seen[static_cast<std::size_t>(w)] && has_directed(u, w)) {
        seen[static_cast<std::size_t>(w)] = 1;
        stack.push_back(w);
      }
  }
  return false;
}

std::vector<int> Graph::topological_order() const {
  if (has_undirected_edges()) fail(Status::InvalidArgument, "graph: topological order of a graph with undirected edges");
  const int p = num_nodes();
  std::vector<int> indeg(static_cast<std::size_t>(p), 0), order;
  for (int a = 0; a < p; ++a)
    for (int b = 0; b < p; ++b)
      if (has_directed(a, b)) ++indeg[static_cast<std::size_t>(b)];
  std::vector<char> done(static_cast<std::size_t>(p), 0);
  for (int step = 0; step < p; ++step) {
    int pick = -1;
    for (int v = 0; v < p && pick < 0; ++v)
      if (!done[static_cast<std::size_t>(v)] && indeg[static_cast<std::size_t>(v)] == 0) pick = v;
    if (pick < 0) fail(Status::InvalidArgument, "graph: has a directed cycle");
    done[static_cast<std::size_t>(pick)] = 1;
    order.push_back(pick);
    for (int b = 0; b < p; ++b)
      if (has_directed(pick, b)) --indeg[static_cast<std::size_t>(b)];
  }
  return order;
}

bool Graph::is_dag() const {
  if (has_undirected_edges()) return false;
  try {
    topological_order();
  } catch (const Error&) {
    return false;
  }
  return true;
}

namespace {

std::string dot_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

const char* dot_shape(Role r) {
  switch (r) {
    case Role::Option: return "box";
    case Role::Fidelity: return "diamond";
    case Role::Indicator: return "ellipse";
    case Role::Objective: return "doubleoctagon";
    case Role::Constraint: return "octagon";
  }
  return "ellipse";
}

}  // namespace

std::string Graph::to_dot() const {
  std::ostringstream os;
  os.precision(6);
  os << "digraph cpm {\n  rankdir=LR;\n";
  for (int tier = 0; tier <= 2; ++tier) {
    os << "  { rank=same;";
    for (const auto& v : variables_)
      if (role_tier(v.role) == tier) os << ' ' << dot_quote(v.name) << ';';
    os << " }\n";
  }
  for (const auto& v : variables_)
    os << "  " << dot_quote(v.name) << " [shape=" << dot_shape(v.role) << ", tooltip=" << dot_quote(role_name(v.role))
       << "];\n";
  for (int a = 0; a < num_nodes(); ++a)
    for (int b = 0; b < num_nodes(); ++b) {
      const auto& na = variables_[static_cast<std::size_t>(a)].name;
      const auto& nb = variables_[static_cast<std::size_t>(b)].name;
      if (has_directed(a, b)) {
        os << "  " << dot_quote(na) << " -> " << dot_quote(nb);
        if (std::isfinite(weight(a, b))) os << " [label=\"" << weight(a, b) << "\"]";
        os << ";\n";
      } else if (a < b && has_undirected(a, b)) {
        os << "  " << dot_quote(na) << " -> " << dot_quote(nb) << " [dir=none];\n";
      }
    }
  os << "}\n";
  return os.str();
}

std::string Graph::to_json() const {
  nlohmann::json j;
  j["nodes"] = nlohmann::json::array();
  for (const auto& v : variables_) j["nodes"].push_back({{"name", v.name}, {"role", role_name(v.role)}});
  j["edges"] = nlohmann::json::array();
  for (int a = 0; a < num_nodes(); ++a)
    for (int b = 0; b < num_nodes(); ++b) {
      const auto& na = variables_[static_cast<std::size_t>(a)].name;
      const auto& nb = variables_[static_cast<std::size_t>(b)].name;
      if (has_directed(a, b)) {
        nlohmann::json e = {{"from", na}, {"to", nb}, {"directed", true}};
        if (std::isfinite(weight(a, b))) e["weight"] = weight(a, b);
        j["edges"].push_back(e);
      } else if (a < b && has_undirected(a, b)) {
        j["edges"].push_back({{"from", na}, {"to", nb}, {"directed", false}});
      }
    }
  return j.dump(2);
}

int structural_hamming_distance(const Graph& a, const Graph& b) {
  if (a.num_nodes() != b.num_nodes())
    fail(Status::SizeMismatch, "structural Hamming distance: graphs of different sizes");
  int d = 0;
  for (int i = 0; i < a.num_nodes(); ++i)
    for (int j = i + 1; j < a.num_nodes(); ++j) {
      const bool same = a.has_directed(i, j) == b.has_directed(i, j) && a.has_directed(j, i) == b.has_directed(j, i) &&
                        a.has_undirected(i, j) == b.has_undirected(i, j);
      d += !same;
    }
  return d;
}

}  // namespace rescue::causal
