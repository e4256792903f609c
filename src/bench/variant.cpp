#include "bench/variant.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "problems/benchmark_problem.hpp"
#include "rescue.h"
#include "util/error.hpp"
#include "util/rng.hpp"
#include "util/text.hpp"

namespace rescue::bench {

namespace {

[[noreturn]] void bad(const std::string& text, const std::string& why) {
  fail(Status::InvalidArgument, "strategy variant '" + text + "': " + why);
}

// Whether the library knows a strategy by this name (asked through the C ABI,
// so the list cannot drift from the library's).
bool library_strategy(const std::string& name) {
  rescue_problem* p = nullptr;
  if (rescue_problem_new(&p) != RESCUE_OK) fail(Status::Internal, "rescue_problem_new failed");
  const bool known = rescue_problem_set_strategy(p, name.c_str()) == RESCUE_OK;
  rescue_problem_free(p);
  return known;
}

}  // namespace

std::string StrategyVariant::definition() const {
  std::string d = strategy;
  for (const auto& [key, value] : params) d += ":" + key + "=" + fmt17(value);
  if (observational_rows >= 0) d += ":observational=" + std::to_string(observational_rows);
  if (dag == DagChoice::Shuffled) d += ":dag=shuffled";
  if (dag == DagChoice::True) d += ":dag=true";
  if (target_only) d += ":fidelity=target";
  return d;
}

StrategyVariant parse_definition(const std::string& name, const std::string& definition) {
  const std::string text = name + "=" + definition;
  if (name.empty()) bad(text, "the name is empty");
  if (name.find_first_of("/\\:=, \t\n") != std::string::npos)
    bad(text, "the name may not contain '/', '\\', ':', '=', ',' or spaces (it names files)");
  if (library_strategy(name)) bad(text, "'" + name + "' is a library strategy; give the variant a name of its own");
  const std::vector<std::string> parts = split(definition, ':');
  StrategyVariant v;
  v.name = name;
  v.strategy = parts[0];
  if (v.strategy.empty()) bad(text, "no strategy after '='");
  if (!library_strategy(v.strategy)) bad(text, "unknown strategy '" + v.strategy + "'");
  std::set<std::string> seen;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string& kv = parts[i];
    const std::size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size()) bad(text, "'" + kv + "' is not KEY=VALUE");
    const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
    if (!seen.insert(key).second) bad(text, "'" + key + "' is given twice");
    if (key == "dag") {
      if (value != "shuffled" && value != "true") bad(text, "dag can only be 'shuffled' or 'true'");
      if (v.strategy != "rescue") bad(text, "dag=" + value + " needs the rescue strategy (the only one with a causal model)");
      v.dag = value == "true" ? DagChoice::True : DagChoice::Shuffled;
      continue;
    }
    if (key == "fidelity") {
      if (value != "target") bad(text, "fidelity can only be 'target'");
      v.target_only = true;
      continue;
    }
    char* end = nullptr;
    const double x = std::strtod(value.c_str(), &end);
    if (*end != '\0' || !std::isfinite(x)) bad(text, "the value of '" + key + "' is not a finite number");
    if (key == "observational") {
      if (x < 0 || x != std::floor(x) || x > 1e7) bad(text, "observational must be a row count (0 or more)");
      v.observational_rows = static_cast<int>(x);
    } else {
      v.params.emplace_back(key, x);
    }
  }
  return v;
}

StrategyVariant parse_variant(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) bad(text, "expected NAME=STRATEGY[:KEY=VALUE]...");
  return parse_definition(text.substr(0, eq), text.substr(eq + 1));
}

std::string shuffled_dag_json(const std::string& graph_json, std::uint64_t seed) {
  nlohmann::json g;
  try {
    g = nlohmann::json::parse(graph_json);
  } catch (const nlohmann::json::exception& e) {
    fail(Status::InvalidArgument, std::string("causal graph JSON: ") + e.what());
  }
  if (!g.contains("nodes") || !g["nodes"].is_array() || !g.contains("edges") || !g["edges"].is_array())
    fail(Status::InvalidArgument, "causal graph JSON: expected arrays 'nodes' and 'edges'");
  // Tiers as in the structural rules: options and fidelity 0, indicators 1,
  // objectives and constraint metrics 2. Parents come from strictly lower
  // tiers, so any draw is acyclic.
  const std::map<std::string, int> tier_of_role = {
      {"option", 0}, {"fidelity", 0}, {"indicator", 1}, {"objective", 2}, {"constraint", 2}};
  std::vector<std::string> names;
  std::map<std::string, int> tier;
  for (const auto& n : g["nodes"]) {
    const std::string name = n.at("name").get<std::string>(), role = n.at("role").get<std::string>();
    const auto it = tier_of_role.find(role);
    if (it == tier_of_role.end()) fail(Status::InvalidArgument, "causal graph JSON: unknown role '" + role + "'");
    names.push_back(name);
    tier[name] = it->second;
  }
  std::map<std::string, std::set<std::string>> parents;
  for (const auto& e : g["edges"]) {
    const std::string from = e.at("from").get<std::string>(), to = e.at("to").get<std::string>();
    if (!tier.count(from) || !tier.count(to)) fail(Status::InvalidArgument, "causal graph JSON: edge to an unknown node");
    // An undirected edge counts for the later-tier end; within a tier it is dropped.
    const bool directed = !e.contains("directed") || e["directed"].get<bool>();
    if (tier[from] < tier[to])
      parents[to].insert(from);
    else if (!directed && tier[to] < tier[from])
      parents[from].insert(to);
  }
  Rng rng(seed);
  nlohmann::json out;
  out["edges"] = nlohmann::json::array();
  for (const std::string& child : names) {
    const auto& learned = parents[child];
    if (learned.empty()) continue;
    std::vector<std::string> others, same;
    for (const std::string& c : names) {
      if (tier[c] >= tier[child]) continue;
      (learned.count(c) ? same : others).push_back(c);
    }
    // Prefer variables that are not learned parents; top up with learned ones
    // only when the tiers leave too few others.
    const std::size_t k = learned.size();
    std::vector<std::string> chosen;
    for (auto* pool : {&others, &same}) {
      while (chosen.size() < k && !pool->empty()) {
        const std::size_t j = static_cast<std::size_t>(rng.below(pool->size()));
        chosen.push_back((*pool)[j]);
        pool->erase(pool->begin() + static_cast<std::ptrdiff_t>(j));
      }
    }
    for (const std::string& p : chosen) out["edges"].push_back({{"from", p}, {"to", child}});
  }
  return out.dump();
}

std::string true_dag_json(const problems::BenchmarkProblem& problem) {
  nlohmann::json edges = nlohmann::json::array();
  for (const auto& [from, to] : problem.causal_edges()) edges.push_back({{"from", from}, {"to", to}});
  return nlohmann::json{{"edges", edges}}.dump();
}

}  // namespace rescue::bench
