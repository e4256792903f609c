#include "bench/problem_registry.hpp"

#include <algorithm>

#include "util/error.hpp"
#include "util/text.hpp"
#ifdef RESCUE_HAVE_XGBOOST
#include "bench/xgboost_hpo.hpp"
#endif

namespace rescue::bench {
namespace {

const std::vector<std::string> kHarnessProblems = {"xgboost-hpo", "xgboost-hpo-constrained"};

bool is_harness_problem(const std::string& name) {
  return std::find(kHarnessProblems.begin(), kHarnessProblems.end(), name) != kHarnessProblems.end();
}

}  // namespace

const std::vector<std::string>& external_problem_names() {
  static const std::vector<std::string> names = {"forest-hpo", "forest-hpo-constrained"};
  return names;
}

bool is_external_problem(const std::string& name) {
  const auto& names = external_problem_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool is_library_problem(const std::string& name) {
  const auto& names = problems::problem_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

const std::vector<std::string>& problem_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = problems::problem_names();
    all.insert(all.end(), kHarnessProblems.begin(), kHarnessProblems.end());
    return all;
  }();
  return names;
}

std::unique_ptr<problems::BenchmarkProblem> make_problem(const std::string& name) {
  if (is_external_problem(name))
    fail(Status::UnknownName, "problem '" + name + "' is run from R: " + std::string(kExternalRunner) +
                                  " writes its run files, rescue-bench --summarize-only summarizes them");
  if (!is_harness_problem(name)) {
    if (!is_library_problem(name))
      fail(Status::UnknownName, "unknown benchmark problem '" + name + "' (known: " + comma_list(problem_names()) + ")");
    return problems::make_problem(name);
  }
#ifdef RESCUE_HAVE_XGBOOST
  return std::make_unique<XgboostHpo>(RESCUE_SPAM_CSV,
                                      name == "xgboost-hpo" ? XgboostTask::Plain : XgboostTask::Constrained);
#else
  fail(Status::UnknownName, "problem '" + name +
                                "' needs rescue-bench built with XGBoost (Debian: libxgboost-dev) and the spam data of "
                                "R's kernlab (r-cran-kernlab, converted at build time by Rscript)");
#endif
}

const std::vector<problems::MaxHypervolume>& harness_max_hypervolumes() {
  // Computed by `rescue-bench --check-max-hv --problems NAME`
  // (MaxHvOptions::real_training, seeds 1 and 2; about 25 minutes on one core
  // per problem): value, estimated absolute precision (the worse search's
  // shortfall against the union), method, and evaluations at the target.
  static const std::string method =
      "union of 2 searches (seeds 1..2), each: 2000 Sobol points, 2 NSGA-II runs (population 40, 40 generations), "
      "seeded NSGA-II (25 generations), 3 levels of local refinement (2 samples per front point, half-width 0.02 "
      "shrinking by 4)";
  static const std::string forest_method =
      "union of 2 searches (seeds 1..2), each: 2000 uniform configurations, 3 levels of local refinement (4 draws "
      "around every front member, half-width 0.05 of each range shrinking by 4)";
  static const std::vector<problems::MaxHypervolume> table = {
      {"xgboost-hpo", 29.545660234680568, 0.51979921773142124, method, 12940},
      {"xgboost-hpo-constrained", 1.8787586799860638, 0.063027820702550308, method, 13120},
      // The forest problems: `forest_bench.R --check-max-hv --out DIR` (R's search of forest_hpo.R,
      // seeds 1 and 2, the first starting from every configuration of the run files under DIR).
      {"forest-hpo", 0.55565162867096651, 0.065861326281297039,
       forest_method + ", the first starting from 5388 configurations of run files", 9888},
      // The runs' recommended sets are not in their files; two of them beat the searches by a fifth
      // (rescue seed 8 and ehvi seed 18), so the value is the better of them and the precision that gap.
      {"forest-hpo-constrained", 0.0027541490461514035, 0.00049688764244742482,
       "the best recommended set of the 100 runs in docs/results (rescue seed 8, shared recommender); the "
       "searches reached 0.0022573: " + forest_method + ", the first starting from 7026 configurations of run files",
       11142},
  };
  return table;
}

const problems::MaxHypervolume& max_hypervolume(const std::string& name) {
  if (!is_harness_problem(name) && !is_external_problem(name)) return problems::max_hypervolume(name);
  for (const auto& entry : harness_max_hypervolumes())
    if (entry.problem == name) return entry;
  fail(Status::UnknownName, "no stored maximum hypervolume for problem '" + name + "'");
}

void new_problem_handle(const std::string& name, ProblemHandle& out) {
  if (is_library_problem(name)) {
    check(rescue_problem_builtin(name.c_str(), &out.p), "rescue_problem_builtin", kLastError);
    return;
  }
  const auto problem = make_problem(name);
  const ProblemSpec& spec = problem->spec();
  check(rescue_problem_new(&out.p), "rescue_problem_new", kLastError);
  rescue_problem* p = out.p;
  for (const OptionSpec& o : spec.options()) {
    if (o.categorical()) {
      std::vector<const char*> labels;
      for (const auto& l : o.labels) labels.push_back(l.c_str());
      check(rescue_problem_add_categorical(p, o.name.c_str(), labels.data(), o.levels()), "rescue_problem_add_categorical",
            p);
      continue;
    }
    check(rescue_problem_add_option(p, o.name.c_str(), o.lower, o.upper, static_cast<int>(o.kind)),
          "rescue_problem_add_option", p);
  }
  const FidelitySpec& f = spec.fidelity();
  if (f.discrete) {
    if (!f.single_level())
      check(rescue_problem_set_fidelity_levels(p, f.levels.data(), static_cast<int>(f.levels.size()), f.target),
            "rescue_problem_set_fidelity_levels", p);
  } else {
    check(rescue_problem_set_fidelity_range(p, f.lower, f.upper, f.target), "rescue_problem_set_fidelity_range", p);
  }
  const CostModel& c = spec.cost_model();
  if (c.kind == CostKind::Exponential) {
    check(rescue_problem_set_cost_exponential(p, c.rate), "rescue_problem_set_cost_exponential", p);
  } else if (c.kind == CostKind::PerLevel) {
    check(rescue_problem_set_cost_levels(p, c.level_costs.data(), static_cast<int>(c.level_costs.size())),
          "rescue_problem_set_cost_levels", p);
  } else {
    fail(Status::Internal, "harness problem '" + name + "' has a cost callback");
  }
  for (const ObjectiveSpec& o : spec.objectives())
    check(rescue_problem_add_objective(p, o.name.c_str(), static_cast<int>(o.sense)), "rescue_problem_add_objective", p);
  for (const ConstraintSpec& g : spec.constraints())
    check(rescue_problem_add_constraint(p, g.name.c_str(), g.threshold, static_cast<int>(g.sense)),
          "rescue_problem_add_constraint", p);
  for (const std::string& k : spec.indicators())
    check(rescue_problem_add_indicator(p, k.c_str()), "rescue_problem_add_indicator", p);
  if (!spec.reference_point().empty())
    check(rescue_problem_set_reference_point(p, spec.reference_point().data(),
                                             static_cast<int>(spec.reference_point().size())),
          "rescue_problem_set_reference_point", p);
}

}  // namespace rescue::bench
