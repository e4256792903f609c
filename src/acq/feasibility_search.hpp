// The knowledge gradient's search for feasibility (hvkg, rescue): where the
// feasible region is a sliver of the space, few or none of the inner pool's
// points are predicted feasible at the target, every inner set is empty or
// confined to the recommendation's neighbourhood, and the hypervolume gain
// values a candidate only by what it says about those few points. The pool is
// then widened by moves of the configurations predicted feasible, seeded by
// the configuration most likely feasible, and, while none is predicted
// feasible, the suggestion maximizes the knowledge gradient of the best
// probability of feasibility at the target instead.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include <Eigen/Dense>

#include "acq/strategy.hpp"
#include "acq/strategy_options.hpp"
#include "acq/surrogate.hpp"

namespace rescue::acq {

/// The inner pool at the target fidelity and the posterior there.
struct TargetPool {
  Eigen::MatrixXd pool;             ///< unit configurations, one per row (d columns)
  Eigen::MatrixXd z;                ///< the same with the target fidelity appended (d + 1)
  Eigen::MatrixXd mean, var;        ///< posterior at z (rows x (M + Q))
  std::vector<Eigen::Index> keep;   ///< rows that enter the inner maximization
  Eigen::Index seeded_row = -1;     ///< the configuration most likely feasible, when it seeded the pool
};

/// With constraints, keeps the rows of `target` predicted feasible
/// (probability >= options.feasibility_threshold). When none is and
/// options.feasible_pool > 0, the configuration most likely feasible is
/// searched for (most_likely_feasible) and appended, kept and recorded as
/// seeded_row if it passes; when fewer than options.feasible_pool are kept,
/// the pool is widened (widen_feasible_pool, 4 rounds).
void keep_feasible(const ProblemSpec& spec, const Surrogate& model, const std::vector<Observation>& observations,
                   const HvkgOptions& options, Rng& rng, TargetPool* target);

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
LikelyFeasible most_likely_feasible(const ProblemSpec& spec, const Surrogate& model, const SearchOptions& search,
                                    const Eigen::MatrixXd& pool, const Eigen::VectorXd& log_pof, Rng& rng);
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

/// The suggestion while no pool configuration is predicted feasible at the
/// target (every inner set empty, so every hypervolume gain zero): the
/// knowledge gradient of the best probability of feasibility at the target
/// over the pool (expected_best_feasibility with 2 options.fantasies antithetic
/// fantasies), divided by the cost; when no gain exceeds 1e-9, the pool
/// configuration most likely feasible (of the 8 most likely, the first
/// affordable at the target), at the target. The search is not restricted by
/// a floor on the probability of feasibility: while nothing is predicted
/// feasible, a floor could exclude every configuration.
std::optional<Suggestion> seek_feasibility(const EngineView& view, const Surrogate& model, const HvkgOptions& options,
                                           const TargetPool& target, Rng& rng);

}  // namespace rescue::acq
