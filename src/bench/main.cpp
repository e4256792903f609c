// rescue-bench: runs strategies x problems x seeds under the experiment
// protocol (docs/results/README.md), or recomputes the stored maximum
// hypervolumes (--check-max-hv).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>
#include <tuple>

#include <CLI/CLI.hpp>

#include "bench/batch_rounds.hpp"
#include "bench/blas_core.hpp"
#include "bench/capi_handles.hpp"
#include "bench/dag_recovery.hpp"
#include "bench/experiment.hpp"
#include "bench/feasibility_calibration.hpp"
#include "bench/fidelity_ranks.hpp"
#include "bench/max_hv_search.hpp"
#include "bench/parallel_for.hpp"
#include "bench/suggest_timing.hpp"
#include "bench/problem_registry.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

#include "rescue.h"

namespace {

std::string joined(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

// Writes the causal graph the "rescue" strategy learns from each problem's
// observational data, as <out>/<problem>-dag.dot and .json, so users can see
// and check what the model believes.
int export_dags(const std::vector<std::string>& names, int rows, unsigned seed, const std::string& out) {
  std::filesystem::create_directories(out);
  // The graphs "rescue" learns from the problem's observational data with the
  // given rescue.repair, or its default when negative (the DOT and JSON of the
  // fitted DAG, the JSON of the discovered graph); false with a message on an
  // error.
  struct Graphs {
    std::string dot, fitted, discovered;
  };
  auto learn = [rows, seed](const rescue::problems::BenchmarkProblem& problem, double repair, Graphs* g) {
    const std::string& name = problem.name();
    try {
      rescue::bench::ProblemHandle p;
      rescue::bench::new_problem_handle(name, p);
      rescue::bench::check(rescue_problem_set_strategy(p.p, "rescue"), "rescue_problem_set_strategy", p.p);
      if (repair >= 0.0)
        rescue::bench::check(rescue_problem_set_param(p.p, "rescue.repair", repair), "rescue_problem_set_param", p.p);
      rescue::bench::OptimizerHandle o;
      rescue::bench::check(rescue_create(p.p, &o.o), "rescue_create", rescue::bench::kLastError);
      if (rows < 1) rescue::fail(rescue::Status::SizeMismatch, "at least one observational row is needed");
      const std::vector<double> data = rescue::problems::sample_observational(problem, rows, seed);
      rescue::bench::check(rescue_add_observational(o.o, data.data(), rows, static_cast<int>(data.size()) / rows),
                           "rescue_add_observational", o.o);
      for (const auto& [format, as_discovered, text] : {std::tuple{RESCUE_GRAPH_DOT, 0, &g->dot},
                                                        std::tuple{RESCUE_GRAPH_JSON, 0, &g->fitted},
                                                        std::tuple{RESCUE_GRAPH_JSON, 1, &g->discovered}})
        rescue::bench::check(rescue::bench::causal_graph_text(o.o, format, as_discovered, text), "rescue_causal_graph", o.o);
      return true;
    } catch (const rescue::Error& e) {
      std::cerr << "rescue-bench: " << name << " (rescue.repair = "
                << (repair < 0.0 ? std::string("default") : rescue::fmt17(repair)) << "): " << e.what() << "\n";
      return false;
    }
  };
  for (const std::string& name : names) {
    const auto problem = rescue::bench::make_problem(name);
    // A black box (real training) has no graph of its own to compare with.
    const auto truth = problem->causal_edges();
    Graphs g, outputs_only;
    if (!learn(*problem, -1.0, &g) || (!truth.empty() && !learn(*problem, 1.0, &outputs_only))) return 1;
    for (const auto& [suffix, text] : {std::pair{"-dag.dot", &g.dot}, std::pair{"-dag.json", &g.fitted}}) {
      const std::string path = out + "/" + name + suffix;
      std::ofstream(path) << *text << "\n";
      std::cout << "wrote " << path << "\n";
    }
    // Against the graph of the problem's own equations: the graph as discovery
    // produced it (PC's partially directed graph: undirected edges count as
    // found), then the DAG the structural equations are fitted on (oriented,
    // with missed parents repaired: rescue.repair = 2, the default), and the
    // DAG with only the inputs of objectives and constraints repaired
    // (rescue.repair = 1).
    if (truth.empty()) continue;
    const auto found = rescue::bench::compare_with_true_dag(g.discovered, truth);
    const auto fit = rescue::bench::compare_with_true_dag(g.fitted, truth);
    const auto fit_outputs = rescue::bench::compare_with_true_dag(outputs_only.fitted, truth);
    std::cout << name << ", discovered graph: " << rescue::bench::describe(found) << "\n";
    std::cout << name << ", fitted DAG: " << rescue::bench::describe(fit) << "\n";
    for (const auto& [from, to] : fit.missed) std::cout << "  missed " << from << " -> " << to << "\n";
    std::cout << name << ", fitted DAG with rescue.repair = 1: " << rescue::bench::describe(fit_outputs) << "\n";
  }
  return 0;
}

// Writes a report to dir/file and prints it.
void write_report(const std::string& dir, const std::string& file, const std::string& md) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/" + file) << md;
  std::cout << md;
}

// --feasibility-calibration: the run CSVs under cfg.out_dir, replayed and
// scored (bench/feasibility_calibration.hpp).
int feasibility_calibration(const rescue::bench::ExperimentConfig& cfg) {
  std::vector<rescue::bench::RunResult> runs = rescue::bench::load_complete_runs(cfg);
  if (runs.empty()) {
    std::cerr << "rescue-bench: no complete runs under " << cfg.out_dir << "/runs\n";
    return 1;
  }
  std::vector<rescue::bench::RunCalibration> tallies(runs.size());
  std::mutex io;
  std::size_t done = 0;
  rescue::bench::parallel_for(runs.size(), cfg.jobs, [&](std::size_t i) {
    tallies[i] = rescue::bench::calibrate_run(runs[i]);
    std::lock_guard<std::mutex> lock(io);
    std::cerr << "calibrated " << ++done << " of " << runs.size() << ": " << runs[i].spec.problem << " "
              << runs[i].spec.strategy << " seed " << runs[i].spec.seed << "\n";
  });
  std::vector<rescue::bench::StrategyCalibration> results;
  for (const std::string& problem : cfg.problems)
    for (const std::string& strategy : cfg.strategies) {
      rescue::bench::StrategyCalibration sc{problem, strategy, {}, {}, {}, {}};
      for (std::size_t i = 0; i < runs.size(); ++i)
        if (runs[i].spec.problem == problem && runs[i].spec.strategy == strategy) {
          sc.tally.own.merge(tallies[i].own);
          sc.tally.shared.merge(tallies[i].shared);
          sc.own_hv.push_back(tallies[i].own.set_hv);
          sc.shared_hv.push_back(tallies[i].shared.set_hv);
          if (tallies[i].prior) sc.priors.push_back(*tallies[i].prior);
        }
      if (sc.tally.own.runs > 0) results.push_back(std::move(sc));
    }
  write_report(cfg.out_dir, "feasibility-calibration.md", rescue::bench::calibration_markdown(results, cfg.command));
  std::ofstream(cfg.out_dir + "/feasibility-calibration-runs.csv") << rescue::bench::calibration_runs_csv(runs, tallies);
  return 0;
}

// Recomputes each problem's maximum hypervolume and compares it with the
// stored one: the check fails when the recomputation exceeds the stored value
// by more than its stated precision (the stored value would then put a false
// floor under every regret curve).
// With run files (runs_dir not empty), the first search starts from their
// target evaluations, so the stored value covers what the runs found.
int check_max_hv(const std::vector<std::string>& names, bool quick, int jobs, std::uint64_t seed,
                 const std::string& runs_dir) {
  rescue::bench::MaxHvOptions options = quick ? rescue::bench::MaxHvOptions::quick() : rescue::bench::MaxHvOptions{};
  options.seed = seed;
  std::mutex io;
  std::vector<int> failed(names.size(), 0);
  std::vector<std::string> rows(names.size());
  rescue::bench::parallel_for(names.size(), jobs, [&](std::size_t i) {
    const auto problem = rescue::bench::make_problem(names[i]);
    rescue::bench::MaxHvOptions for_problem =
        quick || rescue::bench::is_library_problem(names[i]) ? options : [&] {
          rescue::bench::MaxHvOptions o = rescue::bench::MaxHvOptions::real_training();
          o.seed = seed;
          return o;
        }();
    if (!runs_dir.empty()) for_problem.start_points = rescue::bench::target_configurations(runs_dir, names[i]);
    const auto res = rescue::bench::compute_max_hypervolume(*problem, for_problem, [&](const std::string& line) {
      std::lock_guard<std::mutex> lock(io);
      std::cerr << "  " << line << "\n";
    });
    std::ostringstream out;
    out << names[i] << ": recomputed " << rescue::fmt17(res.value) << " (precision " << rescue::fmt17(res.precision) << ", "
        << res.evaluations << " evaluations, front of " << res.front_size << " points; " << res.method << ")\n";
    rows[i] = "      {\"" + names[i] + "\", " + rescue::fmt17(res.value) + ", " + rescue::fmt17(res.precision) + ",\n       \"" +
              res.method + "\",\n       " + std::to_string(res.evaluations) + "},";
    try {
      const auto& stored = rescue::bench::max_hypervolume(names[i]);
      const bool ok = res.value <= stored.value + stored.precision;
      out << "  stored " << rescue::fmt17(stored.value) << " (precision " << rescue::fmt17(stored.precision) << "): recomputed - stored = "
          << rescue::fmt17(res.value - stored.value) << (ok ? "  OK" : "  FAIL: the stored value is too low") << "\n";
      failed[i] = ok ? 0 : 1;
    } catch (const rescue::Error& e) {
      out << "  FAIL: " << e.what() << "\n";
      failed[i] = 1;
    }
    std::lock_guard<std::mutex> lock(io);
    std::cout << out.str() << std::flush;
  });
  std::cout << "\nTable rows (src/problems/max_hypervolume.cpp; the harness's problems: src/bench/problem_registry.cpp):\n";
  for (const auto& r : rows) std::cout << r << "\n";
  return std::count(failed.begin(), failed.end(), 1) == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  // Runs are parallel across threads, each single-threaded; the user's setting wins.
  rescue::bench::one_blas_thread_unless_chosen();

  CLI::App app{"rescue-bench: strategies x problems x seeds under the RESCUE experiment protocol"};
  rescue::bench::ExperimentConfig cfg;
  bool quick = false, check = false, summarize_only = false, no_plots = false;
  std::vector<std::string> problems, strategies;
  double budget = -1.0;
  int seeds = 0;
  std::string out;
  app.add_flag("--quick", quick,
               "Quick setting: 2 seeds, branin-currin and healthcare, budget 1 target unit (with --check-max-hv: "
               "a cheap recomputation)");
  app.add_flag("--check-max-hv", check, "Recompute each problem's maximum hypervolume and compare with the stored one");
  app.add_option("--problems", problems, "Problems (comma-separated or repeated)")->delimiter(',');
  app.add_option("--strategies", strategies,
                 "Strategies (comma-separated or repeated); default random,cost-aware-random,hvkg,ehvi,momf")
      ->delimiter(',');
  std::vector<std::string> variants;
  app.add_option("--variant", variants,
                 "Define a strategy variant NAME=STRATEGY[:KEY=VALUE]... (repeatable): a library strategy with "
                 "parameters (e.g. rescue.weight=0), observational=N rows, dag=shuffled (a wrong causal graph) or "
                 "dag=true (the problem's own graph); it runs as one more strategy named NAME");
  std::vector<std::string> replicate_groups;
  app.add_option("--replicates", replicate_groups,
                 "Pool runs as replicates NAME=STRATEGY,STRATEGY,... (repeatable): the summary also averages each "
                 "seed's AUR over the listed strategies (runs of one strategy that differ only by rounding or a "
                 "neutral setting) and compares the pools by paired tests; listed strategies not in --strategies "
                 "are added");
  app.add_option("--seeds", seeds, "Number of seeds (default 20; --quick: 2)");
  app.add_option("--first-seed", cfg.first_seed, "First seed (default 1)");
  app.add_option("--budget", budget,
                 "Budget after the initial design, in target-fidelity evaluations (default: the protocol's, "
                 "branin-currin 5, healthcare 5, park 10, robot-standin 20; --quick: 1)");
  app.add_option("--initial-budget", cfg.initial_budget, "Cost-aware initial design budget, target units (default 2)");
  app.add_option("--observational", cfg.observational_rows, "Observational rows for the causal model (default 200)");
  app.add_option("--max-suggestions", cfg.max_suggestions, "Suggestions per run at most (default 200)");
  app.add_option("--recommend-every", cfg.recommend_every,
                 "Evaluate the recommender only when the cost advanced this much (target units; default 0: after "
                 "every iteration)");
  app.add_option("--recommend-points", cfg.recommend_points,
                 "Population and set size of the recommender's NSGA-II for every strategy (default: the library's, "
                 "100); the regret of a continuous front has a floor set by this size");
  app.add_option("-j,--jobs", cfg.jobs, "Runs in parallel (default 1)");
  app.add_option("--out", out,
                 "Output directory (default rescue-bench-out; --quick: rescue-bench-quick); with --check-max-hv, "
                 "the run files whose target evaluations the search starts from");
  app.add_flag("--summarize-only", summarize_only, "Only rebuild the summary and plots from the run CSVs");
  app.add_flag("--no-plots", no_plots, "Do not write plots");
  std::uint64_t max_hv_seed = 1;
  app.add_option("--max-hv-seed", max_hv_seed, "Seed of the --check-max-hv search (default 1, the stored values' seed)");
  std::vector<int> time_at;
  int repeats = 5;
  app.add_option("--time-suggestions", time_at,
                 "Instead of runs: time one suggestion of each strategy with these numbers of observations in "
                 "(e.g. 20,50,100); writes <out>/suggest-times.md")
      ->delimiter(',');
  app.add_option("--timing-repeats", repeats, "Repeats (seeds) per timing (default 5)");
  int rank_configurations = 0;
  app.add_option("--fidelity-ranks", rank_configurations,
                 "Instead of runs: draw this many configurations uniformly (seed --first-seed), evaluate each "
                 "noise-free at every fidelity level (or 5 points of a range) and report, per output, the Spearman rank "
                 "correlation of each fidelity's values with the target's; writes <out>/fidelity-ranks.md")
      ->check(CLI::Range(3, 1000000));
  bool export_dag = false;
  app.add_flag("--export-dag", export_dag,
               "Instead of runs: write the causal graph learned from each problem's observational data "
               "(<out>/<problem>-dag.dot and .json, the DAG the equations are fitted on), and print how many edges of the "
               "problem's true graph it, the graph discovery produced, and the DAG with rescue.repair = 1 hold (problems "
               "with a known graph: not the real-training ones)");
  bool calibration = false;
  app.add_flag("--feasibility-calibration", calibration,
               "Instead of runs: replay the run CSVs under --out into fresh optimizers and score the strategy's own "
               "model and the shared recommender against the truth at the target on their recommended sets: each "
               "output's standardized error and, where there are constraints, the probability of feasibility (also "
               "on moves around the sets); writes <out>/feasibility-calibration.md");
  std::vector<int> batch_qs;
  int rounds = 10;
  std::vector<double> thresholds;
  app.add_option("--batch-rounds", batch_qs,
                 "Instead of runs: q parallel workers in synchronous rounds for each of these q (e.g. 1,4) on the "
                 "first problem and strategy; writes <out>/batch-rounds.md (--quick: 2 seeds, 2 rounds, random)")
      ->delimiter(',');
  app.add_option("--rounds", rounds, "Rounds of --batch-rounds (default 10; --quick: 2)");
  app.add_option("--regret-levels", thresholds, "log10 regret levels of --batch-rounds (default -2,-2.2,-2.4)")
      ->delimiter(',');
  CLI11_PARSE(app, argc, argv);

  try {
    if (export_dag) {
      if (problems.empty()) problems = {"branin-currin", "park", "healthcare", "robot-standin"};
      return export_dags(problems, cfg.observational_rows, static_cast<unsigned>(cfg.first_seed),
                         out.empty() ? std::string("rescue-bench-dags") : out);
    }
    if (!batch_qs.empty()) {
      rescue::bench::BatchRoundsConfig b;
      b.qs = batch_qs;
      b.rounds = quick ? 2 : rounds;
      b.seeds = seeds > 0 ? seeds : (quick ? 2 : b.seeds);
      b.first_seed = cfg.first_seed;
      if (!problems.empty()) b.problem = problems.front();
      if (!strategies.empty()) b.strategy = strategies.front();
      else if (quick) b.strategy = "random";
      b.initial_budget = cfg.initial_budget;
      b.observational_rows = cfg.observational_rows;
      if (!thresholds.empty()) b.thresholds = thresholds;
      b.jobs = cfg.jobs;
      b.command = joined(argc, argv);
      const auto runs = rescue::bench::run_batch_rounds_all(b);
      write_report(out.empty() ? std::string("rescue-bench-batch") : out, "batch-rounds.md",
                   rescue::bench::batch_rounds_markdown(b, runs));
      return std::any_of(runs.begin(), runs.end(), [](const auto& r) { return !r.error.empty(); }) ? 2 : 0;
    }
    if (check) {
      if (problems.empty()) problems = {"branin-currin", "park", "healthcare", "robot-standin"};
      return check_max_hv(problems, quick, cfg.jobs, max_hv_seed, out);
    }
    if (quick) {
      const auto q = rescue::bench::quick_config();
      cfg.problems = q.problems;
      cfg.seeds = q.seeds;
      cfg.budget = q.budget;
      cfg.out_dir = q.out_dir;
    }
    if (!problems.empty()) cfg.problems = problems;
    if (!strategies.empty()) cfg.strategies = strategies;
    const auto add_strategy = [&](const std::string& name) {
      if (std::find(cfg.strategies.begin(), cfg.strategies.end(), name) == cfg.strategies.end())
        cfg.strategies.push_back(name);
    };
    for (const std::string& text : variants) {
      cfg.variants.push_back(rescue::bench::parse_variant(text));
      add_strategy(cfg.variants.back().name);
    }
    for (const std::string& text : replicate_groups) {
      cfg.replicates.push_back(rescue::bench::parse_replicate_group(text));
      for (const std::string& name : cfg.replicates.back().members) add_strategy(name);
    }
    if (seeds > 0) cfg.seeds = seeds;
    if (budget >= 0.0) cfg.budget = budget;
    if (!out.empty()) cfg.out_dir = out;
    cfg.plots = !no_plots;
    cfg.command = joined(argc, argv);
    if (rank_configurations > 0) {
      std::vector<rescue::bench::FidelityRanks> ranks;
      for (const std::string& name : cfg.problems)
        ranks.push_back(rescue::bench::fidelity_ranks(*rescue::bench::make_problem(name), rank_configurations, cfg.first_seed));
      write_report(cfg.out_dir, "fidelity-ranks.md", rescue::bench::fidelity_ranks_markdown(ranks, cfg.command));
      return 0;
    }
    if (!time_at.empty()) {
      const auto timings = rescue::bench::time_suggestions(cfg.problems, cfg.strategies, time_at, repeats,
                                                           cfg.first_seed, cfg.observational_rows, cfg.variants);
      write_report(cfg.out_dir, "suggest-times.md", rescue::bench::suggest_timing_markdown(timings, cfg.command));
      return 0;
    }
    if (calibration) return feasibility_calibration(cfg);
    if (summarize_only) {
      rescue::bench::summarize_experiment(cfg, std::cerr);
      return 0;
    }
    // Parallel runs whose BLAS also runs threads oversubscribe the cores: the
    // runs' results stand, but their wall-time columns read high.
    const int blas = rescue::bench::blas_threads();
    const unsigned cores = std::thread::hardware_concurrency();
    if (cfg.jobs > 1 && blas > 1 && cores > 0 && static_cast<unsigned>(cfg.jobs * blas) > cores)
      std::cerr << "rescue-bench: " << cfg.jobs << " runs at a time with " << blas << " OpenBLAS threads each on "
                << cores << " cores: the wall times will read high (set OPENBLAS_NUM_THREADS=1 to time runs; "
                << "the run files record the thread count, which changes the runs' rounding)\n";
    const int errors = rescue::bench::run_experiment(cfg, std::cerr);
    if (errors > 0) std::cerr << errors << " run(s) stopped on an error (see the run CSVs)\n";
    return errors > 0 ? 2 : 0;
  } catch (const std::exception& e) {
    std::cerr << "rescue-bench: " << e.what() << "\n";
    return 1;
  }
}
