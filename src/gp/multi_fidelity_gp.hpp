// Multi-output multi-fidelity Gaussian process (paper, Methodology,
// "Multi-output Multi-fidelity Causal GP").
//
// Inputs: an n x (d+1) matrix of unit-scaled configurations whose last column
// is the fidelity in [0, 1]. Outputs: an n x P matrix (P = M objectives + Q
// constraint metrics); NaN marks a missing output. Each output m is
// standardized internally, y~_m = (y_m - c_m) / s_m, and every prediction is
// returned in the original units.
//
// Model on the standardized scale, for outputs m, m' and z = (x, s) (the
// paper's MF-CGP, eq:gpmodel, with the learned calibration below):
//   mean   mu~_m(z)         = b_m + a_m h~_m(z) [+ c_m (t - s)],  h~_m = (h_m - c_m) / s_m
//   kernel k_mm'(z, z')     = B[m,m'] k_in(x,x') k_fid(s,s') + w sig~_m(z) sig~_m'(z') B[m,m']
//   noise  y~_m = f~_m + eps, eps ~ N(0, noise_m)
// where B = K_obj = L L^T + diag(kappa) (intrinsic coregionalization), h the
// mean hook (default none: h~ = 0, so the mean is the learned constant b_m),
// sig the kernel hook (default none) and sig~_m = sig_m / s_m; the hook term
// carries B as well: the paper's (k_in k_fid + sig(z) sig(z')) (x) K_obj.
// a_m (mean scale, default 1) and w (hook weight, default 1) are
// hyperparameters that are fixed unless GpOptions asks to learn them; the
// fidelity offset c_m (t - s), t the anchor fidelity, is there only when asked.
//
// Factorization: Kronecker (eigendecomposition of the n x n input kernel) when
// every output is observed and no kernel hook is set; otherwise a dense
// Cholesky of the observed pairs. While fitting, a few missing outputs (at most
// a third of the grid, no kernel hook) still use the Kronecker form with an
// exact partitioned-inverse correction. All const members are safe to call
// concurrently; a PreparedPool is valid only for the model object (and fit)
// that prepared it.
#pragma once
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include <Eigen/Dense>

#include "gp/gram_factor.hpp"
#include "gp/hyperparameters.hpp"
#include "gp/kernel.hpp"
#include "util/rng.hpp"

namespace rescue::gp {

/// n x (d+1) unit inputs -> n x P values in original output units.
using MeanHook = std::function<Eigen::MatrixXd(const Eigen::MatrixXd&)>;
/// n x (d+1) unit inputs -> n x P standard deviations sig_m(z) in original output units.
using KernelHook = std::function<Eigen::MatrixXd(const Eigen::MatrixXd&)>;

struct GpOptions {
  int rank = 0;                    // rank of L; 0: P when P <= 6, else 6
  bool learn_mean_constant = true;
  bool learn_mean_scale = false;   // a_m (only with a mean hook)
  bool learn_hook_weight = false;  // w (only with a kernel hook)
  /// Adds c_m (fidelity_anchor - s) to each output's mean with c_m learned: a
  /// fidelity offset that vanishes at the anchor (the target fidelity, unit
  /// scale). For a prior mean that does not follow the fidelity (see
  /// gp_fit.cpp): the offset between fidelities is then in the residual, and the
  /// product kernel k_in k_fid can carry an offset that is the same for every
  /// configuration only with long input lengthscales.
  bool learn_fidelity_offset = false;
  double fidelity_anchor = 1.0;
  /// Discrete fidelity levels (unit scale, strictly ascending; empty or at
  /// least 3) whose interior levels k_fid places where the data put them:
  /// k_fid sees s through the piecewise-linear map that fixes the lowest and
  /// highest levels and moves each interior level to a learned position in
  /// [-3, 4] (Hyperparameters::fidelity_position). An RBF in s itself makes a
  /// level the more like the target the nearer its value, for every output;
  /// with the map, a middle level that is less like the target than the lowest
  /// one (a lab without the target's clutter, say) can sit farther from it. The
  /// lowest and highest levels and the fidelity lengthscale fix the scale, so
  /// every arrangement of the levels on a line is reachable exactly once up to
  /// reflection. Off the levels (a continuous fidelity) the map interpolates.
  std::vector<double> fidelity_levels;
  /// The positions are learned only once every level has at least this many
  /// rows; until then the fit holds them at the levels' values (see gp_fit.cpp).
  int fidelity_level_min_rows = 3;
  /// The target fidelity (unit scale), or NaN for none. When set, the fit
  /// learns a target correlation gamma (Hyperparameters::target_link): k_fid of
  /// a pair with exactly one point at the target is gamma k_fid (kernel.hpp). A
  /// cheap fidelity whose optimum lies elsewhere, or that jumps at the target,
  /// agrees with the other cheap fidelities but not with the target; the RBF in
  /// s cannot say so without also separating the cheap fidelities from each
  /// other, gamma can, from the target's own rows.
  double target_fidelity = std::numeric_limits<double>::quiet_NaN();
  /// Per configuration input (the first d columns), its number of levels if
  /// it is categorical, else 0; empty when none is. A categorical input holds
  /// (k + 0.5) / L for level k and enters the kernel by overlap (kernel.hpp).
  std::vector<int> categorical_levels;
  bool allow_kronecker = true;     // use the Kronecker factor when it applies
  /// L-BFGS starts of the first fit, and of a refit of a model fitted on
  /// fewer than 16 rows once the data cross a power of two (which adds the
  /// previous optimum as a start; see gp_fit.cpp).
  int cold_starts = 4;
  int warm_starts = 1;             // starts of other refits (the first is the previous optimum)
  /// A refit of a model fitted on fewer than 16 rows also starts from the
  /// previous optimum with every noise variance above 1e-3 set to 1e-4 (see
  /// gp_fit.cpp; rescue sets it).
  bool low_noise_start = false;
};

struct FitReport {
  double objective = 0.0;  // log marginal likelihood + log prior at the optimum
  int evaluations = 0;
  int starts = 0;
};

/// Posterior at a batch of n* points. Covariance entries are indexed
/// output-major: row/column m * n* + i is output m at point i.
struct Posterior {
  Eigen::MatrixXd mean;        // n* x P
  Eigen::MatrixXd covariance;  // (n* P) x (n* P)
};

/// Pool of points (for the knowledge gradient: target-fidelity points) prepared
/// once per fit so that each fantasy batch costs O(pool N P K).
struct PreparedPool {
  Eigen::MatrixXd points;       // pool x (d+1)
  Eigen::MatrixXd k_train;      // pool x n, k_in k_fid with the training inputs
  Eigen::MatrixXd mean;         // pool x P posterior mean, standardized
  Eigen::MatrixXd hook_sigma;   // pool x P standardized sigma (empty without kernel hook)
  const void* owner = nullptr;  // the model (and fit) it was prepared for
  std::uint64_t version = 0;
};

class MultiFidelityGp {
 public:
  /// num_inputs = d + 1 (fidelity last); num_outputs = P.
  MultiFidelityGp(int num_inputs, int num_outputs, GpOptions options = {});

  /// Hooks must be set before set_data (they are evaluated at the data then).
  void set_mean_hook(MeanHook hook);
  void set_kernel_hook(KernelHook hook);

  /// Replaces the data, recomputes the standardization, factorizes with the
  /// current hyperparameters (defaults before the first fit). On any error
  /// (bad sizes, infinite outputs, every value missing, a hook failing at the
  /// new rows, a failed factorization) the model is left as it was.
  void set_data(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y);
  /// Same hyperparameters and standardization, different data (used to check
  /// fantasies against a refit on augmented data).
  MultiFidelityGp conditioned_on(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y) const;

  /// Maximizes log marginal likelihood + log prior by multi-start L-BFGS,
  /// warm-started from the previous fit; then factorizes at the optimum.
  FitReport fit(Rng& rng);

  const Hyperparameters& hyperparameters() const { return hp_; }
  const GpOptions& options() const { return opt_; }
  /// Sets and factorizes; on any error (wrong sizes, non-finite values, values
  /// whose exponentials overflow the factorization) the model is left as it was.
  void set_hyperparameters(const Hyperparameters& h);
  /// Restores a previous fit (e.g. from a checkpoint): sets the hyperparameters
  /// and makes the next fit() warm-start from them, as after fit().
  /// plain: the prior-off model's packed parameters as plain_fit() returned
  /// them (empty: none kept; the next fit then searches it afresh).
  void restore_fit(const Hyperparameters& h, const Eigen::VectorXd& plain = Eigen::VectorXd());
  /// With a learned prior chosen by held-out prediction, the packed parameters
  /// of the prior-off model that the fits keep alongside while the data are
  /// small (see gp_fit.cpp); empty otherwise.
  const Eigen::VectorXd& plain_fit() const { return plain_; }
  /// Whether a mean hook (a prior mean) or a kernel hook is set.
  bool has_mean_hook() const { return bool(mean_hook_); }
  bool has_kernel_hook() const { return bool(kernel_hook_); }
  /// True when the fit learns the prior's weights (a_m or w) and chose the
  /// prior-off model: every a_m 0 and w at its lower bound (gp_fit.cpp).
  bool prior_switched_off() const;
  /// A draw of the target link theta (gamma = tanh theta) from its posterior
  /// given the data and the other hyperparameters (log marginal likelihood +
  /// log prior, objective() with the prior), on kTargetLinkCells equal cells
  /// over its bounds: a cell drawn by the density at its centre, then a point
  /// uniformly within it. Throws Status::InvalidState without a target
  /// correlation or without data.
  double sample_target_link(Rng& rng) const;
  static constexpr int kTargetLinkCells = 25;
  /// Defaults: lengthscales at the mode of their prior, K_obj near 0.5 I + 0.01, noise 1e-2.
  Hyperparameters default_hyperparameters() const;

  // ---- learning objective (exposed for checks) ----
  const ParameterLayout& layout() const { return layout_; }
  /// Log marginal likelihood on the standardized scale at the current hyperparameters.
  double log_marginal_likelihood() const { return lml_; }
  /// Log marginal likelihood (plus log prior when with_prior) at packed theta;
  /// gradient with respect to theta when grad != nullptr.
  double objective(const Eigen::VectorXd& theta, Eigen::VectorXd* grad, bool with_prior) const;
  /// Leave-one-out log predictive density at packed theta, in original units:
  /// sum over training points i of log p(y_i | all other points), the outputs
  /// observed at i held out together (their joint Gaussian predictive with
  /// observation noise), with the hyperparameters and standardization fixed.
  double loo_log_predictive(const Eigen::VectorXd& theta) const;
  /// Leave-one-out predictions at the current hyperparameters, in original
  /// units (n x P): for each training point, the predictive mean and standard
  /// deviation of its observed values (observation noise included) given all
  /// other points, the outputs observed there held out together; NaN where an
  /// output is missing. Closed form from one inverse of the Gram matrix, equal
  /// to conditioning on the other points with the same hyperparameters and
  /// standardization. Throws Status::Numerical if a held-out block's precision
  /// is not positive definite.
  void loo_predictive(Eigen::MatrixXd& mean, Eigen::MatrixXd& sd) const;

  // ---- prediction (original units) ----
  /// The prior mean b_m + a_m h~_m(z) with the current hyperparameters, in
  /// original units: the mean hook as the model has calibrated it (the hook
  /// itself when a_m = 1 and b_m = 0; the constant when there is no hook).
  Eigen::MatrixXd prior_mean(const Eigen::MatrixXd& Z) const;
  Eigen::MatrixXd posterior_mean(const Eigen::MatrixXd& Z) const;
  /// Marginal variances; with observation_noise the predictive variances.
  void posterior_mean_variance(const Eigen::MatrixXd& Z, Eigen::MatrixXd& mean,
                               Eigen::MatrixXd& variance, bool observation_noise = false) const;
  Posterior posterior(const Eigen::MatrixXd& Z, bool observation_noise = false) const;

  // ---- fantasies (knowledge-gradient inner loop) ----
  PreparedPool prepare_pool(const Eigen::MatrixXd& pool) const;
  /// K x P standard normal base samples (common random numbers), in antithetic
  /// pairs: row K/2 + k is minus row k (an odd K ends with one unpaired row).
  Eigen::MatrixXd draw_base_samples(int num_fantasies, Rng& rng) const;
  /// For a candidate (x, s) (length d+1) and base samples (K x P), fantasy k
  /// observes all P outputs at the candidate: y_k = mean + chol(predictive cov) e_k.
  /// Returns K matrices (pool x P, original units): the posterior mean at the
  /// pool after adding (candidate, y_k) to the data, by a rank-P update.
  std::vector<Eigen::MatrixXd> fantasy_means(const PreparedPool& pool,
                                             const Eigen::VectorXd& candidate,
                                             const Eigen::MatrixXd& base_samples) const;
  /// 2P x P base samples at the sigma points +-sqrt(P) u_p of the whitened
  /// fantasy noise (u_p the unit vectors). A fantasy mean is linear in its
  /// sample, so these 2P fantasies reproduce the mean and covariance of the
  /// fantasy means exactly, and with them the posterior variance the
  /// observation leaves (fantasy_variance).
  Eigen::MatrixXd sigma_point_samples() const;

  // ---- data access ----
  int num_inputs() const { return D_; }
  Eigen::Index num_points() const { return X_.rows(); }
  /// Whether the fit learns the fidelity positions: every level of
  /// GpOptions::fidelity_levels has fidelity_level_min_rows rows (false without levels).
  bool fidelity_positions_identified() const;
  const Eigen::VectorXd& output_center() const { return center_; }
  const Eigen::VectorXd& output_scale() const { return scale_; }
  bool uses_kronecker() const { return factor_.is_kronecker(); }

 private:
  /// With W = alpha alpha^T - K^-1 over the observed pairs a = (i, m), b = (j, m'),
  /// the contractions the kernel's part of the gradient, 1/2 tr(W dK), needs.
  struct Terms {
    Eigen::MatrixXd G;   // n x n, sum W_ab B[m,m'] (the coefficient of dKx; lower triangle read)
    Eigen::MatrixXd S;   // P x P, sum W_ab Kx[i,j] (the coefficient of dB)
    Eigen::MatrixXd Sh;  // P x P, sum W_ab sig~_m(i) sig~_m'(j)
    Eigen::VectorXd nd;  // P, sum over a in output m of W_aa
  };
  /// Missing entries M of the full grid on its Kronecker factor, H = K_F^-1 (see likelihood).
  struct MissingCorrection {
    std::vector<Eigen::Index> miss;   // grid indices m n + i of the missing entries
    Eigen::MatrixXd Hc;               // H_{:,M} (full x q)
    Eigen::MatrixXd Zc;               // H_{:,M} H_MM^-1 (full x q)
    Eigen::LLT<Eigen::MatrixXd> llt;  // of H_MM
  };
  /// One training point's held-out block: its observed entries (indices into
  /// the output-major observed vector), alpha there, and the Cholesky factor
  /// of the block of K^-1 (ok false if that factor failed).
  struct HeldOut {
    std::vector<Eigen::Index> entries;
    Eigen::VectorXd alpha;
    Eigen::LLT<Eigen::MatrixXd> precision;
    bool ok = true;
  };
  std::vector<HeldOut> held_out_blocks(const GramFactor& F, const Eigen::VectorXd& alpha) const;
  struct TestPrior {
    Eigen::MatrixXd kx;     // n* x n
    Eigen::MatrixXd mean;   // n* x P standardized prior mean
    Eigen::MatrixXd sigma;  // n* x P standardized hook sigma (empty if none)
  };
  /// Z with its fidelity column mapped as k_fid sees it under h
  /// (GpOptions::fidelity_levels); Z itself without learned positions.
  Eigen::MatrixXd warped(const Eigen::MatrixXd& Z, const Hyperparameters& h) const;
  /// k_in k_fid between the rows of Z1 and Z2 under h: the fidelity map, then
  /// the target correlation. Pass the same object twice for a Gram matrix.
  Eigen::MatrixXd input_kernel(const Eigen::MatrixXd& Z1, const Eigen::MatrixXd& Z2, const Hyperparameters& h) const;
  /// Whether the kernel has a target correlation (GpOptions::target_fidelity set).
  bool links_target() const { return !std::isnan(opt_.target_fidelity); }
  /// Number of learned fidelity positions (interior levels), 0 without.
  int num_positions() const;
  /// Sets lo = hi = the levels' values for the positions while they are not identified.
  void pin_unidentified_positions(Eigen::VectorXd& lo, Eigen::VectorXd& hi) const;

  // ---- fitting (gp_fit.cpp) ----
  struct Box;
  class LocalSearch;
  struct FitState;
  /// Bounds, whether to search afresh, recheck the prior or track the prior-off model.
  FitState plan_fit() const;
  /// Starts of the main search: previous optimum, defaults, random, low-noise
  /// and residual-as-noise starts, in that order (the random draws in order).
  std::vector<Eigen::VectorXd> fit_starts(const FitState& st, Rng& rng) const;
  Eigen::VectorXd random_start(const FitState& st, Rng& rng) const;
  /// Adds theta with its noise variances quietened (quieten) while that start applies.
  void add_low_noise_start(const Eigen::VectorXd& theta, std::vector<Eigen::VectorXd>& into) const;
  /// Sets every noise variance above 1e-3 of packed theta to 1e-4; false when none was above.
  bool quieten(Eigen::VectorXd& theta) const;
  /// Some output's residual signal variance is below a noise variance above 1e-3.
  bool residual_as_noise() const;
  /// The prior-off model's search; its best point goes to st.plain_best.
  void fit_plain(FitState& st, LocalSearch& search) const;
  /// Searches the prior's other mode and chooses by held-out density.
  void choose_prior_mode(FitState& st, LocalSearch& search) const;
  Eigen::VectorXd prior_off_start(const FitState& st, const Eigen::VectorXd& main_best) const;
  /// Sets the chosen hyperparameters and the fit's bookkeeping.
  FitReport commit_fit(const FitState& st);
  /// objective() with the prior, or held-out density; minus infinity where it fails.
  double value_or_minus_inf(const Eigen::VectorXd& theta) const;
  double held_out_or_minus_inf(const Eigen::VectorXd& theta) const;

  void install_hooks(MeanHook mean, KernelHook kernel);
  void check_inputs(const Eigen::MatrixXd& Z, const char* what) const;
  /// Sizes, finite inputs, outputs finite or NaN, at least one row.
  void check_outputs(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y) const;
  /// The body of set_data, on a model that may be left half-changed if it throws.
  void assign_data(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y);
  void standardize_data();
  void evaluate_hooks();
  /// The hooks at Z, standardized (n* x P); Status::Numerical if one is not a finite n* x P matrix.
  Eigen::MatrixXd hook_mean_std(const Eigen::MatrixXd& Z) const;
  Eigen::MatrixXd hook_sigma_std(const Eigen::MatrixXd& Z) const;
  bool kronecker_applies() const;
  Eigen::MatrixXd train_covariance(const Hyperparameters& h, const Eigen::MatrixXd& Kx) const;
  Eigen::VectorXd residual(const Hyperparameters& h) const;
  double likelihood(const Hyperparameters& h, GramFactor* factor_out, Eigen::VectorXd* alpha_out,
                    Eigen::VectorXd* grad) const;
  MissingCorrection missing_correction(const GramFactor& F) const;
  Eigen::VectorXd corrected_alpha(const GramFactor& F, const MissingCorrection& mc, const Eigen::VectorXd& r) const;
  Terms kronecker_terms(const GramFactor& F, const Eigen::MatrixXd& am, const Eigen::MatrixXd& B,
                        const Eigen::MatrixXd& Kx) const;
  void add_missing_terms(const MissingCorrection& mc, const Eigen::MatrixXd& B, const Eigen::MatrixXd& Kx,
                         Terms& t) const;
  Terms dense_terms(const GramFactor& F, const Eigen::VectorXd& alpha, const Eigen::MatrixXd& B,
                    const Eigen::MatrixXd& Kx) const;
  void gradient(const Hyperparameters& h, const Terms& t, const Eigen::MatrixXd& am, const Eigen::MatrixXd& Xk,
                const Eigen::MatrixXd& Kx, const Eigen::MatrixXd& B, const Eigen::VectorXd& noise,
                Eigen::VectorXd& grad) const;
  void add_position_gradient(const Hyperparameters& h, const Eigen::VectorXd& fid_grad, Eigen::VectorXd& grad) const;
  void refactor();
  TestPrior test_prior(const Eigen::MatrixXd& Z) const;
  Eigen::MatrixXd prior_mean_std(const Eigen::MatrixXd& Z) const;  // n* x P, standardized
  Eigen::MatrixXd cross_covariance(const TestPrior& tp) const;  // nobs x (n* P)
  Eigen::MatrixXd prior_covariance(const Eigen::MatrixXd& Z, const TestPrior& tp) const;
  Eigen::MatrixXd mean_std(const TestPrior& tp) const;  // n* x P standardized posterior mean
  Eigen::MatrixXd scatter(const Eigen::VectorXd& v) const;  // nobs -> n x P (0 where missing)

  int D_, P_, R_;
  GpOptions opt_;
  CategoricalLevels categorical_;  // opt_.categorical_levels for the kernel
  ParameterLayout layout_;
  MeanHook mean_hook_;
  KernelHook kernel_hook_;
  Hyperparameters hp_;
  bool fitted_ = false;
  bool prior_changed_ = true;   // hooks installed since the last fit
  Eigen::Index fit_rows_ = 0;   // rows of data at the last fit
  Eigen::VectorXd plain_;       // the prior-off model's fit (see gp_fit.cpp), packed
  std::uint64_t version_ = 0;

  Eigen::MatrixXd X_, Y_;      // data as given
  Eigen::MatrixXd Ys_;         // standardized (NaN where missing)
  Eigen::VectorXd center_, scale_;
  Eigen::MatrixXd hmean_;      // n x P standardized mean hook (zeros without hook)
  Eigen::MatrixXd hsig_;       // n x P standardized sigma (empty without hook)
  std::vector<int> obs_i_, obs_m_;  // observed pairs, output-major

  GramFactor factor_;
  Eigen::VectorXd alpha_;      // K^-1 (y~ - mu~), nobs
  Eigen::MatrixXd alpha_mat_;  // n x P, zeros where missing
  Eigen::MatrixXd B_;          // K_obj at hp_
  double lml_ = 0.0;
};

/// Posterior variance at a pool once the candidate is observed (it does not
/// depend on the observed value): variance (pool x P, the current posterior)
/// minus the variance of the fantasy means, computed from the current means
/// and the 2P fantasy means of sigma_point_samples(); floored at 1e-12 of the
/// current variance against rounding.
Eigen::MatrixXd fantasy_variance(const Eigen::MatrixXd& variance, const Eigen::MatrixXd& mean,
                                 const std::vector<Eigen::MatrixXd>& sigma_point_means);

}  // namespace rescue::gp
