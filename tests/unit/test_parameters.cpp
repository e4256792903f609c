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
  EXPECT_EQ(text("rescue.interactions"), "0 or 1");
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
  EXPECT_TRUE(refused("rescue.interactions", 2.0));
  EXPECT_FALSE(refused("kg.feasible_pool", 0.0));
  EXPECT_TRUE(refused("kg.feasible_pool", -1.0));
  EXPECT_TRUE(refused("kg.feasible_pool", 2.5));
  for (double v : {-1e300, -1.0, 0.0, 1e300}) EXPECT_FALSE(refused("kg.zero_gain", v)) << v;
  for (double v : {-1e-12, 1.0 + 1e-12}) EXPECT_TRUE(refused("kg.verify_share", v)) << v;
  for (double v : {0.0, 0.3, 1.0}) EXPECT_FALSE(refused("kg.verify_share", v)) << v;
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
  EXPECT_EQ(spec.param("rescue.repair", -1), 1.0);
  EXPECT_EQ(spec.param("rescue.weight", -1), -1.0);
  EXPECT_THROW(spec.set_param("rescue.weight", 2), Error);
  EXPECT_EQ(spec.param("rescue.weight", -1), -1.0) << "a refused value must not be stored";
}

}  // namespace
}  // namespace rescue
