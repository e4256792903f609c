// Multi-fidelity hypervolume knowledge gradient (Daulton et al., ICML 2023;
// the paper's C-HVKG without its causal term, Section "Causal Hypervolume
// Knowledge-Gradient"): for a candidate (x, s), the expected best hypervolume
// at the target fidelity of at most P configurations chosen from the fantasy-
// updated posterior mean, minus its current value, divided by cost(x, s).
//
// - Inner maximization: greedy hypervolume selection over a pool of target-
//   fidelity configurations: Sobol points, the current recommendation and
//   local perturbations of it. With constraints, the pool is restricted to
//   configurations predicted feasible (probability >= feasibility.threshold),
//   so the chosen sets are the feasible Pareto sets the
//   recommendation will return. When fewer than kg.feasible_pool of them pass,
//   the pool is widened by moves of the passing ones (widen_feasible_pool);
//   when none passes, the configuration most likely feasible is searched for
//   (most_likely_feasible) and, if it passes, seeds the pool.
// - Outer maximization: candidate_search (Sobol starts, local refinement;
//   discrete fidelities enumerated).
// - K fantasies with fixed base samples (common random numbers), drawn once per
//   suggestion, so the estimate is a deterministic function of (x, s).
// - Base samples in antithetic pairs, so first-order Monte Carlo noise cancels.
// - While nothing in the pool is predicted feasible at the target, every gain
//   above is zero; the search then values (x, s) by how much observing it is
//   expected to raise the best probability of feasibility at the target (a
//   knowledge gradient of max PF, with the posterior variances the observation
//   leaves), divided by the cost, so a cheap fidelity's value rests on how
//   informative the model holds it about the target's constraints. When no
//   observation is expected to change that probability, the configuration
//   most likely feasible (of those affordable there) is evaluated at the
//   target.
// - When the best estimated gain is zero (at most kg.zero_gain times the current
//   value), cost normalization has nothing left to weigh and would pick the
//   cheapest fidelity every time; the least certain recommended configuration
//   is evaluated at the target fidelity instead.
// Parameters (HvkgOptions): kg.fantasies, kg.set_size, kg.pool,
// kg.feasible_pool, kg.zero_gain, feasibility.threshold, and the search's
// acq.starts, acq.refine, acq.refine_evals.
#pragma once
#include <cstddef>

#include "acq/candidate_search.hpp"
#include "acq/feasibility_search.hpp"
#include "acq/model_strategy.hpp"
#include "acq/strategy_options.hpp"

namespace rescue::acq {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Pool of unit configurations for inner maximizations: n Sobol points, the
/// model's current recommendation, and `perturbations` Gaussian moves (sd 0.05)
/// of each recommended point; integers snapped. Row-major, d columns.
Eigen::MatrixXd inner_pool(const ProblemSpec& spec, const Surrogate& model, const std::vector<Observation>& observations,
                           int n_sobol, int perturbations, Rng& rng);

/// The inner maximization of (C-)HVKG over a pool of n target-fidelity
/// configurations: the greedy set of at most max_points of them maximizing
/// HV_GP + w HV_CI (paper, C-HVKG), HV_GP over the given objective values
/// (n x m, minimized) and HV_CI over `ci` (the causal estimates of the same
/// pool, n x m; null or w = 0 for plain HVKG), both against `ref` (m values).
/// Non-owning: the pointed-to arrays must outlive it.
struct InnerMaximization {
  std::size_t n = 0, m = 0, max_points = 1;
  const double* ref = nullptr;
  const double* ci = nullptr;
  double w = 0.0;
  double operator()(const RowMatrix& objectives) const;
};

/// The reference point of the inner maximization (minimization convention):
/// reference_point_min, except that an inferred one (the problem has none)
/// that no row of `pool_means` (n x M: the objectives' posterior means at the
/// kept target-fidelity pool) strictly dominates is replaced by the one
/// inferred from the front of those means. That happens when cheap fidelities
/// read better than the target: the observed front then lies beyond every
/// target prediction, every hypervolume is zero and so is every gain.
std::vector<double> inner_reference_point(const ProblemSpec& spec, const std::vector<Observation>& observations,
                                          const RowMatrix& pool_means);

/// The one-step lookahead value of observing `candidate` (unit configuration
/// and fidelity, d+1): the average over the fantasies of `base` (K x P
/// samples) of the inner maximization of the fantasy posterior means of the
/// objectives (the first inner.m outputs) at the pool. Minus the inner value of
/// today's posterior means it is the (C-)HVKG gain before the division by the
/// cost.
double expected_inner_value(const gp::MultiFidelityGp& gp, const gp::PreparedPool& pool, const Eigen::VectorXd& candidate,
                            const Eigen::MatrixXd& base, const InnerMaximization& inner);

class Hvkg : public ModelStrategy {
 public:
  explicit Hvkg(const ProblemSpec& spec, gp::GpOptions options = {})
      : ModelStrategy(spec, options), options_(HvkgOptions::from(spec_)) {}
  std::string name() const override { return "hvkg"; }

 protected:
  std::optional<Suggestion> propose(const EngineView& view, Rng& rng) override;
  /// The causal term of C-HVKG: estimates f_do of the objectives (minimization
  /// convention) at the target-fidelity inputs z; false when there is none.
  virtual bool causal_objectives(const Eigen::MatrixXd& z, RowMatrix* out) { return false; }
  /// w of HV_GP + w HV_CI.
  virtual double causal_weight() const { return 0.0; }
  /// Candidates (x, s) whose probability of feasibility at the target is below
  /// this are not considered by the outer maximization (paper, Eq. for (x_t, s_t)).
  virtual double outer_feasibility_floor() const { return 0.0; }

 private:
  /// The inner pool (inner_pool with 2 perturbations per recommended point) at
  /// the target with its posterior, restricted to the configurations predicted
  /// feasible there (keep_feasible); every row is kept without constraints.
  /// `recommended` receives the recommended points, and the seeded
  /// configuration, as starts of the outer search.
  TargetPool target_pool(const EngineView& view, Rng& rng, std::vector<std::vector<double>>* recommended) const;
  /// The outer maximization of the cost-normalized gain over (x, s) (paper,
  /// C-HVKG) against today's inner value nu_star, started also from `starts`.
  SearchResult maximize_gain(const EngineView& view, const Eigen::MatrixXd& z, const InnerMaximization& inner,
                             double nu_star, const std::vector<std::vector<double>>& starts, Rng& rng) const;
  /// The suggestion when every estimated gain is zero: of the recommended
  /// configurations (unit cube, the same rows that start the outer search), the
  /// one whose outputs are least certain at the target fidelity, evaluated
  /// there; none when none is affordable at the target or all are already
  /// pending there.
  std::optional<Suggestion> least_certain_recommended(const EngineView& view,
                                                      const std::vector<std::vector<double>>& recommended) const;

  HvkgOptions options_;
};

}  // namespace rescue::acq
