#include "bench/experiment.hpp"

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <ostream>

#include "bench/bench_run.hpp"
#include "bench/plots.hpp"
#include "bench/parallel_for.hpp"
#include "bench/progress_bar.hpp"
#include "bench/regret_curve.hpp"
#include "bench/summary.hpp"
#include "bench/problem_registry.hpp"
#include "problems/misleading_fidelity.hpp"
#include "util/error.hpp"

namespace rescue::bench {

namespace fs = std::filesystem;

double protocol_budget(const std::string& problem) {
  std::string base;
  problems::misleading_kind(problem, &base);
  if (base == "branin-currin" || base == "branin-currin-mixed" || base == "healthcare") return 5.0;
  if (base == "park") return 10.0;
  if (base == "robot-standin") return 20.0;
  if (base == "xgboost-hpo" || base == "xgboost-hpo-constrained") return 10.0;
  fail(Status::UnknownName, "no protocol budget for problem '" + problem + "'");
}

ExperimentConfig quick_config() {
  ExperimentConfig c;
  c.problems = {"branin-currin", "healthcare"};
  c.seeds = 2;
  c.budget = 1.0;
  c.out_dir = "rescue-bench-quick";
  return c;
}

std::vector<RunSpec> plan_runs(const ExperimentConfig& config) {
  if (config.seeds < 1) fail(Status::InvalidArgument, "at least one seed is needed");
  if (config.problems.empty() || config.strategies.empty())
    fail(Status::InvalidArgument, "at least one problem and one strategy are needed");
  std::vector<RunSpec> plan;
  for (const auto& p : config.problems) {
    // An external problem's run files carry its budget (is_external_problem).
    const bool external = is_external_problem(p);
    const double hv_max = max_hypervolume(p).value;
    const double budget = config.budget >= 0.0 ? config.budget : external ? NAN : protocol_budget(p);
    for (int k = 0; k < config.seeds; ++k)
      for (const auto& s : config.strategies) {
        RunSpec r;
        r.problem = p;
        r.strategy = s;
        r.seed = config.first_seed + static_cast<std::uint64_t>(k);
        r.observational_rows = config.observational_rows;
        r.budget = budget;
        r.initial_budget = config.initial_budget;
        r.max_suggestions = config.max_suggestions;
        r.recommend_every = config.recommend_every;
        r.recommend_points = config.recommend_points;
        r.hv_max = hv_max;
        std::string library_strategy = s;
        for (const auto& v : config.variants)
          if (v.name == s) {
            r.variant = v.definition();
            library_strategy = v.strategy;
            if (v.observational_rows >= 0) r.observational_rows = v.observational_rows;
          }
        // The protocol's one recommender for every strategy: a plain GP in a
        // model-free optimizer fed the run's evaluations. A model strategy's
        // own optimizer recommends from its own GP, which it refits at every
        // suggestion from other warm starts, so even a plain-GP strategy's own
        // recommendation differs from it; only `random`'s optimizer is that
        // recommender itself.
        r.shared_recommender = library_strategy != "random";
        plan.push_back(r);
      }
  }
  return plan;
}

std::string run_csv_path(const std::string& out_dir, const RunSpec& spec) {
  return out_dir + "/runs/" + spec.problem + "/" + spec.strategy + "/seed-" + std::to_string(spec.seed) + ".csv";
}

namespace {

// A complete CSV for exactly these settings (a changed setting reruns it).
// The stored maximum is not a setting: a better one changes the regret, which
// the summary recomputes from the recorded hypervolumes, not the run.
bool already_done(const std::string& path, const RunSpec& spec) {
  std::ifstream in(path);
  if (!in) return false;
  try {
    const RunResult r = read_run_csv(in);
    const RunSpec& s = r.spec;
    return r.complete && s.variant == spec.variant && s.budget == spec.budget && s.initial_budget == spec.initial_budget &&
           s.observational_rows == spec.observational_rows && s.max_suggestions == spec.max_suggestions &&
           s.recommend_every == spec.recommend_every && s.recommend_points == spec.recommend_points &&
           s.shared_recommender == spec.shared_recommender;
  } catch (const Error&) {
    return false;
  }
}

void write_atomically(const std::string& path, const RunResult& run) {
  fs::create_directories(fs::path(path).parent_path());
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) fail(Status::Io, "cannot write " + tmp);
    write_run_csv(out, run);
    if (!out) fail(Status::Io, "error writing " + tmp);
  }
  fs::rename(tmp, path);
}

}  // namespace

int run_experiment(const ExperimentConfig& config, std::ostream& log) {
  for (const auto& p : config.problems)
    if (is_external_problem(p))
      fail(Status::InvalidArgument, "problem '" + p + "' is run from R (" + kExternalRunner +
                                        "); rescue-bench --summarize-only summarizes its run files");
  const auto plan = plan_runs(config);
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < plan.size(); ++i)
    if (!already_done(run_csv_path(config.out_dir, plan[i]), plan[i])) todo.push_back(i);
  log << plan.size() << " runs planned, " << plan.size() - todo.size() << " already complete, " << todo.size()
      << " to run with " << config.jobs << " job(s); output in " << config.out_dir << "\n";
  fs::create_directories(config.out_dir);

  ProgressBar bar(todo.size(), log, isatty(STDERR_FILENO) && &log == &std::cerr);
  std::atomic<int> errors{0};
  // Each run catches its own failure: one failed run must not stop the others.
  parallel_for(todo.size(), config.jobs, [&](std::size_t k) {
    const RunSpec& spec = plan[todo[k]];
    std::string note;
    try {
      const RunResult run = run_benchmark(spec, [&](double f) { bar.update(k, f); });
      write_atomically(run_csv_path(config.out_dir, spec), run);
      if (run.stop_reason.rfind("error", 0) == 0) ++errors;
      note = spec.problem + " " + spec.strategy + " seed " + std::to_string(spec.seed) + ": " +
             std::to_string(run.iterations.size()) + " queries, " + run.stop_reason;
    } catch (const std::exception& e) {
      ++errors;
      note = spec.problem + " " + spec.strategy + " seed " + std::to_string(spec.seed) + " FAILED: " + e.what();
    }
    bar.finish(k, note);
  });
  summarize_experiment(config, log);
  return errors.load();
}

namespace {

// A run file records the maximum hypervolume of its day (an external
// problem's runner none), which a later, larger search may raise; regret is
// measured against the current one, from the recorded hypervolumes.
void measure_against_current_maximum(std::vector<RunResult>& runs) {
  for (auto& r : runs) {
    r.spec.hv_max = max_hypervolume(r.spec.problem).value;
    for (auto& it : r.iterations) it.log10_regret = log10_regret(r.spec.hv_max, it.inferred_hv);
  }
}

}  // namespace

std::vector<RunResult> load_complete_runs(const ExperimentConfig& config) {
  std::vector<RunResult> runs;
  for (const auto& spec : plan_runs(config)) {
    std::ifstream in(run_csv_path(config.out_dir, spec));
    if (!in) continue;
    RunResult r = read_run_csv(in);
    if (r.complete) runs.push_back(std::move(r));
  }
  measure_against_current_maximum(runs);
  return runs;
}

std::vector<std::vector<double>> target_configurations(const std::string& out_dir, const std::string& problem) {
  std::set<std::vector<double>> found;
  const fs::path dir = fs::path(out_dir) / "runs" / problem;
  if (!fs::is_directory(dir)) return {};
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name.rfind("seed-", 0) != 0 || entry.path().extension() != ".csv") continue;
    std::ifstream in(entry.path());
    const RunResult r = read_run_csv(in);
    if (!r.complete) continue;
    for (const auto& it : r.iterations)
      if (it.fidelity == r.target_fidelity) found.insert(it.x);
  }
  return {found.begin(), found.end()};
}

std::vector<RunResult> summarize_experiment(const ExperimentConfig& config, std::ostream& log) {
  std::vector<RunResult> runs = load_complete_runs(config);
  std::vector<ProblemSummary> summaries;
  for (const auto& p : config.problems) summaries.push_back(summarize_problem(p, runs, config.strategies));
  fs::create_directories(config.out_dir);
  {
    std::ofstream md(config.out_dir + "/summary.md");
    md << summary_markdown(summaries, runs, config.command);
    if (!config.replicates.empty()) {
      std::vector<PooledSummary> pooled;
      for (const auto& ps : summaries) pooled.push_back(pool_replicates(ps, config.replicates));
      md << pooled_markdown(pooled);
    }
    std::ofstream csv(config.out_dir + "/summary.csv");
    write_summary_csv(csv, summaries);
    if (!md || !csv) fail(Status::Io, "cannot write the summary in " + config.out_dir);
  }
  log << "summary of " << runs.size() << " runs: " << config.out_dir << "/summary.md\n";
  for (const auto& ps : summaries)
    for (const auto& p : ps.pairs)
      if (p.start_differs > 0 && p.a < p.b)  // the pairs hold both orders: warn once
        log << "warning: " << ps.problem << ": " << p.a << " and " << p.b << " start from different measures of the "
            << "same initial design on " << p.start_differs << " of " << p.test.n
            << " seeds (other BLAS kernel or threads, recommender size or build); see the summary's last column\n";
  if (config.plots) {
    const bool render = gnuplot_available();
    if (!render) log << "warning: gnuplot not found; plot data and scripts are written, images are not\n";
    const std::string dir = config.out_dir + "/plots";
    fs::create_directories(dir);
    std::size_t images = 0;
    for (const auto& p : config.problems) images += write_problem_plots(dir, p, runs, config.strategies, render).size();
    log << images << " plot images in " << dir << "\n";
  }
  return runs;
}

}  // namespace rescue::bench
