#include "acq/surrogate.hpp"

#include <algorithm>
#include <cmath>

#include "moo/pareto.hpp"

namespace rescue::acq {

TrainingSet training_set(const ProblemSpec& spec, const std::vector<Observation>& observations) {
  const int d = spec.dim(), M = spec.num_objectives(), Q = spec.num_constraints();
  std::size_t n = 0;
  for (const auto& o : observations) n += o.failed ? 0 : 1;
  TrainingSet t;
  t.X.resize(static_cast<Eigen::Index>(n), d + 1);
  t.Y.resize(static_cast<Eigen::Index>(n), M + Q);
  Eigen::Index r = 0;
  std::vector<double> u(d);
  for (const auto& o : observations) {
    if (o.failed) continue;
    spec.to_unit(o.x.data(), u.data());
    for (int j = 0; j < d; ++j) t.X(r, j) = u[j];
    t.X(r, d) = spec.fidelity().unit(o.s);
    for (int m = 0; m < M; ++m) t.Y(r, m) = spec.to_min(m, o.y[m]);
    for (int q = 0; q < Q; ++q) t.Y(r, M + q) = o.g[q];
    ++r;
  }
  return t;
}

Eigen::MatrixXd with_fidelity(const Eigen::MatrixXd& U, double unit_fidelity) {
  Eigen::MatrixXd Z(U.rows(), U.cols() + 1);
  Z.leftCols(U.cols()) = U;
  Z.col(U.cols()).setConstant(unit_fidelity);
  return Z;
}

std::vector<double> reference_point_min(const ProblemSpec& spec, const std::vector<Observation>& observations) {
  const int M = spec.num_objectives();
  std::vector<double> ref(M);
  if (!spec.reference_point().empty()) {
    for (int m = 0; m < M; ++m) ref[m] = spec.to_min(m, spec.reference_point()[m]);
    return ref;
  }
  // The front of the feasible observations: only feasible configurations
  // count in a hypervolume, and infeasible ones that dominate them (a
  // constraint that cuts off the region good in every objective) would put
  // every feasible configuration outside the box and make every gain zero.
  // Without a feasible observation yet, the front of all of them.
  auto front_points = [&](bool feasible_only) {
    std::vector<double> pts;
    for (const auto& o : observations) {
      if (o.failed) continue;
      bool feasible = true;
      for (int q = 0; q < spec.num_constraints() && feasible_only; ++q)
        feasible = q < static_cast<int>(o.g.size()) && spec.constraints()[q].feasible(o.g[q]);
      if (!feasible) continue;
      for (int m = 0; m < M; ++m) pts.push_back(spec.to_min(m, o.y[m]));
    }
    return pts;
  };
  std::vector<double> pts = front_points(spec.num_constraints() > 0);
  if (pts.empty()) pts = front_points(false);
  return front_reference_point(pts.data(), pts.size() / M, M);
}

std::vector<double> front_reference_point(const double* pts, std::size_t n, int M) {
  std::vector<double> ref(static_cast<std::size_t>(M));
  if (n == 0) return std::vector<double>(M, 0.0);
  std::vector<double> nadir(M, -HUGE_VAL), ideal(M, HUGE_VAL);
  for (std::size_t i : moo::nondominated_indices(pts, n, M))
    for (int m = 0; m < M; ++m) {
      nadir[m] = std::max(nadir[m], pts[i * M + m]);
      ideal[m] = std::min(ideal[m], pts[i * M + m]);
    }
  for (int m = 0; m < M; ++m) {
    const double range = std::max(nadir[m] - ideal[m], 1e-9 * std::max(1.0, std::fabs(nadir[m])));
    ref[m] = nadir[m] + 0.1 * range;
  }
  return ref;
}

Surrogate::Surrogate(const ProblemSpec& spec, gp::GpOptions options)
    : spec_(&spec),
      options_(options),
      M_(spec.num_objectives()),
      Q_(spec.num_constraints()),
      target_unit_(spec.fidelity().unit(spec.fidelity().target)) {
  // A setting of every model, whoever builds it (gp.fidelity_levels).
  const FidelitySpec& f = spec.fidelity();
  if (spec.param("gp.fidelity_levels") == 1.0 && f.discrete && f.levels.size() >= 3) {
    options_.fidelity_levels.clear();
    for (double s : f.levels) options_.fidelity_levels.push_back(f.unit(s));
    std::sort(options_.fidelity_levels.begin(), options_.fidelity_levels.end());
  }
  // Categorical options are compared by level, never by distance.
  if (spec.has_categorical()) options_.categorical_levels = spec.categorical_levels();
  // And gp.target_correlation: how far the target agrees with the other fidelities.
  if (spec.param("gp.target_correlation") == 1.0 && !f.single_level()) options_.target_fidelity = target_unit_;
}

void Surrogate::ensure_gp() {
  if (gp_) return;
  gp_.emplace(spec_->dim() + 1, M_ + Q_, options_);
  if (mean_hook_) gp_->set_mean_hook(mean_hook_);
  if (sigma_hook_) gp_->set_kernel_hook(sigma_hook_);
}

void Surrogate::set_prior(gp::MeanHook mean, gp::KernelHook sigma) {
  mean_hook_ = std::move(mean);
  sigma_hook_ = std::move(sigma);
  if (gp_) {
    gp_->set_mean_hook(mean_hook_);
    gp_->set_kernel_hook(sigma_hook_);
  }
  ready_ = false;
}

bool Surrogate::fit(const std::vector<Observation>& observations, Rng& rng) {
  TrainingSet t = training_set(*spec_, observations);
  if (t.X.rows() < 2) {
    ready_ = false;
    return false;
  }
  ensure_gp();
  gp_->set_data(t.X, t.Y);
  gp_->fit(rng);
  data_ = std::move(t);
  ready_ = true;
  fitted_count_ = observations.size();
  return true;
}

bool Surrogate::refresh(const std::vector<Observation>& observations, std::uint64_t seed) {
  if (ready_ && fitted_count_ == observations.size()) return true;
  Rng rng(seed * 0x9E3779B97F4A7C15ULL + observations.size());
  return fit(observations, rng);
}

Surrogate Surrogate::believing(const Eigen::MatrixXd& Zp) const {
  if (!ready_) fail(Status::InvalidState, "the model is not fitted");
  Surrogate next = *this;
  if (Zp.rows() == 0) return next;
  Eigen::MatrixXd Yp;
  predict(Zp, &Yp, nullptr);
  Eigen::MatrixXd X(data_.X.rows() + Zp.rows(), data_.X.cols()), Y(data_.Y.rows() + Yp.rows(), data_.Y.cols());
  X << data_.X, Zp;
  Y << data_.Y, Yp;
  next.gp_.emplace(gp_->conditioned_on(X, Y));
  return next;
}

bool Surrogate::draws_target_link() const {
  // Without a row at the target the posterior is the prior, which says
  // nothing about this problem: a draw from it would only add noise.
  return ready_ && gp_->layout().target_link_offset() >= 0 && gp::at_target(data_.X, target_unit_).any();
}

void Surrogate::draw_target_link(Rng& rng) {
  if (!draws_target_link()) return;
  gp::Hyperparameters h = gp_->hyperparameters();
  h.target_link = gp_->sample_target_link(rng);
  try {
    gp_->set_hyperparameters(h);
  } catch (const Error& e) {
    // A draw whose Gram matrix cannot be factorized leaves the fitted model
    // (set_hyperparameters changes nothing when it fails).
    if (e.status() != Status::Numerical) throw;
  }
}

void Surrogate::predict(const Eigen::MatrixXd& Z, Eigen::MatrixXd* mean, Eigen::MatrixXd* variance) const {
  if (!ready_) fail(Status::InvalidState, "the model is not fitted");
  if (variance) {
    gp_->posterior_mean_variance(Z, *mean, *variance, false);
  } else {
    *mean = gp_->posterior_mean(Z);
  }
}

Eigen::VectorXd Surrogate::probability_feasible(const Eigen::MatrixXd& mean, const Eigen::MatrixXd& variance) const {
  Eigen::VectorXd p = Eigen::VectorXd::Ones(mean.rows());
  for (int q = 0; q < Q_; ++q) {
    const ConstraintSpec& c = spec_->constraints()[q];
    for (Eigen::Index i = 0; i < mean.rows(); ++i) {
      const double sd = std::sqrt(std::max(variance(i, M_ + q), 1e-300));
      const double z = (c.threshold - mean(i, M_ + q)) / sd;  // P(g <= threshold)
      const double below = 0.5 * std::erfc(-z / std::sqrt(2.0));
      p[i] *= c.sense == ConstraintSense::LessEqual ? below : 1.0 - below;
    }
  }
  return p;
}

Eigen::VectorXd Surrogate::log_probability_feasible(const Eigen::MatrixXd& mean, const Eigen::MatrixXd& variance) const {
  // log Phi(z): from erfc while it is representable, else its asymptotic
  // series -z^2/2 - log(-z sqrt(2 pi)) + log(1 - 1/z^2 + 3/z^4).
  auto log_phi = [](double z) {
    if (z > -30.0) return std::log(0.5 * std::erfc(-z / std::sqrt(2.0)));
    const double r = 1.0 / (z * z);
    return -0.5 * z * z - std::log(-z * 2.5066282746310002) + std::log1p(-r + 3.0 * r * r);
  };
  Eigen::VectorXd lp = Eigen::VectorXd::Zero(mean.rows());
  for (int q = 0; q < Q_; ++q) {
    const ConstraintSpec& c = spec_->constraints()[q];
    const double sign = c.sense == ConstraintSense::LessEqual ? 1.0 : -1.0;
    for (Eigen::Index i = 0; i < mean.rows(); ++i) {
      const double sd = std::sqrt(std::max(variance(i, M_ + q), 1e-300));
      lp[i] += log_phi(sign * (c.threshold - mean(i, M_ + q)) / sd);
    }
  }
  return lp;
}

double Surrogate::mean_violation(const Eigen::RowVectorXd& mean) const {
  double v = 0.0;
  for (int q = 0; q < Q_; ++q)
    v += spec_->constraints()[q].violation(mean[M_ + q]) / gp_->output_scale()[M_ + q];
  return v;
}

nlohmann::json Surrogate::save() const {
  if (!gp_ || !ready_) return nullptr;
  const Eigen::VectorXd theta = gp_->layout().pack(gp_->hyperparameters());
  nlohmann::json j = {{"hyperparameters", std::vector<double>(theta.data(), theta.data() + theta.size())},
                      {"observations", fitted_count_}};
  // The prior-off model fitted alongside (gp_fit.cpp): without it a restored
  // run would search it afresh and depart from the uninterrupted one.
  const Eigen::VectorXd& plain = gp_->plain_fit();
  if (plain.size() > 0) j["plain"] = std::vector<double>(plain.data(), plain.data() + plain.size());
  return j;
}

void Surrogate::load(const nlohmann::json& state, const std::vector<Observation>& observations) {
  if (state.is_null()) return;
  if (!state.is_object() || !state.contains("hyperparameters") || !state.contains("observations") ||
      !state["hyperparameters"].is_array() || !state["observations"].is_number_unsigned())
    fail(Status::CorruptCheckpoint, "model state is malformed");
  auto numbers = [](const nlohmann::json& a, const char* what) {
    if (!a.is_array()) fail(Status::CorruptCheckpoint, std::string("model ") + what + " must be a list of numbers");
    std::vector<double> v;
    for (const auto& e : a) {
      if (!e.is_number()) fail(Status::CorruptCheckpoint, std::string("model ") + what + " must be numbers");
      v.push_back(e.get<double>());
    }
    return v;
  };
  const std::vector<double> v = numbers(state["hyperparameters"], "hyperparameters");
  const std::vector<double> plain = state.contains("plain") ? numbers(state["plain"], "prior-off hyperparameters")
                                                            : std::vector<double>();
  const std::size_t count = state["observations"].get<std::size_t>();
  if (count > observations.size()) fail(Status::CorruptCheckpoint, "model state refers to missing observations");
  ensure_gp();
  if (static_cast<int>(v.size()) != gp_->layout().size() ||
      (!plain.empty() && static_cast<int>(plain.size()) != gp_->layout().size()))
    fail(Status::CorruptCheckpoint, "model state has the wrong number of hyperparameters");
  gp::Hyperparameters h = gp_->default_hyperparameters();
  gp_->layout().unpack(Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size())), h);
  const std::vector<Observation> used(observations.begin(), observations.begin() + static_cast<std::ptrdiff_t>(count));
  TrainingSet t = training_set(*spec_, used);
  if (t.X.rows() < 2) fail(Status::CorruptCheckpoint, "model state refers to too few observations");
  gp_->set_data(t.X, t.Y);
  gp_->restore_fit(h, Eigen::Map<const Eigen::VectorXd>(plain.data(), static_cast<Eigen::Index>(plain.size())));
  data_ = std::move(t);
  ready_ = true;
  fitted_count_ = count;
}

}  // namespace rescue::acq
