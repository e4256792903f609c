// The fitted causal performance model: one structural equation per variable of
// a DAG, and the interventional estimates the GP uses as its prior (paper,
// Methodology: mean f_do(x, s) = E[Y | do(X = x), s] and
// sigma(x, s) = sd[Y | do(X = x), s]; Algorithm 1 lines 2 and 6).
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <vector>

#include "causal/data_table.hpp"
#include "causal/graph.hpp"
#include "causal/structural_equation.hpp"

namespace rescue::causal {

struct ScmOptions {
  EquationOptions equations;
  int mc_samples = 128;            // common random numbers per query point
  std::uint64_t seed = 0;
};

class CausalModel {
 public:
  CausalModel() = default;

  /// Fits every non-intervened variable of `dag` (options and fidelity are set by
  /// intervention and get no equation). Throws Status::InvalidArgument if the DAG
  /// has undirected edges, a cycle, other variables than the table, an edge into
  /// an option or the fidelity, or if the table has fewer than 2 rows.
  static CausalModel fit(const DataTable& table, const Graph& dag, const ScmOptions& options = {});

  /// Objective columns then constraint columns, each in table order: the
  /// columns of the interventional estimates.
  const std::vector<int>& output_columns() const { return outputs_; }
  const StructuralEquation& equation(int v) const { return equations_.at(static_cast<std::size_t>(v)); }
  /// True if output k is computed in closed form (its equation and those of all
  /// its non-intervened ancestors are linear).
  bool closed_form(int k) const { return closed_[static_cast<std::size_t>(outputs_[static_cast<std::size_t>(k)])] != 0; }

  /// Interventional mean and standard deviation of every output for each row of
  /// xs (n x d: the option columns of the table, in order) at fidelities s
  /// (length n; ignored without a fidelity column). Monte Carlo over the residual distributions with common random
  /// numbers fixed at fit time (deterministic for a seed), exact where the
  /// output's ancestry is linear. Safe to call concurrently.
  void estimate(const Eigen::MatrixXd& xs, const Eigen::VectorXd& s, Eigen::MatrixXd* mean, Eigen::MatrixXd* sd) const;

 private:
  void check_query(const Eigen::MatrixXd& xs, const Eigen::VectorXd& s) const;
  void estimate_chunk(const Eigen::MatrixXd& xs, const Eigen::VectorXd& s, Eigen::Index begin, Eigen::Index end,
                      Eigen::MatrixXd* mean, Eigen::MatrixXd* sd) const;

  Graph dag_;
  std::vector<int> order_;      // topological order
  std::vector<int> options_;
  int fidelity_ = -1;
  std::vector<int> outputs_;
  std::vector<char> intervened_;
  std::vector<std::vector<int>> parents_;
  std::vector<StructuralEquation> equations_;
  std::vector<Eigen::VectorXd> noise_;  // mc_samples common random draws per variable
  // Closed form for linear ancestry: value = offset + gain . [x, s] + noise.
  std::vector<char> closed_;
  std::vector<double> offset_;
  Eigen::MatrixXd gain_;        // variables x (d + 1)
  Eigen::MatrixXd loading_;     // variables x variables: weight of each noise term
  Eigen::VectorXd noise_var_;
  int mc_samples_ = 0;
};

}  // namespace rescue::causal
