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

namespace {

// The rows of `pool` (unit configurations) with the k largest log
// probabilities of feasibility, most likely first.
std::vector<std::vector<double>> most_likely_rows(const Eigen::MatrixXd& pool, const Eigen::VectorXd& log_pof,
                                                  std::size_t k) {
  std::vector<Eigen::Index> order(static_cast<std::size_t>(log_pof.size()));
  for (Eigen::Index i = 0; i < log_pof.size(); ++i) order[static_cast<std::size_t>(i)] = i;
  const std::size_t n = std::min(k, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                    [&](Eigen::Index a, Eigen::Index b) { return log_pof[a] > log_pof[b]; });
  std::vector<std::vector<double>> rows;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> u(static_cast<std::size_t>(pool.cols()));
    for (Eigen::Index j = 0; j < pool.cols(); ++j) u[static_cast<std::size_t>(j)] = pool(order[i], j);
    rows.push_back(u);
  }
  return rows;
}

// Appends rows `pick` of zc (target-fidelity inputs, d + 1 columns) and of
// their posterior mc, vc to the pool (zc without its fidelity column), z, mean
// and var; returns the index the first of them gets.
Eigen::Index append_rows(const Eigen::MatrixXd& zc, const Eigen::MatrixXd& mc, const Eigen::MatrixXd& vc,
                         const std::vector<Eigen::Index>& pick, Eigen::MatrixXd* pool, Eigen::MatrixXd* z,
                         Eigen::MatrixXd* mean, Eigen::MatrixXd* var) {
  const Eigen::Index n0 = pool->rows(), k = static_cast<Eigen::Index>(pick.size()), d = pool->cols();
  pool->conservativeResize(n0 + k, Eigen::NoChange);
  z->conservativeResize(n0 + k, Eigen::NoChange);
  mean->conservativeResize(n0 + k, Eigen::NoChange);
  var->conservativeResize(n0 + k, Eigen::NoChange);
  for (Eigen::Index r = 0; r < k; ++r) {
    const Eigen::Index i = pick[static_cast<std::size_t>(r)];
    pool->row(n0 + r) = zc.row(i).leftCols(d);
    z->row(n0 + r) = zc.row(i);
    mean->row(n0 + r) = mc.row(i);
    var->row(n0 + r) = vc.row(i);
  }
  return n0;
}

}  // namespace

SearchOptions search_options(const ProblemSpec& spec, double max_cost) {
  SearchOptions o;
  o.starts = std::max(1, static_cast<int>(spec.param("acq.starts", 128)));
  o.refine = std::max(0, static_cast<int>(spec.param("acq.refine", 3)));
  o.refine_evals = std::max(1, static_cast<int>(spec.param("acq.refine_evals", 40)));
  o.max_cost = max_cost;
  return o;
}

Eigen::MatrixXd inner_pool(const ProblemSpec& spec, const Surrogate& model, const std::vector<Observation>& observations,
                           int n_sobol, int perturbations, Rng& rng) {
  const int d = spec.dim();
  std::vector<std::vector<double>> rows;
  Sobol sobol(d, true, rng);
  for (int i = 0; i < n_sobol; ++i) rows.push_back(sobol.next());
  RecommenderOptions ro;
  ro.population = 32;
  ro.generations = 25;
  if (auto rec = recommend_from_model(spec, model, observations, rng, ro)) {
    std::vector<double> u(d);
    for (const auto& x : rec->x) {
      spec.to_unit(x.data(), u.data());
      rows.push_back(u);
      for (int p = 0; p < perturbations; ++p) {
        std::vector<double> v = u;
        for (double& t : v) t = std::min(1.0, std::max(0.0, t + 0.05 * rng.normal()));
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

int widen_feasible_pool(const ProblemSpec& spec, const Surrogate& model, const std::vector<Observation>& observations,
                        double threshold, std::size_t want, int rounds, Rng& rng, Eigen::MatrixXd* pool,
                        Eigen::MatrixXd* z, Eigen::MatrixXd* mean, Eigen::MatrixXd* var,
                        std::vector<Eigen::Index>* keep) {
  const int d = spec.dim();
  const double target = model.target_unit();
  // Eigen matrices are column-major: a row is copied element by element.
  auto row_of = [d](const Eigen::MatrixXd& a, Eigen::Index i) {
    std::vector<double> u(static_cast<std::size_t>(d));
    for (int j = 0; j < d; ++j) u[static_cast<std::size_t>(j)] = a(i, j);
    return u;
  };
  // Seeds: the kept rows and the observed configurations (failed evaluations
  // left out) predicted feasible at the target (an observation's own
  // feasibility may have been at a cheap fidelity, so the prediction decides).
  std::vector<std::vector<double>> seeds;
  for (Eigen::Index i : *keep) seeds.push_back(row_of(*pool, i));
  std::vector<const Observation*> evaluated;
  for (const Observation& o : observations)
    if (!o.failed) evaluated.push_back(&o);
  if (!evaluated.empty()) {
    Eigen::MatrixXd zo(static_cast<Eigen::Index>(evaluated.size()), d + 1), mo, vo;
    std::vector<double> u(d);
    for (std::size_t i = 0; i < evaluated.size(); ++i) {
      spec.to_unit(evaluated[i]->x.data(), u.data());
      for (int j = 0; j < d; ++j) zo(static_cast<Eigen::Index>(i), j) = u[j];
      zo(static_cast<Eigen::Index>(i), d) = target;
    }
    model.predict(zo, &mo, &vo);
    const Eigen::VectorXd pof = model.probability_feasible(mo, vo);
    for (Eigen::Index i = 0; i < pof.size(); ++i)
      if (pof[i] >= threshold) seeds.push_back(row_of(zo, i));
  }
  if (seeds.empty()) return 0;
  // Moves at several scales: the small ones fill the neighbourhood of the
  // recommendation, the large ones reach other feasible parts of the space.
  // Points found feasible seed the next round, so the pool spreads along the
  // feasible region rather than around its first points only.
  static constexpr double kScales[] = {0.02, 0.05, 0.1, 0.2};
  const std::size_t batch = std::max<std::size_t>(64, 2 * want);
  int added = 0;
  for (int round = 0; round < rounds && keep->size() < want; ++round) {
    Eigen::MatrixXd cand(static_cast<Eigen::Index>(batch), d + 1);
    for (std::size_t b = 0; b < batch; ++b) {
      const std::vector<double>& from = seeds[rng.below(seeds.size())];
      const double scale = kScales[b % 4];
      std::vector<double> v(from);
      for (double& t : v) t = std::min(1.0, std::max(0.0, t + scale * rng.normal()));
      snap_unit(spec, v.data());
      for (int j = 0; j < d; ++j) cand(static_cast<Eigen::Index>(b), j) = v[j];
      cand(static_cast<Eigen::Index>(b), d) = target;
    }
    Eigen::MatrixXd mc, vc;
    model.predict(cand, &mc, &vc);
    const Eigen::VectorXd pof = model.probability_feasible(mc, vc);
    std::vector<Eigen::Index> pass;
    for (Eigen::Index i = 0; i < pof.size() && keep->size() + pass.size() < want; ++i)
      if (pof[i] >= threshold) pass.push_back(i);
    if (pass.empty()) continue;
    const Eigen::Index n0 = append_rows(cand, mc, vc, pass, pool, z, mean, var);
    for (std::size_t r = 0; r < pass.size(); ++r) {
      keep->push_back(n0 + static_cast<Eigen::Index>(r));
      seeds.push_back(row_of(cand, pass[r]));
      ++added;
    }
  }
  return added;
}

LikelyFeasible most_likely_feasible(const ProblemSpec& spec, const Surrogate& model, const Eigen::MatrixXd& pool,
                                    const Eigen::VectorXd& log_pof, Rng& rng) {
  const int d = spec.dim();
  const std::vector<std::vector<double>> starts = most_likely_rows(pool, log_pof, 8);
  Eigen::MatrixXd zt(1, d + 1), mt, vt;
  zt(0, d) = model.target_unit();
  // The logarithm: far from the feasible region every probability underflows
  // to zero and would give the local search no slope.
  auto value = [&](const double* u, double) {
    for (int j = 0; j < d; ++j) zt(0, j) = u[j];
    model.predict(zt, &mt, &vt);
    return model.log_probability_feasible(mt, vt)[0];
  };
  SearchOptions o = search_options(spec, HUGE_VAL);
  o.target_only = true;
  // One prediction per evaluation is cheap beside a knowledge gradient; the
  // local search gets enough evaluations to build its model in d dimensions.
  o.refine_evals = std::max(o.refine_evals, 10 * (d + 1));
  const SearchResult best = maximize_acquisition(spec, value, rng, o, starts);
  LikelyFeasible found;
  if (!best.u.empty()) {
    found.u = best.u;
    found.probability = std::exp(best.value);
  }
  return found;
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

double expected_best_feasibility(const Surrogate& model, const gp::PreparedPool& pool, const Eigen::MatrixXd& mean,
                                 const Eigen::MatrixXd& var, const Eigen::VectorXd& candidate,
                                 const Eigen::MatrixXd& base) {
  const gp::MultiFidelityGp& gp = model.gp();
  // The variance the observation leaves does not depend on the value observed;
  // the 2P sigma-point fantasies give it exactly. With it, each fantasy's
  // probability of feasibility is the one the model would then hold, a
  // martingale: the expected best over the pool exceeds today's best only by
  // what the observation can tell apart. (The sigma points alone would be a
  // poor quadrature of that expectation: in the tail, where every probability
  // lies in this mode, they put a fixed weight 1/(2P) on each outcome.)
  const Eigen::MatrixXd after = gp::fantasy_variance(var, mean, gp.fantasy_means(pool, candidate, gp.sigma_point_samples()));
  const std::vector<Eigen::MatrixXd> fantasies = gp.fantasy_means(pool, candidate, base);
  double total = 0.0;
  for (const Eigen::MatrixXd& f : fantasies) total += model.probability_feasible(f, after).maxCoeff();
  return total / static_cast<double>(fantasies.size());
}

std::optional<Suggestion> Hvkg::seek_feasibility(const EngineView& view, const Eigen::MatrixXd& z,
                                                 const Eigen::MatrixXd& mean, const Eigen::MatrixXd& var,
                                                 const Eigen::MatrixXd& pool, Rng& rng) const {
  const ProblemSpec& spec = view.spec;
  const int d = spec.dim();
  const gp::MultiFidelityGp& gp = model_.gp();
  const int K = 2 * std::max(1, static_cast<int>(spec.param("kg.fantasies", 8)));
  const gp::PreparedPool prepared = gp.prepare_pool(z);
  const Eigen::MatrixXd base = gp.draw_base_samples(K, rng);
  const double best_now = model_.probability_feasible(mean, var).maxCoeff();
  std::vector<double> x(d);
  Eigen::VectorXd cand(d + 1);
  auto value = [&](const double* u, double s) {
    spec.from_unit(u, x.data());
    for (int j = 0; j < d; ++j) cand[j] = u[j];
    cand[d] = spec.fidelity().unit(s);
    const double gain = expected_best_feasibility(model_, prepared, mean, var, cand, base) - best_now;
    return cost_normalized_gain(gain, spec.cost(x.data(), s));
  };
  // Start the search also from the configurations closest to feasible (by the
  // logarithm: far from feasibility every probability underflows to zero).
  const std::vector<std::vector<double>> extra =
      most_likely_rows(pool, model_.log_probability_feasible(mean, var), 8);
  const SearchResult best = maximize_acquisition(spec, value, rng, search_options(spec, view.max_cost), extra);
  // A gain below one in a billion is rounding, not information; divided by a
  // small cost it would still rank first.
  double gain = -HUGE_VAL;
  if (!best.u.empty()) {
    spec.from_unit(best.u.data(), x.data());
    gain = best.value > 0.0 ? best.value * spec.cost(x.data(), best.s) : best.value;
  }
  if (!(gain > 1e-9)) {
    // No observation is expected to move any belief about feasibility: check
    // the configuration closest to feasible where it counts, at the target.
    // (The first affordable one: the most likely feasible may cost more there
    // than the budget left, where the cost depends on the configuration.)
    for (const std::vector<double>& u : extra) {
      spec.from_unit(u.data(), x.data());
      if (spec.cost(x.data(), spec.fidelity().target) <= view.max_cost)
        return Suggestion{to_user(u), spec.fidelity().target};
    }
    if (best.u.empty()) return std::nullopt;
  }
  return Suggestion{to_user(best.u), best.s};
}

std::optional<Suggestion> Hvkg::propose(const EngineView& view, Rng& rng) {
  const ProblemSpec& spec = view.spec;
  const int d = spec.dim(), M = spec.num_objectives();
  const int K = std::max(1, static_cast<int>(spec.param("kg.fantasies", 8)));
  const std::size_t P = static_cast<std::size_t>(std::max(1.0, spec.param("kg.set_size", 10)));
  const int n_pool = std::max(8, static_cast<int>(spec.param("kg.pool", 256)));
  const double threshold = spec.param("feasibility.threshold", 0.5);
  const gp::MultiFidelityGp& gp = model_.gp();

  // Pool at the target fidelity, restricted to predicted-feasible configurations.
  Eigen::MatrixXd pool_all = inner_pool(spec, model_, view.observations, n_pool, 2, rng);
  // The rows inner_pool built (Sobol part, then each recommended point and its
  // two perturbations); rows appended below only widen the inner pool.
  const Eigen::Index built_rows = pool_all.rows();
  Eigen::MatrixXd z_all = with_fidelity(pool_all, model_.target_unit());
  Eigen::MatrixXd mean, var;
  model_.predict(z_all, &mean, &var);
  std::vector<Eigen::Index> keep;
  Eigen::Index seeded_row = -1;  // the configuration most likely feasible, when it seeded the pool
  if (spec.num_constraints() > 0) {
    const Eigen::VectorXd pof = model_.probability_feasible(mean, var);
    for (Eigen::Index i = 0; i < pof.size(); ++i)
      if (pof[i] >= threshold) keep.push_back(i);
    // Where the feasible region is a sliver of the space (the robot stand-in:
    // none or one of 256 Sobol points passes), the kept pool is the
    // recommendation and its close moves only, and the gain values a point
    // only by how it improves configurations next to the recommendation.
    const auto want = static_cast<std::size_t>(std::max(0.0, spec.param("kg.feasible_pool", 64)));
    if (keep.empty() && want > 0) {
      // Nothing in the pool passes, which may be the pool's doing, not the
      // model's: look for the configuration the model holds most likely
      // feasible. If it passes, it seeds the pool and the knowledge gradient
      // proceeds; if not (and no observed configuration passes either, which
      // widening would move from), it is the one seek_feasibility checks at
      // the target when no observation is expected to teach anything about
      // feasibility.
      const std::vector<double> u =
          most_likely_feasible(spec, model_, pool_all, model_.log_probability_feasible(mean, var), rng).u;
      if (!u.empty()) {
        Eigen::MatrixXd zr(1, d + 1), mr, vr;
        for (int j = 0; j < d; ++j) zr(0, j) = u[static_cast<std::size_t>(j)];
        zr(0, d) = model_.target_unit();
        model_.predict(zr, &mr, &vr);
        const Eigen::Index r = append_rows(zr, mr, vr, {0}, &pool_all, &z_all, &mean, &var);
        if (model_.probability_feasible(mr, vr)[0] >= threshold) {
          keep.push_back(r);
          seeded_row = r;
        }
      }
    }
    if (keep.size() < want)
      widen_feasible_pool(spec, model_, view.observations, threshold, want, 4, rng, &pool_all, &z_all, &mean, &var,
                          &keep);
    if (keep.empty()) return seek_feasibility(view, z_all, mean, var, pool_all, rng);
  } else {
    for (Eigen::Index i = 0; i < pool_all.rows(); ++i) keep.push_back(i);
  }
  Eigen::MatrixXd z(static_cast<Eigen::Index>(keep.size()), d + 1);
  RowMatrix current(static_cast<Eigen::Index>(keep.size()), M);
  for (std::size_t i = 0; i < keep.size(); ++i) {
    z.row(static_cast<Eigen::Index>(i)) = z_all.row(keep[i]);
    current.row(static_cast<Eigen::Index>(i)) = mean.row(keep[i]).leftCols(M);
  }
  const std::vector<double> ref = inner_reference_point(spec, view.observations, current);
  // Inner maximization: HV of the posterior means, plus w HV of the causal
  // estimates of the same set for C-HVKG (computed once: they do not depend on
  // the fantasies).
  RowMatrix ci;
  const double w = causal_weight();
  const bool with_ci = w > 0.0 && causal_objectives(z, &ci);
  InnerMaximization inner;
  inner.n = keep.size();
  inner.m = static_cast<std::size_t>(M);
  inner.max_points = P;
  inner.ref = ref.data();
  if (with_ci) {
    inner.ci = ci.data();
    inner.w = w;
  }
  const double nu_star = inner(current);
  // The recommended points (every third row after the Sobol part: a point and
  // its two perturbations) also start the outer search, and so does the
  // configuration most likely feasible when it seeded the pool (then no
  // recommended point passed, and there may have been none).
  std::vector<std::vector<double>> extra;
  for (Eigen::Index i = n_pool; i < built_rows; i += 3) {
    std::vector<double> u(d);
    for (int j = 0; j < d; ++j) u[j] = pool_all(i, j);
    extra.push_back(u);
  }
  if (seeded_row >= 0) {
    std::vector<double> u(d);
    for (int j = 0; j < d; ++j) u[j] = pool_all(seeded_row, j);
    extra.push_back(u);
  }
  // Checks of the recommendation: the least certain recommended configuration
  // at the target, while the checks stay within kg.verify_share of the cost
  // spent (this one included). Decided before the pool is prepared for the
  // fantasies and their base samples are drawn, which a check does not use.
  const double share = spec.param("kg.verify_share", 0.0);
  if (share > 0.0 && nu_star > 0.0) {
    if (auto check = least_certain_recommended(view, extra)) {
      const double c = spec.cost(check->x.data(), check->s);
      if (checked_cost_ + c <= share * (view.spent + c)) {
        checked_cost_ += c;
        return check;
      }
    }
  }
  const double floor = spec.num_constraints() > 0 ? outer_feasibility_floor() : 0.0;
  Eigen::MatrixXd zt(1, d + 1), mt, vt;

  const gp::PreparedPool prepared = gp.prepare_pool(z);
  const Eigen::MatrixXd base = gp.draw_base_samples(K, rng);
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
  const SearchResult best = maximize_acquisition(spec, value, rng, search_options(spec, view.max_cost), extra);
  if (best.u.empty()) return std::nullopt;
  // A knowledge gradient that is zero everywhere (to within the inner search's
  // rounding) while the recommended set has a hypervolume means the model holds
  // its recommendation settled; divided by the cost, such gains only rank
  // fidelities by price, and the run would spend itself on the cheapest one
  // whatever it can teach. Check the belief where it matters instead: the
  // recommended configuration least certain at the target. (With no
  // hypervolume yet, a zero gain says only that nothing is predicted to reach
  // the reference point; the search's own choice stands.) The tolerance sits
  // at the resolution of the fantasy arithmetic, not at "small": on healthcare
  // the estimates of a settled model scatter about zero within +-3e-9 of the
  // value, while the small true gains of cheap fidelities on Branin-Currin and
  // Park lie mostly above 1e-8 of it (and still rank well once divided by
  // their cost); 1e-6 caught many of those and spent the budget on checks.
  const double tolerance = spec.param("kg.zero_gain", 1e-8) * nu_star;
  std::vector<double> xb(d);
  spec.from_unit(best.u.data(), xb.data());
  const double best_gain = best.value > 0.0 ? best.value * spec.cost(xb.data(), best.s) : best.value;
  if (nu_star > 0.0 && best_gain <= tolerance) {
    if (auto check = least_certain_recommended(view, extra)) return check;
  }
  return Suggestion{to_user(best.u), best.s};
}

nlohmann::json Hvkg::save_state() const {
  nlohmann::json j = ModelStrategy::save_state();
  j["checked_cost"] = checked_cost_;
  return j;
}

void Hvkg::load_state(const nlohmann::json& state, const EngineView& view) {
  ModelStrategy::load_state(state, view);
  checked_cost_ = 0.0;
  // Checkpoints of earlier builds have none.
  if (state.contains("checked_cost")) {
    if (!state["checked_cost"].is_number() || !(state["checked_cost"].get<double>() >= 0.0))
      fail(Status::CorruptCheckpoint, "checked_cost is not a cost");
    checked_cost_ = state["checked_cost"].get<double>();
  }
}

}  // namespace rescue::acq
