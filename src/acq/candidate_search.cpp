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

double nlopt_objective(unsigned n, const double* v, double* grad, void* data) {
  (void)n;
  (void)grad;
  const double value = evaluate(*static_cast<RefineContext*>(data), v);
  return std::isfinite(value) ? value : -1e300;
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
    // BOBYQA needs at least two variables; Nelder-Mead serves one.
    nlopt_opt opt = nlopt_create(dims >= 2 ? NLOPT_LN_BOBYQA : NLOPT_LN_NELDERMEAD, static_cast<unsigned>(dims));
    if (!opt) break;
    std::vector<double> lo(dims, 0.0), hi(dims, 1.0), step(dims, 0.05);
    nlopt_set_lower_bounds(opt, lo.data());
    nlopt_set_upper_bounds(opt, hi.data());
    nlopt_set_initial_step(opt, step.data());
    nlopt_set_max_objective(opt, nlopt_objective, &ctx);
    nlopt_set_maxeval(opt, options.refine_evals);
    double value = 0.0;
    nlopt_optimize(opt, v.data(), &value);  // the best point seen is tracked in ctx
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
