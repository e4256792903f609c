#include "bench/suggest_timing.hpp"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <sstream>

#include "bench/bench_run.hpp"
#include "bench/summary.hpp"
#include "core/sampling.hpp"
#include "bench/problem_registry.hpp"
#include "bench/capi_handles.hpp"
#include "rescue.h"
#include "util/error.hpp"
#include "util/rng.hpp"

namespace rescue::bench {

namespace {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// One timed rescue_suggest: wall and CPU time of the calling thread (the
// library computes in the caller's thread; OpenBLAS is single-threaded here).
struct Timed {
  double wall = 0.0, cpu = 0.0;
};

Timed timed_suggest(rescue_optimizer* opt, double* x, int d, double* s, int* ticket) {
  const double c0 = thread_cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  check(rescue_suggest(opt, x, d, s, ticket), "rescue_suggest", opt);
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), thread_cpu_seconds() - c0};
}

// The cold suggestion is the first one of a new optimizer holding n - 1
// evaluations (its models are built from scratch); its evaluation is then
// reported and the next kWarm suggestions, with n to n + kWarm - 1
// evaluations in, are timed and averaged: that is the steady state of a run,
// where each suggestion starts from the previous fit and some work is done
// only every few observations (the causal model's relearning, the search of
// the other prior mode), so one suggestion alone would be unrepresentative.
constexpr int kWarm = 5;
void time_one(const std::string& name, const StrategyVariant& strategy, int n, std::uint64_t seed, int rows,
              SuggestTiming* out) {
  if (strategy.observational_rows >= 0) rows = strategy.observational_rows;
  const auto problem = make_problem(name);
  const ProblemSpec& spec = problem->spec();
  const int d = spec.dim(), m = spec.num_objectives(), q = spec.num_constraints(), k = spec.num_indicators();
  Rng master(seed);
  Rng obs_rng = master.split(), rng = master.split();
  ProblemHandle ph;
  OptimizerHandle oh;
  create_optimizer({name, seed, strategy.strategy, strategy.params, std::nullopt, 0.0}, ph, oh);
  rescue_optimizer* opt = oh.o;
  add_observational(opt, *problem, rows, obs_rng);
  for (int i = 0; i + 1 < n; ++i) {
    const std::vector<double> x = sample_configuration(spec, rng);
    double s = spec.fidelity().target;
    sample_fidelity(spec, x.data(), FidelityLaw::InverseCost, std::numeric_limits<double>::infinity(), rng, &s);
    const auto e = problem->evaluate_noisy(x.data(), s, rng);
    check(rescue_observe_at(opt, x.data(), d, s, e.y.data(), m, q ? e.g.data() : nullptr, q,
                            k ? e.z.data() : nullptr, k),
          "rescue_observe_at", opt);
  }
  std::vector<double> x(d);
  double s = 0.0;
  int ticket = 0;
  const Timed cold = timed_suggest(opt, x.data(), d, &s, &ticket);
  const auto e = problem->evaluate_noisy(x.data(), s, rng);
  check(rescue_observe(opt, ticket, e.y.data(), m, q ? e.g.data() : nullptr, q, k ? e.z.data() : nullptr, k),
        "rescue_observe", opt);
  Timed warm;
  for (int w = 0; w < kWarm; ++w) {
    const Timed t = timed_suggest(opt, x.data(), d, &s, &ticket);
    warm.wall += t.wall / kWarm;
    warm.cpu += t.cpu / kWarm;
    if (w + 1 == kWarm) break;
    const auto ew = problem->evaluate_noisy(x.data(), s, rng);
    check(rescue_observe(opt, ticket, ew.y.data(), m, q ? ew.g.data() : nullptr, q, k ? ew.z.data() : nullptr, k),
          "rescue_observe", opt);
  }
  rescue_cancel(opt, ticket);
  out->seconds.push_back(cold.wall);
  out->warm_seconds.push_back(warm.wall);
  out->warm_cpu_seconds.push_back(warm.cpu);
}

}  // namespace

std::vector<SuggestTiming> time_suggestions(const std::vector<std::string>& problems,
                                            const std::vector<std::string>& strategies,
                                            const std::vector<int>& observations, int repeats,
                                            std::uint64_t first_seed, int observational_rows,
                                            const std::vector<StrategyVariant>& variants) {
  if (repeats < 1) fail(Status::InvalidArgument, "at least one repeat is needed");
  // A plain strategy name stands for itself, with no parameters.
  const auto resolve = [&](const std::string& name) {
    for (const auto& v : variants)
      if (v.name == name) {
        if (v.dag != DagChoice::Learned)
          fail(Status::InvalidArgument, "variant '" + name + "': suggestion timing does not take dag=");
        return v;
      }
    StrategyVariant plain;
    plain.name = plain.strategy = name;
    return plain;
  };
  std::vector<SuggestTiming> out;
  for (const auto& p : problems)
    for (const auto& s : strategies)
      for (int n : observations) {
        if (n < 1) fail(Status::InvalidArgument, "time suggestions with at least one observation in");
        SuggestTiming t;
        t.problem = p;
        t.strategy = s;
        t.observations = n;
        const StrategyVariant strategy = resolve(s);
        for (int r = 0; r < repeats; ++r)
          time_one(p, strategy, n, first_seed + static_cast<std::uint64_t>(r), observational_rows, &t);
        t.median = median(t.seconds);
        t.warm_median = median(t.warm_seconds);
        t.warm_cpu_median = median(t.warm_cpu_seconds);
        out.push_back(std::move(t));
      }
  return out;
}

std::string suggest_timing_markdown(const std::vector<SuggestTiming>& timings, const std::string& command) {
  std::ostringstream md;
  md << "# Time of one suggestion\n\nCommand: `" << command
     << "`\n\nMedians over repeats (different seeds) of one `rescue_suggest` call, model fitting included, with n "
        "observations drawn like the cost-aware initial design plus the observational rows. *Cold*: the first "
        "suggestion of a new optimizer holding n - 1 observations (every model built from scratch). *Warm*: the "
        "mean of the next 5, with n to n + 4 observations in: the steady state of a run. Wall "
        "times depend on the machine's load; the warm CPU time (of the calling thread, where the library "
        "computes) does much less.\n\n"
     << "| problem | strategy | n | cold s | cold min s | cold max s | warm s | warm CPU s | repeats |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
  char buf[320];
  for (const auto& t : timings) {
    double lo = t.seconds.front(), hi = lo;
    for (double v : t.seconds) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    std::snprintf(buf, sizeof buf, "| %s | %s | %d | %.4f | %.4f | %.4f | %.4f | %.4f | %zu |\n", t.problem.c_str(),
                  t.strategy.c_str(), t.observations, t.median, lo, hi, t.warm_median, t.warm_cpu_median,
                  t.seconds.size());
    md << buf;
  }
  return md.str();
}

}  // namespace rescue::bench
