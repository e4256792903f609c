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

namespace {

// The indicator variable of level k of a categorical option.
std::string level_variable(const OptionSpec& o, int k) { return o.name + "=" + o.labels[k]; }

}  // namespace

int causal_option_columns(const ProblemSpec& spec) {
  int n = 0;
  for (const auto& o : spec.options()) n += o.categorical() ? o.levels() - 1 : 1;
  return n;
}

Eigen::MatrixXd encode_options(const ProblemSpec& spec, const Eigen::MatrixXd& X) {
  if (!spec.has_categorical()) return X;
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(X.rows(), causal_option_columns(spec));
  int c = 0;
  for (int j = 0; j < spec.dim(); ++j) {
    const OptionSpec& o = spec.options()[j];
    if (!o.categorical()) {
      out.col(c++) = X.col(j);
      continue;
    }
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      const double k = std::round(X(i, j));
      if (k >= 1.0 && k <= o.upper) out(i, c + static_cast<Eigen::Index>(k) - 1) = 1.0;
    }
    c += o.levels() - 1;
  }
  return out;
}

std::vector<EdgeSpec> expand_option_edges(const ProblemSpec& spec, const std::vector<EdgeSpec>& edges) {
  std::vector<EdgeSpec> out;
  for (const EdgeSpec& e : edges) {
    const OptionSpec* from = nullptr;
    for (const auto& o : spec.options())
      if (o.categorical() && o.name == e.from) from = &o;
    if (!from) {
      out.push_back(e);
      continue;
    }
    for (int k = 1; k < from->levels(); ++k) out.push_back({level_variable(*from, k), e.to});
  }
  return out;
}

std::vector<causal::Variable> causal_variables(const ProblemSpec& spec) {
  using causal::Role;
  std::vector<causal::Variable> v;
  for (const auto& o : spec.options()) {
    if (!o.categorical()) {
      v.push_back({o.name, Role::Option});
      continue;
    }
    for (int k = 1; k < o.levels(); ++k) v.push_back({level_variable(o, k), Role::Option});
  }
  v.push_back({fidelity_variable_name(spec), Role::Fidelity});
  for (const auto& i : spec.indicators()) v.push_back({i, Role::Indicator});
  for (const auto& o : spec.objectives()) v.push_back({o.name, Role::Objective});
  for (const auto& c : spec.constraints()) v.push_back({c.name, Role::Constraint});
  return v;
}

causal::DataTable causal_table(const ProblemSpec& spec, const std::vector<std::vector<double>>& observational,
                               const std::vector<Observation>& observations, std::size_t n_obs, std::size_t n_logs) {
  const int d = spec.dim(), K = spec.num_indicators(), M = spec.num_objectives(), Q = spec.num_constraints();
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
  // Categorical options become their level indicators (causal_variables).
  const int dc = causal_option_columns(spec);
  if (spec.has_categorical())
    for (auto& r : rows) {
      const Eigen::MatrixXd x = encode_options(spec, Eigen::Map<const Eigen::RowVectorXd>(r.data(), d));
      std::vector<double> e(x.data(), x.data() + dc);
      e.insert(e.end(), r.begin() + d, r.end());
      r = std::move(e);
    }
  const int width = dc + 1 + K + M + Q;
  // Keep the indicators measured in at least half of the rows.
  const std::vector<causal::Variable> all = causal_variables(spec);
  std::vector<int> columns;
  for (int j = 0; j < width; ++j) {
    const bool indicator = j > dc && j <= dc + K;
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
  // Unit inputs back to user units; integer options stay relaxed (the model is
  // continuous), a categorical option takes the level of its bin.
  Eigen::MatrixXd X(Z.rows(), d);
  Eigen::VectorXd s(Z.rows());
  const FidelitySpec& f = spec_.fidelity();
  for (Eigen::Index i = 0; i < Z.rows(); ++i) {
    for (int j = 0; j < d; ++j) {
      const OptionSpec& o = spec_.options()[j];
      const double u = std::min(1.0, std::max(0.0, Z(i, j)));
      if (o.categorical()) {
        X(i, j) = categorical_level(u, o.levels());
        continue;
      }
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
  cpm_.model.estimate(encode_options(spec_, X), s, &mean, &sd);
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
  cpm_.model.estimate(encode_options(spec_, X), s, mean, sd);
}

}  // namespace rescue::acq
