// Hyperparameter learning: maximum a posteriori by multi-start L-BFGS (NLopt)
// on log marginal likelihood + weak log priors, warm-started from the last fit.
#include <nlopt.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <utility>
#include <vector>

#include "gp/multi_fidelity_gp.hpp"
#include "util/error.hpp"

namespace rescue::gp {
namespace {

// Weak priors, as densities of the optimized (log-scale) coordinates:
//  log lengthscale ~ N(sqrt2 + log(D)/2, 3)   (dimension-scaled, as BoTorch's LogNormal prior),
//  log noise       ~ N(-4, 1)                  (BoTorch's LogNormal(-4, 1) on the noise variance)
//  log kappa       ~ N(-3, 3^2), L entries ~ N(0, 2^2)  (keep K_obj bounded on tiny data)
//  mean scale ~ N(1, 1), log hook weight ~ N(0, 1),
//  fidelity slope ~ N(0, 2^2)  (only when learned)
//  fidelity positions: none (flat within their bounds)
//  target link theta ~ N(atanh 0.98, 1.5^2)  (gamma = tanh theta: the target
//    agrees with the cheaper fidelities as a rule, and the data can say
//    otherwise: gamma from -0.60 to 0.99995 within two standard deviations)
struct Gauss {
  double mu, var;
};

double add_prior(const Eigen::VectorXd& t, int off, int count, Gauss g, Eigen::VectorXd* grad) {
  double lp = 0.0;
  for (int k = off; k < off + count; ++k) {
    const double z = t[k] - g.mu;
    lp += -0.5 * z * z / g.var - 0.5 * std::log(2.0 * M_PI * g.var);
    if (grad) (*grad)[k] -= z / g.var;
  }
  return lp;
}

// A fit searches afresh (besides warm starts) while it has seen fewer rows
// than this (see plan_fit).
constexpr Eigen::Index kExploreRows = 16;

int log2_floor(Eigen::Index rows) {
  int k = 0;
  while (rows > 1) rows >>= 1, ++k;
  return k;
}

// The objective's value at a point where it cannot be evaluated: low enough
// that the line search backs off.
constexpr double kFailed = -1e300;

// Lower bound of the standardized noise variances.
constexpr double kNoiseFloor = 1e-6;

// Objective evaluations of one local search.
constexpr int kMaxEvaluations = 150;

// With a learned mean scale or hook weight, the prior's mode is searched
// again each time the data grow past a multiple of this many rows (see
// plan_fit and choose_prior_mode).
constexpr Eigen::Index kPriorRecheckRows = 5;

}  // namespace

// Box bounds of the packed hyperparameters.
struct MultiFidelityGp::Box {
  Eigen::VectorXd lo, hi;
  Eigen::VectorXd clamp(const Eigen::VectorXd& x) const { return x.cwiseMax(lo).cwiseMin(hi); }
};

// L-BFGS (NLopt) over the packed hyperparameters, maximizing objective() with
// the prior. Owns its optimizer; an exception other than rescue::Error inside
// the objective stops the search and is rethrown by optimize().
class MultiFidelityGp::LocalSearch {
 public:
  // The best point the evaluations recorded into it have seen.
  struct Best {
    double value = -std::numeric_limits<double>::infinity();
    Eigen::VectorXd theta;
    int evaluations = 0;
  };

  LocalSearch(const MultiFidelityGp& gp, int size, int max_evaluations) : gp_(gp) {
    opt_ = nlopt_create(NLOPT_LD_LBFGS, static_cast<unsigned>(size));
    if (!opt_) fail(Status::OutOfMemory, "gp: could not create the optimizer");
    nlopt_set_max_objective(opt_, &LocalSearch::evaluate, this);
    nlopt_set_maxeval(opt_, max_evaluations);
    // Changes of 1e-6 relative in the log evidence do not change predictions
    // noticeably; tighter tolerances only spend evaluations.
    nlopt_set_ftol_rel(opt_, 1e-6);
    nlopt_set_xtol_rel(opt_, 1e-6);
  }
  ~LocalSearch() { nlopt_destroy(opt_); }
  LocalSearch(const LocalSearch&) = delete;
  LocalSearch& operator=(const LocalSearch&) = delete;

  void set_bounds(const Box& box) {
    nlopt_set_lower_bounds(opt_, box.lo.data());
    nlopt_set_upper_bounds(opt_, box.hi.data());
  }

  // One search from x, which receives the point it ends at; every evaluation
  // is recorded into best. Any return code is acceptable: best holds the best
  // point seen.
  void optimize(Eigen::VectorXd& x, Best& best) {
    best_ = &best;
    double value = 0.0;
    nlopt_optimize(opt_, x.data(), &value);
    best_ = nullptr;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  static double evaluate(unsigned n, const double* x, double* g, void* self) {
    auto* s = static_cast<LocalSearch*>(self);
    Best& best = *s->best_;
    ++best.evaluations;
    const Eigen::Map<const Eigen::VectorXd> theta(x, n);
    Eigen::VectorXd grad;
    double v = std::numeric_limits<double>::quiet_NaN();  // a failed evaluation, as a non-finite one
    try {
      v = s->gp_.objective(theta, g ? &grad : nullptr, true);
    } catch (const Error&) {
    } catch (...) {
      s->error_ = std::current_exception();
      nlopt_force_stop(s->opt_);
    }
    if (!std::isfinite(v)) {
      v = kFailed;
      grad = Eigen::VectorXd::Zero(n);
    }
    if (g) Eigen::Map<Eigen::VectorXd>(g, n) = grad.allFinite() ? grad : Eigen::VectorXd::Zero(n);
    if (v > best.value) {
      best.value = v;
      best.theta = theta;
    }
    return v;
  }

  const MultiFidelityGp& gp_;
  nlopt_opt opt_ = nullptr;
  Best* best_ = nullptr;
  std::exception_ptr error_;
};

// One fit in progress: its bounds, starts and choices (plan_fit, fit_starts)
// and what its searches have found.
struct MultiFidelityGp::FitState {
  Box box;                     // the main search's bounds
  Box plain_box;               // the prior-off model's: a_m = 0, w at its floor
  Hyperparameters base;        // default_hyperparameters()
  int ms = -1, hw = -1;        // offsets of a_m and w, -1 when not learned
  bool explore = false;        // search afresh besides the warm starts
  bool recheck = false;        // search the prior's other mode and choose between them
  bool track_plain = false;    // fit the prior-off model alongside
  bool main_is_plain = false;  // the main search is the prior-off model's
  std::vector<Eigen::VectorXd> starts;
  LocalSearch::Best main;      // the main search's best point
  Eigen::VectorXd plain_best;  // the prior-off model's best point (empty: none)
  int plain_starts = 0, extra_starts = 0;
};

double MultiFidelityGp::objective(const Eigen::VectorXd& theta, Eigen::VectorXd* grad, bool with_prior) const {
  if (X_.rows() == 0) fail(Status::InvalidState, "gp: no data; call set_data first");
  Hyperparameters h = hp_;
  layout_.unpack(theta, h);
  double v = likelihood(h, nullptr, nullptr, grad);
  if (with_prior) {
    v += add_prior(theta, layout_.ls_offset(), D_, Gauss{std::sqrt(2.0) + 0.5 * std::log(double(D_)), 3.0}, grad);
    v += add_prior(theta, layout_.noise_offset(), P_, Gauss{-4.0, 1.0}, grad);
    v += add_prior(theta, layout_.kappa_offset(), P_, Gauss{-3.0, 9.0}, grad);
    v += add_prior(theta, layout_.factor_offset(), P_ * R_, Gauss{0.0, 4.0}, grad);
    if (layout_.mean_scale_offset() >= 0)
      v += add_prior(theta, layout_.mean_scale_offset(), P_, Gauss{1.0, 1.0}, grad);
    if (layout_.hook_weight_offset() >= 0)
      v += add_prior(theta, layout_.hook_weight_offset(), 1, Gauss{0.0, 1.0}, grad);
    if (layout_.fidelity_slope_offset() >= 0)
      v += add_prior(theta, layout_.fidelity_slope_offset(), P_, Gauss{0.0, 4.0}, grad);
    if (layout_.target_link_offset() >= 0)
      v += add_prior(theta, layout_.target_link_offset(), 1, Gauss{kTargetLinkMode, 2.25}, grad);
  }
  return v;
}

// The posterior of theta is one-dimensional, so it is evaluated rather than
// approximated; it is also skewed (flat towards gamma = 1, steep below where
// the data stop agreeing), which a Laplace approximation would miss.
double MultiFidelityGp::sample_target_link(Rng& rng) const {
  const int k = layout_.target_link_offset();
  if (k < 0) fail(Status::InvalidState, "gp: the model has no target correlation");
  if (X_.rows() == 0) fail(Status::InvalidState, "gp: no data; call set_data first");
  Eigen::VectorXd lo, hi;
  layout_.bounds(kNoiseFloor, lo, hi);
  const double width = (hi[k] - lo[k]) / kTargetLinkCells;
  Eigen::VectorXd theta = layout_.pack(hp_);
  std::vector<double> log_density(kTargetLinkCells);
  for (int c = 0; c < kTargetLinkCells; ++c) {
    theta[k] = lo[k] + (c + 0.5) * width;
    log_density[c] = value_or_minus_inf(theta);
  }
  const double top = *std::max_element(log_density.begin(), log_density.end());
  if (!std::isfinite(top)) return hp_.target_link;
  std::vector<double> cumulative(kTargetLinkCells);
  double total = 0.0;
  for (int c = 0; c < kTargetLinkCells; ++c) cumulative[c] = total += std::exp(log_density[c] - top);
  const double u = rng.uniform() * total;
  const auto cell = std::min<std::ptrdiff_t>(
      std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin(), kTargetLinkCells - 1);
  return lo[k] + (static_cast<double>(cell) + rng.uniform()) * width;
}

std::vector<MultiFidelityGp::HeldOut> MultiFidelityGp::held_out_blocks(const GramFactor& F,
                                                                       const Eigen::VectorXd& alpha) const {
  // With Q = K^-1 and alpha = Q r, the held-out block I of point i (the
  // outputs observed there) has predictive covariance C = (Q_II)^-1 given all
  // other points and error r_I - mean_I = C alpha_I (the closed form of
  // leave-one-out for a Gaussian process; Rasmussen and Williams, section 5.4.2).
  const Eigen::MatrixXd Q = F.is_kronecker() ? F.solve(Eigen::MatrixXd::Identity(F.size(), F.size())) : F.inverse();
  std::vector<HeldOut> blocks(static_cast<std::size_t>(X_.rows()));
  for (std::size_t k = 0; k < obs_i_.size(); ++k)
    blocks[static_cast<std::size_t>(obs_i_[k])].entries.push_back(static_cast<Eigen::Index>(k));
  for (auto& B : blocks) {
    const Eigen::Index b = static_cast<Eigen::Index>(B.entries.size());
    if (b == 0) continue;
    Eigen::MatrixXd Qb(b, b);
    B.alpha.resize(b);
    for (Eigen::Index u = 0; u < b; ++u) {
      B.alpha[u] = alpha[B.entries[u]];
      for (Eigen::Index v = 0; v < b; ++v) Qb(u, v) = Q(B.entries[u], B.entries[v]);
    }
    B.precision.compute(Qb);
    B.ok = B.precision.info() == Eigen::Success;
  }
  return blocks;
}

double MultiFidelityGp::loo_log_predictive(const Eigen::VectorXd& theta) const {
  if (X_.rows() == 0) fail(Status::InvalidState, "gp: no data; call set_data first");
  Hyperparameters h = hp_;
  layout_.unpack(theta, h);
  GramFactor F;
  Eigen::VectorXd alpha;
  likelihood(h, &F, &alpha, nullptr);
  // log p(r_I | rest) = -alpha_I^T C alpha_I / 2 + log|Q_II| / 2 - |I| log(2 pi) / 2.
  double log_scale = 0.0;  // sum of log s_m over observed entries: back to original units
  for (std::size_t k = 0; k < obs_m_.size(); ++k) log_scale += std::log(scale_[obs_m_[k]]);
  double total = -log_scale;
  for (const HeldOut& B : held_out_blocks(F, alpha)) {
    if (B.entries.empty()) continue;
    if (!B.ok) return -std::numeric_limits<double>::infinity();
    const Eigen::MatrixXd Lq = B.precision.matrixL();
    total += -0.5 * B.alpha.dot(B.precision.solve(B.alpha)) + Lq.diagonal().array().log().sum() -
             0.5 * double(B.entries.size()) * std::log(2.0 * M_PI);
  }
  return std::isfinite(total) ? total : -std::numeric_limits<double>::infinity();
}

void MultiFidelityGp::loo_predictive(Eigen::MatrixXd& mean, Eigen::MatrixXd& sd) const {
  if (X_.rows() == 0) fail(Status::InvalidState, "gp: no data; call set_data first");
  mean = Eigen::MatrixXd::Constant(X_.rows(), P_, std::numeric_limits<double>::quiet_NaN());
  sd = mean;
  const std::vector<HeldOut> blocks = held_out_blocks(factor_, alpha_);
  for (Eigen::Index i = 0; i < X_.rows(); ++i) {
    const HeldOut& B = blocks[static_cast<std::size_t>(i)];
    if (B.entries.empty()) continue;
    if (!B.ok) fail(Status::Numerical, "gp: the held-out covariance of point " + std::to_string(i) + " is not positive definite");
    const Eigen::VectorXd err = B.precision.solve(B.alpha);  // standardized y_I - mean_I
    const Eigen::MatrixXd C = B.precision.solve(Eigen::MatrixXd::Identity(B.alpha.size(), B.alpha.size()));
    for (Eigen::Index u = 0; u < B.alpha.size(); ++u) {
      const int m = obs_m_[static_cast<std::size_t>(B.entries[u])];
      mean(i, m) = Y_(i, m) - scale_[m] * err[u];
      sd(i, m) = scale_[m] * std::sqrt(std::max(C(u, u), 0.0));
    }
  }
}

bool MultiFidelityGp::fidelity_positions_identified() const {
  if (num_positions() == 0) return false;
  for (double level : opt_.fidelity_levels) {
    int rows = 0;
    for (Eigen::Index i = 0; i < X_.rows(); ++i) rows += std::abs(X_(i, D_ - 1) - level) <= 1e-9 ? 1 : 0;
    if (rows < opt_.fidelity_level_min_rows) return false;
  }
  return true;
}

void MultiFidelityGp::pin_unidentified_positions(Eigen::VectorXd& lo, Eigen::VectorXd& hi) const {
  // Where a level has (almost) no data its place on the fidelity axis is not
  // identified, and a free one goes wrong in a way the data cannot correct:
  // with no target evaluations, the cheap levels alone set the fidelity
  // lengthscale, a far-placed middle level stretches it, and the target then
  // looks like the lowest level. A knowledge gradient believing that queries
  // the lowest level only and never learns otherwise. Until every level has
  // data, the levels stay where their values put them.
  if (num_positions() == 0 || fidelity_positions_identified()) return;
  const int off = layout_.fidelity_position_offset();
  for (int k = 0; k < num_positions(); ++k) lo[off + k] = hi[off + k] = opt_.fidelity_levels[k + 1];
}

double MultiFidelityGp::value_or_minus_inf(const Eigen::VectorXd& theta) const {
  try {
    const double v = objective(theta, nullptr, true);
    return std::isfinite(v) ? v : -std::numeric_limits<double>::infinity();
  } catch (const Error&) {
    return -std::numeric_limits<double>::infinity();
  }
}

double MultiFidelityGp::held_out_or_minus_inf(const Eigen::VectorXd& theta) const {
  try {
    return loo_log_predictive(theta);
  } catch (const Error&) {
    return -std::numeric_limits<double>::infinity();
  }
}

FitReport MultiFidelityGp::fit(Rng& rng) {
  if (X_.rows() == 0) fail(Status::InvalidState, "gp: no data; call set_data before fit");
  const int n = layout_.size();
  FitState st = plan_fit();
  st.starts = fit_starts(st, rng);
  LocalSearch search(*this, n, kMaxEvaluations);
  search.set_bounds(st.box);
  for (Eigen::VectorXd x : st.starts) {
    x = st.box.clamp(x);
    search.optimize(x, st.main);
  }
  if (st.track_plain && !st.main_is_plain) fit_plain(st, search);
  if (st.main_is_plain && st.main.theta.size() == n) st.plain_best = st.main.theta;
  if ((st.ms >= 0 || st.hw >= 0) && st.recheck && st.main.theta.size() == n) {
    choose_prior_mode(st, search);
  } else if (st.track_plain && !st.main_is_plain && st.plain_best.size() == n && st.main.theta.size() == n) {
    // Between rechecks the prior's mode stays as chosen, but the plain model
    // kept alongside replaces it as soon as it predicts held-out points
    // better: the prior guides only while it helps.
    if (held_out_or_minus_inf(st.plain_best) > held_out_or_minus_inf(st.main.theta)) {
      st.main.theta = st.plain_best;
      st.main.value = value_or_minus_inf(st.plain_best);
    }
  }
  return commit_fit(st);
}

bool MultiFidelityGp::prior_switched_off() const {
  const int ms = layout_.mean_scale_offset(), hw = layout_.hook_weight_offset();
  if (ms < 0 && hw < 0) return false;
  Eigen::VectorXd lo, hi;
  layout_.bounds(kNoiseFloor, lo, hi);
  const Eigen::VectorXd t = layout_.pack(hp_);
  // The prior-off model's box of plan_fit.
  return (ms < 0 || t.segment(ms, P_).cwiseAbs().maxCoeff() == 0.0) && (hw < 0 || t[hw] <= lo[hw]);
}

MultiFidelityGp::FitState MultiFidelityGp::plan_fit() const {
  FitState st;
  layout_.bounds(kNoiseFloor, st.box.lo, st.box.hi);
  pin_unidentified_positions(st.box.lo, st.box.hi);
  // A fit on a handful of rows can settle in a poor mode (all variation as
  // noise, long lengthscales) that refits warm-started from it never leave.
  // So while the model has been fitted on fewer than kExploreRows rows, a
  // refit searches afresh, from the defaults and the random starts of a first
  // fit besides the previous optimum, whenever the data have crossed a power
  // of two (at 4, 8 and 16 rows): a function of the data size alone, so a run
  // restored from a checkpoint makes the same choices. Later, warm refits
  // alone: searching afresh on larger data finds modes of higher evidence
  // that serve the acquisitions worse.
  st.explore = !fitted_ || (fit_rows_ < kExploreRows && log2_floor(X_.rows()) != log2_floor(fit_rows_));
  st.base = default_hyperparameters();

  // When the prior's mode is searched again (see choose_prior_mode): at the
  // first fit, after the prior changed, and every kPriorRecheckRows rows of
  // new data (a function of the data, so a run restored from a checkpoint
  // makes the same choices).
  st.ms = layout_.mean_scale_offset();
  st.hw = layout_.hook_weight_offset();
  const int ms = st.ms, hw = st.hw;
  st.recheck = !fitted_ || prior_changed_ || X_.rows() / kPriorRecheckRows != fit_rows_ / kPriorRecheckRows;
  if (!st.recheck) {
    // Between rechecks the prior's own parameters (a_m, w) stay where the
    // held-out check put them and only the rest is refitted: warm-started at
    // a prior switched off, the evidence alone climbs straight back to the
    // mode it prefers (a_m near 1 at the next row), undoing the choice.
    const Eigen::VectorXd previous = layout_.pack(hp_);
    if (ms >= 0) st.box.lo.segment(ms, P_) = st.box.hi.segment(ms, P_) = previous.segment(ms, P_);
    if (hw >= 0) st.box.lo[hw] = st.box.hi[hw] = previous[hw];
  }

  // The prior-off model (a_m = 0, w at its floor: a plain MF-GP) as a plain
  // model would be fitted, kept alongside while the prior's mode is chosen by
  // held-out prediction: the same starts, warm refits from its own previous
  // optimum and fresh searches when the main fit searches afresh. It is a
  // candidate at every recheck and replaces the prior's mode between rechecks
  // when it predicts held-out points better (fit), so the choice is never
  // between the prior and a prior-off model stuck where the prior's fits left
  // it (a mode that explains data as noise). Only while the model has been
  // fitted on fewer than kExploreRows rows, where such modes are entered: on
  // more data the extra local search and held-out comparison per refit would
  // dominate the cost of a suggestion.
  Box& plain = st.plain_box;
  layout_.bounds(kNoiseFloor, plain.lo, plain.hi);
  pin_unidentified_positions(plain.lo, plain.hi);
  if (ms >= 0) plain.lo.segment(ms, P_).setZero(), plain.hi.segment(ms, P_).setZero();
  if (hw >= 0) plain.hi[hw] = plain.lo[hw];
  st.track_plain = (ms >= 0 || hw >= 0) && (!fitted_ || fit_rows_ < kExploreRows);
  // Between rechecks with the prior off, the main search is this search.
  st.main_is_plain = st.track_plain && !st.recheck &&
                     (ms < 0 || (st.box.hi.segment(ms, P_).cwiseAbs().maxCoeff() == 0.0)) &&
                     (hw < 0 || st.box.hi[hw] <= plain.lo[hw]);
  return st;
}

std::vector<Eigen::VectorXd> MultiFidelityGp::fit_starts(const FitState& st, Rng& rng) const {
  std::vector<Eigen::VectorXd> starts;
  if (fitted_) starts.push_back(layout_.pack(hp_));
  if (st.explore) starts.push_back(layout_.pack(st.base));
  const int total = st.explore ? opt_.cold_starts + (fitted_ ? 1 : 0) : opt_.warm_starts;
  while (static_cast<int>(starts.size()) < total) starts.push_back(random_start(st, rng));
  if (fitted_) add_low_noise_start(layout_.pack(hp_), starts);
  // A mode of the causal prior's model that leaves an output's residual to
  // noise (residual signal variance below the noise: the prior carries the
  // output, and with the residual kernel off its lengthscales drift long and
  // no longer steer the search back) holds at any data size; on noise-free
  // data it makes C-HVKG pay for the same target evaluation again and again.
  // So in that mode a refit also starts with the residual kernel as a first
  // fit sets it (lengthscales, K_obj) and the noise as the low-noise start
  // sets it, the prior's own parameters kept, and the evidence chooses. It
  // costs a local search per refit only while the model is in that mode.
  if (fitted_ && opt_.low_noise_start && residual_as_noise()) {
    Hyperparameters h = hp_;
    h.log_lengthscale = st.base.log_lengthscale;
    h.coreg_factor = st.base.coreg_factor;
    h.log_kappa = st.base.log_kappa;
    Eigen::VectorXd t = layout_.pack(h);
    quieten(t);
    starts.push_back(t);
  }
  return starts;
}

Eigen::VectorXd MultiFidelityGp::random_start(const FitState& st, Rng& rng) const {
  Hyperparameters h = st.explore ? st.base : hp_;
  const double ls0 = std::log(std::sqrt(double(D_)));
  for (int j = 0; j < D_; ++j) h.log_lengthscale[j] = ls0 + std::log(rng.uniform(0.05, 1.5));
  for (int k = 0; k < R_; ++k)
    for (int m = 0; m < P_; ++m) h.coreg_factor(m, k) = 0.5 * rng.normal() + (m == k ? 0.5 : 0.0);
  for (int m = 0; m < P_; ++m) {
    h.log_kappa[m] = rng.uniform(std::log(1e-3), std::log(0.3));
    h.log_noise[m] = rng.uniform(std::log(1e-4), std::log(0.1));
  }
  if (st.explore) h.mean_constant.setZero(), h.fidelity_slope.setZero();
  // Interior fidelity levels anywhere from one range below the lowest level
  // to the highest: nearer the target than their value says, or farther.
  for (int k = 0; k < num_positions(); ++k) h.fidelity_position[k] = rng.uniform(-1.0, 1.0);
  return layout_.pack(h);
}

// A warm refit stays in the mode it starts in, and a mode that explains
// some output as noise (long lengthscales, large noise) holds on noise-free
// data once it has been entered; the fit then misses its own observations.
// So with GpOptions::low_noise_start, while the model has been fitted on
// fewer than kExploreRows rows, a refit also starts from the previous
// optimum with every noise variance above 1e-3 set to 1e-4, and the
// evidence chooses. Later, not: like a fresh search, it may find modes of
// higher evidence that serve the acquisitions worse. And only by choice
// (rescue_strategy.cpp sets it): it did not serve the acquisitions of the
// plain model, without a causal prior.
void MultiFidelityGp::add_low_noise_start(const Eigen::VectorXd& theta, std::vector<Eigen::VectorXd>& into) const {
  if (!opt_.low_noise_start || fit_rows_ >= kExploreRows) return;
  Eigen::VectorXd t = theta;
  if (quieten(t)) into.push_back(t);
}

bool MultiFidelityGp::quieten(Eigen::VectorXd& theta) const {
  bool noisy = false;
  for (int m = 0; m < P_; ++m) {
    double& v = theta[layout_.noise_offset() + m];
    if (v > std::log(1e-3)) v = std::log(1e-4), noisy = true;
  }
  return noisy;
}

bool MultiFidelityGp::residual_as_noise() const {
  bool found = false;
  for (int m = 0; m < P_; ++m) {
    const double signal = std::exp(hp_.log_kappa[m]) + hp_.coreg_factor.row(m).squaredNorm();
    const double noise = std::exp(hp_.log_noise[m]);
    if (noise > 1e-3 && signal < noise) found = true;
  }
  return found;
}

void MultiFidelityGp::fit_plain(FitState& st, LocalSearch& search) const {
  const int n = layout_.size();
  std::vector<Eigen::VectorXd> starts;
  if (plain_.size() == n) {
    starts.push_back(plain_);
    add_low_noise_start(plain_, starts);
  }
  if (st.explore || plain_.size() != n)
    for (const Eigen::VectorXd& x : st.starts) starts.push_back(x);
  LocalSearch::Best best;
  search.set_bounds(st.plain_box);
  for (Eigen::VectorXd x : starts) {
    x = st.plain_box.clamp(x);
    search.optimize(x, best);
  }
  search.set_bounds(st.box);
  st.main.evaluations += best.evaluations;
  st.plain_starts = static_cast<int>(starts.size());
  if (best.theta.size() == n && best.value > -1e299) st.plain_best = best.theta;
}

// With a causal prior (paper, MF-CGP) the evidence has two kinds of modes:
// the data explained through the prior (a_m near 1) and the prior switched
// off (a_m = 0: a plain MF-GP). A local search stays in the mode it starts
// in, so the fit also searches the other one: the prior guides, and data that
// contradict it override it. Started from the prior's mode, the other
// hyperparameters sit where the prior explains the data and a free start at
// a_m = 0 climbs straight back; so the prior-off mode is first fitted with
// a_m and w pinned at 0 and the floor, then released. The evidence fits each
// mode; the leave-one-out predictive density chooses among the best points of
// the searches (the main one, the pinned prior-off one, the released one, and
// the prior-off model kept alongside). That costs two more local searches, so
// it is done when the answer may have changed (plan_fit).
void MultiFidelityGp::choose_prior_mode(FitState& st, LocalSearch& search) const {
  const int ms = st.ms, hw = st.hw;
  std::vector<Eigen::VectorXd> candidates;
  auto next_candidate = [&] {
    candidates.push_back(st.main.theta);
    st.main.value = -std::numeric_limits<double>::infinity();
  };
  const Eigen::VectorXd main_best = st.main.theta;
  next_candidate();
  if (st.plain_best.size() == layout_.size()) candidates.push_back(st.plain_best);
  const bool prior_on = ms >= 0 ? main_best.segment(ms, P_).cwiseAbs().maxCoeff() >= 0.5 : main_best[hw] > std::log(0.1);
  // The plain model (a_m = 0, w at its floor) is always a candidate: a main
  // search that left the prior's mean off can still sit where the causal
  // kernel term carries weight (a_m near 0, w near 1), and without this
  // search the plain model would never be tried.
  Eigen::VectorXd x = prior_off_start(st, main_best);
  search.set_bounds(st.plain_box);
  search.optimize(x, st.main);
  search.set_bounds(st.box);
  next_candidate();
  if (!prior_on) {
    // The other mode from the main search's point: the prior fully on.
    x = main_best;
    if (ms >= 0) x.segment(ms, P_).setOnes();
    if (hw >= 0) x[hw] = 0.0;
  }
  search.optimize(x, st.main);
  next_candidate();
  st.extra_starts = 1;
  double best_loo = -std::numeric_limits<double>::infinity();
  st.main.theta = candidates.front();
  for (const Eigen::VectorXd& c : candidates) {
    const double v = held_out_or_minus_inf(c);
    if (v > best_loo) {
      best_loo = v;
      st.main.theta = c;
    }
  }
  st.main.value = value_or_minus_inf(st.main.theta);
}

Eigen::VectorXd MultiFidelityGp::prior_off_start(const FitState& st, const Eigen::VectorXd& main_best) const {
  Eigen::VectorXd x = st.plain_box.clamp(main_best);
  // The previous fit, pinned, is the other candidate start: when the prior
  // has just been installed it is the plain model's optimum on these data,
  // where the best point of the prior's mode may be far from any good
  // prior-off point (a wrong prior drags the other hyperparameters along).
  if (fitted_) {
    const Eigen::VectorXd previous = st.plain_box.clamp(layout_.pack(hp_));
    if (value_or_minus_inf(previous) > value_or_minus_inf(x)) x = previous;
  }
  // The prior-off mode must be found as well as a plain model would find it,
  // so its search may also start where a plain model's first fit does.
  const Eigen::VectorXd plain = st.plain_box.clamp(layout_.pack(st.base));
  if (value_or_minus_inf(plain) > value_or_minus_inf(x)) x = plain;
  return x;
}

FitReport MultiFidelityGp::commit_fit(const FitState& st) {
  if (!std::isfinite(st.main.value) || st.main.value <= -1e299)
    fail(Status::Numerical, "gp: hyperparameter fit found no point with a finite likelihood");
  // Committed only once factorized (set_hyperparameters' strong guarantee).
  Hyperparameters best = hp_;
  layout_.unpack(st.main.theta, best);
  set_hyperparameters(best);
  fitted_ = true;
  prior_changed_ = false;
  fit_rows_ = X_.rows();
  plain_ = st.track_plain ? st.plain_best : Eigen::VectorXd();
  FitReport rep;
  rep.objective = st.main.value;
  rep.evaluations = st.main.evaluations;
  rep.starts = static_cast<int>(st.starts.size()) + st.plain_starts + st.extra_starts;
  return rep;
}

}  // namespace rescue::gp
