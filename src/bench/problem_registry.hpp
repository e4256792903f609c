// The problems the harness runs: the library's built-in problems
// (rescue_problem_builtin) and the harness's own, which train real models
// and so stay outside librescue (xgboost-hpo: XGBoost, the spam data of R's
// kernlab), and names the problems run from R (external_problem_names). Every other part of the harness reaches problems through here.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "bench/capi_handles.hpp"
#include "problems/benchmark_problem.hpp"
#include "problems/max_hypervolume.hpp"

namespace rescue::bench {

/// Builds a problem by name; throws Error(UnknownName) for an unknown one, or
/// for a harness problem this build lacks (the message says what it needs).
std::unique_ptr<problems::BenchmarkProblem> make_problem(const std::string& name);
/// The script that runs the external problems (relative to the source tree).
inline constexpr const char* kExternalRunner = "Rscript src/bench/r/forest_bench.R";
/// Problems whose runs a script outside the harness writes (the forest problems, trained by R's
/// ranger through the R binding): rescue-bench summarizes their run files, taking their budget
/// from the files and their maximum hypervolume from harness_max_hypervolumes(); make_problem
/// refuses them.
const std::vector<std::string>& external_problem_names();
bool is_external_problem(const std::string& name);
/// Every name make_problem accepts: the library's, then the harness's.
const std::vector<std::string>& problem_names();
/// Whether the library itself knows the problem (rescue_problem_builtin).
bool is_library_problem(const std::string& name);
/// The stored maxima of the harness's own problems and of the external ones.
const std::vector<problems::MaxHypervolume>& harness_max_hypervolumes();
/// The stored maximum hypervolume at the target (the library's table or the
/// harness's); throws Error(UnknownName) without one.
const problems::MaxHypervolume& max_hypervolume(const std::string& name);
/// A C-ABI problem for `name`: the library's built-in one, or one built from
/// the harness problem's definition (options, fidelity, cost, objectives,
/// constraints, indicators, reference point).
void new_problem_handle(const std::string& name, ProblemHandle& out);

}  // namespace rescue::bench
