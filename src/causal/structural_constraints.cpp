#include "causal/structural_constraints.hpp"

#include "causal/graph.hpp"
#include "util/error.hpp"

namespace rescue::causal {

namespace {

int find_variable(const std::vector<Variable>& vars, const std::string& name, const char* what) {
  for (std::size_t j = 0; j < vars.size(); ++j)
    if (vars[j].name == name) return static_cast<int>(j);
  fail(Status::UnknownName, std::string("structural constraints: ") + what + " edge names unknown variable '" +
                                name + "'");
}

}  // namespace

StructuralConstraints::StructuralConstraints(std::vector<Variable> variables, const std::vector<NamedEdge>& required,
                                             const std::vector<NamedEdge>& forbidden)
    : variables_(std::move(variables)) {
  const std::size_t p = variables_.size();
  allowed_.assign(p * p, 0);
  required_.assign(p * p, 0);
  forbidden_.assign(p * p, 0);
  for (const auto& e : forbidden) {
    const int a = find_variable(variables_, e.from, "a forbidden");
    const int b = find_variable(variables_, e.to, "a forbidden");
    forbidden_[index(a, b)] = 1;
  }
  for (int a = 0; a < size(); ++a)
    for (int b = 0; b < size(); ++b) allowed_[index(a, b)] = (a != b && role_allows(a, b) && !forbidden_[index(a, b)]);
  for (const auto& e : required) {
    const int a = find_variable(variables_, e.from, "a required");
    const int b = find_variable(variables_, e.to, "a required");
    if (!allowed(a, b))
      fail(Status::InvalidArgument, "structural constraints: required edge " + e.from + " -> " + e.to +
                                        " is not allowed: " + why_not(a, b));
    required_[index(a, b)] = 1;
  }
  // A required edge a -> b rules out b -> a.
  for (int a = 0; a < size(); ++a)
    for (int b = 0; b < size(); ++b)
      if (required_[index(a, b)]) {
        if (required_[index(b, a)])
          fail(Status::InvalidArgument, "structural constraints: edges " + variables_[a].name + " -> " +
                                            variables_[b].name + " and back are both required");
        allowed_[index(b, a)] = 0;
      }
  // Transitive closure (Floyd-Warshall) of "a must precede b".
  precedes_.assign(p * p, 0);
  for (int a = 0; a < size(); ++a)
    for (int b = 0; b < size(); ++b)
      precedes_[index(a, b)] =
          required_[index(a, b)] || role_tier(variables_[a].role) < role_tier(variables_[b].role);
  for (int k = 0; k < size(); ++k)
    for (int a = 0; a < size(); ++a)
      if (precedes_[index(a, k)])
        for (int b = 0; b < size(); ++b)
          if (precedes_[index(k, b)]) precedes_[index(a, b)] = 1;
  for (int a = 0; a < size(); ++a)
    if (precedes_[index(a, a)])
      fail(Status::InvalidArgument,
           "structural constraints: the required edges form a directed cycle through '" + variables_[a].name + "'");
}

bool StructuralConstraints::role_allows(int from, int to) const {
  const Role rf = variables_[from].role, rt = variables_[to].role;
  if (rt == Role::Option || rt == Role::Fidelity) return false;
  return role_tier(rf) <= role_tier(rt);
}

bool StructuralConstraints::must_precede(int a, int b) const { return precedes_[index(a, b)] != 0; }

std::vector<std::pair<int, int>> StructuralConstraints::required_edges() const {
  std::vector<std::pair<int, int>> out;
  for (int a = 0; a < size(); ++a)
    for (int b = 0; b < size(); ++b)
      if (required(a, b)) out.emplace_back(a, b);
  return out;
}

std::string StructuralConstraints::why_not(int from, int to) const {
  if (from == to) return "self-loop";
  const Role rf = variables_[from].role, rt = variables_[to].role;
  if (rt == Role::Option || rt == Role::Fidelity)
    return std::string("nothing may cause the ") + role_name(rt) + " '" + variables_[to].name + "'";
  if (role_tier(rf) > role_tier(rt))
    return std::string("a ") + role_name(rf) + " may not cause an " + role_name(rt);
  if (forbidden_[index(from, to)]) return "the edge is forbidden by the user";
  if (required_[index(to, from)]) return "the opposite edge is required by the user";
  return "";
}

void StructuralConstraints::check(const Graph& g) const {
  if (g.num_nodes() != size())
    fail(Status::SizeMismatch, "structural constraints: graph has " + std::to_string(g.num_nodes()) +
                                   " nodes, expected " + std::to_string(size()));
  for (int a = 0; a < size(); ++a)
    for (int b = 0; b < size(); ++b) {
      if (g.has_directed(a, b) && !allowed(a, b))
        fail(Status::InvalidArgument, "graph edge " + variables_[a].name + " -> " + variables_[b].name +
                                          " breaks the structural constraints: " + why_not(a, b));
      if (a < b && g.has_undirected(a, b) && !may_be_adjacent(a, b))
        fail(Status::InvalidArgument, "graph edge " + variables_[a].name + " -- " + variables_[b].name +
                                          " breaks the structural constraints: " + why_not(a, b));
      if (required(a, b) && !g.has_directed(a, b))
        fail(Status::InvalidArgument, "graph lacks the required edge " + variables_[a].name + " -> " +
                                          variables_[b].name);
    }
}

}  // namespace rescue::causal
