// The table of strategy parameters: complete (every name the library reads is
// in it), without stale entries, and enforced by rescue_problem_set_param.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "core/parameters.hpp"
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
  for (const auto& p : known_parameters())
    EXPECT_NE(text.str().find("| `" + std::string(p.name) + "` | " + p.default_text + " |"), std::string::npos)
        << p.name << " is not listed with its default in docs/guide.md";
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
  rescue_optimizer* o = nullptr;
  ASSERT_EQ(rescue_create(p, &o), RESCUE_OK);
  rescue_destroy(o);
  rescue_problem_free(p);
}

}  // namespace
}  // namespace rescue
