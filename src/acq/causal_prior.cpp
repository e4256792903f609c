#include "acq/causal_prior.hpp"

#include <cmath>

namespace rescue::acq {

std::string fidelity_variable_name(const ProblemSpec& spec) {
  std::string name = "fidelity";
  auto taken = [&](const std::string& n) {
    for (const auto& o : spec.options()) if (o.name == n) return true;
    for (const auto& o : spec.objectives()) if (o.name == n) return true;
    for (const auto& c : spec.constraints()) if (c.name == n) return true;
    for (const auto& i : spec.indicators()) if (i == n) return true;
    return false;
  };
  while (taken(name)) name += "_";
  return name;
}

std::vector<causal::Variable> causal_variables(const ProblemSpec& spec) {
  using causal::Role;
  std::vector<causal::Variable> v;
  for (const auto& o : spec.options()) v.push_back({o.name, Role::Option});
  v.push_back({fidelity_variable_name(spec), Role::Fidelity});
  for (const auto& i : spec.indicators()) v.push_back({i, Role::Indicator});
  for (const auto& o : spec.objectives()) v.push_back({o.name, Role::Objective});
  for (const auto& c : spec.constraints()) v.push_back({c.name, Role::Constraint});
  return v;
}

causal::DataTable causal_table(const ProblemSpec& spec, const std::vector<std::vector<double>>& observational,
                               const std::vector<Observation>& observations, std::size_t n_obs, std::size_t n_logs) {
  const int d = spec.dim(), K = spec.num_indicators(), M = spec.num_objectives(), Q = spec.num_constraints();
  const int width = d + 1 + K + M + Q;
  std::vector<std::vector<double>> rows(
      observational.begin(), observational.begin() + static_cast<std::ptrdiff_t>(std::min(n_logs, observational.size())));
  for (std::size_t i = 0; i < std::min(n_obs, observations.size()); ++i) {
    const Observation& o = observations[i];
    if (o.failed) continue;
    std::vector<double> r(o.x);
    r.push_back(o.s);
    r.insert(r.end(), o.z.begin(), o.z.end());
    r.insert(r.end(), o.y.begin(), o.y.end());
    r.insert(r.end(), o.g.begin(), o.g.end());
    rows.push_back(std::move(r));
  }
  // Keep the indicators measured in at least half of the rows.
  const std::vector<causal::Variable> all = causal_variables(spec);
  std::vector<int> columns;
  for (int j = 0; j < width; ++j) {
    const bool indicator = j > d && j <= d + K;
    if (indicator) {
      std::size_t finite = 0;
      for (const auto& r : rows) finite += std::isfinite(r[j]) ? 1 : 0;
      if (2 * finite < rows.size()) continue;
    }
    columns.push_back(j);
  }
  std::vector<causal::Variable> vars;
  for (int j : columns) vars.push_back(all[j]);
  Eigen::MatrixXd data(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(columns.size()));
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t k = 0; k < columns.size(); ++k) data(i, k) = rows[i][columns[k]];
  return causal::DataTable::from_complete_rows(vars, data);
}

CausalPrior::CausalPrior(const ProblemSpec& spec, causal::CausalPerformanceModel cpm, bool at_target)
    // The calibrated prior is f_do(x, s_target) at every fidelity: where the
    // causal model's fidelity effect is cruder than the data's, a mean
    // f_do(x, s) leaves residuals that change fast with s, the GP learns a
    // short fidelity lengthscale and low fidelities stop informing the target.
    : spec_(spec), cpm_(std::move(cpm)), at_target_(at_target) {}

void CausalPrior::query(const Eigen::MatrixXd& Z) {
  if (Z.rows() == last_z_.rows() && Z.cols() == last_z_.cols() && Z == last_z_) return;
  const int d = spec_.dim();
  // Unit inputs back to user units; integer options stay relaxed (the model is continuous).
  Eigen::MatrixXd X(Z.rows(), d);
  Eigen::VectorXd s(Z.rows());
  const FidelitySpec& f = spec_.fidelity();
  for (Eigen::Index i = 0; i < Z.rows(); ++i) {
    for (int j = 0; j < d; ++j) {
      const OptionSpec& o = spec_.options()[j];
      const double u = std::min(1.0, std::max(0.0, Z(i, j)));
      X(i, j) = o.kind == OptionKind::LogScale ? std::exp(std::log(o.lower) + u * (std::log(o.upper) - std::log(o.lower)))
                                               : o.lower + u * (o.upper - o.lower);
    }
    s[i] = f.upper > f.lower && !at_target_ ? f.lower + Z(i, d) * (f.upper - f.lower) : f.target;
  }
  // Estimates are not cached: a cached value would depend on the batch that first
  // computed it (vectorized arithmetic differs in the last bit across batch
  // positions), which would make runs depend on their history, e.g. across a
  // checkpoint.
  Eigen::MatrixXd mean, sd;
  cpm_.model.estimate(X, s, &mean, &sd);
  for (int m = 0; m < spec_.num_objectives(); ++m)
    if (spec_.objectives()[m].sense == Sense::Maximize) mean.col(m) = -mean.col(m);
  last_z_ = Z;
  last_mean_ = std::move(mean);
  last_sd_ = std::move(sd);
}

Eigen::MatrixXd CausalPrior::mean(const Eigen::MatrixXd& Z) {
  query(Z);
  return last_mean_;
}

Eigen::MatrixXd CausalPrior::sd(const Eigen::MatrixXd& Z) {
  query(Z);
  return last_sd_;
}

void CausalPrior::estimate(const Eigen::MatrixXd& X, const Eigen::VectorXd& s, Eigen::MatrixXd* mean,
                           Eigen::MatrixXd* sd) {
  cpm_.model.estimate(X, s, mean, sd);
}

}  // namespace rescue::acq
