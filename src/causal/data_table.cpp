#include "causal/data_table.hpp"

#include <cmath>
#include <set>

#include "util/error.hpp"

namespace rescue::causal {

const char* role_name(Role role) {
  switch (role) {
    case Role::Option: return "option";
    case Role::Fidelity: return "fidelity";
    case Role::Indicator: return "indicator";
    case Role::Objective: return "objective";
    case Role::Constraint: return "constraint";
  }
  return "unknown";
}

int role_tier(Role role) {
  switch (role) {
    case Role::Option:
    case Role::Fidelity: return 0;
    case Role::Indicator: return 1;
    case Role::Objective:
    case Role::Constraint: return 2;
  }
  return 2;
}

namespace {

void check_variables(const std::vector<Variable>& variables) {
  std::set<std::string> seen;
  int fidelities = 0;
  for (const auto& v : variables) {
    if (v.name.empty()) fail(Status::InvalidArgument, "causal data table: a variable has an empty name");
    if (!seen.insert(v.name).second)
      fail(Status::InvalidArgument, "causal data table: duplicate variable name '" + v.name + "'");
    if (v.role == Role::Fidelity) ++fidelities;
  }
  if (fidelities > 1)
    fail(Status::InvalidArgument, "causal data table: at most one fidelity column is allowed, got " +
                                      std::to_string(fidelities));
}

}  // namespace

DataTable::DataTable(std::vector<Variable> variables, Eigen::MatrixXd data)
    : variables_(std::move(variables)), data_(std::move(data)) {
  check_variables(variables_);
  if (data_.cols() != static_cast<Eigen::Index>(variables_.size()))
    fail(Status::SizeMismatch, "causal data table: " + std::to_string(data_.cols()) + " data columns for " +
                                   std::to_string(variables_.size()) + " variables");
  for (Eigen::Index j = 0; j < data_.cols(); ++j)
    for (Eigen::Index i = 0; i < data_.rows(); ++i)
      if (!std::isfinite(data_(i, j)))
        fail(Status::NonFinite, "causal data table: non-finite value in column '" +
                                    variables_[static_cast<std::size_t>(j)].name + "' at row " +
                                    std::to_string(i));
}

std::vector<int> DataTable::columns_with_role(Role role) const {
  std::vector<int> out;
  for (std::size_t j = 0; j < variables_.size(); ++j)
    if (variables_[j].role == role) out.push_back(static_cast<int>(j));
  return out;
}

int DataTable::fidelity_column() const {
  const auto f = columns_with_role(Role::Fidelity);
  return f.empty() ? -1 : f.front();
}

DataTable DataTable::from_complete_rows(std::vector<Variable> variables, const Eigen::MatrixXd& data) {
  std::vector<Eigen::Index> keep;
  for (Eigen::Index i = 0; i < data.rows(); ++i)
    if (data.row(i).allFinite()) keep.push_back(i);
  Eigen::MatrixXd clean(static_cast<Eigen::Index>(keep.size()), data.cols());
  for (std::size_t r = 0; r < keep.size(); ++r) clean.row(static_cast<Eigen::Index>(r)) = data.row(keep[r]);
  return DataTable(std::move(variables), std::move(clean));
}

}  // namespace rescue::causal
