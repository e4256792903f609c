#include <memory>

#include "problems/benchmark_problem.hpp"
#include "problems/branin_currin.hpp"
#include "problems/healthcare.hpp"
#include "problems/park.hpp"
#include "problems/robot_standin.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace rescue::problems {
namespace {

const std::string kAdversarialSuffix = "-adversarial";

std::unique_ptr<ModelProblem> make_base(const std::string& name, const ProblemOptions& options) {
  if (name == "branin-currin") return std::make_unique<BraninCurrin>(options);
  if (name == "park") return std::make_unique<Park>(options);
  if (name == "healthcare") return std::make_unique<Healthcare>(options);
  if (name == "robot-standin") return std::make_unique<RobotStandin>(options);
  return nullptr;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

const std::vector<std::string>& problem_names() {
  static const std::vector<std::string> names = {
      "branin-currin", "park", "healthcare", "robot-standin",
      "branin-currin-adversarial", "park-adversarial", "healthcare-adversarial", "robot-standin-adversarial"};
  return names;
}

std::unique_ptr<BenchmarkProblem> make_problem(const std::string& name) { return make_problem(name, ProblemOptions{}); }

std::unique_ptr<BenchmarkProblem> make_problem(const std::string& name, const ProblemOptions& options) {
  options.validate();
  const bool adversarial = ends_with(name, kAdversarialSuffix);
  const std::string base = adversarial ? name.substr(0, name.size() - kAdversarialSuffix.size()) : name;
  std::unique_ptr<ModelProblem> p = make_base(base, options);
  if (!p)
    fail(Status::UnknownName,
         "unknown benchmark problem '" + name + "' (known: " + comma_list(problem_names()) + ")");
  const double strength = adversarial && options.adversarial_bias == 0.0 ? 1.0 : options.adversarial_bias;
  p->set_adversarial(strength);
  return p;
}

}  // namespace rescue::problems
