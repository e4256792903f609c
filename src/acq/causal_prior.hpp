// The causal performance model as the GP's prior (paper, Methodology, MF-CGP):
// the interventional mean f_do(x, s) = E[Y | do(X = x), s] becomes the prior
// mean and sigma(x, s) = sd[Y | do(X = x), s] the extra kernel term, for every
// objective and constraint metric. This file builds the causal data table from
// a problem's data and translates between the GP's unit inputs and output
// convention (objectives minimized) and the causal model's user units.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "causal/causal_performance_model.hpp"
#include "core/observation.hpp"
#include "core/problem_spec.hpp"

namespace rescue::acq {

/// Name of the fidelity variable in causal graphs ("fidelity", or "fidelity_"... if taken).
std::string fidelity_variable_name(const ProblemSpec& spec);

/// The variables of the causal table: options, fidelity, indicators, objectives, constraints.
/// A categorical option with L levels enters as L - 1 indicator variables "name=label" of
/// its levels 1 .. L - 1 (level 0 is the baseline, where all are 0): the linear tests
/// of discovery and the structural equations then see each level's own effect, without
/// an order among the levels that their indices would impose. Every other option is
/// one variable of its own name.
std::vector<causal::Variable> causal_variables(const ProblemSpec& spec);

/// Number of option columns of the causal table (causal_variables).
int causal_option_columns(const ProblemSpec& spec);
/// The n x causal_option_columns(spec) option columns of configurations X (n x d, user units).
Eigen::MatrixXd encode_options(const ProblemSpec& spec, const Eigen::MatrixXd& X);
/// Edges between named variables with each edge from a categorical option's
/// name replaced by one edge from each of its indicator variables.
std::vector<EdgeSpec> expand_option_edges(const ProblemSpec& spec, const std::vector<EdgeSpec>& edges);

/// Table of the first `n_logs` observational rows (same column order) and the
/// successful observations among the first `n_obs`. Rows missing an objective or constraint
/// value are dropped; an indicator measured in fewer than half of the rows is
/// left out of the table, so that a user who rarely reports it loses no rows.
causal::DataTable causal_table(const ProblemSpec& spec, const std::vector<std::vector<double>>& observational,
                               const std::vector<Observation>& observations, std::size_t n_obs,
                               std::size_t n_logs = static_cast<std::size_t>(-1));

class CausalPrior {
 public:
  /// at_target: query f_do and sigma at the target fidelity whatever the
  /// input's fidelity; otherwise at the input's (the paper's form).
  CausalPrior(const ProblemSpec& spec, causal::CausalPerformanceModel cpm, bool at_target);

  /// GP hooks: unit inputs (n x (d+1), fidelity last) -> n x (M+Q) values with
  /// objectives in the minimization convention.
  Eigen::MatrixXd mean(const Eigen::MatrixXd& Z);
  Eigen::MatrixXd sd(const Eigen::MatrixXd& Z);
  /// Estimates in user units and each objective's own sense: X is n x d, s n fidelities.
  void estimate(const Eigen::MatrixXd& X, const Eigen::VectorXd& s, Eigen::MatrixXd* mean, Eigen::MatrixXd* sd);

  const causal::CausalPerformanceModel& cpm() const { return cpm_; }

 private:
  void query(const Eigen::MatrixXd& Z);

  ProblemSpec spec_;
  causal::CausalPerformanceModel cpm_;
  bool at_target_;
  // The two hooks are called at the same inputs one after the other: one query serves both.
  Eigen::MatrixXd last_z_, last_mean_, last_sd_;
};

}  // namespace rescue::acq
