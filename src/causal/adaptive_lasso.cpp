#include "causal/adaptive_lasso.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "util/error.hpp"

namespace rescue::causal {

double least_squares(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, const std::vector<int>& columns,
                     double* intercept, Eigen::VectorXd* coefficients) {
  const Eigen::Index n = X.rows();
  const Eigen::Index k = static_cast<Eigen::Index>(columns.size());
  *coefficients = Eigen::VectorXd::Zero(X.cols());
  const double ybar = y.mean();
  if (k == 0) {
    *intercept = ybar;
    return (y.array() - ybar).square().sum();
  }
  Eigen::MatrixXd A(n, k);
  for (Eigen::Index c = 0; c < k; ++c) A.col(c) = X.col(columns[static_cast<std::size_t>(c)]);
  const Eigen::RowVectorXd abar = A.colwise().mean();
  A.rowwise() -= abar;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(A);
  cod.setThreshold(1e-10);
  const Eigen::VectorXd yc = (y.array() - ybar).matrix();
  const Eigen::VectorXd b = cod.solve(yc);
  for (Eigen::Index c = 0; c < k; ++c) (*coefficients)(columns[static_cast<std::size_t>(c)]) = b(c);
  *intercept = ybar - abar.dot(b);
  return (yc - A * b).squaredNorm();
}

SparseRegression adaptive_lasso_bic(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, const std::vector<int>& forced) {
  const Eigen::Index n = X.rows(), k = X.cols();
  if (y.size() != n) fail(Status::SizeMismatch, "adaptive lasso: X and y have different numbers of rows");
  if (n < 2) fail(Status::InvalidArgument, "adaptive lasso: needs at least 2 rows");
  std::vector<char> is_forced(static_cast<std::size_t>(k), 0);
  for (int f : forced) {
    if (f < 0 || f >= k) fail(Status::OutOfRange, "adaptive lasso: forced column out of range");
    is_forced[static_cast<std::size_t>(f)] = 1;
  }
  const double nd = static_cast<double>(n);
  const std::size_t forced_count = static_cast<std::size_t>(std::count(is_forced.begin(), is_forced.end(), 1));
  SparseRegression best;
  best.coefficients = Eigen::VectorXd::Zero(k);
  auto score = [&](std::vector<int> support) {
    std::sort(support.begin(), support.end());
    support.erase(std::unique(support.begin(), support.end()), support.end());
    // Too many predictors for the rows: only the forced set may still be fit.
    if (static_cast<Eigen::Index>(support.size()) >= n - 1 && support.size() > forced_count) return;
    double b0;
    Eigen::VectorXd b;
    const double rss = least_squares(X, y, support, &b0, &b);
    const double bic = nd * std::log(std::max(rss / nd, 1e-300)) + static_cast<double>(support.size()) * std::log(nd);
    if (bic < best.bic - 1e-12) {
      best.bic = bic;
      best.intercept = b0;
      best.coefficients = b;
      best.support = support;
    }
  };
  best.bic = std::numeric_limits<double>::infinity();

  // Standardized predictors; constant ones can never enter.
  Eigen::MatrixXd Z = X.rowwise() - X.colwise().mean();
  Eigen::VectorXd sd = (Z.colwise().squaredNorm() / nd).cwiseSqrt().transpose();
  for (Eigen::Index j = 0; j < k; ++j) {
    if (sd(j) > 1e-12 * std::max(1.0, X.col(j).cwiseAbs().maxCoeff()))
      Z.col(j) /= sd(j);
    else
      Z.col(j).setZero();
  }
  const Eigen::VectorXd yc = y.array() - y.mean();
  std::vector<int> forced_support;
  for (Eigen::Index j = 0; j < k; ++j)
    if (is_forced[static_cast<std::size_t>(j)]) forced_support.push_back(static_cast<int>(j));
  score(forced_support);
  if (k == 0) return best;

  // Initial estimates for the adaptive weights: ridge, heavier when n is small.
  const double ridge = (n > k + 5) ? 1e-6 * nd : 0.1 * nd;
  Eigen::MatrixXd G = Z.transpose() * Z;
  G.diagonal().array() += ridge;
  const Eigen::VectorXd beta0 = G.ldlt().solve(Z.transpose() * yc);
  Eigen::VectorXd w = beta0.cwiseAbs();
  for (Eigen::Index j = 0; j < k; ++j)
    if (is_forced[static_cast<std::size_t>(j)]) w(j) = 1.0;
  Eigen::MatrixXd Zw = Z * w.asDiagonal();
  const Eigen::MatrixXd gram = Zw.transpose() * Zw / nd;
  const Eigen::VectorXd corr = Zw.transpose() * yc / nd;

  double lambda_max = 0.0;
  for (Eigen::Index j = 0; j < k; ++j)
    if (!is_forced[static_cast<std::size_t>(j)]) lambda_max = std::max(lambda_max, std::abs(corr(j)));
  if (!(lambda_max > 0.0)) return best;
  const int steps = 40;
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(k);
  for (int s = 0; s < steps; ++s) {
    const double lambda = lambda_max * std::pow(1e-4, static_cast<double>(s) / (steps - 1));
    for (int sweep = 0; sweep < 1000; ++sweep) {
      double delta = 0.0;
      for (Eigen::Index j = 0; j < k; ++j) {
        if (!(gram(j, j) > 1e-14)) continue;
        const double rho = corr(j) - gram.row(j).dot(theta) + gram(j, j) * theta(j);
        const double pen = is_forced[static_cast<std::size_t>(j)] ? 0.0 : lambda;
        const double t = (rho > pen ? rho - pen : (rho < -pen ? rho + pen : 0.0)) / gram(j, j);
        delta = std::max(delta, std::abs(t - theta(j)));
        theta(j) = t;
      }
      if (delta < 1e-9) break;
    }
    std::vector<int> support = forced_support;
    for (Eigen::Index j = 0; j < k; ++j)
      if (theta(j) != 0.0) support.push_back(static_cast<int>(j));
    score(support);
  }
  return best;
}

}  // namespace rescue::causal
