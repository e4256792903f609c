#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/bench_run.hpp"
#include "bench/experiment.hpp"
#include "bench/variant.hpp"
#include "problems/benchmark_problem.hpp"
#include "rescue.h"
#include "tiny_run.hpp"
#include "util/error.hpp"

namespace rescue::bench {
namespace {

TEST(Variant, ParsesParametersAndHarnessKeys) {
  const StrategyVariant v = parse_variant("rescue-w0=rescue:rescue.weight=0:observational=50:dag=shuffled");
  EXPECT_EQ(v.name, "rescue-w0");
  EXPECT_EQ(v.strategy, "rescue");
  ASSERT_EQ(v.params.size(), 1u);
  EXPECT_EQ(v.params[0].first, "rescue.weight");
  EXPECT_EQ(v.params[0].second, 0.0);
  EXPECT_EQ(v.observational_rows, 50);
  EXPECT_EQ(v.dag, DagChoice::Shuffled);
  EXPECT_EQ(parse_variant("oracle=rescue:dag=true").dag, DagChoice::True);
  EXPECT_EQ(parse_variant("oracle=rescue:dag=true").definition(), "rescue:dag=true");
  EXPECT_TRUE(parse_variant("sf=ehvi:fidelity=target").target_only);
  EXPECT_EQ(parse_variant("sf=ehvi:fidelity=target").definition(), "ehvi:fidelity=target");

  const StrategyVariant plain = parse_variant("kg30=hvkg:kg.set_size=30:kg.fantasies=4");
  EXPECT_EQ(plain.observational_rows, -1);
  EXPECT_EQ(plain.dag, DagChoice::Learned);
  EXPECT_EQ(plain.definition(), "hvkg:kg.set_size=30:kg.fantasies=4");
}

TEST(Variant, DefinitionRoundTripsExactly) {
  const StrategyVariant v = parse_variant("x=hvkg:kg.pool=0.1:observational=0");
  const StrategyVariant w = parse_definition(v.name, v.definition());
  EXPECT_EQ(w.definition(), v.definition());
  ASSERT_EQ(w.params.size(), 1u);
  EXPECT_EQ(w.params[0].second, 0.1);  // %.17g keeps the double exactly
  EXPECT_EQ(w.observational_rows, 0);
}

TEST(Variant, RejectsBadDefinitionsWithAMessage) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"hvkg", "expected NAME=STRATEGY"},
      {"=hvkg", "name is empty"},
      {"a/b=hvkg", "may not contain"},
      {"hvkg=rescue", "is a library strategy"},
      {"v=", "no strategy"},
      {"v=no-such-strategy", "unknown strategy"},
      {"v=hvkg:kg.pool", "is not KEY=VALUE"},
      {"v=hvkg:=3", "is not KEY=VALUE"},
      {"v=hvkg:kg.pool=abc", "not a finite number"},
      {"v=hvkg:fidelity=0.5", "fidelity can only be 'target'"},
      {"v=hvkg:kg.pool=inf", "not a finite number"},
      {"v=hvkg:kg.pool=nan", "not a finite number"},
      {"v=hvkg:kg.pool=1:kg.pool=2", "given twice"},
      {"v=rescue:dag=oracle", "only be 'shuffled' or 'true'"},
      {"v=hvkg:dag=shuffled", "needs the rescue strategy"},
      {"v=hvkg:observational=-1", "row count"},
      {"v=hvkg:observational=2.5", "row count"},
  };
  for (const auto& [text, why] : cases) {
    try {
      parse_variant(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument) << text;
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << text << ": " << e.what();
    }
  }
}

// A small graph with every tier: options x1..x3 and the fidelity, an
// indicator, two objectives.
const char* kGraph = R"({"nodes": [
  {"name": "x1", "role": "option"}, {"name": "x2", "role": "option"}, {"name": "x3", "role": "option"},
  {"name": "fidelity", "role": "fidelity"}, {"name": "i1", "role": "indicator"},
  {"name": "y1", "role": "objective"}, {"name": "y2", "role": "objective"}],
 "edges": [{"from": "x1", "to": "i1", "directed": true}, {"from": "fidelity", "to": "i1", "directed": true},
           {"from": "i1", "to": "y1", "directed": true}, {"from": "x2", "to": "y2", "directed": true},
           {"from": "x3", "to": "y2", "directed": true}]})";

std::map<std::string, std::set<std::string>> parents_of(const std::string& json) {
  std::map<std::string, std::set<std::string>> p;
  const nlohmann::json g = nlohmann::json::parse(json);
  for (const auto& e : g["edges"]) p[e["to"].get<std::string>()].insert(e["from"].get<std::string>());
  return p;
}

TEST(Variant, ShuffledDagKeepsParentCountsAndTiersAndAvoidsLearnedParents) {
  const std::map<std::string, int> tier = {{"x1", 0}, {"x2", 0}, {"x3", 0}, {"fidelity", 0},
                                           {"i1", 1}, {"y1", 2}, {"y2", 2}};
  const auto learned = parents_of(kGraph);
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const std::string json = shuffled_dag_json(kGraph, seed);
    EXPECT_EQ(json, shuffled_dag_json(kGraph, seed)) << "not deterministic for seed " << seed;
    const auto drawn = parents_of(json);
    ASSERT_EQ(drawn.size(), learned.size());
    for (const auto& [child, ps] : learned) {
      ASSERT_TRUE(drawn.count(child));
      EXPECT_EQ(drawn.at(child).size(), ps.size()) << child;
      for (const auto& p : drawn.at(child)) {
        EXPECT_LT(tier.at(p), tier.at(child)) << p << " -> " << child;
        EXPECT_EQ(ps.count(p), 0u) << "learned parent " << p << " of " << child << " kept though others exist";
      }
    }
    // i1 had x1 and fidelity; the only others in tier 0 are x2 and x3.
    EXPECT_EQ(drawn.at("i1"), (std::set<std::string>{"x2", "x3"}));
  }
  // The draw depends on the seed: y1's single parent is not always the same.
  std::set<std::set<std::string>> y1_parents;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) y1_parents.insert(parents_of(shuffled_dag_json(kGraph, seed))["y1"]);
  EXPECT_GT(y1_parents.size(), 1u);
  EXPECT_THROW(shuffled_dag_json("{not json", 1), Error);
  EXPECT_THROW(shuffled_dag_json(R"({"nodes": [{"name": "a", "role": "wizard"}], "edges": []})", 1), Error);
}

// The drawn DAG is one the library accepts as a user DAG, on a built-in problem.
TEST(Variant, ShuffledDagOfABuiltinProblemIsAcceptedByTheLibrary) {
  rescue_problem* p = nullptr;
  rescue_optimizer* o = nullptr;
  ASSERT_EQ(rescue_problem_builtin("robot-standin", &p), RESCUE_OK);
  ASSERT_EQ(rescue_problem_set_strategy(p, "rescue"), RESCUE_OK);
  ASSERT_EQ(rescue_create(p, &o), RESCUE_OK);
  const int width = rescue_dimension(o) + 1 + rescue_num_indicators(o) + rescue_num_objectives(o) +
                    rescue_num_constraints(o);
  const int rows = 150;
  std::vector<double> data(static_cast<std::size_t>(rows * width));
  ASSERT_EQ(rescue_problem_sample_observational(p, rows, 3, data.data(), width), RESCUE_OK);
  ASSERT_EQ(rescue_add_observational(o, data.data(), rows, width), RESCUE_OK);
  std::size_t len = 0;
  ASSERT_EQ(rescue_causal_graph(o, RESCUE_GRAPH_JSON, 0, nullptr, 0, &len), RESCUE_OK);
  std::string graph(len + 1, '\0');
  ASSERT_EQ(rescue_causal_graph(o, RESCUE_GRAPH_JSON, 0, &graph[0], graph.size(), &len), RESCUE_OK);
  graph.resize(len);
  const std::string wrong = shuffled_dag_json(graph, 5);
  ASSERT_FALSE(parents_of(wrong).empty());
  ASSERT_EQ(rescue_set_dag(o, wrong.c_str()), RESCUE_OK) << rescue_errmsg(o);
  rescue_destroy(o);
  rescue_problem_free(p);
}

// Every built-in problem's own graph is one the library accepts, and the
// optimizer then holds exactly that graph.
TEST(Variant, TrueDagOfEveryBuiltinProblemIsAcceptedAndKept) {
  for (const std::string& name : problems::problem_names()) {
    SCOPED_TRACE(name);
    const auto problem = problems::make_problem(name);
    rescue_problem* p = nullptr;
    rescue_optimizer* o = nullptr;
    ASSERT_EQ(rescue_problem_builtin(name.c_str(), &p), RESCUE_OK);
    ASSERT_EQ(rescue_problem_set_strategy(p, "rescue"), RESCUE_OK);
    ASSERT_EQ(rescue_create(p, &o), RESCUE_OK);
    ASSERT_EQ(rescue_set_dag(o, true_dag_json(*problem).c_str()), RESCUE_OK) << rescue_errmsg(o);
    // The model (and the graph it reports) is built from data.
    const int width = rescue_dimension(o) + 1 + rescue_num_indicators(o) + rescue_num_objectives(o) +
                      rescue_num_constraints(o);
    std::vector<double> data(static_cast<std::size_t>(60 * width));
    ASSERT_EQ(rescue_problem_sample_observational(p, 60, 3, data.data(), width), RESCUE_OK);
    ASSERT_EQ(rescue_add_observational(o, data.data(), 60, width), RESCUE_OK);
    std::size_t len = 0;
    ASSERT_EQ(rescue_causal_graph(o, RESCUE_GRAPH_JSON, 0, nullptr, 0, &len), RESCUE_OK);
    std::string graph(len + 1, '\0');
    ASSERT_EQ(rescue_causal_graph(o, RESCUE_GRAPH_JSON, 0, &graph[0], graph.size(), &len), RESCUE_OK);
    graph.resize(len);
    std::set<std::pair<std::string, std::string>> want, got;
    // An edge from a categorical option is held as one from each of its level
    // indicators but the first.
    for (const auto& e : problem->causal_edges()) {
      const OptionSpec* cat = nullptr;
      for (const auto& o : problem->spec().options())
        if (o.categorical() && o.name == e.first) cat = &o;
      if (!cat) {
        want.insert(e);
        continue;
      }
      for (int k = 1; k < cat->levels(); ++k) want.insert({cat->name + "=" + cat->labels[k], e.second});
    }
    const nlohmann::json held = nlohmann::json::parse(graph);
    for (const auto& e : held.at("edges"))
      got.insert({e.at("from").get<std::string>(), e.at("to").get<std::string>()});
    EXPECT_EQ(got, want);
    rescue_destroy(o);
    rescue_problem_free(p);
  }
}

const IterationRecord* first_strategy_query(const RunResult& run) {
  for (const auto& it : run.iterations)
    if (!it.initial) return &it;
  return nullptr;
}

// The variant's parameters reach the library: the same seed with another
// acquisition search gives another first suggestion after the (shared)
// initial design, and the run file records the definition.
TEST(VariantRun, ParametersReachTheLibraryAndAreRecorded) {
  const RunResult plain = run_benchmark(tiny_run("branin-currin", "hvkg", ""));
  const RunResult narrow = run_benchmark(tiny_run("branin-currin", "hvkg-narrow", "hvkg:acq.starts=1:acq.refine=0"));
  ASSERT_EQ(plain.stop_reason.rfind("error", 0), std::string::npos) << plain.stop_reason;
  ASSERT_EQ(narrow.stop_reason.rfind("error", 0), std::string::npos) << narrow.stop_reason;
  const IterationRecord* a = first_strategy_query(plain);
  const IterationRecord* b = first_strategy_query(narrow);
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->iteration, b->iteration);
  for (int i = 1; i < a->iteration; ++i) EXPECT_EQ(plain.iterations[i - 1].x, narrow.iterations[i - 1].x);
  EXPECT_TRUE(a->x != b->x || a->fidelity != b->fidelity);

  std::stringstream csv;
  write_run_csv(csv, narrow);
  const RunResult back = read_run_csv(csv);
  EXPECT_EQ(back.spec.strategy, "hvkg-narrow");
  EXPECT_EQ(back.spec.variant, "hvkg:acq.starts=1:acq.refine=0");
}

TEST(VariantRun, ShuffledDagAndNoObservationalDataRun) {
  const RunResult oracle = run_benchmark(tiny_run("healthcare", "rescue-true", "rescue:dag=true"));
  EXPECT_EQ(oracle.stop_reason.rfind("error", 0), std::string::npos) << oracle.stop_reason;
  EXPECT_NE(first_strategy_query(oracle), nullptr);

  const RunResult shuffled = run_benchmark(tiny_run("healthcare", "rescue-wrong", "rescue:dag=shuffled"));
  EXPECT_EQ(shuffled.stop_reason.rfind("error", 0), std::string::npos) << shuffled.stop_reason;
  EXPECT_NE(first_strategy_query(shuffled), nullptr);

  RunSpec none = tiny_run("healthcare", "rescue-blind", "rescue:observational=0");
  none.observational_rows = 0;  // as plan_runs sets it from the variant
  const RunResult blind = run_benchmark(none);
  EXPECT_EQ(blind.stop_reason.rfind("error", 0), std::string::npos) << blind.stop_reason;
  EXPECT_EQ(blind.observational_cost, 0.0);

  RunSpec impossible = tiny_run("healthcare", "rescue-wrong", "rescue:dag=shuffled");
  impossible.observational_rows = 0;
  EXPECT_THROW(run_benchmark(impossible), Error);
}

// The target-only analog evaluates only at the target, one target unit each,
// within the same budget in target units, measured as every other run.
TEST(VariantRun, TargetOnlyEvaluatesAtTheTargetWithinTheBudget) {
  for (const char* problem : {"branin-currin-jump", "robot-standin"}) {
    SCOPED_TRACE(problem);
    RunSpec rs = tiny_run(problem, "ehvi-target", "ehvi:fidelity=target");
    rs.initial_budget = 2.0;  // two evaluations, then one of the strategy's
    rs.budget = 1.0;
    const RunResult sf = run_benchmark(rs);
    ASSERT_EQ(sf.stop_reason.rfind("error", 0), std::string::npos) << sf.stop_reason;
    ASSERT_FALSE(sf.iterations.empty());
    for (std::size_t i = 0; i < sf.iterations.size(); ++i) {
      EXPECT_EQ(sf.iterations[i].fidelity, sf.target_fidelity);
      EXPECT_DOUBLE_EQ(sf.iterations[i].cumulative_cost, static_cast<double>(i + 1));
    }
    EXPECT_EQ(sf.iterations.size(), 3u);
  }
}

TEST(VariantRun, PlanAppliesTheVariantsRowCount) {
  ExperimentConfig c;
  c.problems = {"branin-currin"};
  c.strategies = {"hvkg", "blind"};
  c.variants = {parse_variant("blind=rescue:observational=0:rescue.weight=0")};
  c.seeds = 2;
  const auto plan = plan_runs(c);
  ASSERT_EQ(plan.size(), 4u);
  for (const auto& r : plan) {
    if (r.strategy == "blind") {
      EXPECT_EQ(r.variant, "rescue:rescue.weight=0:observational=0");
      EXPECT_EQ(r.observational_rows, 0);
    } else {
      EXPECT_TRUE(r.variant.empty());
      EXPECT_EQ(r.observational_rows, 200);
    }
  }
}

}  // namespace
}  // namespace rescue::bench
