#include "bench/feasibility_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "bench/problem_registry.hpp"
#include "bench/bench_run.hpp"
#include "bench/number_format.hpp"
#include "bench/statistics.hpp"
#include "rescue.h"
#include "util/error.hpp"
#include "util/text.hpp"

namespace rescue::bench {

namespace {

// Adds `from` into `into` element by element, `into` first grown to `from`'s size.
template <class T>
void add_into(std::vector<T>& into, const std::vector<T>& from) {
  if (into.size() < from.size()) into.resize(from.size(), T{});
  for (std::size_t i = 0; i < from.size(); ++i) into[i] += from[i];
}

}  // namespace

void CalibrationTally::add(double probability, bool truly_feasible) {
  const int bin = std::clamp(static_cast<int>(std::floor(10.0 * probability)), 0, 9);
  ++points[static_cast<std::size_t>(bin)];
  if (truly_feasible) ++feasible[static_cast<std::size_t>(bin)];
  const double miss = probability - (truly_feasible ? 1.0 : 0.0);
  brier += miss * miss;
}

void CalibrationTally::add_held_out(int output, int P, bool at_target, double z, double error) {
  const std::size_t at = static_cast<std::size_t>((at_target ? 0 : 1) * P + output);
  if (held_sum.size() < static_cast<std::size_t>(2 * P)) {
    held_sum.resize(static_cast<std::size_t>(2 * P), 0.0);
    held_square.resize(static_cast<std::size_t>(2 * P), 0.0);
    held_error_square.resize(static_cast<std::size_t>(2 * P), 0.0);
    held_count.resize(static_cast<std::size_t>(2 * P), 0);
  }
  held_sum[at] += z;
  held_square[at] += z * z;
  held_error_square[at] += error * error;
  ++held_count[at];
}

void CalibrationTally::merge(const CalibrationTally& other) {
  for (std::size_t b = 0; b < points.size(); ++b) {
    points[b] += other.points[b];
    feasible[b] += other.feasible[b];
  }
  brier += other.brier;
  set_points += other.set_points;
  set_feasible += other.set_feasible;
  set_probability += other.set_probability;
  set_hv += other.set_hv;
  add_into(z_sum, other.z_sum);
  add_into(z_square, other.z_square);
  add_into(held_sum, other.held_sum);
  add_into(held_square, other.held_square);
  add_into(held_error_square, other.held_error_square);
  add_into(held_count, other.held_count);
  runs += other.runs;
}

long CalibrationTally::total() const {
  long n = 0;
  for (long p : points) n += p;
  return n;
}

namespace {

// Scores the recommended set of `opt` and, with constraints, `moves` random
// moves of each member at each scale against the truth at the target fidelity.
CalibrationTally score(rescue_optimizer* opt, const problems::BenchmarkProblem& problem, int moves, Rng& rng) {
  const ProblemSpec& spec = problem.spec();
  const int d = spec.dim(), m = spec.num_objectives(), q = spec.num_constraints();
  const double target = spec.fidelity().target;
  CalibrationTally t;
  t.runs = 1;
  t.z_sum.assign(static_cast<std::size_t>(m + q), 0.0);
  t.z_square.assign(static_cast<std::size_t>(m + q), 0.0);
  int count = 0;
  std::vector<double> points = recommended_configurations(opt, d, m, &count);
  if (count == 0) return t;
  t.set_hv = inferred_hypervolume(problem, points);
  // Moves in the unit cube, clipped to it; integer options are rounded on the way back.
  std::vector<double> u(d), v(d), x(d);
  // Without constraints the moves would only be trained to count as feasible.
  for (int i = 0; i < (q > 0 ? count : 0); ++i) {
    spec.to_unit(points.data() + static_cast<std::size_t>(i) * d, u.data());
    for (double sd : {0.03, 0.1})
      for (int r = 0; r < moves; ++r) {
        for (int j = 0; j < d; ++j) v[j] = std::clamp(u[j] + sd * rng.normal(), 0.0, 1.0);
        spec.from_unit(v.data(), x.data());
        points.insert(points.end(), x.begin(), x.end());
      }
  }
  const int n = static_cast<int>(points.size() / static_cast<std::size_t>(d)), p = m + q;
  std::vector<double> s(static_cast<std::size_t>(n), target), mean(static_cast<std::size_t>(n) * p),
      sdev(static_cast<std::size_t>(n) * p), probability(static_cast<std::size_t>(n));
  check(rescue_predict(opt, points.data(), n, d, s.data(), mean.data(), sdev.data(), p, probability.data()),
        "rescue_predict", opt);
  for (int i = 0; i < n; ++i) {
    const problems::Evaluation e = problem.evaluate(points.data() + static_cast<std::size_t>(i) * d, target);
    const bool truly = feasible(spec, e.g);
    t.add(probability[i], truly);
    if (i >= count) continue;
    ++t.set_points;
    if (truly) ++t.set_feasible;
    t.set_probability += probability[i];
    for (int c = 0; c < p; ++c) {
      const std::size_t at = static_cast<std::size_t>(i) * p + c;
      const double truth = c < m ? e.y[c] : e.g[c - m];
      // A zero standard deviation (a metric the model holds exact) counts as
      // the smallest positive one: an error there is as overconfident as it gets.
      const double z = (truth - mean[at]) / std::max(sdev[at], 1e-300);
      t.z_sum[c] += z;
      t.z_square[c] += z * z;
    }
  }
  return t;
}

// Each evaluation of `opt` predicted from all the others, against its observed values.
void score_held_out(rescue_optimizer* opt, const ProblemSpec& spec, CalibrationTally& t) {
  const int d = spec.dim(), m = spec.num_objectives(), q = spec.num_constraints(), p = m + q;
  int count = 0;
  check(rescue_cross_validate(opt, nullptr, nullptr, p, 0, &count), "rescue_cross_validate", opt);
  std::vector<double> mean(static_cast<std::size_t>(count) * p), sdev(mean.size());
  check(rescue_cross_validate(opt, mean.data(), sdev.data(), p, count, &count), "rescue_cross_validate", opt);
  std::vector<double> x(d), y(static_cast<std::size_t>(p));
  for (int i = 0; i < count; ++i) {
    double s = 0.0;
    int failed = 0;
    check(rescue_get_observation(opt, i, x.data(), d, &s, y.data(), m, y.data() + m, q, &failed),
          "rescue_get_observation", opt);
    if (failed) continue;
    // A continuous fidelity is seldom exactly at the target: a tenth of the range counts.
    const FidelitySpec& f = spec.fidelity();
    const bool near_target = std::abs(f.unit(s) - f.unit(f.target)) <= 0.1;
    for (int k = 0; k < p; ++k) {
      const std::size_t at = static_cast<std::size_t>(i) * p + k;
      if (!std::isfinite(mean[at]) || !std::isfinite(y[static_cast<std::size_t>(k)])) continue;
      const double error = y[static_cast<std::size_t>(k)] - mean[at];
      t.add_held_out(k, p, near_target, error / std::max(sdev[at], 1e-300), error);
    }
  }
}

}  // namespace

RunCalibration calibrate_run(const RunResult& run, int moves) {
  const auto problem = make_problem(run.spec.problem);
  const ProblemSpec& spec = problem->spec();
  const int d = spec.dim(), m = spec.num_objectives(), q = spec.num_constraints(), k = spec.num_indicators();
  RunSpec rs = run.spec;
  rs.shared_recommender = true;
  // Room for the one suggestion that makes the strategy build its model.
  rs.budget += 2.0;
  const std::unique_ptr<RunStart> start = start_run(rs, *problem);
  for (const IterationRecord& it : run.iterations) {
    if (static_cast<int>(it.x.size()) != d) fail(Status::InvalidArgument, "feasibility calibration: a row of the wrong width");
    const problems::Evaluation e = problem->evaluate_noisy(it.x.data(), it.fidelity, start->noise);
    for (rescue_optimizer* o : {start->strategy.o, start->shadow.o})
      check(rescue_observe_at(o, it.x.data(), d, it.fidelity, e.y.data(), m, e.g.data(), q, k ? e.z.data() : nullptr, k),
            "rescue_observe_at", o);
  }
  // The strategy takes its causal knowledge and observational data into its
  // model when it next suggests (rescue_predict's contract): suggest once and
  // withdraw the ticket.
  {
    std::vector<double> x(d);
    double s = 0.0;
    int ticket = 0;
    const rescue_status st = rescue_suggest(start->strategy.o, x.data(), d, &s, &ticket);
    check(st, "rescue_suggest", start->strategy.o);
    check(rescue_cancel(start->strategy.o, ticket), "rescue_cancel", start->strategy.o);
  }
  Rng rng(run.spec.seed * 0x9E3779B97F4A7C15ULL + 17);
  RunCalibration out;
  out.own = score(start->strategy.o, *problem, moves, rng);
  out.shared = score(start->shadow.o, *problem, moves, rng);
  score_held_out(start->strategy.o, spec, out.own);
  score_held_out(start->shadow.o, spec, out.shared);
  PriorWeightsRecord prior;
  prior.scale.resize(static_cast<std::size_t>(m + q));
  int in_use = 0;
  const rescue_status st =
      rescue_prior_weights(start->strategy.o, prior.scale.data(), m + q, &prior.kernel_weight, &in_use);
  if (st != RESCUE_ERR_INVALID_STATE) {  // that one: no causal prior
    check(st, "rescue_prior_weights", start->strategy.o);
    prior.in_use = in_use == 1;
    out.prior = std::move(prior);
  }
  return out;
}

namespace {

// The share truly feasible by predicted probability, set and moves pooled.
void write_reliability(std::ostringstream& md, const std::vector<StrategyCalibration>& results,
                       const std::string& problem) {
  md << "\nReliability: share truly feasible (points) by predicted probability, set and moves pooled.\n\n"
        "| strategy | model |";
  for (int b = 0; b < 10; ++b) md << " " << fixed(b / 10.0, 1) << "-" << fixed((b + 1) / 10.0, 1) << " |";
  md << "\n|---|---|";
  for (int b = 0; b < 10; ++b) md << "---|";
  md << "\n";
  for (const StrategyCalibration& s : results) {
    if (s.problem != problem) continue;
    for (const auto& [model, t] : {std::pair<const char*, const CalibrationTally*>{"own", &s.tally.own},
                                   {"shared", &s.tally.shared}}) {
      md << "| " << s.strategy << " | " << model << " |";
      for (std::size_t b = 0; b < t->points.size(); ++b) {
        if (t->points[b] == 0)
          md << " - |";
        else
          md << " " << fixed(static_cast<double>(t->feasible[b]) / static_cast<double>(t->points[b]), 2) << " ("
             << t->points[b] << ") |";
      }
      md << "\n";
    }
  }
}

// The own models' weights on their causal prior, per strategy that has one.
void write_prior_weights(std::ostringstream& md, const std::vector<StrategyCalibration>& results,
                         const std::string& problem, const std::vector<std::string>& outputs) {
  bool any = false;
  for (const StrategyCalibration& s : results) any = any || (s.problem == problem && !s.priors.empty());
  if (!any) return;
  md << "\nThe own model's use of the causal prior (`rescue_prior_weights`): a_m scales each output's causal "
        "estimate in the prior mean (1: taken at face value, 0: unused), w weighs the causal kernel term; a model "
        "whose fit chose to ignore the prior has every a_m 0. Mean over runs, range in brackets.\n\n"
        "| strategy | runs | prior in use |";
  for (const std::string& o : outputs) md << " a_m of " << o << " |";
  md << " w |\n|---|---|---|";
  for (std::size_t k = 0; k < outputs.size(); ++k) md << "---|";
  md << "---|\n";
  auto summary = [&](const std::vector<double>& v) {
    double sum = 0.0;
    for (double x : v) sum += x;
    return fixed(sum / static_cast<double>(v.size()), 2) + " [" + fixed(*std::min_element(v.begin(), v.end()), 2) +
           ", " + fixed(*std::max_element(v.begin(), v.end()), 2) + "]";
  };
  for (const StrategyCalibration& s : results) {
    if (s.problem != problem || s.priors.empty()) continue;
    int used = 0;
    std::vector<double> w;
    for (const PriorWeightsRecord& r : s.priors) {
      used += r.in_use ? 1 : 0;
      w.push_back(r.kernel_weight);
    }
    md << "| " << s.strategy << " | " << s.priors.size() << " | " << used << " |";
    for (std::size_t k = 0; k < outputs.size(); ++k) {
      std::vector<double> a;
      for (const PriorWeightsRecord& r : s.priors)
        if (k < r.scale.size()) a.push_back(r.scale[k]);
      md << " " << (a.empty() ? std::string("-") : summary(a)) << " |";
    }
    md << " " << summary(w) << " |\n";
  }
}

}  // namespace

std::string calibration_markdown(const std::vector<StrategyCalibration>& results, const std::string& command) {
  std::ostringstream md;
  md << "# Feasibility calibration\n\n";
  if (!command.empty()) md << "Command: `" << command << "`\n\n";
  md << "Each run's evaluations replayed (the same observational rows and noise) into fresh optimizers: the "
        "strategy's own model (`own`, what `rescue_pareto` recommends from) and the shared recommender's plain "
        "multi-fidelity GP (`shared`). Each model's recommended set and random moves around it (10 per member at "
        "unit-scale standard deviations 0.03 and 0.1) are scored at the target fidelity by the model's probability "
        "of feasibility and by the problem's noise-free truth. z: (truth - mean) / sd of each output (objectives, "
        "then constraint metrics) over the recommended sets; a calibrated model gives mean near 0 and rms near 1, and "
        "a model that recommends where it is wrong in its own favour gives a positive mean for a minimized objective "
        "(the truth worse than predicted), a negative one for a maximized objective.\n\n";
  std::vector<std::string> names;
  for (const StrategyCalibration& r : results)
    if (std::find(names.begin(), names.end(), r.problem) == names.end()) names.push_back(r.problem);
  // Both models of every strategy of a problem, in the order given.
  auto for_each_model = [&](const std::string& problem, auto&& fn) {
    for (const StrategyCalibration& s : results) {
      if (s.problem != problem) continue;
      fn(s.strategy, "own", s.tally.own);
      fn(s.strategy, "shared", s.tally.shared);
    }
  };
  for (const std::string& problem : names) {
    std::vector<std::string> constraint_names, outputs;
    const auto definition = make_problem(problem);
    for (const auto& c : definition->spec().constraints()) constraint_names.push_back(c.name);
    for (const auto& o : definition->spec().objectives()) outputs.push_back(o.name);
    outputs.insert(outputs.end(), constraint_names.begin(), constraint_names.end());
    const int P = static_cast<int>(outputs.size());
    md << "## " << problem << "\n\n| strategy | model | runs | set size / run | truly feasible in the set | mean "
          "predicted probability (set) | inferred hypervolume (mean) |";
    for (const std::string& o : outputs) md << " z of " << o << ": mean, rms |";
    md << " Brier score (set and moves) |\n|---|---|---|---|---|---|---|";
    for (int c = 0; c < P; ++c) md << "---|";
    md << "---|\n";
    for_each_model(problem, [&](const std::string& strategy, const char* model, const CalibrationTally& t) {
      const double sp = static_cast<double>(t.set_points);
      md << "| " << strategy << " | " << model << " | " << t.runs << " | " << fixed(t.runs > 0 ? sp / t.runs : 0.0, 1)
         << " | " << fixed(sp > 0 ? t.set_feasible / sp : 0.0, 3) << " | "
         << fixed(sp > 0 ? t.set_probability / sp : 0.0, 3) << " | "
         << fixed(t.runs > 0 ? t.set_hv / t.runs : 0.0, 3) << " |";
      for (std::size_t c = 0; c < outputs.size(); ++c) {
        if (sp > 0 && c < t.z_sum.size())
          md << " " << fixed(t.z_sum[c] / sp, 2) << ", " << fixed(std::sqrt(t.z_square[c] / sp), 2) << " |";
        else
          md << " - |";
      }
      const long n = t.total();
      md << " " << fixed(n > 0 ? t.brier / static_cast<double>(n) : 0.0, 3) << " |\n";
    });
    // Both models see the same evaluations, so their sets pair run by run.
    md << "\nThe own model's recommended set against the shared one's, run by run (inferred hypervolume; a "
          "paired t-test over the runs).\n\n| strategy | runs | own - shared (mean) | p | own higher in |\n"
          "|---|---|---|---|---|\n";
    for (const StrategyCalibration& s : results) {
      if (s.problem != problem || s.own_hv.size() != s.shared_hv.size()) continue;
      const std::size_t n = s.own_hv.size();
      int higher = 0;
      for (std::size_t k = 0; k < n; ++k) higher += s.own_hv[k] > s.shared_hv[k] ? 1 : 0;
      md << "| " << s.strategy << " | " << n << " | ";
      if (n >= 2) {
        const PairedTTest t = paired_t_test(s.own_hv, s.shared_hv);
        md << fixed(t.mean_difference, 3) << " | " << fixed(t.p_value, 4) << " | ";
      } else {
        md << "- | - | ";
      }
      md << higher << " of " << n << " |\n";
    }
    if (!constraint_names.empty()) write_reliability(md, results, problem);
    md << "\nHeld-out errors (`rescue_cross_validate`): each replayed evaluation predicted from all the others, "
          "z = (observed - mean) / sd with observation noise in sd: mean and rms of z, then the root mean square "
          "error (observed - mean) in the output's units, per output, at the target fidelity (within a tenth of the "
          "fidelity range) and below it. The `own` and `shared` rows of one strategy are two models of the same "
          "evaluations.\n\n| strategy | model | evaluations at / below the target |";
    for (const std::string& o : outputs) md << " " << o << " at | " << o << " below |";
    md << "\n|---|---|---|";
    for (int k = 0; k < 2 * P; ++k) md << "---|";
    md << "\n";
    for_each_model(problem, [&](const std::string& strategy, const char* model, const CalibrationTally& t) {
      auto count = [&](int group, int k) {
        const std::size_t at = static_cast<std::size_t>(group * P + k);
        return at < t.held_count.size() ? t.held_count[at] : 0L;
      };
      md << "| " << strategy << " | " << model << " | " << count(0, 0) << " / " << count(1, 0) << " |";
      for (int k = 0; k < P; ++k)
        for (int group = 0; group < 2; ++group) {
          const long n = count(group, k);
          const std::size_t at = static_cast<std::size_t>(group * P + k);
          if (n == 0)
            md << " - |";
          else
            md << " " << fixed(t.held_sum[at] / n, 2) << ", " << fixed(std::sqrt(t.held_square[at] / n), 2) << "; "
               << significant(std::sqrt(t.held_error_square[at] / n), 3) << " |";
        }
      md << "\n";
    });
    write_prior_weights(md, results, problem, outputs);
    md << "\n";
  }
  return md.str();
}

std::string calibration_runs_csv(const std::vector<RunResult>& runs, const std::vector<RunCalibration>& calibrations) {
  if (runs.size() != calibrations.size())
    fail(Status::SizeMismatch, "feasibility calibration: runs and calibrations differ in number");
  std::ostringstream csv;
  csv << "problem,strategy,seed,own_hv,shared_hv,prior_in_use,prior_scale,kernel_weight\n";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunCalibration& c = calibrations[i];
    csv << runs[i].spec.problem << "," << runs[i].spec.strategy << "," << runs[i].spec.seed << ","
        << fmt17(c.own.set_hv) << "," << fmt17(c.shared.set_hv) << ",";
    if (c.prior) {
      csv << (c.prior->in_use ? 1 : 0) << ",";
      for (std::size_t k = 0; k < c.prior->scale.size(); ++k) csv << (k ? " " : "") << fmt17(c.prior->scale[k]);
      csv << "," << fmt17(c.prior->kernel_weight);
    } else {
      csv << ",,";
    }
    csv << "\n";
  }
  return csv.str();
}

}  // namespace rescue::bench
