// Adaptive lasso (Zou 2006) with the penalty chosen by BIC, then ordinary least
// squares on the kept predictors. DirectLiNGAM uses it to prune the parents that
// its causal order allows (Shimizu et al. 2011, Section 3.3).
#pragma once
#include <Eigen/Dense>
#include <vector>

namespace rescue::causal {

struct SparseRegression {
  double intercept = 0.0;
  Eigen::VectorXd coefficients;  // one per column of X, 0 where the predictor was dropped
  std::vector<int> support;      // indices of kept predictors, ascending
  double bic = 0.0;
};

/// Regresses y on the columns of X. Columns listed in `forced` are never
/// penalized (always kept). Initial weights come from ridge-stabilized least
/// squares; the lasso path is solved by coordinate descent on 40 penalties from
/// the smallest that empties the model down to 1e-4 of it; each path point is
/// refit by least squares and scored by BIC = n log(RSS / n) + k log n.
SparseRegression adaptive_lasso_bic(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                                    const std::vector<int>& forced = {});

/// Least squares of y on the given columns of X plus an intercept (minimum-norm
/// solution when the columns are collinear). Returns the residual sum of squares.
double least_squares(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, const std::vector<int>& columns,
                     double* intercept, Eigen::VectorXd* coefficients);

}  // namespace rescue::causal
