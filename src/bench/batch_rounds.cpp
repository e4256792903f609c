#include "bench/batch_rounds.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "bench/bench_run.hpp"
#include "bench/capi_handles.hpp"
#include "bench/number_format.hpp"
#include "bench/parallel_for.hpp"
#include "bench/regret_curve.hpp"
#include "bench/problem_registry.hpp"
#include "rescue.h"
#include "util/error.hpp"
#include "util/rng.hpp"

namespace rescue::bench {

int rounds_to_reach(const std::vector<double>& log10_regret, double threshold) {
  const std::vector<double> best = running_min(log10_regret);
  for (std::size_t r = 0; r < best.size(); ++r)
    if (best[r] <= threshold) return static_cast<int>(r);
  return -1;
}

BatchRoundsRun run_batch_rounds(const BatchRoundsConfig& cfg, int q, std::uint64_t seed, int budget_rounds) {
  BatchRoundsRun run;
  run.q = q;
  run.seed = seed;
  const auto problem = make_problem(cfg.problem);
  const ProblemSpec& spec = problem->spec();
  const int d = spec.dim(), m = spec.num_objectives(), nq = spec.num_constraints(), k = spec.num_indicators();
  const double unit = spec.target_cost();
  const double hv_max = max_hypervolume(cfg.problem).value;

  // The same streams as the experiment harness (bench_run.cpp), so the
  // observational data and the initial design match its runs of this seed.
  Rng master(seed);
  Rng observational_rng = master.split();
  Rng noise_rng = master.split();

  try {
    // No parameters: gp.fidelity_levels stays the library's default here,
    // unlike in start_run; setting it would change these runs.
    ProblemHandle ph;
    OptimizerHandle oh;
    create_optimizer({cfg.problem, seed, cfg.strategy, {}, (cfg.initial_budget + budget_rounds + 1.0) * unit,
                      cfg.initial_budget * unit},
                     ph, oh);
    rescue_optimizer* opt = oh.o;
    add_observational(opt, *problem, cfg.observational_rows, observational_rng);

    auto observe = [&](const double* x, double s, int ticket) {
      const problems::Evaluation e = problem->evaluate_noisy(x, s, noise_rng);
      check(rescue_observe(opt, ticket, e.y.data(), m, nq ? e.g.data() : nullptr, nq, k ? e.z.data() : nullptr, k),
            "rescue_observe", opt);
    };
    auto record = [&] {
      const double hv = inferred_hypervolume(*problem, recommended_configurations(opt, d, m));
      run.log10_regret.push_back(log10_regret(hv_max, hv));
      double spent = 0.0;
      rescue_budget(opt, &spent, nullptr, nullptr);
      run.cost.push_back(spent / unit);
    };

    // The initial design, one point at a time (the engine makes it while its
    // budget lasts, whatever q is).
    std::vector<double> x(static_cast<std::size_t>(std::max(q, 1)) * d), s(std::max(q, 1));
    std::vector<int> tickets(std::max(q, 1));
    for (;;) {
      double spent = 0.0;
      rescue_budget(opt, &spent, nullptr, nullptr);
      if (spent >= cfg.initial_budget * unit) break;
      check(rescue_suggest(opt, x.data(), d, s.data(), tickets.data()), "rescue_suggest", opt);
      observe(x.data(), s[0], tickets[0]);
      ++run.initial_points;
    }
    record();
    run.initial_cost = run.cost.back();

    for (int r = 1; r <= cfg.rounds; ++r) {
      int count = 0;
      check(rescue_suggest_batch(opt, q, x.data(), d, s.data(), tickets.data(), &count), "rescue_suggest_batch", opt);
      // Every worker's result arrives before the next round is asked for.
      for (int i = 0; i < count; ++i) observe(x.data() + static_cast<std::size_t>(i) * d, s[i], tickets[i]);
      record();
    }
  } catch (const Error& e) {
    run.error = e.what();
  }
  return run;
}

std::vector<BatchRoundsRun> run_batch_rounds_all(const BatchRoundsConfig& cfg) {
  if (cfg.qs.empty() || cfg.seeds < 1 || cfg.rounds < 1)
    fail(Status::InvalidArgument, "batch rounds: need at least one q, one seed and one round");
  int max_q = 1;
  for (int q : cfg.qs) {
    if (q < 1) fail(Status::InvalidArgument, "batch rounds: q must be >= 1");
    max_q = std::max(max_q, q);
  }
  // One budget for every q, large enough for the largest q at the target
  // fidelity every time, so it never binds and the strategy sees the same
  // budget settings whatever q is.
  const int budget_rounds = cfg.rounds * max_q;
  struct Job {
    int q;
    std::uint64_t seed;
  };
  std::vector<Job> jobs;
  for (int i = 0; i < cfg.seeds; ++i)
    for (int q : cfg.qs) jobs.push_back({q, cfg.first_seed + static_cast<std::uint64_t>(i)});
  std::vector<BatchRoundsRun> runs(jobs.size());
  parallel_for(jobs.size(), cfg.jobs, [&](std::size_t i) { runs[i] = run_batch_rounds(cfg, jobs[i].q, jobs[i].seed, budget_rounds); });
  return runs;
}

std::string batch_rounds_markdown(const BatchRoundsConfig& cfg, const std::vector<BatchRoundsRun>& runs) {
  std::ostringstream md;
  md << "# q parallel workers in synchronous rounds\n\n";
  if (!cfg.command.empty()) md << "Command: `" << cfg.command << "`\n\n";
  md << "Problem " << cfg.problem << ", strategy " << cfg.strategy << ", seeds " << cfg.first_seed << ".."
     << cfg.first_seed + cfg.seeds - 1 << ", " << cfg.rounds << " rounds, " << cfg.observational_rows
     << " observational rows, cost-aware initial design of " << fixed(cfg.initial_budget, 2)
     << " target units made one point at a time (the same for every q). Each round asks `rescue_suggest_batch` for q "
        "points, evaluates them with noise at their fidelities and observes all of them; then the recommended Pareto "
        "set is evaluated noise-free at the target fidelity. Regret: best log10 hypervolume regret so far against the "
        "stored maximum (round 0: after the initial design). Rounds to reach a level: mean over seeds, a seed that does "
        "not reach it within the rounds run counted as rounds + 1 (the mean is then a lower bound, marked >=); how "
        "many seeds reached it in parentheses.\n\n";

  std::vector<BatchRoundsRun> ok;
  for (const auto& r : runs) {
    if (r.error.empty())
      ok.push_back(r);
    else
      md << "- q = " << r.q << ", seed " << r.seed << " stopped on an error: " << r.error << "\n";
  }
  if (ok.size() != runs.size()) md << "\n";

  auto of_q = [&](int q) {
    std::vector<const BatchRoundsRun*> v;
    for (const auto& r : ok)
      if (r.q == q) v.push_back(&r);
    return v;
  };

  md << "## Rounds to reach a regret level\n\n| q | runs |";
  for (double t : cfg.thresholds) md << " log10 regret <= " << fixed(t, 2) << " |";
  md << " best log10 regret after " << cfg.rounds << " rounds | evaluations per run after the initial design | cost "
     << "per run after the initial design (target units) |\n|---|---|";
  for (std::size_t i = 0; i < cfg.thresholds.size() + 3; ++i) md << "---|";
  md << "\n";
  for (int q : cfg.qs) {
    const auto v = of_q(q);
    md << "| " << q << " | " << v.size() << " |";
    for (double t : cfg.thresholds) {
      double sum = 0.0;
      int reached = 0;
      for (const auto* r : v) {
        const int n = rounds_to_reach(r->log10_regret, t);
        sum += n >= 0 ? n : cfg.rounds + 1;
        reached += n >= 0;
      }
      const bool censored = reached < static_cast<int>(v.size());
      md << " " << (v.empty() ? std::string("-") : (censored ? ">= " : "") + fixed(sum / v.size(), 1)) << " ("
         << reached << "/" << v.size() << ") |";
    }
    double final_sum = 0.0, cost_sum = 0.0;
    for (const auto* r : v) {
      final_sum += running_min(r->log10_regret).back();
      cost_sum += r->cost.back() - r->initial_cost;
    }
    const double n = std::max<std::size_t>(v.size(), 1);
    md << " " << fixed(final_sum / n, 3) << " | " << q * cfg.rounds << " | " << fixed(cost_sum / n, 2) << " |\n";
  }

  md << "\n## Mean best log10 regret after each round\n\n| round |";
  for (int q : cfg.qs) md << " q = " << q << " |";
  md << "\n|---|";
  for (std::size_t i = 0; i < cfg.qs.size(); ++i) md << "---|";
  md << "\n";
  for (int r = 0; r <= cfg.rounds; ++r) {
    md << "| " << r << " |";
    for (int q : cfg.qs) {
      double sum = 0.0;
      int n = 0;
      for (const auto* run : of_q(q)) {
        const auto best = running_min(run->log10_regret);
        if (static_cast<std::size_t>(r) < best.size()) {
          sum += best[r];
          ++n;
        }
      }
      md << " " << (n ? fixed(sum / n, 3) : std::string("-")) << " |";
    }
    md << "\n";
  }

  md << "\n## Per seed\n\n| q | seed | initial points | rounds to reach";
  for (double t : cfg.thresholds) md << " " << fixed(t, 2);
  md << " | best log10 regret after round 0, then every round |\n|---|---|---|---|---|\n";
  for (const auto& r : ok) {
    md << "| " << r.q << " | " << r.seed << " | " << r.initial_points << " |";
    for (double t : cfg.thresholds) {
      const int n = rounds_to_reach(r.log10_regret, t);
      md << " " << (n >= 0 ? std::to_string(n) : std::string("-"));
    }
    md << " |";
    const auto best = running_min(r.log10_regret);
    for (std::size_t i = 0; i < best.size(); ++i) md << (i ? " " : " ") << fixed(best[i], 2);
    md << " |\n";
  }
  return md.str();
}

}  // namespace rescue::bench
