#include "causal/structural_equation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "causal/vectorized_cos.hpp"
#include "util/error.hpp"

namespace rescue::causal {

namespace {

constexpr int kCvFolds = 5;
constexpr int kRandomFeatures = 64;
// The nonlinear form is chosen only if its cross-validated error is this
// fraction below the linear one (prefer the simpler model).
constexpr double kNonlinearGain = 0.05;

// Design with an unpenalized intercept column first.
Eigen::MatrixXd with_intercept(const Eigen::MatrixXd& a) {
  Eigen::MatrixXd d(a.rows(), a.cols() + 1);
  d.col(0).setOnes();
  d.rightCols(a.cols()) = a;
  return d;
}

Eigen::VectorXd ridge_solve(const Eigen::MatrixXd& gram, const Eigen::VectorXd& rhs, double lambda) {
  Eigen::MatrixXd g = gram;
  g.diagonal().tail(g.rows() - 1).array() += lambda;
  g(0, 0) += 1e-12 * std::max(1.0, g(0, 0));
  Eigen::LDLT<Eigen::MatrixXd> ldlt(g);
  Eigen::VectorXd w = ldlt.solve(rhs);
  if (!w.allFinite()) w = g.completeOrthogonalDecomposition().solve(rhs);
  return w;
}

// K-fold cross-validated MSE of ridge regression for each lambda, reusing the
// full Gram matrix and subtracting each fold's contribution.
std::vector<double> ridge_cv(const Eigen::MatrixXd& design, const Eigen::VectorXd& y, const std::vector<int>& fold,
                             int folds, const std::vector<double>& lambdas) {
  const Eigen::MatrixXd gram = design.transpose() * design;
  const Eigen::VectorXd rhs = design.transpose() * y;
  std::vector<double> sse(lambdas.size(), 0.0);
  for (int f = 0; f < folds; ++f) {
    std::vector<Eigen::Index> rows;
    for (std::size_t i = 0; i < fold.size(); ++i)
      if (fold[i] == f) rows.push_back(static_cast<Eigen::Index>(i));
    if (rows.empty()) continue;
    Eigen::MatrixXd df(static_cast<Eigen::Index>(rows.size()), design.cols());
    Eigen::VectorXd yf(static_cast<Eigen::Index>(rows.size()));
    for (std::size_t r = 0; r < rows.size(); ++r) {
      df.row(static_cast<Eigen::Index>(r)) = design.row(rows[r]);
      yf(static_cast<Eigen::Index>(r)) = y(rows[r]);
    }
    const Eigen::MatrixXd g_train = gram - df.transpose() * df;
    const Eigen::VectorXd r_train = rhs - df.transpose() * yf;
    for (std::size_t l = 0; l < lambdas.size(); ++l) {
      const Eigen::VectorXd w = ridge_solve(g_train, r_train, lambdas[l]);
      sse[l] += (yf - df * w).squaredNorm();
    }
  }
  for (auto& v : sse) v /= static_cast<double>(y.size());
  return sse;
}

double ridge_dof(const Eigen::MatrixXd& design, double lambda) {
  Eigen::MatrixXd gram = design.transpose() * design;
  Eigen::MatrixXd reg = gram;
  reg.diagonal().tail(reg.rows() - 1).array() += lambda;
  reg(0, 0) += 1e-12 * std::max(1.0, reg(0, 0));
  return reg.ldlt().solve(gram).trace();
}

Eigen::MatrixXd features(const Eigen::MatrixXd& z, const Eigen::MatrixXd& omega, const Eigen::RowVectorXd& phase) {
  const double scale = std::sqrt(2.0 / static_cast<double>(omega.cols()));
  Eigen::MatrixXd arg = z * omega;
  if (phase.size() != arg.cols()) fail(Status::Internal, "random features: phase and frequencies disagree in size");
  cos_features_in_place(arg.data(), arg.rows(), arg.cols(), phase.data(), scale);
  return arg;
}

// Products z_a z_b for a <= b (squares included), columns in that order.
Eigen::MatrixXd products(const Eigen::MatrixXd& z) {
  const Eigen::Index k = z.cols();
  Eigen::MatrixXd out(z.rows(), k * (k + 1) / 2);
  Eigen::Index c = 0;
  for (Eigen::Index a = 0; a < k; ++a)
    for (Eigen::Index b = a; b < k; ++b) out.col(c++) = z.col(a).cwiseProduct(z.col(b));
  return out;
}

// The level-by-level product form's terms beyond the linear ones: with o the
// parents other than the factor f and B(o) = [o, products(o)], the columns
// B(o), B(o) z_f and [1, B(o)] z_f^p for p = 2..degree. Since the powers of
// z_f up to degree interpolate any function on its degree + 1 levels, every
// term of the product form gets its own coefficient at each level.
Eigen::MatrixXd level_products(const Eigen::MatrixXd& z, int factor, int degree) {
  const Eigen::Index n = z.rows(), k = z.cols();
  Eigen::MatrixXd others(n, k - 1);
  for (Eigen::Index j = 0, c = 0; j < k; ++j)
    if (j != factor) others.col(c++) = z.col(j);
  const Eigen::MatrixXd prod = products(others);
  const Eigen::Index m = others.cols() + prod.cols();
  Eigen::MatrixXd base(n, m);
  base << others, prod;
  Eigen::MatrixXd out(n, 2 * m + (degree - 1) * (m + 1));
  out.leftCols(m) = base;
  const Eigen::ArrayXd zf = z.col(factor).array();
  out.middleCols(m, m) = base.array().colwise() * zf;
  Eigen::ArrayXd power = zf;
  for (int p = 2; p <= degree; ++p) {
    power *= zf;
    const Eigen::Index at = 2 * m + (p - 2) * (m + 1);
    out.col(at) = power.matrix();
    out.middleCols(at + 1, m) = base.array().colwise() * power;
  }
  return out;
}

// A column with between 3 and max_levels distinct values, the one with the
// fewest (the first of those); -1 if none. Its number of levels in *levels.
int factor_column(const Eigen::MatrixXd& p, int max_levels, int* levels) {
  int best = -1;
  *levels = 0;
  for (Eigen::Index j = 0; j < p.cols(); ++j) {
    std::vector<double> seen;
    for (Eigen::Index i = 0; i < p.rows() && static_cast<int>(seen.size()) <= max_levels; ++i)
      if (std::find(seen.begin(), seen.end(), p(i, j)) == seen.end()) seen.push_back(p(i, j));
    const int count = static_cast<int>(seen.size());
    if (count >= 3 && count <= max_levels && (best < 0 || count < *levels)) {
      best = static_cast<int>(j);
      *levels = count;
    }
  }
  return best;
}

}  // namespace

StructuralEquation StructuralEquation::fit(const Eigen::MatrixXd& parents, const Eigen::VectorXd& y,
                                           const EquationOptions& options, Rng& rng) {
  const Eigen::Index n = y.size(), k = parents.cols();
  if (parents.rows() != n) fail(Status::SizeMismatch, "structural equation: parents and target have different rows");
  if (n < 2) fail(Status::InvalidArgument, "structural equation: needs at least 2 rows, got " + std::to_string(n));
  const double nd = static_cast<double>(n);
  StructuralEquation eq;
  eq.cv_linear_ = eq.cv_nonlinear_ = std::numeric_limits<double>::quiet_NaN();
  eq.mean_ = parents.colwise().mean();
  eq.sd_ = ((parents.rowwise() - eq.mean_).colwise().squaredNorm() / nd).cwiseSqrt();
  for (Eigen::Index j = 0; j < k; ++j)
    if (!(eq.sd_(j) > 1e-12 * std::max(1.0, std::abs(eq.mean_(j))))) eq.sd_(j) = std::numeric_limits<double>::infinity();
  if (k == 0) {
    eq.kind_ = Kind::Constant;
    eq.intercept_ = y.mean();
    eq.slopes_.resize(0);
    const double infl = std::sqrt(nd / std::max(nd - 1.0, 1.0));
    eq.residuals_ = (y.array() - eq.intercept_) * infl;
    return eq;
  }
  // Standardized parents; constant parents become zero columns.
  Eigen::MatrixXd z = (parents.rowwise() - eq.mean_).array().rowwise() / eq.sd_.array();
  const Eigen::MatrixXd lin = with_intercept(z);
  // A simple, well-regularized linear fit when rows are scarce; almost plain OLS otherwise.
  const double lambda_lin = (n > k + 5) ? 1e-8 * nd : 0.1 * nd;

  std::vector<int> fold(static_cast<std::size_t>(n));
  const int folds = std::min<int>(kCvFolds, static_cast<int>(n));
  const bool cross_validate = options.allow_nonlinear && n >= kMinRowsNonlinear && folds >= 2;
  bool nonlinear = false;
  Kind chosen = Kind::RandomFeatures;  // the best nonlinear form
  int factor = -1, levels = 0;
  double best_lambda = 0.0;
  Eigen::MatrixXd best_design;
  if (cross_validate) {
    std::vector<int> perm(static_cast<std::size_t>(n));
    std::iota(perm.begin(), perm.end(), 0);
    for (std::size_t i = perm.size(); i > 1; --i) std::swap(perm[i - 1], perm[rng.below(i)]);
    for (std::size_t i = 0; i < perm.size(); ++i) fold[static_cast<std::size_t>(perm[i])] = static_cast<int>(i % static_cast<std::size_t>(folds));
    eq.cv_linear_ = ridge_cv(lin, y, fold, folds, {lambda_lin}).front();
    const int D = kRandomFeatures;
    Eigen::MatrixXd base(k, D);
    for (Eigen::Index a = 0; a < k; ++a)
      for (int b = 0; b < D; ++b) base(a, b) = rng.normal();
    Eigen::RowVectorXd phase(D);
    for (int b = 0; b < D; ++b) phase(b) = rng.uniform(0.0, 2.0 * M_PI);
    double best = std::numeric_limits<double>::infinity();
    // Cross-validates ridge regression on `design` at each penalty and keeps
    // the best design, penalty and form so far; true if this design improved.
    auto consider = [&](const Eigen::MatrixXd& design, const std::vector<double>& penalties, Kind kind) {
      const auto cv = ridge_cv(design, y, fold, folds, penalties);
      bool improved = false;
      for (std::size_t l = 0; l < cv.size(); ++l)
        if (cv[l] < best) {
          best = cv[l];
          best_lambda = penalties[l];
          chosen = kind;
          improved = true;
        }
      if (improved) best_design = design;
      return improved;
    };
    const std::vector<double> lambdas = {1e-5 * nd, 1e-4 * nd, 1e-3 * nd, 1e-2 * nd};
    for (double ell : {0.5, 1.0, 2.0}) {
      const Eigen::MatrixXd omega = base / (ell * std::sqrt(static_cast<double>(k)));
      Eigen::MatrixXd design(n, 1 + k + D);
      design << lin, features(z, omega, phase);
      if (consider(design, lambdas, Kind::RandomFeatures)) eq.omega_ = omega;
    }
    eq.phase_ = phase;
    if (options.interactions && k <= options.max_interaction_parents) {
      Eigen::MatrixXd design(n, 1 + k + k * (k + 1) / 2);
      design << lin, products(z);
      consider(design, {1e-4 * nd, 1e-3 * nd, 1e-2 * nd, 1e-1 * nd}, Kind::Interactions);
      factor = k >= 2 ? factor_column(parents, options.max_factor_levels, &levels) : -1;
      if (factor >= 0) {
        const Eigen::MatrixXd extra = level_products(z, factor, levels - 1);
        Eigen::MatrixXd level_design(n, 1 + k + extra.cols());
        level_design << lin, extra;
        // Three to five times the product form's terms: heavier penalties too.
        consider(level_design, {1e-3 * nd, 1e-2 * nd, 1e-1 * nd, nd}, Kind::LevelInteractions);
      }
    }
    eq.cv_nonlinear_ = best;
    nonlinear = best < (1.0 - kNonlinearGain) * eq.cv_linear_;
  }

  // Centred residuals, inflated for the degrees of freedom the ridge fit used.
  const auto residuals = [&](const Eigen::MatrixXd& design, const Eigen::VectorXd& w, double lambda) {
    Eigen::VectorXd r = y - design * w;
    r.array() -= r.mean();
    return Eigen::VectorXd(r * std::sqrt(nd / std::max(nd - ridge_dof(design, lambda), 1.0)));
  };
  if (nonlinear) {
    eq.kind_ = chosen;
    if (chosen == Kind::LevelInteractions) {
      eq.factor_ = factor;
      eq.factor_degree_ = levels - 1;
    }
    if (chosen != Kind::RandomFeatures) {
      eq.omega_.resize(0, 0);
      eq.phase_.resize(0);
    }
    const Eigen::VectorXd w =
        ridge_solve(best_design.transpose() * best_design, best_design.transpose() * y, best_lambda);
    eq.intercept_ = w(0);
    eq.slopes_ = w.segment(1, k);
    eq.theta_ = w.tail(w.size() - 1 - k);
    eq.residuals_ = residuals(best_design, w, best_lambda);
  } else {
    eq.kind_ = Kind::Linear;
    const Eigen::VectorXd w = ridge_solve(lin.transpose() * lin, lin.transpose() * y, lambda_lin);
    eq.residuals_ = residuals(lin, w, lambda_lin);
    // Back to the data's units: f(p) = intercept + slopes . p.
    eq.slopes_ = w.tail(k).array() / eq.sd_.transpose().array();
    eq.intercept_ = w(0) - eq.slopes_.dot(eq.mean_.transpose());
    eq.omega_.resize(0, 0);
    eq.phase_.resize(0);
    eq.theta_.resize(0);
  }
  return eq;
}

Eigen::VectorXd StructuralEquation::predict(const Eigen::MatrixXd& p) const {
  if (p.cols() != mean_.size())
    fail(Status::SizeMismatch, "structural equation: expected " + std::to_string(mean_.size()) + " parent columns, got " +
                                   std::to_string(p.cols()));
  if (kind_ == Kind::Constant) return Eigen::VectorXd::Constant(p.rows(), intercept_);
  if (kind_ == Kind::Linear) return (p * slopes_).array() + intercept_;
  const Eigen::MatrixXd z = (p.rowwise() - mean_).array().rowwise() / sd_.array();
  const Eigen::MatrixXd extra = kind_ == Kind::RandomFeatures ? features(z, omega_, phase_)
                                : kind_ == Kind::Interactions ? products(z)
                                                              : level_products(z, factor_, factor_degree_);
  return (z * slopes_ + extra * theta_).array() + intercept_;
}

}  // namespace rescue::causal
