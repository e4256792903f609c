// The causal model through the C ABI: background knowledge, graph export,
// interventional estimates, and RESCUE's checkpoint continuation.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "rescue.h"

namespace {

struct Healthcare {
  rescue_problem* problem = nullptr;
  rescue_optimizer* opt = nullptr;
  int width = 0;
  explicit Healthcare(const char* strategy = "rescue", int observational = 200, double initial_budget = 2.0) {
    EXPECT_EQ(rescue_problem_builtin("healthcare", &problem), RESCUE_OK);
    rescue_problem_set_strategy(problem, strategy);
    rescue_problem_set_seed(problem, 4);
    rescue_problem_set_param(problem, "kg.pool", 32);
    rescue_problem_set_param(problem, "kg.fantasies", 3);
    rescue_problem_set_param(problem, "acq.starts", 16);
    rescue_problem_set_param(problem, "acq.refine", 1);
    rescue_problem_set_param(problem, "acq.refine_evals", 8);
    rescue_problem_set_initial_budget(problem, initial_budget);
    EXPECT_EQ(rescue_create(problem, &opt), RESCUE_OK) << rescue_last_error();
    width = 2 + 1 + rescue_num_indicators(opt) + 2 + 1;
    if (observational > 0) {
      std::vector<double> rows(static_cast<size_t>(observational) * width);
      EXPECT_EQ(rescue_problem_sample_observational(problem, observational, 9, rows.data(), width), RESCUE_OK);
      EXPECT_EQ(rescue_add_observational(opt, rows.data(), observational, width), RESCUE_OK) << rescue_errmsg(opt);
    }
  }
  ~Healthcare() {
    rescue_destroy(opt);
    rescue_problem_free(problem);
  }
  void add_logs(int n, unsigned seed) {
    std::vector<double> rows(static_cast<size_t>(n) * width);
    ASSERT_EQ(rescue_problem_sample_observational(problem, n, seed, rows.data(), width), RESCUE_OK);
    ASSERT_EQ(rescue_add_observational(opt, rows.data(), n, width), RESCUE_OK) << rescue_errmsg(opt);
  }
  std::vector<double> estimates() {
    const double x[4] = {22.0, 0.2, 28.0, 0.9}, s[2] = {1.0, 0.5};
    std::vector<double> mean(6);
    EXPECT_EQ(rescue_causal_estimates(opt, x, 2, 2, s, mean.data(), nullptr, 3), RESCUE_OK) << rescue_errmsg(opt);
    return mean;
  }
  void run(int steps, std::vector<double>* trace = nullptr) {
    const int k = rescue_num_indicators(opt);
    for (int i = 0; i < steps; ++i) {
      double x[2], s, y[2], g[1], z[8];
      int t;
      ASSERT_EQ(rescue_suggest(opt, x, 2, &s, &t), RESCUE_OK) << rescue_errmsg(opt);
      ASSERT_EQ(rescue_problem_evaluate(problem, x, 2, s, y, 2, g, 1, z, k), RESCUE_OK);
      ASSERT_EQ(rescue_observe(opt, t, y, 2, g, 1, z, k), RESCUE_OK) << rescue_errmsg(opt);
      if (trace) trace->insert(trace->end(), {x[0], x[1], s});
    }
  }
  std::string graph(int format, int as_discovered) {
    size_t len = 0;
    EXPECT_EQ(rescue_causal_graph(opt, format, as_discovered, nullptr, 0, &len), RESCUE_OK) << rescue_errmsg(opt);
    std::string text(len + 1, '\0');
    EXPECT_EQ(rescue_causal_graph(opt, format, as_discovered, &text[0], text.size(), &len), RESCUE_OK);
    text.resize(len);
    return text;
  }
};

double sigmoid(double u) { return 1.0 / (1.0 + std::exp(-u)); }

// Whether the JSON graph text holds the edge from -> to. Object keys are
// written in alphabetical order ("directed", "from", "to"), so the compacted
// text of an edge contains "from":"A","to":"B".
bool has_edge(const std::string& json, const std::string& from, const std::string& to) {
  std::string compact;
  for (char c : json)
    if (c != ' ' && c != '\n') compact += c;
  return compact.find("\"from\":\"" + from + "\",\"to\":\"" + to + "\"") != std::string::npos;
}

// The causal graphs `rescue` learns on the robot stand-in from 200 logged rows
// (seed 9) with one parameter set: the DAG its equations are fitted on, then
// the graph discovery produced (JSON).
std::pair<std::string, std::string> robot_graphs(const char* key, double value) {
  std::string graphs[2];
  rescue_problem* p = nullptr;
  rescue_optimizer* o = nullptr;
  EXPECT_EQ(rescue_problem_builtin("robot-standin", &p), RESCUE_OK);
  EXPECT_EQ(rescue_problem_set_strategy(p, "rescue"), RESCUE_OK);
  EXPECT_EQ(rescue_problem_set_param(p, key, value), RESCUE_OK);
  EXPECT_EQ(rescue_create(p, &o), RESCUE_OK) << rescue_last_error();
  if (o != nullptr) {
    const int width = rescue_dimension(o) + 1 + rescue_num_indicators(o) + rescue_num_objectives(o) +
                      rescue_num_constraints(o);
    const int rows = 200;
    std::vector<double> data(static_cast<std::size_t>(rows) * width);
    EXPECT_EQ(rescue_problem_sample_observational(p, rows, 9, data.data(), width), RESCUE_OK);
    EXPECT_EQ(rescue_add_observational(o, data.data(), rows, width), RESCUE_OK) << rescue_errmsg(o);
    for (int as_discovered : {0, 1}) {
      size_t len = 0;
      EXPECT_EQ(rescue_causal_graph(o, RESCUE_GRAPH_JSON, as_discovered, nullptr, 0, &len), RESCUE_OK)
          << rescue_errmsg(o);
      std::string text(len + 1, '\0');
      EXPECT_EQ(rescue_causal_graph(o, RESCUE_GRAPH_JSON, as_discovered, &text[0], text.size(), &len), RESCUE_OK);
      text.resize(len);
      graphs[as_discovered] = text;
    }
  }
  rescue_destroy(o);
  rescue_problem_free(p);
  return {graphs[0], graphs[1]};
}

TEST(CausalApi, NoModelBeforeLearningOrForModelFreeStrategies) {
  Healthcare h("random");
  size_t len = 0;
  EXPECT_EQ(rescue_causal_graph(h.opt, RESCUE_GRAPH_DOT, 0, nullptr, 0, &len), RESCUE_ERR_INVALID_STATE);
  EXPECT_NE(std::string(rescue_errmsg(h.opt)).find("rescue"), std::string::npos);
  const double x[2] = {25, 0.5}, s[1] = {1.0};
  double mean[3];
  EXPECT_EQ(rescue_causal_estimates(h.opt, x, 1, 2, s, mean, nullptr, 3), RESCUE_ERR_INVALID_STATE);
}

TEST(CausalApi, GraphExportAndEstimatesOfTheHealthcareModel) {
  Healthcare h;
  h.run(1);  // the model is learned at the first suggestion
  const std::string dot = h.graph(RESCUE_GRAPH_DOT, 0);
  EXPECT_EQ(dot.rfind("digraph", 0), 0u) << dot;
  const std::string json = h.graph(RESCUE_GRAPH_JSON, 0);
  for (const char* name : {"BMI", "Aspirin", "fidelity", "Statin", "PSA", "Cancer"})
    EXPECT_NE(json.find(std::string("\"") + name + "\""), std::string::npos) << name;
  EXPECT_FALSE(h.graph(RESCUE_GRAPH_JSON, 1).empty());
  size_t len = 0;
  char small[4];
  EXPECT_EQ(rescue_causal_graph(h.opt, RESCUE_GRAPH_DOT, 0, small, sizeof small, &len), RESCUE_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(rescue_causal_graph(h.opt, 7, 0, nullptr, 0, &len), RESCUE_ERR_INVALID_ARGUMENT);
  // Estimates against the problem's own equations (Age 65).
  const double x[4] = {22.0, 0.2, 28.0, 0.9}, s[2] = {1.0, 0.5};
  double mean[6], sd[6];
  ASSERT_EQ(rescue_causal_estimates(h.opt, x, 2, 2, s, mean, sd, 3), RESCUE_OK) << rescue_errmsg(h.opt);
  for (int i = 0; i < 2; ++i) {
    const double bmi = x[2 * i], asp = x[2 * i + 1], S = s[i];
    const double statin = sigmoid(S * (-13.0 + 6.5 + 0.2 * bmi));
    const double cancer = sigmoid(S * (2.2 - 3.25 + 0.01 * bmi - 0.04 * statin + 0.2 * asp));
    const double psa = (S + 6.8) * (2.6 - 0.15 * bmi + 0.6 * statin + 0.55 * asp + cancer);
    EXPECT_NEAR(mean[3 * i + 0], statin, 0.05) << i;
    EXPECT_NEAR(mean[3 * i + 1], psa, 0.5) << i;
    EXPECT_NEAR(mean[3 * i + 2], cancer, 0.05) << i;
    for (int k = 0; k < 3; ++k) EXPECT_GE(sd[3 * i + k], 0.0);
  }
  EXPECT_EQ(rescue_causal_estimates(h.opt, x, 2, 3, s, mean, sd, 3), RESCUE_ERR_SIZE_MISMATCH);
  EXPECT_EQ(rescue_causal_estimates(h.opt, x, 2, 2, s, mean, sd, 2), RESCUE_ERR_SIZE_MISMATCH);
  const double out[2] = {50.0, 0.5};
  EXPECT_EQ(rescue_causal_estimates(h.opt, out, 1, 2, s, mean, sd, 3), RESCUE_ERR_OUT_OF_RANGE);
  const double nan_s[2] = {1.0, std::nan("")}, low_s[2] = {1.0, -0.5};
  EXPECT_EQ(rescue_causal_estimates(h.opt, x, 2, 2, nan_s, mean, sd, 3), RESCUE_ERR_NON_FINITE);
  EXPECT_NE(std::string(rescue_errmsg(h.opt)).find("point 1"), std::string::npos) << rescue_errmsg(h.opt);
  EXPECT_EQ(rescue_causal_estimates(h.opt, x, 2, 2, low_s, mean, sd, 3), RESCUE_ERR_OUT_OF_RANGE);
}

// rescue.repair through the C ABI, on the robot stand-in whose indicators are
// products with the clutter k(s) that PC's linear tests miss: 0 fits the
// discovered graph as it is, 1 adds inputs of objectives and constraints, 2
// also inputs of indicators and indicators of objectives and constraints.
TEST(CausalApi, RepairParameterWidensTheFittedGraph) {
  auto count = [](const std::string& json, const std::string& key) {
    std::size_t n = 0;
    for (std::size_t at = json.find(key); at != std::string::npos; at = json.find(key, at + 1)) ++n;
    return n;
  };
  std::vector<std::string> fitted, discovered;
  for (double repair : {0.0, 1.0, 2.0}) {
    auto [f, d] = robot_graphs("rescue.repair", repair);
    fitted.push_back(f);
    discovered.push_back(d);
  }
  // Discovery itself does not depend on the repair.
  EXPECT_EQ(discovered[0], discovered[1]);
  EXPECT_EQ(discovered[0], discovered[2]);
  EXPECT_EQ(count(fitted[0], "\"from\""), count(discovered[0], "\"from\""));
  EXPECT_GT(count(fitted[1], "\"from\""), count(fitted[0], "\"from\""));
  EXPECT_GT(count(fitted[2], "\"from\""), count(fitted[1], "\"from\""));
  // Only the full repair gives v_eff = max_vel_x (1 - 0.45 k r / 0.6) / (...)
  // its inflation-radius parent (a product with k(s)), which discovery misses;
  // its other edges stay.
  ASSERT_FALSE(has_edge(discovered[0], "global_inflation_radius", "v_eff")) << "discovery now finds the edge";
  EXPECT_FALSE(has_edge(fitted[1], "global_inflation_radius", "v_eff"));
  EXPECT_TRUE(has_edge(fitted[2], "global_inflation_radius", "v_eff"));
  EXPECT_TRUE(has_edge(fitted[2], "max_vel_x", "v_eff"));
}

TEST(CausalApi, UserDagReplacesDiscoveryAndBadKnowledgeIsRejected) {
  Healthcare h;
  const std::string before = [&] {
    size_t len = 0;
    rescue_save(h.opt, nullptr, 0, &len);
    std::string t(len + 1, '\0');
    rescue_save(h.opt, &t[0], t.size(), &len);
    return t;
  }();
  EXPECT_EQ(rescue_set_dag(h.opt, "{not json"), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_set_dag(h.opt, R"({"edges":[{"from":"BMI","to":"Nope"}]})"), RESCUE_ERR_UNKNOWN_NAME);
  EXPECT_EQ(rescue_set_dag(h.opt, R"({"edges":[{"from":"PSA","to":"BMI"}]})"), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_set_dag(h.opt, R"({"edges":[{"from":"Statin","to":"PSA"},{"from":"PSA","to":"Statin"}]})"),
            RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_constrain_edge(h.opt, "BMI", "Nope", RESCUE_EDGE_REQUIRED), RESCUE_ERR_UNKNOWN_NAME);
  EXPECT_EQ(rescue_constrain_edge(h.opt, "BMI", "Statin", 5), RESCUE_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(rescue_constrain_edge(h.opt, "PSA", "BMI", RESCUE_EDGE_REQUIRED), RESCUE_ERR_INVALID_ARGUMENT);
  {
    size_t len = 0;
    rescue_save(h.opt, nullptr, 0, &len);
    std::string t(len + 1, '\0');
    rescue_save(h.opt, &t[0], t.size(), &len);
    EXPECT_EQ(t, before);  // rejected knowledge changes nothing
  }
  const char* dag =
      R"({"edges":[{"from":"BMI","to":"Statin"},{"from":"fidelity","to":"Statin"},{"from":"BMI","to":"PSA"},)"
      R"({"from":"Statin","to":"PSA"},{"from":"Aspirin","to":"Cancer"},{"from":"BMI","to":"Cancer"}]})";
  ASSERT_EQ(rescue_set_dag(h.opt, dag), RESCUE_OK) << rescue_errmsg(h.opt);
  h.run(1);
  const std::string json = h.graph(RESCUE_GRAPH_JSON, 0);
  EXPECT_TRUE(has_edge(json, "Statin", "PSA")) << json;
  EXPECT_FALSE(has_edge(json, "Aspirin", "PSA")) << json;
  // Back to discovery, with a forbidden edge that discovery must respect.
  ASSERT_EQ(rescue_set_dag(h.opt, nullptr), RESCUE_OK);
  ASSERT_EQ(rescue_constrain_edge(h.opt, "Aspirin", "PSA", RESCUE_EDGE_FORBIDDEN), RESCUE_OK);
  h.run(1);
  EXPECT_FALSE(has_edge(h.graph(RESCUE_GRAPH_JSON, 0), "Aspirin", "PSA"));
}

TEST(CausalApi, RescueContinuesIdenticallyAfterLoadingAndWorksWithoutLogs) {
  for (int observational : {200, 0}) {
    Healthcare a("rescue", observational);
    rescue_problem_set_param(a.problem, "rescue.relearn_every", 3);
    a.run(7);
    size_t len = 0;
    rescue_save(a.opt, nullptr, 0, &len);
    std::string text(len + 1, '\0');
    rescue_save(a.opt, &text[0], text.size(), &len);
    text.resize(len);
    rescue_optimizer* b = nullptr;
    ASSERT_EQ(rescue_load(text.data(), text.size(), &b), RESCUE_OK) << rescue_last_error();
    std::vector<double> ta, tb;
    a.run(4, &ta);
    rescue_optimizer* keep = a.opt;
    a.opt = b;
    a.run(4, &tb);
    a.opt = keep;
    EXPECT_EQ(ta, tb) << observational;
    rescue_destroy(b);
  }
}

// Logs added, or knowledge changed, after rescue learned its causal model:
// the running optimizer's estimates use them at once, and a checkpoint taken
// then restores the model it held (learned from the logs and knowledge of
// that time), so the restored optimizer continues exactly as the original.
TEST(CausalApi, RescueContinuesIdenticallyWhenLogsOrKnowledgeChangeAfterLearning) {
  for (const bool logs : {true, false}) {
    SCOPED_TRACE(logs ? "logs added" : "an edge forbidden");
    Healthcare a("rescue", logs ? 0 : 200, 0.3);
    a.run(14);  // past the initial design: the model is learned
    const std::vector<double> learned = a.estimates();
    if (logs) {
      a.add_logs(300, 21);
    } else {
      ASSERT_EQ(rescue_constrain_edge(a.opt, "Aspirin", "PSA", RESCUE_EDGE_FORBIDDEN), RESCUE_OK);
    }
    const std::vector<double> changed = a.estimates();
    EXPECT_NE(changed, learned) << "the estimates ignore the change";
    size_t len = 0;
    ASSERT_EQ(rescue_save(a.opt, nullptr, 0, &len), RESCUE_OK);
    std::string text(len + 1, '\0');
    ASSERT_EQ(rescue_save(a.opt, &text[0], text.size(), &len), RESCUE_OK);
    text.resize(len);
    rescue_optimizer* b = nullptr;
    ASSERT_EQ(rescue_load(text.data(), text.size(), &b), RESCUE_OK) << rescue_last_error();
    std::vector<double> ta, tb, eb;
    rescue_optimizer* keep = a.opt;
    a.opt = b;
    eb = a.estimates();
    a.run(4, &tb);
    a.opt = keep;
    a.run(4, &ta);
    EXPECT_EQ(eb, changed);
    EXPECT_EQ(ta, tb);
    rescue_destroy(b);
  }
}

}  // namespace
