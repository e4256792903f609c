// Strategy variants for ablations and tuning: a name that stands for a library
// strategy run with other parameters, another amount of observational data, or
// a deliberately wrong causal graph. In the outputs a variant is a strategy of
// its own, so the summary's paired tests compare it with every other strategy.
//
// Text form (the --variant option of rescue-bench):
//   NAME=STRATEGY[:KEY=VALUE]...
// where KEY is a library parameter (rescue_problem_set_param, e.g.
// rescue.weight=0) or one of the harness's own keys:
//   observational=N  N observational rows instead of the experiment's
//   dag=shuffled     the "rescue" strategy gets a wrong DAG: the graph learned
//                    from the observational data with every node's parents
//                    redrawn (same number, among the variables the tiers allow)
//   dag=true         the "rescue" strategy gets the graph the problem's
//                    noise-free equations define (BenchmarkProblem::causal_edges)
//   fidelity=target  the target-only analog: the strategy's problem has the
//                    target as its only fidelity (so an evaluation costs 1, one
//                    target unit, and the budget is the same in target units);
//                    observational rows below the target are left out
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rescue::problems {
class BenchmarkProblem;
}

namespace rescue::bench {

/// Which causal graph a variant of the "rescue" strategy uses.
enum class DagChoice { Learned, Shuffled, True };

struct StrategyVariant {
  std::string name;      ///< the label in run files, summaries and plots
  std::string strategy;  ///< the library strategy it runs
  std::vector<std::pair<std::string, double>> params;  ///< library parameters, in the order given
  int observational_rows = -1;                          ///< -1: the experiment's
  DagChoice dag = DagChoice::Learned;
  bool target_only = false;                             ///< fidelity=target

  /// The definition without the name ("STRATEGY:KEY=VALUE..."), with exact
  /// numbers: recorded with every run, so that a changed definition reruns it.
  std::string definition() const;
};

/// Parses "NAME=STRATEGY[:KEY=VALUE]..."; throws Error(InvalidArgument) naming
/// what is wrong (empty parts, a value that is not a finite number, a name
/// that is a library strategy's, dag other than "shuffled" or "true", fidelity
/// other than "target", a negative row count).
StrategyVariant parse_variant(const std::string& text);

/// Parses a definition ("STRATEGY[:KEY=VALUE]...") under the given name.
StrategyVariant parse_definition(const std::string& name, const std::string& definition);

/// Draws a wrong DAG for the "dag=shuffled" ablation from a graph in the JSON
/// form of rescue_causal_graph(): every node keeps its number of parents, but
/// draws them uniformly among the variables the tiers allow it (options and
/// fidelity for indicators; options, fidelity and indicators for objectives
/// and constraint metrics), avoiding its learned parents where there are
/// enough others. Returns the JSON that rescue_set_dag() takes.
std::string shuffled_dag_json(const std::string& graph_json, std::uint64_t seed);

/// The problem's own causal graph (causal_edges) in the JSON rescue_set_dag() takes.
std::string true_dag_json(const problems::BenchmarkProblem& problem);

}  // namespace rescue::bench
