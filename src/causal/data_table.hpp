// A data set for causal discovery: one row per measurement, one column per
// variable, each column typed by its role in the causal performance model
// (paper, Background: options X, fidelity s, indicators Z, objectives Y, plus
// constraint metrics h).
#pragma once
#include <Eigen/Dense>
#include <string>
#include <vector>

namespace rescue::causal {

enum class Role { Option, Fidelity, Indicator, Objective, Constraint };

/// "option", "fidelity", "indicator", "objective" or "constraint".
const char* role_name(Role role);

/// Tier of a role in the structural order: options and fidelity 0, indicators 1,
/// objectives and constraint metrics 2. Causal edges never go to a lower tier.
int role_tier(Role role);

struct Variable {
  std::string name;
  Role role = Role::Indicator;
};

class DataTable {
 public:
  DataTable() = default;
  /// Validates: names unique and non-empty, at most one fidelity column,
  /// data.cols() == variables.size(), every value finite.
  DataTable(std::vector<Variable> variables, Eigen::MatrixXd data);

  int rows() const { return static_cast<int>(data_.rows()); }
  int cols() const { return static_cast<int>(data_.cols()); }
  const std::vector<Variable>& variables() const { return variables_; }
  const Variable& variable(int j) const { return variables_.at(static_cast<std::size_t>(j)); }
  const Eigen::MatrixXd& data() const { return data_; }

  /// Column indices with the given role, in column order.
  std::vector<int> columns_with_role(Role role) const;
  /// The fidelity column, or -1 if the table has none.
  int fidelity_column() const;

  /// Builds a table from rows that may contain NaN (e.g. indicators not measured
  /// on every evaluation): rows with any non-finite value are dropped.
  static DataTable from_complete_rows(std::vector<Variable> variables, const Eigen::MatrixXd& data);

 private:
  std::vector<Variable> variables_;
  Eigen::MatrixXd data_;
};

}  // namespace rescue::causal
