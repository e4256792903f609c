#include "acq/candidate_search.hpp"

#include <algorithm>
#include <cmath>

#include <nlopt.h>

#include "util/sobol.hpp"

namespace rescue::acq {

void snap_unit(const ProblemSpec& spec, double* u) {
  std::vector<double> x(spec.dim());
  spec.from_unit(u, x.data());
  spec.to_unit(x.data(), u);
}

void perturb_unit(const ProblemSpec& spec, double* u, double scale, Rng& rng) {
  const double p_level = std::min(0.5, 2.0 * scale);
  for (int j = 0; j < spec.dim(); ++j) {
    const OptionSpec& o = spec.options()[j];
    if (!o.categorical()) {
      u[j] = std::min(1.0, std::max(0.0, u[j] + scale * rng.normal()));
      continue;
    }
    if (rng.uniform() >= p_level) continue;
    const int L = o.levels(), k = categorical_level(u[j], L);
    int other = static_cast<int>(rng.below(static_cast<std::uint64_t>(L - 1)));
    if (other >= k) ++other;
    u[j] = categorical_unit(other, L);
  }
  snap_unit(spec, u);
}

namespace {

struct Start {
  std::vector<double> u;
  double s;
  double value;
};

struct RefineContext {
  const ProblemSpec* spec;
  const AcquisitionFn* f;
  const SearchOptions* options;
  int d;
  bool search_s;  // the last coordinate is the unit fidelity
  double fixed_s;
  int* evaluations;
  Start* best;
};

double fidelity_of(const ProblemSpec& spec, double unit) {
  const auto& f = spec.fidelity();
  return f.lower + std::min(1.0, std::max(0.0, unit)) * (f.upper - f.lower);
}

double evaluate(const RefineContext& c, const double* v) {
  std::vector<double> u(v, v + c.d);
  for (double& t : u) t = std::min(1.0, std::max(0.0, t));
  snap_unit(*c.spec, u.data());
  const double s = c.search_s ? fidelity_of(*c.spec, v[c.d]) : c.fixed_s;
  ++*c.evaluations;
  std::vector<double> x(c.d);
  c.spec->from_unit(u.data(), x.data());
  if (c.spec->cost(x.data(), s) > c.options->max_cost) return -HUGE_VAL;
  const double value = (*c.f)(u.data(), s);
  if (value > c.best->value) *c.best = Start{u, s, value};
  return value;
}

// The local search moves only the continuous coordinates (and a continuous
// fidelity); categorical levels are held where the level search left them.
struct ReducedContext {
  const RefineContext* c;
  std::vector<int> free;   // coordinates of v moved by the local search
  std::vector<double> v;   // the full point (d values, then the unit fidelity if searched)
};

double nlopt_objective(unsigned n, const double* w, double* grad, void* data) {
  (void)grad;
  auto* r = static_cast<ReducedContext*>(data);
  for (unsigned k = 0; k < n; ++k) r->v[static_cast<std::size_t>(r->free[k])] = w[k];
  const double value = evaluate(*r->c, r->v.data());
  return std::isfinite(value) ? value : -1e300;
}

// Level search of the categorical options from v (full point): every
// combination of levels when there are at most kEnumerateLevels of them,
// otherwise passes of single-option moves (each option to each other level,
// keeping a move that improves) until a pass improves nothing.
constexpr double kEnumerateLevels = 16;
constexpr int kLevelPasses = 3;

void search_levels(const RefineContext& c, std::vector<double>& v, double& value) {
  const auto& options = c.spec->options();
  std::vector<int> cat;
  double combos = 1;
  for (int j = 0; j < c.d; ++j)
    if (options[j].categorical()) {
      cat.push_back(j);
      combos *= options[j].levels();
    }
  if (cat.empty()) return;
  auto unit_level = [&](int j, int k) { return categorical_unit(k, options[j].levels()); };
  if (combos <= kEnumerateLevels) {
    std::vector<int> k(cat.size(), 0);
    const std::vector<double> start = v;
    while (true) {
      std::vector<double> w = start;
      for (std::size_t i = 0; i < cat.size(); ++i) w[cat[i]] = unit_level(cat[i], k[i]);
      const double t = evaluate(c, w.data());
      if (t > value) {
        value = t;
        v = w;
      }
      std::size_t i = 0;
      while (i < cat.size() && ++k[i] == options[cat[i]].levels()) k[i++] = 0;
      if (i == cat.size()) break;
    }
    return;
  }
  for (int pass = 0; pass < kLevelPasses; ++pass) {
    bool improved = false;
    for (int j : cat) {
      const int current = categorical_level(v[j], options[j].levels());
      for (int k = 0; k < options[j].levels(); ++k) {
        if (k == current) continue;
        std::vector<double> w = v;
        w[j] = unit_level(j, k);
        const double t = evaluate(c, w.data());
        if (t > value) {
          value = t;
          v = std::move(w);
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
}

}  // namespace

SearchResult maximize_acquisition(const ProblemSpec& spec, const AcquisitionFn& f, Rng& rng,
                                  const SearchOptions& options,
                                  const std::vector<std::vector<double>>& extra_starts) {
  const int d = spec.dim();
  const auto& fid = spec.fidelity();
  const bool continuous_s = !options.target_only && !fid.discrete && !fid.single_level();
  std::vector<double> levels;
  if (options.target_only)
    levels = {fid.target};
  else if (fid.discrete)
    levels = fid.levels;

  int evaluations = 0;
  Start best{{}, fid.target, -HUGE_VAL};
  std::vector<Start> starts;
  auto consider = [&](std::vector<double> u, double s_unit_or_nan) {
    snap_unit(spec, u.data());
    RefineContext ctx{&spec, &f, &options, d, false, 0.0, &evaluations, &best};
    if (continuous_s) {
      std::vector<double> v = u;
      v.push_back(s_unit_or_nan);
      ctx.search_s = true;
      starts.push_back({u, fidelity_of(spec, s_unit_or_nan), evaluate(ctx, v.data())});
    } else {
      for (double s : levels) {
        ctx.fixed_s = s;
        starts.push_back({u, s, evaluate(ctx, u.data())});
      }
    }
  };
  Sobol sobol(d + (continuous_s ? 1 : 0), true, rng);
  for (int i = 0; i < options.starts; ++i) {
    std::vector<double> p = sobol.next();
    const double su = continuous_s ? p[d] : 0.0;
    p.resize(d);
    consider(p, su);
  }
  for (const auto& u : extra_starts) consider(u, continuous_s ? rng.uniform() : 0.0);

  // Local refinement of the best distinct starts.
  std::stable_sort(starts.begin(), starts.end(), [](const Start& a, const Start& b) { return a.value > b.value; });
  const int dims = d + (continuous_s ? 1 : 0);
  int refined = 0;
  for (const Start& st : starts) {
    if (refined >= options.refine || !std::isfinite(st.value)) break;
    ++refined;
    RefineContext ctx{&spec, &f, &options, d, continuous_s, st.s, &evaluations, &best};
    std::vector<double> v = st.u;
    if (continuous_s) v.push_back((st.s - fid.lower) / (fid.upper - fid.lower));
    double value = st.value;
    search_levels(ctx, v, value);
    ReducedContext reduced{&ctx, {}, v};
    for (int j = 0; j < dims; ++j)
      if (j == d || !spec.options()[j].categorical()) reduced.free.push_back(j);
    const int n = static_cast<int>(reduced.free.size());
    if (n == 0) continue;
    std::vector<double> w;
    for (int j : reduced.free) w.push_back(v[j]);
    // BOBYQA needs at least two variables; Nelder-Mead serves one.
    nlopt_opt opt = nlopt_create(n >= 2 ? NLOPT_LN_BOBYQA : NLOPT_LN_NELDERMEAD, static_cast<unsigned>(n));
    if (!opt) break;
    std::vector<double> lo(n, 0.0), hi(n, 1.0), step(n, 0.05);
    nlopt_set_lower_bounds(opt, lo.data());
    nlopt_set_upper_bounds(opt, hi.data());
    nlopt_set_initial_step(opt, step.data());
    nlopt_set_max_objective(opt, nlopt_objective, &reduced);
    nlopt_set_maxeval(opt, options.refine_evals);
    double found = 0.0;
    nlopt_optimize(opt, w.data(), &found);  // the best point seen is tracked in ctx
    nlopt_destroy(opt);
  }
  SearchResult out;
  out.u = best.u;
  out.s = best.s;
  out.value = best.value;
  out.evaluations = evaluations;
  return out;
}

}  // namespace rescue::acq
