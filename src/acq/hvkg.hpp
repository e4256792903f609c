// Multi-fidelity hypervolume knowledge gradient (Daulton et al., ICML 2023;
// the paper's C-HVKG without its causal term, Section "Causal Hypervolume
// Knowledge-Gradient"): for a candidate (x, s), the expected best hypervolume
// at the target fidelity of at most P configurations chosen from the fantasy-
// updated posterior mean, minus its current value, divided by cost(x, s).
//
// - Inner maximization: greedy hypervolume selection over a pool of target-
//   fidelity configurations: Sobol points, the current recommendation and
//   local perturbations of it. With constraints, the pool is restricted to
//   configurations predicted feasible (probability >= feasibility.threshold,
//   default 0.5), so the chosen sets are the feasible Pareto sets the
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
// - With kg.verify_share > 0, that recommended configuration is also evaluated
//   at the target, in place of the search, while such checks stay within that
//   share of the cost spent (docs/results/README.md: off by
//   default, as it raised the area under regret on the constrained problems).
// Parameters (rescue_problem_set_param): kg.fantasies (8), kg.set_size (10),
// kg.pool (256), kg.feasible_pool (64), kg.verify_share (0), kg.zero_gain (1e-8), acq.starts (128), acq.refine (3),
// acq.refine_evals (40), feasibility.threshold (0.5).
#pragma once
#include <cstddef>

#include "acq/candidate_search.hpp"
#include "acq/model_strategy.hpp"

namespace rescue::acq {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

class Hvkg : public ModelStrategy {
 public:
  explicit Hvkg(const ProblemSpec& spec, gp::GpOptions options = {}) : ModelStrategy(spec, options) {}
  std::string name() const override { return "hvkg"; }
  nlohmann::json save_state() const override;
  void load_state(const nlohmann::json& state, const EngineView& view) override;

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
  /// The suggestion while no pool configuration is predicted feasible at the
  /// target (every inner set empty, so every hypervolume gain zero): the
  /// knowledge gradient of the best probability of feasibility at the target
  /// over the pool (z, its unit configurations `pool`, with the posterior mean
  /// and variance there; expected_best_feasibility with 2 kg.fantasies
  /// antithetic fantasies), divided by the cost; when no gain exceeds 1e-9,
  /// the pool configuration most likely feasible (of the 8 most likely, the
  /// first affordable at the target), at the target. The search is not
  /// restricted by outer_feasibility_floor: while nothing is predicted
  /// feasible, the floor could exclude every configuration.
  std::optional<Suggestion> seek_feasibility(const EngineView& view, const Eigen::MatrixXd& z,
                                             const Eigen::MatrixXd& mean, const Eigen::MatrixXd& var,
                                             const Eigen::MatrixXd& pool, Rng& rng) const;
  /// The suggestion when every estimated gain is zero: of the recommended
  /// configurations (unit cube, the same rows that start the outer search), the
  /// one whose outputs are least certain at the target fidelity, evaluated
  /// there; none when none is affordable at the target or all are already
  /// pending there.
  std::optional<Suggestion> least_certain_recommended(const EngineView& view,
                                                      const std::vector<std::vector<double>>& recommended) const;

  // Cost of the checks kg.verify_share asked for, counted when suggested (a
  // check later cancelled or failed still counts: the share errs on the side
  // of fewer checks).
  double checked_cost_ = 0.0;
};

/// Pool of unit configurations for inner maximizations: n Sobol points, the
/// model's current recommendation, and `perturbations` Gaussian moves (sd 0.05)
/// of each recommended point; integers snapped. Row-major, d columns.
Eigen::MatrixXd inner_pool(const ProblemSpec& spec, const Surrogate& model, const std::vector<Observation>& observations,
                           int n_sobol, int perturbations, Rng& rng);

/// Widens a pool in which fewer than `want` configurations are predicted
/// feasible at the target: Gaussian moves (sd 0.02, 0.05, 0.1 and 0.2 on the
/// unit cube, integers snapped) of the kept rows and of the observed
/// configurations (failed ones left out) predicted feasible there, in at most `rounds` batches of
/// max(64, 2 want); each batch's passing moves seed the next. Appends the
/// passing moves (never more than make `keep` hold `want`) to `pool` (unit
/// configurations), `z` (with the target fidelity), `mean` and `var` (the
/// posterior there) and their row indices to `keep`; returns how many. No
/// seed, nothing appended: 0, and no random number drawn.
int widen_feasible_pool(const ProblemSpec& spec, const Surrogate& model, const std::vector<Observation>& observations,
                        double threshold, std::size_t want, int rounds, Rng& rng, Eigen::MatrixXd* pool,
                        Eigen::MatrixXd* z, Eigen::MatrixXd* mean, Eigen::MatrixXd* var,
                        std::vector<Eigen::Index>* keep);
/// What most_likely_feasible found: `u` empty (and `probability` 0) if nothing.
struct LikelyFeasible {
  std::vector<double> u;     // unit configuration (d)
  double probability = 0.0;  // its predicted probability of feasibility at the target
};
/// The unit configuration the model holds most likely feasible at the target:
/// the candidate search (target fidelity only; at least 10 (d + 1) evaluations
/// per local refinement) of the log probability of feasibility, started also
/// from the 8 rows of `pool` (unit configurations) with the largest `log_pof`.
LikelyFeasible most_likely_feasible(const ProblemSpec& spec, const Surrogate& model, const Eigen::MatrixXd& pool,
                                    const Eigen::VectorXd& log_pof, Rng& rng);
/// The expected best probability of feasibility over a pool of target-fidelity
/// points after observing `candidate` (unit configuration and fidelity, d+1):
/// the average over the fantasies of `base` (K x P samples, e.g. antithetic
/// pairs) of the pool's best probability, each computed from the fantasy mean
/// and the posterior variance the observation leaves. `mean` and `var` are the
/// posterior at the pool (pool x (M+Q), as Surrogate::predict returns them);
/// `pool` was prepared from model.gp(). Unbiased for the one-step lookahead
/// value; minus today's best it is the knowledge gradient of feasibility.
double expected_best_feasibility(const Surrogate& model, const gp::PreparedPool& pool, const Eigen::MatrixXd& mean,
                                 const Eigen::MatrixXd& var, const Eigen::VectorXd& candidate,
                                 const Eigen::MatrixXd& base);

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

/// Search options read from the problem's parameters.
SearchOptions search_options(const ProblemSpec& spec, double max_cost);

/// The outer objective from an estimated gain and the cost of (x, s): gain /
/// cost, as in the paper's C-HVKG, for a positive gain. The Monte Carlo
/// estimate of a gain can come out negative (the inner maximization is greedy
/// and the hypervolume of a set is not convex in its points), most often when
/// the model is confident and every true gain is tiny; divided by the cost,
/// such estimates would rank the most expensive candidates first. A
/// non-positive gain is multiplied by the cost instead: it ranks below every
/// positive one and, among non-positive ones, cheap candidates first.
/// Continuous and increasing in the gain at a fixed cost.
inline double cost_normalized_gain(double gain, double cost) { return gain > 0.0 ? gain / cost : gain * cost; }

}  // namespace rescue::acq
