#include <memory>

#include "problems/benchmark_problem.hpp"
#include "problems/branin_currin.hpp"
#include "problems/branin_currin_mixed.hpp"
#include "problems/healthcare.hpp"
#include "problems/park.hpp"
#include "problems/robot_standin.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace rescue::problems {
namespace {

std::unique_ptr<ModelProblem> make_base(const std::string& name, const ProblemOptions& options) {
  if (name == "branin-currin") return std::make_unique<BraninCurrin>(options);
  if (name == "park") return std::make_unique<Park>(options);
  if (name == "healthcare") return std::make_unique<Healthcare>(options);
  if (name == "robot-standin") return std::make_unique<RobotStandin>(options);
  if (name == "branin-currin-mixed") return std::make_unique<BraninCurrinMixed>(options);
  return nullptr;
}

}  // namespace

const std::vector<std::string>& problem_names() {
  static const std::vector<std::string> names = [] {
    const std::vector<std::string> bases = {"branin-currin", "park", "healthcare", "robot-standin"};
    std::vector<std::string> all = bases;
    for (const std::string& suffix : misleading_suffixes())
      for (const std::string& b : bases) all.push_back(b + suffix);
    // A mixed space (a categorical option); its cheap fidelities are Branin-Currin's.
    all.push_back("branin-currin-mixed");
    return all;
  }();
  return names;
}

std::unique_ptr<BenchmarkProblem> make_problem(const std::string& name) { return make_problem(name, ProblemOptions{}); }

std::unique_ptr<BenchmarkProblem> make_problem(const std::string& name, const ProblemOptions& options) {
  options.validate();
  std::string base;
  Misleading kind = misleading_kind(name, &base);
  std::unique_ptr<ModelProblem> p = make_base(base, options);
  if (!p)
    fail(Status::UnknownName,
         "unknown benchmark problem '" + name + "' (known: " + comma_list(problem_names()) + ")");
  // A bias strength set on a plain name makes the problem adversarial.
  if (kind == Misleading::None && options.adversarial_bias > 0.0) kind = Misleading::Adversarial;
  const double strength = kind != Misleading::None && options.adversarial_bias == 0.0 ? 1.0 : options.adversarial_bias;
  if (kind != Misleading::None) p->set_misleading(kind, strength);
  return p;
}

}  // namespace rescue::problems
