// Random structural causal models with known graphs, for tests and the SHD
// report: options (uniform, independent), an optional fidelity, indicators,
// objectives and constraint metrics; edges only where the structural
// constraints allow them.
#pragma once
#include <Eigen/Dense>
#include <cmath>
#include <vector>

#include "causal/data_table.hpp"
#include "causal/graph.hpp"
#include "util/rng.hpp"

namespace rescue::causal::testing {

enum class NoiseKind { Gaussian, Uniform };
enum class FormKind { Linear, NonlinearAdditive };

struct ScmSpec {
  int options = 2;
  bool fidelity = false;
  int indicators = 2;
  int objectives = 2;
  int constraints = 0;
  double edge_probability = 0.4;
  bool within_tier_edges = true;  // indicator -> indicator, objective -> objective edges
  NoiseKind noise = NoiseKind::Gaussian;
  FormKind form = FormKind::Linear;
  double noise_sd = 0.5;
  double nonlinear_amplitude = 1.5;  // link u + a sin(1.5 u) for FormKind::NonlinearAdditive
};

class SyntheticScm {
 public:
  SyntheticScm(const ScmSpec& spec, Rng& rng) : spec_(spec) {
    for (int i = 0; i < spec.options; ++i) vars_.push_back({"x" + std::to_string(i), Role::Option});
    if (spec.fidelity) vars_.push_back({"s", Role::Fidelity});
    for (int i = 0; i < spec.indicators; ++i) vars_.push_back({"z" + std::to_string(i), Role::Indicator});
    for (int i = 0; i < spec.objectives; ++i) vars_.push_back({"y" + std::to_string(i), Role::Objective});
    for (int i = 0; i < spec.constraints; ++i) vars_.push_back({"h" + std::to_string(i), Role::Constraint});
    const int p = static_cast<int>(vars_.size());
    dag_ = Graph(vars_);
    w_ = Eigen::MatrixXd::Zero(p, p);
    // Columns are already in tier order, so a -> b only for a < b keeps it acyclic.
    for (int b = 0; b < p; ++b) {
      const int tb = role_tier(vars_[static_cast<std::size_t>(b)].role);
      if (tb == 0) continue;
      bool has_parent = false;
      for (int a = 0; a < b; ++a) {
        const int ta = role_tier(vars_[static_cast<std::size_t>(a)].role);
        if (ta == tb && !spec.within_tier_edges) continue;
        if (rng.uniform() < spec.edge_probability) {
          dag_.add_directed(a, b);
          w_(a, b) = rng.uniform(0.5, 1.0) * (rng.uniform() < 0.5 ? -1.0 : 1.0);
          has_parent = true;
        }
      }
      // Every indicator, objective and constraint depends on something from a lower tier.
      if (!has_parent) {
        std::vector<int> lower;
        for (int a = 0; a < b; ++a)
          if (role_tier(vars_[static_cast<std::size_t>(a)].role) < tb) lower.push_back(a);
        if (!lower.empty()) {
          const int a = lower[rng.below(lower.size())];
          dag_.add_directed(a, b);
          w_(a, b) = rng.uniform(0.5, 1.0) * (rng.uniform() < 0.5 ? -1.0 : 1.0);
        }
      }
    }
  }

  const std::vector<Variable>& variables() const { return vars_; }
  const Graph& dag() const { return dag_; }
  const Eigen::MatrixXd& weights() const { return w_; }
  int size() const { return static_cast<int>(vars_.size()); }
  int num_inputs() const { return spec_.options + (spec_.fidelity ? 1 : 0); }

  double link(double u) const { return spec_.form == FormKind::Linear ? u : u + spec_.nonlinear_amplitude * std::sin(1.5 * u); }

  double noise(Rng& rng) const {
    if (spec_.noise == NoiseKind::Gaussian) return spec_.noise_sd * rng.normal();
    return spec_.noise_sd * std::sqrt(3.0) * rng.uniform(-1.0, 1.0);
  }

  /// Observational rows: inputs uniform with unit variance.
  Eigen::MatrixXd sample(int n, Rng& rng) const {
    Eigen::MatrixXd X(n, size());
    for (int i = 0; i < n; ++i) {
      Eigen::VectorXd in(num_inputs());
      for (int j = 0; j < num_inputs(); ++j) in(j) = std::sqrt(3.0) * rng.uniform(-1.0, 1.0);
      X.row(i) = draw(in, rng).transpose();
    }
    return X;
  }

  /// One row of every variable with the inputs (options then fidelity) set.
  Eigen::VectorXd draw(const Eigen::VectorXd& inputs, Rng& rng) const {
    const int p = size();
    Eigen::VectorXd v(p);
    for (int j = 0; j < p; ++j) {
      if (j < num_inputs()) {
        v(j) = inputs(j);
        continue;
      }
      double s = 0.0;
      for (int a = 0; a < j; ++a)
        if (w_(a, j) != 0.0) s += w_(a, j) * link(v(a));
      v(j) = s + noise(rng);
    }
    return v;
  }

  /// Interventional mean and sd of every variable at the inputs, by Monte Carlo.
  void truth(const Eigen::VectorXd& inputs, int draws, Rng& rng, Eigen::VectorXd* mean, Eigen::VectorXd* sd) const {
    Eigen::VectorXd s1 = Eigen::VectorXd::Zero(size()), s2 = Eigen::VectorXd::Zero(size());
    for (int k = 0; k < draws; ++k) {
      const Eigen::VectorXd v = draw(inputs, rng);
      s1 += v;
      s2 += v.cwiseAbs2();
    }
    *mean = s1 / draws;
    *sd = (s2 / draws - mean->cwiseAbs2()).cwiseMax(0.0).cwiseSqrt();
  }

 private:
  ScmSpec spec_;
  std::vector<Variable> vars_;
  Graph dag_;
  Eigen::MatrixXd w_;
};

}  // namespace rescue::causal::testing
