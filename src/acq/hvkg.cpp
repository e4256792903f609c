#include "acq/hvkg.hpp"

#include <algorithm>
#include <cmath>

#include "acq/candidate_search.hpp"
#include "acq/inner_selection.hpp"
#include "acq/recommender.hpp"
#include "moo/hv_greedy.hpp"
#include "util/error.hpp"
#include "util/sobol.hpp"

namespace rescue::acq {

Eigen::MatrixXd inner_pool(const ProblemSpec& spec, const Surrogate& model, const std::vector<Observation>& observations,
                           int n_sobol, int perturbations, Rng& rng) {
  const int d = spec.dim();
  std::vector<std::vector<double>> rows;
  Sobol sobol(d, true, rng);
  for (int i = 0; i < n_sobol; ++i) rows.push_back(sobol.next());
  // A small recommender of the pool's own, whatever the user's recommend.*
  // settings: its points only seed the pool.
  RecommenderOptions ro;
  ro.population = 32;
  ro.generations = 25;
  ro.max_points = 100;
  ro.feasibility = 0.5;
  if (auto rec = recommend_from_model(spec, model, observations, rng, ro)) {
    std::vector<double> u(d);
    for (const auto& x : rec->x) {
      spec.to_unit(x.data(), u.data());
      rows.push_back(u);
      for (int p = 0; p < perturbations; ++p) {
        std::vector<double> v = u;
        perturb_unit(spec, v.data(), 0.05, rng);
        rows.push_back(v);
      }
    }
  }
  Eigen::MatrixXd pool(static_cast<Eigen::Index>(rows.size()), d);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    snap_unit(spec, rows[i].data());
    for (int j = 0; j < d; ++j) pool(static_cast<Eigen::Index>(i), j) = rows[i][j];
  }
  return pool;
}

double InnerMaximization::operator()(const RowMatrix& objectives) const {
  if (static_cast<std::size_t>(objectives.rows()) != n || static_cast<std::size_t>(objectives.cols()) != m)
    fail(Status::Internal, "hvkg: inner maximization over a pool of the wrong shape");
  if (ci != nullptr && w > 0.0) return greedy_gp_ci(objectives.data(), ci, n, m, ref, w, max_points);
  return moo::greedy_hv_selection(objectives.data(), n, m, ref, max_points).hypervolume;
}

std::vector<double> inner_reference_point(const ProblemSpec& spec, const std::vector<Observation>& observations,
                                          const RowMatrix& pool_means) {
  std::vector<double> ref = reference_point_min(spec, observations);
  if (!spec.reference_point().empty() || pool_means.rows() == 0) return ref;
  const Eigen::Index M = pool_means.cols();
  for (Eigen::Index i = 0; i < pool_means.rows(); ++i) {
    bool inside = true;
    for (Eigen::Index m = 0; m < M && inside; ++m) inside = pool_means(i, m) < ref[static_cast<std::size_t>(m)];
    if (inside) return ref;
  }
  return front_reference_point(pool_means.data(), static_cast<std::size_t>(pool_means.rows()), static_cast<int>(M));
}

double expected_inner_value(const gp::MultiFidelityGp& gp, const gp::PreparedPool& pool, const Eigen::VectorXd& candidate,
                            const Eigen::MatrixXd& base, const InnerMaximization& inner) {
  const std::vector<Eigen::MatrixXd> fantasies = gp.fantasy_means(pool, candidate, base);
  if (fantasies.empty()) fail(Status::Internal, "hvkg: no fantasies");
  RowMatrix objs;
  double total = 0.0;
  for (const Eigen::MatrixXd& f : fantasies) {
    objs = f.leftCols(static_cast<Eigen::Index>(inner.m));
    total += inner(objs);
  }
  return total / static_cast<double>(fantasies.size());
}

std::optional<Suggestion> Hvkg::least_certain_recommended(const EngineView& view,
                                                          const std::vector<std::vector<double>>& recommended) const {
  const ProblemSpec& spec = view.spec;
  const int d = spec.dim();
  // Configurations already pending at the target are left out: in a settled
  // model every variance is near its floor, and believing a pending check at
  // its mean need not move the choice elsewhere.
  std::vector<std::vector<double>> pending;
  for (const auto& p : view.pending) {
    if (p.s != spec.fidelity().target) continue;
    std::vector<double> u(d);
    spec.to_unit(p.x.data(), u.data());
    pending.push_back(u);
  }
  auto is_pending = [&](const std::vector<double>& u) {
    for (const auto& q : pending) {
      double gap = 0.0;
      for (int j = 0; j < d; ++j) gap = std::max(gap, std::abs(u[j] - q[j]));
      if (gap < 1e-3) return true;
    }
    return false;
  };
  if (recommended.empty()) return std::nullopt;
  Eigen::MatrixXd z(static_cast<Eigen::Index>(recommended.size()), d);
  for (std::size_t i = 0; i < recommended.size(); ++i)
    for (int j = 0; j < d; ++j) z(static_cast<Eigen::Index>(i), j) = recommended[i][j];
  Eigen::MatrixXd mean, var;
  model_.predict(with_fidelity(z, model_.target_unit()), &mean, &var);
  // Variance of each output (objectives and constraint metrics) in units of
  // the larger of its spread over the recommended set and its largest
  // magnitude there (so a set of one point, or a flat output, has a scale),
  // summed over the outputs.
  Eigen::VectorXd score = Eigen::VectorXd::Zero(z.rows());
  for (Eigen::Index m = 0; m < mean.cols(); ++m) {
    const double spread = mean.col(m).maxCoeff() - mean.col(m).minCoeff();
    const double unit = std::max({spread, mean.col(m).cwiseAbs().maxCoeff(), 1e-12});
    score += var.col(m) / (unit * unit);
  }
  std::vector<double> x(d);
  int chosen = -1;
  for (std::size_t i = 0; i < recommended.size(); ++i) {
    spec.from_unit(recommended[i].data(), x.data());
    if (spec.cost(x.data(), spec.fidelity().target) > view.max_cost || is_pending(recommended[i])) continue;
    if (chosen < 0 || score[static_cast<Eigen::Index>(i)] > score[chosen]) chosen = static_cast<int>(i);
  }
  if (chosen < 0) return std::nullopt;
  return Suggestion{to_user(recommended[static_cast<std::size_t>(chosen)]), spec.fidelity().target};
}

TargetPool Hvkg::target_pool(const EngineView& view, Rng& rng, std::vector<std::vector<double>>* recommended) const {
  const ProblemSpec& spec = view.spec;
  const int d = spec.dim();
  TargetPool t;
  t.pool = inner_pool(spec, model_, view.observations, options_.pool, 2, rng);
  // The rows inner_pool built: the Sobol part, then each recommended point and
  // its two perturbations; rows keep_feasible appends only widen the pool.
  const Eigen::Index built_rows = t.pool.rows();
  t.z = with_fidelity(t.pool, model_.target_unit());
  model_.predict(t.z, &t.mean, &t.var);
  if (spec.num_constraints() > 0) {
    keep_feasible(spec, model_, view.observations, options_, rng, &t);
  } else {
    for (Eigen::Index i = 0; i < t.pool.rows(); ++i) t.keep.push_back(i);
  }
  // The recommended points (every third row after the Sobol part) also start
  // the outer search, and so does the configuration most likely feasible when
  // it seeded the pool (then no recommended point passed, and there may have
  // been none).
  auto row = [&](Eigen::Index i) {
    std::vector<double> u(d);
    for (int j = 0; j < d; ++j) u[j] = t.pool(i, j);
    return u;
  };
  for (Eigen::Index i = options_.pool; i < built_rows; i += 3) recommended->push_back(row(i));
  if (t.seeded_row >= 0) recommended->push_back(row(t.seeded_row));
  return t;
}

SearchResult Hvkg::maximize_gain(const EngineView& view, const Eigen::MatrixXd& z, const InnerMaximization& inner,
                                 double nu_star, const std::vector<std::vector<double>>& starts, Rng& rng) const {
  const ProblemSpec& spec = view.spec;
  const int d = spec.dim();
  const gp::MultiFidelityGp& gp = model_.gp();
  const double floor = spec.num_constraints() > 0 ? outer_feasibility_floor() : 0.0;
  Eigen::MatrixXd zt(1, d + 1), mt, vt;
  const gp::PreparedPool prepared = gp.prepare_pool(z);
  const Eigen::MatrixXd base = gp.draw_base_samples(options_.fantasies, rng);
  std::vector<double> x(d);
  Eigen::VectorXd cand(d + 1);
  auto value = [&](const double* u, double s) {
    spec.from_unit(u, x.data());
    for (int j = 0; j < d; ++j) cand[j] = zt(0, j) = u[j];
    if (floor > 0.0) {
      zt(0, d) = model_.target_unit();
      model_.predict(zt, &mt, &vt);
      if (model_.probability_feasible(mt, vt)[0] < floor) return -HUGE_VAL;
    }
    cand[d] = spec.fidelity().unit(s);
    return cost_normalized_gain(expected_inner_value(gp, prepared, cand, base, inner) - nu_star, spec.cost(x.data(), s));
  };
  return maximize_acquisition(spec, value, rng, options_.search.within(view.max_cost), starts);
}

std::optional<Suggestion> Hvkg::propose(const EngineView& view, Rng& rng) {
  const ProblemSpec& spec = view.spec;
  const int d = spec.dim(), M = spec.num_objectives();
  std::vector<std::vector<double>> recommended;
  const TargetPool t = target_pool(view, rng, &recommended);
  if (t.keep.empty()) return seek_feasibility(view, model_, options_, t, rng);
  Eigen::MatrixXd z(static_cast<Eigen::Index>(t.keep.size()), d + 1);
  RowMatrix current(static_cast<Eigen::Index>(t.keep.size()), M);
  for (std::size_t i = 0; i < t.keep.size(); ++i) {
    z.row(static_cast<Eigen::Index>(i)) = t.z.row(t.keep[i]);
    current.row(static_cast<Eigen::Index>(i)) = t.mean.row(t.keep[i]).leftCols(M);
  }
  // Inner maximization: HV of the posterior means, plus w HV of the causal
  // estimates of the same set for C-HVKG (computed once: they do not depend on
  // the fantasies).
  const std::vector<double> ref = inner_reference_point(spec, view.observations, current);
  RowMatrix ci;
  const double w = causal_weight();
  InnerMaximization inner;
  inner.n = t.keep.size();
  inner.m = static_cast<std::size_t>(M);
  inner.max_points = options_.set_size;
  inner.ref = ref.data();
  if (w > 0.0 && causal_objectives(z, &ci)) {
    inner.ci = ci.data();
    inner.w = w;
  }
  const double nu_star = inner(current);
  const SearchResult best = maximize_gain(view, z, inner, nu_star, recommended, rng);
  if (best.u.empty()) return std::nullopt;
  // A knowledge gradient that is zero everywhere (to within the inner search's
  // rounding) while the recommended set has a hypervolume means the model holds
  // its recommendation settled; divided by the cost, such gains only rank
  // fidelities by price, and the run would spend itself on the cheapest one
  // whatever it can teach. Check the belief where it matters instead: the
  // recommended configuration least certain at the target. (With no
  // hypervolume yet, a zero gain says only that nothing is predicted to reach
  // the reference point; the search's own choice stands.) The tolerance
  // (kg.zero_gain) sits at the resolution of the fantasy arithmetic, not at
  // "small": small true gains of cheap fidelities still rank well once
  // divided by their cost.
  const double tolerance = options_.zero_gain * nu_star;
  std::vector<double> xb(d);
  spec.from_unit(best.u.data(), xb.data());
  const double best_gain = best.value > 0.0 ? best.value * spec.cost(xb.data(), best.s) : best.value;
  if (nu_star > 0.0 && best_gain <= tolerance) {
    if (auto check = least_certain_recommended(view, recommended)) return check;
  }
  return Suggestion{to_user(best.u), best.s};
}

}  // namespace rescue::acq
