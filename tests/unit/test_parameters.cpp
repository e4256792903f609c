// The table of strategy parameters: complete (every name the library reads is
// in it), without stale entries, and enforced by rescue_problem_set_param.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "core/parameters.hpp"
#include "core/problem_spec.hpp"
#include "rescue.h"
#include "util/error.hpp"

namespace rescue {
namespace {

// Every name read with param("...") anywhere in the library's sources.
std::set<std::string> names_read_by_the_sources() {
  std::set<std::string> names;
  const std::regex read(R"(param\("([^"]+)\")");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(RESCUE_SOURCE_DIR "/src")) {
    const auto ext = entry.path().extension();
    if (ext != ".cpp" && ext != ".hpp") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    for (std::sregex_iterator it(s.begin(), s.end(), read), end; it != end; ++it) names.insert((*it)[1]);
  }
  return names;
}

TEST(Parameters, TableMatchesWhatTheLibraryReads) {
  const auto read = names_read_by_the_sources();
  ASSERT_GE(read.size(), 10u) << "the source scan found too little; is RESCUE_SOURCE_DIR right?";
  std::set<std::string> table;
  std::string previous;
  for (const auto& p : known_parameters()) {
    EXPECT_TRUE(table.insert(p.name).second) << p.name << " twice";
    EXPECT_LT(previous, p.name) << "the table is not sorted";
    previous = p.name;
    EXPECT_GT(std::string(p.meaning).size(), 10u) << p.name;
  }
  for (const auto& n : read) EXPECT_TRUE(table.count(n)) << n << " is read by the library but not in the table";
  for (const auto& n : table) EXPECT_TRUE(read.count(n)) << n << " is in the table but nothing reads it";
}

TEST(Parameters, TheUserGuideListsEveryParameter) {
  std::ifstream in(RESCUE_SOURCE_DIR "/docs/guide.md");
  ASSERT_TRUE(in) << "docs/guide.md not found";
  std::stringstream text;
  text << in.rdbuf();
  for (const auto& p : known_parameters()) {
    const std::string row = "| `" + std::string(p.name) + "` | " + p.default_text + " | " + parameter_domain_text(p) + " |";
    EXPECT_NE(text.str().find(row), std::string::npos)
        << p.name << " is not listed with its default and values in docs/guide.md: " << row;
  }
}

TEST(Parameters, EveryDefaultLiesInItsDomain) {
  for (const auto& p : known_parameters()) {
    const double value = std::stod(p.default_text);
    EXPECT_NO_THROW(check_parameter(p.name, value)) << p.name << " = " << p.default_text;
  }
}

TEST(Parameters, DomainsInWords) {
  auto text = [](const char* name) {
    for (const auto& p : known_parameters())
      if (std::string(p.name) == name) return parameter_domain_text(p);
    return std::string("?");
  };
  EXPECT_EQ(text("rescue.repair"), "0, 1 or 2");
  EXPECT_EQ(text("rescue.causal_kernel"), "0 or 1");
  EXPECT_EQ(text("kg.pool"), "integer in [8, 1000000]");
  EXPECT_EQ(text("rescue.weight"), "[0, 1]");
  EXPECT_EQ(text("rescue.alpha"), "(0, 1)");
  EXPECT_EQ(text("kg.zero_gain"), "any");
}

// Values outside a parameter's domain are refused with OutOfRange and a
// message that says what is accepted; the boundaries themselves are accepted.
TEST(Parameters, ValuesOutsideTheDomainAreRefused) {
  auto refused = [](const char* name, double value) {
    try {
      check_parameter(name, value);
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::OutOfRange) << name << " = " << value;
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
      return true;
    }
    return false;
  };
  for (double v : {-1.0, 1.5, 3.0, 7.0}) EXPECT_TRUE(refused("rescue.repair", v)) << v;
  for (double v : {0.0, 1.0, 2.0}) EXPECT_FALSE(refused("rescue.repair", v)) << v;
  for (double v : {0.0, 1.0, -0.05}) EXPECT_TRUE(refused("rescue.alpha", v)) << v;
  EXPECT_FALSE(refused("rescue.alpha", 0.999));
  for (double v : {-1e-12, 1.0 + 1e-12}) EXPECT_TRUE(refused("rescue.weight", v)) << v;
  for (double v : {0.0, 1.0}) EXPECT_FALSE(refused("rescue.weight", v)) << v;
  EXPECT_TRUE(refused("kg.pool", 7.0));
  EXPECT_FALSE(refused("kg.pool", 8.0));
  EXPECT_FALSE(refused("kg.fantasies", 1e6));
  EXPECT_TRUE(refused("kg.fantasies", 1e6 + 1));
  EXPECT_TRUE(refused("kg.fantasies", 0.0));
  EXPECT_TRUE(refused("kg.fantasies", 4.5));
  EXPECT_TRUE(refused("rescue.causal_kernel", 2.0));
  EXPECT_FALSE(refused("kg.feasible_pool", 0.0));
  EXPECT_TRUE(refused("kg.feasible_pool", -1.0));
  EXPECT_TRUE(refused("kg.feasible_pool", 2.5));
  for (double v : {-1e300, -1.0, 0.0, 1e300}) EXPECT_FALSE(refused("kg.zero_gain", v)) << v;
  try {
    check_parameter("rescue.repair", 7.0);
    ADD_FAILURE() << "rescue.repair = 7 was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("0, 1 or 2"), std::string::npos) << e.what();
  }
}

TEST(Parameters, UnknownNamesAreRejectedWithTheClosestKnownOne) {
  EXPECT_NO_THROW(check_parameter_name("kg.fantasies"));
  try {
    check_parameter_name("kg.fantasy");
    FAIL() << "accepted a misspelt name";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::UnknownName);
    EXPECT_NE(std::string(e.what()).find("did you mean 'kg.fantasies'"), std::string::npos) << e.what();
  }
  try {
    check_parameter_name("completely.different.thing");
    FAIL() << "accepted an unknown name";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find("did you mean"), std::string::npos) << e.what();
  }
}

TEST(Parameters, CAbiRejectsUnknownNamesAndKeepsTheOthers) {
  rescue_problem* p = nullptr;
  ASSERT_EQ(rescue_problem_builtin("branin-currin", &p), RESCUE_OK);
  EXPECT_EQ(rescue_problem_set_param(p, "kg.fantasies", 4), RESCUE_OK);
  EXPECT_EQ(rescue_problem_set_param(p, "kg.fantasy", 4), RESCUE_ERR_UNKNOWN_NAME);
  EXPECT_NE(std::string(rescue_problem_errmsg(p)).find("kg.fantasies"), std::string::npos);
  EXPECT_EQ(rescue_problem_set_param(p, "kg.fantasies", 0), RESCUE_ERR_OUT_OF_RANGE);
  EXPECT_NE(std::string(rescue_problem_errmsg(p)).find("integer in [1, 1000000]"), std::string::npos)
      << rescue_problem_errmsg(p);
  rescue_optimizer* o = nullptr;
  ASSERT_EQ(rescue_create(p, &o), RESCUE_OK);
  rescue_destroy(o);
  rescue_problem_free(p);
}

// A refused value leaves the setting the parameter had.
TEST(Parameters, ARefusedValueKeepsTheEarlierSetting) {
  ProblemSpec spec;
  spec.set_param("rescue.repair", 1);
  EXPECT_THROW(spec.set_param("rescue.repair", 7), Error);
  EXPECT_THROW(spec.set_param("rescue.repair", std::nan("")), Error);
  EXPECT_EQ(spec.param("rescue.repair"), 1.0);
  EXPECT_EQ(spec.params().count("rescue.weight"), 0u);
  EXPECT_THROW(spec.set_param("rescue.weight", 2), Error);
  EXPECT_EQ(spec.params().count("rescue.weight"), 0u) << "a refused value must not be stored";
  EXPECT_EQ(spec.param("rescue.weight"), parameter_default("rescue.weight"));
}

// Parameters of earlier versions: set_param refuses them with UnknownName and
// says how this version behaves; a checkpoint's value is dropped when it is the
// behaviour in force and refused with UnsupportedVersion otherwise.
TEST(Parameters, RetiredParametersSayWhatTheyBecame) {
  ProblemSpec spec;
  try {
    spec.set_param("rescue.gp_equations", 1);
    FAIL() << "accepted a retired parameter";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::UnknownName);
    EXPECT_NE(std::string(e.what()).find("'rescue.gp_equations' = 0"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(spec.restore_param("rescue.gp_equations", 0));
  EXPECT_NO_THROW(spec.restore_param("rescue.interactions", 1));
  EXPECT_NO_THROW(spec.restore_param("rescue.log_lengthscale_var", 3.0));
  EXPECT_TRUE(spec.params().empty());
  for (const auto& [name, value] : {std::pair{"rescue.gp_equations", 1.0}, std::pair{"kg.verify_share", 0.3},
                                    std::pair{"rescue.min_feasibility", 0.3}}) {
    try {
      spec.restore_param(name, value);
      ADD_FAILURE() << name << " = " << value << " was restored";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::UnsupportedVersion) << name;
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(spec.restore_param("rescue.prune", std::nan("")), Error);
  EXPECT_TRUE(spec.params().empty());
  EXPECT_THROW(parameter_default("rescue.prune"), Error);
}

}  // namespace
}  // namespace rescue

namespace rescue {
namespace {

// What a short run gives: every suggestion (configuration and fidelity), then
// the recommended set. A constrained problem with three discrete fidelity
// levels, an indicator and logs, so that every parameter of `strategy` is read.
std::vector<double> short_run(const char* strategy, int objectives, const std::string& under_test, bool set_default) {
  rescue_problem* p = nullptr;
  EXPECT_EQ(rescue_problem_new(&p), RESCUE_OK);
  rescue_problem_add_option(p, "a", 0.0, 1.0, RESCUE_CONTINUOUS);
  rescue_problem_add_option(p, "b", 0.0, 1.0, RESCUE_CONTINUOUS);
  const double levels[3] = {0.2, 0.5, 1.0};
  rescue_problem_set_fidelity_levels(p, levels, 3, 1.0);
  rescue_problem_add_indicator(p, "z");
  for (int m = 0; m < objectives; ++m) rescue_problem_add_objective(p, ("f" + std::to_string(m)).c_str(), RESCUE_MINIMIZE);
  rescue_problem_add_constraint(p, "g", 0.9, RESCUE_LEQ);
  rescue_problem_set_strategy(p, strategy);
  rescue_problem_set_seed(p, 3);
  rescue_problem_set_initial_budget(p, 8.0);
  // Small searches keep the runs short; the parameter under test is left at
  // its default (unset in one run, set to its documented default in the other).
  const std::pair<const char*, double> small[] = {{"acq.starts", 16},          {"acq.refine", 1},
                                                  {"acq.refine_evals", 10},    {"kg.pool", 16},
                                                  {"kg.fantasies", 2},         {"kg.set_size", 3},
                                                  {"recommend.population", 12}, {"recommend.generations", 4},
                                                  {"acq.mc_samples", 16}};
  for (const auto& [name, value] : small) {
    if (name == under_test) continue;
    EXPECT_EQ(rescue_problem_set_param(p, name, value), RESCUE_OK) << name;
  }
  if (set_default) {
    EXPECT_EQ(rescue_problem_set_param(p, under_test.c_str(), parameter_default(under_test)), RESCUE_OK);
  }
  rescue_optimizer* opt = nullptr;
  EXPECT_EQ(rescue_create(p, &opt), RESCUE_OK) << rescue_last_error();
  rescue_problem_free(p);
  auto outputs = [&](const double* x, double s, double* y, double* g, double* z) {
    *z = x[0] * s + 0.2 * x[1];
    for (int m = 0; m < objectives; ++m) y[m] = (m % 2 ? 1.0 - *z : *z) + 0.3 * m * (x[1] - 0.5) * (x[1] - 0.5);
    *g = x[0] + x[1] * s;
  };
  // Logs for the causal model: a grid at every level.
  std::vector<double> logs;
  for (int i = 0; i < 30; ++i) {
    const double x[2] = {(i % 6) / 5.0, (i / 6) / 4.0}, s = levels[i % 3];
    double y[4], g, z;
    outputs(x, s, y, &g, &z);
    logs.insert(logs.end(), {x[0], x[1], s, z});
    logs.insert(logs.end(), y, y + objectives);
    logs.push_back(g);
  }
  const int width = 2 + 1 + 1 + objectives + 1;
  EXPECT_EQ(rescue_add_observational(opt, logs.data(), 30, width), RESCUE_OK) << rescue_errmsg(opt);
  std::vector<double> out;
  for (int step = 0; step < 10; ++step) {
    double x[2], s, y[4], g, z;
    int ticket = 0;
    if (rescue_suggest(opt, x, 2, &s, &ticket) != RESCUE_OK) break;
    out.insert(out.end(), {x[0], x[1], s});
    outputs(x, s, y, &g, &z);
    EXPECT_EQ(rescue_observe(opt, ticket, y, objectives, &g, 1, &z, 1), RESCUE_OK) << rescue_errmsg(opt);
  }
  std::vector<double> px(200), py(100 * objectives);
  int count = 0;
  EXPECT_EQ(rescue_pareto(opt, px.data(), py.data(), 100, &count), RESCUE_OK) << rescue_errmsg(opt);
  out.insert(out.end(), px.begin(), px.begin() + 2 * count);
  rescue_destroy(opt);
  return out;
}

// Each parameter set to its documented default leaves a run exactly as it is
// with nothing set: the default in force is the documented one (the table's,
// which docs/guide.md lists), and no call site supplies one of its own.
TEST(Parameters, DocumentedDefaultsAreTheOnesInForce) {
  for (const auto& [strategy, objectives] : {std::pair{"rescue", 2}, std::pair{"momf", 3}}) {
    for (const auto& p : known_parameters()) {
      const std::string name = p.name;
      const bool reads = name.rfind("acq.", 0) == 0 || name.rfind("recommend.", 0) == 0 || name.rfind("gp.", 0) == 0 ||
                         std::string(strategy) == "rescue";
      if (!reads) continue;
      const std::vector<double> plain = short_run(strategy, objectives, name, false);
      ASSERT_GT(plain.size(), 24u) << strategy << ": the run made too few suggestions to read its parameters";
      EXPECT_EQ(short_run(strategy, objectives, name, true), plain) << strategy << ": " << name;
    }
  }
}

}  // namespace
}  // namespace rescue
