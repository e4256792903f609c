#include "acq/recommender.hpp"

#include <algorithm>
#include <cmath>

#include <unsupported/Eigen/SpecialFunctions>

#include "moo/hv_greedy.hpp"
#include "moo/nsga2.hpp"
#include "moo/pareto.hpp"

namespace rescue::acq {

RecommenderOptions RecommenderOptions::from(const ProblemSpec& spec) {
  RecommenderOptions o;
  o.population = static_cast<int>(spec.param("recommend.population"));
  o.generations = static_cast<int>(spec.param("recommend.generations"));
  o.max_points = static_cast<int>(spec.param("recommend.points"));
  o.feasibility = spec.param("recommend.feasibility");
  // Checked here too: checkpoints restore parameters without their domain
  // check, and a quantile of +-inf would turn every violation into NaN, which
  // counts as feasible.
  if (!(o.feasibility > 0.0 && o.feasibility < 1.0))
    fail(Status::OutOfRange, "recommend.feasibility must lie in (0, 1)");
  return o;
}

namespace {

// The nondominated rows of fs (n x M, minimized), thinned to the most
// hypervolume-preserving subset of at most max_points (reference: 10% beyond
// the set's nadir); indices ascending.
std::vector<std::size_t> thinned_front(const std::vector<double>& fs, std::size_t n, int M, int max_points) {
  std::vector<std::size_t> keep = moo::nondominated_indices(fs.data(), n, M, nullptr, false);
  if (static_cast<int>(keep.size()) <= max_points) return keep;
  std::vector<double> sub;
  for (std::size_t i : keep) sub.insert(sub.end(), &fs[i * M], &fs[i * M] + M);
  std::vector<double> ref(M, -HUGE_VAL), ideal(M, HUGE_VAL);
  for (std::size_t k = 0; k < keep.size(); ++k)
    for (int m = 0; m < M; ++m) {
      ref[m] = std::max(ref[m], sub[k * M + m]);
      ideal[m] = std::min(ideal[m], sub[k * M + m]);
    }
  for (int m = 0; m < M; ++m) ref[m] += 0.1 * std::max(ref[m] - ideal[m], 1e-12);
  const auto g = moo::greedy_hv_selection(sub.data(), keep.size(), M, ref.data(), max_points);
  std::vector<std::size_t> thinned;
  for (std::size_t k : g.indices) thinned.push_back(keep[k]);
  std::sort(thinned.begin(), thinned.end());
  return thinned;
}

}  // namespace

std::optional<ParetoSet> recommend_from_model(const ProblemSpec& spec, const Surrogate& model,
                                              const std::vector<Observation>& observations, Rng& rng,
                                              const RecommenderOptions& options) {
  if (!model.ready()) return std::nullopt;
  const int d = spec.dim(), M = spec.num_objectives();
  const double s_unit = model.target_unit();

  moo::Nsga2Problem problem;
  problem.n_var = d;
  problem.n_obj = M;
  problem.lower.assign(d, 0.0);
  problem.upper.assign(d, 1.0);
  // A categorical option is searched by its level index (unordered, moo::Nsga2Problem::categorical).
  const auto& opts = spec.options();
  if (spec.has_categorical()) {
    problem.categorical.assign(d, false);
    for (int j = 0; j < d; ++j)
      if (opts[j].categorical()) {
        problem.categorical[j] = true;
        problem.upper[j] = opts[j].levels() - 1;
      }
  }
  // The search's variables to unit coordinates (level index to its bin's middle).
  auto as_unit = [&](const double* v, double* u) {
    for (int j = 0; j < d; ++j)
      u[j] = opts[j].categorical() ? categorical_unit(static_cast<int>(v[j]), opts[j].levels()) : v[j];
  };
  auto as_variables = [&](const double* u, double* v) {
    for (int j = 0; j < d; ++j) v[j] = opts[j].categorical() ? categorical_level(u[j], opts[j].levels()) : u[j];
  };
  // Integer options are searched on the snapped values so that the model is
  // evaluated where a configuration could really be.
  std::vector<double> snapped(d), unit(d), raw(d);
  Eigen::MatrixXd z(1, d + 1);
  // A constraint holds with probability at least p where its mean, moved by
  // the normal quantile z_p standard deviations towards the threshold's wrong
  // side, still satisfies it. At p = 0.5 (z_p = 0) that is the mean itself,
  // and the variance is not computed.
  const int Q = spec.num_constraints();
  const double z_p = Q > 0 && options.feasibility != 0.5 ? Eigen::numext::ndtri(options.feasibility) : 0.0;
  problem.evaluate = [&](const double* v, double* f, double* violation) {
    as_unit(v, raw.data());
    spec.from_unit(raw.data(), snapped.data());
    spec.to_unit(snapped.data(), unit.data());
    for (int j = 0; j < d; ++j) z(0, j) = unit[j];
    z(0, d) = s_unit;
    Eigen::MatrixXd mean, var;
    model.predict(z, &mean, z_p != 0.0 ? &var : nullptr);
    for (int m = 0; m < M; ++m) f[m] = mean(0, m);
    if (z_p != 0.0)
      for (int q = 0; q < Q; ++q) {
        const double shift = z_p * std::sqrt(std::max(var(0, M + q), 0.0));
        mean(0, M + q) += spec.constraints()[q].sense == ConstraintSense::LessEqual ? shift : -shift;
      }
    *violation = model.mean_violation(mean.row(0));
  };

  // Seeds: every successfully observed configuration, in unit coordinates.
  std::vector<double> seeds;
  for (const auto& o : observations) {
    if (o.failed) continue;
    spec.to_unit(o.x.data(), unit.data());
    as_variables(unit.data(), raw.data());
    seeds.insert(seeds.end(), raw.begin(), raw.end());
  }
  const std::size_t n_seeds = std::min<std::size_t>(seeds.size() / std::max(d, 1), options.population);
  moo::Nsga2Options nopt;
  nopt.population = options.population;
  nopt.generations = options.generations;
  const moo::Nsga2Result res = moo::nsga2(problem, nopt, rng, seeds.data(), n_seeds);

  // Keep the feasible members of the first front, one per distinct configuration.
  std::vector<std::vector<double>> xs;
  std::vector<double> fs;
  for (std::size_t i : res.first_front) {
    if (res.violation[i] > 0.0) continue;
    std::vector<double> x(d);
    as_unit(&res.x[i * d], raw.data());
    spec.from_unit(raw.data(), x.data());
    if (std::find(xs.begin(), xs.end(), x) != xs.end()) continue;
    xs.push_back(std::move(x));
    fs.insert(fs.end(), &res.f[i * M], &res.f[i * M] + M);
  }
  ParetoSet out;
  if (xs.empty()) return out;
  const std::vector<std::size_t> keep = thinned_front(fs, xs.size(), M, options.max_points);
  for (std::size_t i : keep) {
    out.x.push_back(xs[i]);
    std::vector<double> y(M);
    for (int m = 0; m < M; ++m) y[m] = spec.to_min(m, fs[i * M + m]);  // back to the user's sense
    out.y.push_back(std::move(y));
  }
  return out;
}

}  // namespace rescue::acq
