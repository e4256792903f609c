#include "acq/feasibility_search.hpp"

#include <algorithm>
#include <cmath>

#include "acq/candidate_search.hpp"

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

void keep_feasible(const ProblemSpec& spec, const Surrogate& model, const std::vector<Observation>& observations,
                   const HvkgOptions& options, Rng& rng, TargetPool* target) {
  const int d = spec.dim();
  const double threshold = options.feasibility_threshold;
  const Eigen::VectorXd pof = model.probability_feasible(target->mean, target->var);
  for (Eigen::Index i = 0; i < pof.size(); ++i)
    if (pof[i] >= threshold) target->keep.push_back(i);
  const std::size_t want = options.feasible_pool;
  if (target->keep.empty() && want > 0) {
    // Nothing in the pool passes, which may be the pool's doing, not the
    // model's: look for the configuration the model holds most likely
    // feasible. If it passes, it seeds the pool; if not (and no observed
    // configuration passes either, which widening would move from), it is
    // the one seek_feasibility checks at the target when no observation is
    // expected to teach anything about feasibility.
    const std::vector<double> u =
        most_likely_feasible(spec, model, options.search, target->pool,
                             model.log_probability_feasible(target->mean, target->var), rng)
            .u;
    if (!u.empty()) {
      Eigen::MatrixXd zr(1, d + 1), mr, vr;
      for (int j = 0; j < d; ++j) zr(0, j) = u[static_cast<std::size_t>(j)];
      zr(0, d) = model.target_unit();
      model.predict(zr, &mr, &vr);
      const Eigen::Index r = append_rows(zr, mr, vr, {0}, &target->pool, &target->z, &target->mean, &target->var);
      if (model.probability_feasible(mr, vr)[0] >= threshold) {
        target->keep.push_back(r);
        target->seeded_row = r;
      }
    }
  }
  if (target->keep.size() < want)
    widen_feasible_pool(spec, model, observations, threshold, want, 4, rng, &target->pool, &target->z, &target->mean,
                        &target->var, &target->keep);
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
      perturb_unit(spec, v.data(), scale, rng);
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

LikelyFeasible most_likely_feasible(const ProblemSpec& spec, const Surrogate& model, const SearchOptions& search,
                                    const Eigen::MatrixXd& pool, const Eigen::VectorXd& log_pof, Rng& rng) {
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
  SearchOptions o = search.within(HUGE_VAL);
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

std::optional<Suggestion> seek_feasibility(const EngineView& view, const Surrogate& model, const HvkgOptions& options,
                                           const TargetPool& target, Rng& rng) {
  const ProblemSpec& spec = view.spec;
  const int d = spec.dim();
  const gp::MultiFidelityGp& gp = model.gp();
  const Eigen::MatrixXd &mean = target.mean, &var = target.var;
  const int K = 2 * options.fantasies;
  const gp::PreparedPool prepared = gp.prepare_pool(target.z);
  const Eigen::MatrixXd base = gp.draw_base_samples(K, rng);
  const double best_now = model.probability_feasible(mean, var).maxCoeff();
  std::vector<double> x(d);
  Eigen::VectorXd cand(d + 1);
  auto value = [&](const double* u, double s) {
    spec.from_unit(u, x.data());
    for (int j = 0; j < d; ++j) cand[j] = u[j];
    cand[d] = spec.fidelity().unit(s);
    const double gain = expected_best_feasibility(model, prepared, mean, var, cand, base) - best_now;
    return cost_normalized_gain(gain, spec.cost(x.data(), s));
  };
  // Start the search also from the configurations closest to feasible (by the
  // logarithm: far from feasibility every probability underflows to zero).
  const std::vector<std::vector<double>> extra =
      most_likely_rows(target.pool, model.log_probability_feasible(mean, var), 8);
  const SearchResult best = maximize_acquisition(spec, value, rng, options.search.within(view.max_cost), extra);
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
        return Suggestion{x, spec.fidelity().target};
    }
    if (best.u.empty()) return std::nullopt;
  }
  spec.from_unit(best.u.data(), x.data());
  return Suggestion{x, best.s};
}

}  // namespace rescue::acq
