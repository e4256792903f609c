// Each built-in problem's causal graph (causal_edges) against its equations:
// a variable must not move when an option or the fidelity outside its
// ancestors changes, and must move, on some random draw, with each one inside.
// (Ancestor sets only: a direct edge from an input that is also an ancestor
// by another path is not checked.)
#include <functional>
#include <map>
#include <set>

#include "test_helpers.hpp"

using namespace rescue;
using namespace rescue::problems;

namespace {

// Value of a named output (indicator, objective or constraint metric).
double output(const ProblemSpec& spec, const Evaluation& e, const std::string& name) {
  for (int k = 0; k < spec.num_indicators(); ++k)
    if (spec.indicators()[k] == name) return e.z[k];
  for (int m = 0; m < spec.num_objectives(); ++m)
    if (spec.objectives()[m].name == name) return e.y[m];
  for (int q = 0; q < spec.num_constraints(); ++q)
    if (spec.constraints()[q].name == name) return e.g[q];
  ADD_FAILURE() << "no output named " << name;
  return 0.0;
}

// A quarter of the draws at the target: a misleading variant's options may
// matter there and nowhere else.
double random_fidelity(const FidelitySpec& f, Rng& rng) {
  if (f.discrete) return f.levels[rng.below(f.levels.size())];
  if (rng.below(4) == 0) return f.target;
  return rng.uniform(f.lower, f.upper);
}

}  // namespace

TEST(CausalEdges, AncestorsAreExactlyWhatMovesEachOutput) {
  for (const std::string& name : problem_names()) {
    SCOPED_TRACE(name);
    const auto problem = make_problem(name);
    const ProblemSpec& spec = problem->spec();
    std::set<std::string> inputs{"fidelity"}, outputs;
    for (const auto& o : spec.options()) inputs.insert(o.name);
    for (const auto& k : spec.indicators()) outputs.insert(k);
    for (const auto& o : spec.objectives()) outputs.insert(o.name);
    for (const auto& c : spec.constraints()) outputs.insert(c.name);
    std::map<std::string, std::set<std::string>> parents;
    for (const auto& [from, to] : problem->causal_edges()) {
      EXPECT_TRUE(inputs.count(from) || outputs.count(from)) << "unknown cause " << from;
      EXPECT_TRUE(outputs.count(to)) << "edge into " << to << ", which is not an output";
      parents[to].insert(from);
    }
    // Ancestors among the inputs; a cycle would never settle (depth bound).
    std::map<std::string, std::set<std::string>> ancestors;
    std::function<std::set<std::string>(const std::string&, int)> inputs_above = [&](const std::string& v, int depth) {
      std::set<std::string> out;
      if (depth > 64) {
        ADD_FAILURE() << "the graph has a cycle through " << v;
        return out;
      }
      for (const auto& p : parents[v]) {
        if (inputs.count(p)) {
          out.insert(p);
        } else {
          const auto up = inputs_above(p, depth + 1);
          out.insert(up.begin(), up.end());
        }
      }
      return out;
    };
    for (const auto& v : outputs) ancestors[v] = inputs_above(v, 0);

    Rng rng(17);
    std::map<std::string, std::map<std::string, int>> moved;
    for (int draw = 0; draw < 200; ++draw) {
      const std::vector<double> x = rescue::problems::testing::random_config(spec, rng);
      const double s = random_fidelity(spec.fidelity(), rng);
      const Evaluation base = problem->evaluate(x.data(), s);
      for (const std::string& in : inputs) {
        std::vector<double> x2 = x;
        double s2 = s;
        if (in == "fidelity") {
          s2 = random_fidelity(spec.fidelity(), rng);
        } else {
          const int j = rescue::problems::testing::option_index(spec, in);
          x2[j] = rescue::problems::testing::random_config(spec, rng)[j];
        }
        const Evaluation e = problem->evaluate(x2.data(), s2);
        for (const auto& v : outputs) {
          const bool changed = output(spec, e, v) != output(spec, base, v);
          if (changed) ++moved[v][in];
          if (!ancestors[v].count(in)) {
            ASSERT_FALSE(changed) << v << " moved with " << in << ", which the graph does not make its cause";
          }
        }
      }
    }
    for (const auto& v : outputs)
      for (const auto& in : ancestors[v])
        EXPECT_GT(moved[v][in], 0) << v << " never moved with its ancestor " << in;
  }
}
