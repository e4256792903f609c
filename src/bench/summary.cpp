#include "bench/summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <ostream>
#include <sstream>

#include "bench/in_sample.hpp"
#include "bench/number_format.hpp"
#include "bench/regret_curve.hpp"
#include "bench/problem_registry.hpp"
#include "util/error.hpp"

namespace rescue::bench {

namespace {

bool is_error(const RunResult& r) { return r.stop_reason.rfind("error", 0) == 0; }

// Area under a run's regret curve, one log10 regret per iteration.
double run_area(const RunResult& r, const std::vector<double>& regret) {
  if (r.iterations.empty()) return std::log10(std::max(r.spec.hv_max, kRegretFloor));
  std::vector<double> cost;
  for (const auto& it : r.iterations) cost.push_back(it.cumulative_cost);
  return area_under_regret(cost, regret, r.spec.initial_budget, r.spec.budget);
}

// The best log10 regret at the end of the initial design (NaN without one).
double start_regret(const RunResult& r) {
  double best = std::numeric_limits<double>::quiet_NaN();
  for (const auto& it : r.iterations)
    if (it.initial) best = std::isnan(best) ? it.log10_regret : std::min(best, it.log10_regret);
  return best;
}

std::string blas_setting(const RunResult& r) {
  if (r.blas_core.empty() && r.blas_threads <= 0) return "not recorded";
  std::string s = r.blas_core.empty() ? "kernel not recorded" : r.blas_core;
  if (r.blas_threads > 0) s += ", " + std::to_string(r.blas_threads) + (r.blas_threads == 1 ? " thread" : " threads");
  return s;
}

double run_aur(const RunResult& r, bool own = false) {
  std::vector<double> regret;
  for (const auto& it : r.iterations)
    regret.push_back(own ? log10_regret(r.spec.hv_max, it.own_inferred_hv) : it.log10_regret);
  return run_area(r, regret);
}

}  // namespace

double median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double median_suggest_seconds_at(const std::vector<RunResult>& runs, const std::string& strategy, int n_obs,
                                 int tolerance) {
  std::vector<double> t;
  for (const auto& r : runs) {
    if (r.spec.strategy != strategy) continue;
    for (const auto& it : r.iterations) {
      // Suggestion number i is made with i - 1 observations in.
      if (!it.initial && std::abs(it.iteration - 1 - n_obs) <= tolerance) t.push_back(it.suggest_seconds);
    }
  }
  return median(t);
}

ProblemSummary summarize_problem(const std::string& problem, const std::vector<RunResult>& runs,
                                 const std::vector<std::string>& order) {
  ProblemSummary ps;
  ps.problem = problem;
  std::map<std::string, std::map<std::uint64_t, double>> aur_by_seed, start_by_seed, in_sample_by_seed, own_by_seed;
  const auto& names = problem_names();
  const auto truth = std::find(names.begin(), names.end(), problem) != names.end() ? make_problem(problem)
                                                                                   : nullptr;
  for (const auto& strategy : order) {
    StrategyStats st;
    st.strategy = strategy;
    std::vector<double> final_regret, final_in_sample, suggest;
    double queries = 0, own = 0, cheap = 0, fid = 0, viol = 0, viol_t = 0, eval_seconds = 0, eval_queries = 0;
    int nruns = 0;
    for (const auto& r : runs) {
      if (r.spec.problem != problem || r.spec.strategy != strategy || !r.complete) continue;
      ps.hv_max = r.spec.hv_max;
      ps.budget = r.spec.budget;
      ps.initial_budget = r.spec.initial_budget;
      if (is_error(r)) {
        ++st.errors;
        continue;
      }
      ++nruns;
      ++st.blas[blas_setting(r)];
      if (const double start = start_regret(r); !std::isnan(start)) start_by_seed[strategy][r.spec.seed] = start;
      const double aur = run_aur(r);
      st.seeds.push_back(r.spec.seed);
      st.aur.push_back(aur);
      aur_by_seed[strategy][r.spec.seed] = aur;
      if (r.spec.shared_recommender) {
        st.own_aur.push_back(run_aur(r, true));
        own_by_seed[strategy][r.spec.seed] = st.own_aur.back();
      }
      if (!r.iterations.empty() && r.iterations.back().inferred_hv > 0.0) ++st.final_recommendation_positive;
      for (const auto& it : r.iterations)
        if (const double hv = std::max(it.inferred_hv, it.own_inferred_hv); hv > ps.best_hv) {
          ps.best_hv = hv;
          ps.best_hv_run = strategy + " seed " + std::to_string(r.spec.seed);
        }
      for (const auto& it : r.iterations) st.target_evaluations += it.fidelity == r.target_fidelity;
      if (truth && !r.iterations.empty()) {
        try {
          const std::vector<double> regret = in_sample_log10_regret(r, *truth);
          st.in_sample_aur.push_back(run_area(r, regret));
          in_sample_by_seed[strategy][r.spec.seed] = st.in_sample_aur.back();
          final_in_sample.push_back(regret.back());  // the hypervolume of a growing set never falls
        } catch (const Error&) {
          // A run file from another version of the problem (other options):
          // no true values for it; the rest of the summary stands.
        }
      }
      if (r.evaluation_seconds > 0) {
        eval_seconds += r.evaluation_seconds;
        eval_queries += static_cast<double>(r.iterations.size());
      }
      double best = std::log10(std::max(r.spec.hv_max, kRegretFloor));
      for (const auto& it : r.iterations) {
        best = std::min(best, it.log10_regret);
        queries += 1;
        viol += it.violated;
        viol_t += it.violated_at_target;
        if (it.initial) continue;
        own += 1;
        fid += it.fidelity;
        cheap += it.fidelity < r.target_fidelity;
        suggest.push_back(it.suggest_seconds);
      }
      final_regret.push_back(best);
    }
    if (nruns == 0 && st.errors == 0) continue;
    if (nruns > 0) {
      st.aur_mean = mean(st.aur);
      st.aur_sd = sample_sd(st.aur);
      st.final_regret_mean = mean(final_regret);
      st.final_regret_sd = sample_sd(final_regret);
      st.mean_queries = queries / nruns;
      if (!st.own_aur.empty()) {
        st.own_aur_mean = mean(st.own_aur);
        st.own_aur_sd = sample_sd(st.own_aur);
      }
      st.target_evaluations /= nruns;
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    st.in_sample_aur_mean = st.in_sample_aur.empty() ? nan : mean(st.in_sample_aur);
    st.in_sample_aur_sd = st.in_sample_aur.size() < 2 ? nan : sample_sd(st.in_sample_aur);
    st.final_in_sample_regret_mean = final_in_sample.empty() ? nan : mean(final_in_sample);
    st.cheap_share = own > 0 ? cheap / own : nan;
    st.mean_fidelity = own > 0 ? fid / own : nan;
    st.violation_rate = queries > 0 ? viol / queries : nan;
    st.violation_rate_target = queries > 0 ? viol_t / queries : nan;
    st.median_suggest_seconds = median(suggest);
    st.mean_evaluation_seconds = eval_queries > 0 ? eval_seconds / eval_queries : nan;
    ps.strategies.push_back(std::move(st));
  }
  for (const auto& a : ps.strategies) {
    for (const auto& b : ps.strategies) {
      if (a.strategy == b.strategy) continue;
      auto common_seeds = [&](std::map<std::string, std::map<std::uint64_t, double>>& by_seed,
                              std::vector<double>* va, std::vector<double>* vb) {
        on_common_seeds(by_seed[a.strategy], by_seed[b.strategy], va, vb);
      };
      std::vector<double> va, vb;
      common_seeds(aur_by_seed, &va, &vb);
      if (va.size() < 2) continue;
      PairwiseStats p;
      p.a = a.strategy;
      p.b = b.strategy;
      p.test = paired_t_test(va, vb);
      for (auto [by_seed, test] : {std::pair{&in_sample_by_seed, &p.in_sample}, std::pair{&own_by_seed, &p.own}}) {
        std::vector<double> ua, ub;
        common_seeds(*by_seed, &ua, &ub);
        if (ua.size() >= 2) *test = paired_t_test(ua, ub);
      }
      const double mb = mean(vb);
      p.gain = mb != 0.0 ? relative_gain(mean(va), mb) : std::numeric_limits<double>::quiet_NaN();
      std::vector<double> sa, sb;
      common_seeds(start_by_seed, &sa, &sb);
      for (std::size_t i = 0; i < sa.size(); ++i) {
        p.start_difference += sa[i] - sb[i];
        p.start_differs += std::abs(sa[i] - sb[i]) > 1e-9;
      }
      if (!sa.empty()) p.start_difference /= static_cast<double>(sa.size());
      ps.pairs.push_back(p);
    }
  }
  return ps;
}

namespace {

// Paired tests of another per-run measure (`which`), each pair once, in the
// order of the strategies; nothing when no pair has one.
void pair_tests_markdown(std::ostream& md, const ProblemSummary& ps, PairedTTest PairwiseStats::*which,
                         const std::string& what) {
  auto rank = [&](const std::string& name) {
    for (std::size_t i = 0; i < ps.strategies.size(); ++i)
      if (ps.strategies[i].strategy == name) return i;
    return ps.strategies.size();
  };
  bool header = false;
  for (const auto& p : ps.pairs) {
    const PairedTTest& t = p.*which;
    if (t.n < 2 || rank(p.a) > rank(p.b)) continue;
    if (!header) {
      md << "\nPaired tests of the " << what << " over the seeds where both have one:\n\n| A | B | n | mean "
         << what << "(A) - (B) | t | p |\n|---|---|---|---|---|---|\n";
      header = true;
    }
    md << "| " << p.a << " | " << p.b << " | " << t.n << " | " << fixed(t.mean_difference, 4) << " | " << fixed(t.t, 3)
       << " | " << p_value_text(t.p_value) << " |\n";
  }
}

}  // namespace

std::string summary_markdown(const std::vector<ProblemSummary>& summaries, const std::vector<RunResult>& runs,
                             const std::string& command) {
  std::ostringstream md;
  md << "# rescue-bench summary\n\n"
     << "Command: `" << command << "`\n\n"
     << "AUR: area under the best log10 hypervolume regret over cumulative cost, from the end of the initial "
        "design to the budget, divided by the budget (lower is better). Costs in units of one target-fidelity "
        "evaluation. Paired tests over common seeds: t and p (two-sided) of AUR(A) - AUR(B), Cohen's d of the "
        "paired differences, gain = (AUR(B) - AUR(A)) / |AUR(B)| (positive: A better).\n";
  for (const auto& ps : summaries) {
    md << "\n## " << ps.problem << "\n\n"
       << "Maximum hypervolume " << fixed(ps.hv_max, 6) << "; initial design " << fixed(ps.initial_budget, 2)
       << ", budget " << fixed(ps.budget, 2) << " target units.\n\n";
    if (ps.best_hv - ps.hv_max > kRegretFloor)  // a smaller excess is hidden by the floor anyway
      md << "**The stored maximum hypervolume is too low**: " << ps.best_hv_run << " reached " << fixed(ps.best_hv, 6)
         << " at the target (shared or own recommendation), where its regret sits at the floor of "
         << kRegretFloor << "; the maximum must be raised before these regrets are final.\n\n";
    md << "| strategy | runs | AUR mean | AUR sd | final best log10 regret | queries/run | share below target "
          "fidelity | mean fidelity | violation rate (observed / at target) | median suggestion s | mean evaluation s | "
          "errors |\n"
       << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& s : ps.strategies) {
      md << "| " << s.strategy << " | " << s.aur.size() << " | " << fixed(s.aur_mean, 3) << " | "
         << fixed(s.aur_sd, 3) << " | " << fixed(s.final_regret_mean, 3) << " +- " << fixed(s.final_regret_sd, 3)
         << " | " << fixed(s.mean_queries, 1) << " | " << fixed(s.cheap_share, 3) << " | " << fixed(s.mean_fidelity, 3)
         << " | " << fixed(s.violation_rate, 3) << " / " << fixed(s.violation_rate_target, 3) << " | "
         << fixed(s.median_suggest_seconds, 4) << " | " << fixed(s.mean_evaluation_seconds, 4) << " | " << s.errors
         << " |\n";
    }
    if (std::any_of(ps.strategies.begin(), ps.strategies.end(), [](const auto& s) { return !s.own_aur.empty(); })) {
      md << "\nThe strategies below are measured, as every other, by the shared recommender (a plain "
            "multi-fidelity GP fitted to the same observations); their own recommendation (`rescue_pareto`, "
            "on the strategy's own model) scores:\n\n| strategy | runs | AUR mean, own recommendation | AUR sd |\n"
            "|---|---|---|---|\n";
      for (const auto& s : ps.strategies)
        if (!s.own_aur.empty())
          md << "| " << s.strategy << " | " << s.own_aur.size() << " | " << fixed(s.own_aur_mean, 3) << " | "
             << fixed(s.own_aur_sd, 3) << " |\n";
      pair_tests_markdown(md, ps, &PairwiseStats::own, "own recommendation's AUR");
    }
    if (std::any_of(ps.strategies.begin(), ps.strategies.end(),
                    [](const auto& s) { return !s.in_sample_aur.empty(); })) {
      md << "\nIn-sample: the configurations evaluated at exactly the target fidelity whose observation was "
            "feasible, scored by their true hypervolume (what recommending only evaluated configurations would "
            "give; on a continuous fidelity an evaluation just below the target does not count); and the runs "
            "whose last recommendation (the one the AUR above is measured on) has a positive true hypervolume "
            "(it holds a configuration feasible at the target and inside the reference point):\n\n"
            "| strategy | runs | target evaluations/run | in-sample AUR mean | in-sample AUR sd | final best "
            "in-sample log10 regret | last recommendation with hypervolume > 0 |\n|---|---|---|---|---|---|---|\n";
      for (const auto& s : ps.strategies)
        md << "| " << s.strategy << " | " << s.in_sample_aur.size() << " | " << fixed(s.target_evaluations, 1)
           << " | " << fixed(s.in_sample_aur_mean, 3) << " | " << fixed(s.in_sample_aur_sd, 3) << " | "
           << fixed(s.final_in_sample_regret_mean, 3) << " | " << s.final_recommendation_positive << " of "
           << s.aur.size() << " |\n";
      pair_tests_markdown(md, ps, &PairwiseStats::in_sample, "in-sample AUR");
    }
    if (!ps.pairs.empty()) {
      md << "\n| A | B | n | mean AUR(A) - AUR(B) | t | p | Cohen's d | gain of A over B | start differs on |\n"
         << "|---|---|---|---|---|---|---|---|---|\n";
      for (const auto& p : ps.pairs) {
        md << "| " << p.a << " | " << p.b << " | " << p.test.n << " | " << fixed(p.test.mean_difference, 4) << " | "
           << fixed(p.test.t, 3) << " | " << p_value_text(p.test.p_value) << " | " << fixed(p.test.cohens_d, 3) << " | "
           << fixed(100.0 * p.gain, 1) << "% | " << p.start_differs;
        if (p.start_differs > 0) md << " (mean " << (p.start_difference >= 0 ? "+" : "") << fixed(p.start_difference, 4) << ")";
        md << " |\n";
      }
      md << "\nStart differs on: the common seeds on which the best log10 regret at the end of the initial design "
            "differs between A and B. The protocol gives both the same initial design and the same recommender, "
            "so it agrees unless the runs were measured differently: another BLAS kernel or thread count (they "
            "round differently and part twin runs), another recommender size or another build. Where it differs, "
            "the paired test also compares the measuring.\n\nBLAS of the runs:";
      for (const auto& s : ps.strategies) {
        md << (&s == &ps.strategies.front() ? " " : "; ") << s.strategy << " (";
        bool first = true;
        for (const auto& [setting, n] : s.blas) {
          md << (first ? "" : ", ") << setting << ": " << n;
          first = false;
        }
        md << ")";
      }
      md << ".\n";
    }
    // Wall time of one suggestion at given numbers of observations.
    md << "\nMedian wall time (s) of one suggestion with about N observations in (+-2; strategy's own suggestions "
          "only):\n\n| strategy | N = 20 | N = 50 | N = 100 |\n|---|---|---|---|\n";
    for (const auto& s : ps.strategies) {
      std::vector<RunResult> mine;
      for (const auto& r : runs)
        if (r.spec.problem == ps.problem) mine.push_back(r);
      md << "| " << s.strategy;
      for (int n : {20, 50, 100}) md << " | " << fixed(median_suggest_seconds_at(mine, s.strategy, n, 2), 4);
      md << " |\n";
    }
  }
  return md.str();
}

void write_summary_csv(std::ostream& out, const std::vector<ProblemSummary>& summaries) {
  out << "problem,strategy,runs,aur_mean,aur_sd,final_log10_regret_mean,final_log10_regret_sd,queries_per_run,"
         "share_below_target,mean_fidelity,violation_rate,violation_rate_at_target,median_suggest_seconds,mean_evaluation_seconds,errors,"
         "in_sample_aur_mean,in_sample_aur_sd,final_in_sample_log10_regret_mean,final_recommendation_positive\n";
  char buf[64];
  auto g = [&](double v) {
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return std::string(buf);
  };
  for (const auto& ps : summaries)
    for (const auto& s : ps.strategies)
      out << ps.problem << ',' << s.strategy << ',' << s.aur.size() << ',' << g(s.aur_mean) << ',' << g(s.aur_sd)
          << ',' << g(s.final_regret_mean) << ',' << g(s.final_regret_sd) << ',' << g(s.mean_queries) << ','
          << g(s.cheap_share) << ',' << g(s.mean_fidelity) << ',' << g(s.violation_rate) << ','
          << g(s.violation_rate_target) << ',' << g(s.median_suggest_seconds) << ',' << g(s.mean_evaluation_seconds) << ',' << s.errors << ','
          << (s.in_sample_aur.empty() ? "" : g(s.in_sample_aur_mean)) << ','
          << (s.in_sample_aur.size() < 2 ? "" : g(s.in_sample_aur_sd)) << ','
          << (s.in_sample_aur.empty() ? "" : g(s.final_in_sample_regret_mean)) << ',' << s.final_recommendation_positive
          << '\n';
}

}  // namespace rescue::bench
