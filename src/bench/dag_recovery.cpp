#include "bench/dag_recovery.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

namespace rescue::bench {

DagRecovery compare_with_true_dag(const std::string& learned_json, const std::vector<Edge>& true_edges) {
  std::set<Edge> directed, undirected;  // undirected stored both ways
  try {
    const nlohmann::json g = nlohmann::json::parse(learned_json);
    for (const auto& e : g.at("edges")) {
      const std::string from = e.at("from").get<std::string>(), to = e.at("to").get<std::string>();
      if (e.value("directed", true)) {
        directed.insert({from, to});
      } else {
        undirected.insert({from, to});
        undirected.insert({to, from});
      }
    }
  } catch (const nlohmann::json::exception& ex) {
    throw std::invalid_argument(std::string("learned graph: ") + ex.what());
  }
  DagRecovery r;
  std::set<Edge> truth;
  for (const Edge& e : true_edges) {
    if (!truth.insert(e).second) continue;  // a repeated true edge counts once
    ++r.true_edges;
    const Edge back{e.second, e.first};
    if (directed.count(e) || undirected.count(e))
      ++r.found;
    else if (directed.count(back))
      ++r.reversed;
    else
      r.missed.push_back(e);
  }
  // Extra: unlinked pairs, each once (a learned 2-cycle, or an edge both
  // directed and undirected, is one pair), as (smaller name, larger name).
  std::set<Edge> extra;
  auto add_if_unlinked = [&](const Edge& e) {
    if (!truth.count(e) && !truth.count({e.second, e.first})) extra.insert(std::minmax(e.first, e.second));
  };
  for (const Edge& e : directed) add_if_unlinked(e);
  for (const Edge& e : undirected) add_if_unlinked(e);
  r.extra.assign(extra.begin(), extra.end());
  return r;
}

std::string describe(const DagRecovery& r) {
  std::ostringstream s;
  s << r.found << " of " << r.true_edges << " true edges found, " << r.reversed << " reversed, " << r.missed.size()
    << " missed; " << r.extra.size() << " extra";
  return s.str();
}

}  // namespace rescue::bench
