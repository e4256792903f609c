// DirectLiNGAM (Shimizu et al. 2011) for linear non-Gaussian acyclic models:
// the causal order is found one exogenous variable at a time with the pairwise
// likelihood-ratio measure of Hyvarinen and Smith (2013); prior knowledge
// restricts each step to variables that no remaining variable must precede
// (role tiers and required edges of the structural constraints); edge weights
// come from the adaptive lasso with a BIC penalty, refit by least squares.
#pragma once
#include <vector>

#include "causal/data_table.hpp"
#include "causal/graph.hpp"
#include "causal/structural_constraints.hpp"

namespace rescue::causal {

struct LingamResult {
  Graph dag;                      // weighted DAG (weights in the table's units)
  std::vector<int> causal_order;  // earliest first
};

/// Entropy approximation of a standardized sample (Hyvarinen 1998, maximum
/// entropy approximation used by DirectLiNGAM).
double lingam_entropy(const Eigen::VectorXd& u);

/// Throws Status::InvalidArgument if the table has fewer than 3 rows. The result
/// always satisfies constraints.check().
LingamResult discover_lingam(const DataTable& table, const StructuralConstraints& constraints);

}  // namespace rescue::causal
