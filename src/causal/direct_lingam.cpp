#include "causal/direct_lingam.hpp"

#include <cmath>
#include <limits>

#include "causal/adaptive_lasso.hpp"
#include "util/error.hpp"

namespace rescue::causal {

double lingam_entropy(const Eigen::VectorXd& u) {
  constexpr double k1 = 79.047, k2 = 7.4129, gamma = 0.37457;
  const double n = static_cast<double>(u.size());
  const Eigen::ArrayXd a = u.array().abs();
  // log cosh(u) = |u| + log(1 + exp(-2|u|)) - log 2, stable for large |u|
  // (log rather than log1p: Eigen vectorizes it, and the term is a mean).
  const double logcosh = (a + (1.0 + (-2.0 * a).exp()).log() - std::log(2.0)).sum() / n;
  const double gauss = (u.array() * (-0.5 * u.array().square()).exp()).sum() / n;
  return (1.0 + std::log(2.0 * M_PI)) / 2.0 - k1 * (logcosh - gamma) * (logcosh - gamma) - k2 * gauss * gauss;
}

namespace {

Eigen::VectorXd standardized(const Eigen::VectorXd& x) {
  const double m = x.mean();
  const double sd = std::sqrt((x.array() - m).square().mean());
  return (x.array() - m) / sd;
}

}  // namespace

LingamResult discover_lingam(const DataTable& table, const StructuralConstraints& constraints) {
  const int p = table.cols(), n = table.rows();
  if (constraints.size() != p)
    fail(Status::SizeMismatch, "DirectLiNGAM: constraints cover " + std::to_string(constraints.size()) +
                                   " variables, table has " + std::to_string(p));
  if (n < 3) fail(Status::InvalidArgument, "DirectLiNGAM: needs at least 3 rows, got " + std::to_string(n));
  const Eigen::MatrixXd& X = table.data();
  Eigen::MatrixXd R = X.rowwise() - X.colwise().mean();
  const Eigen::VectorXd sd0 = (R.colwise().squaredNorm() / static_cast<double>(n)).cwiseSqrt().transpose();

  LingamResult result;
  std::vector<char> remaining(static_cast<std::size_t>(p), 1);
  // Variables whose (residual) spread is numerically zero carry no information
  // about the order; they go as soon as the partial order lets them.
  auto degenerate = [&](int j) {
    const double s = std::sqrt(R.col(j).squaredNorm() / static_cast<double>(n));
    return !(s > 1e-9 * std::max(sd0(j), 1e-300)) || !(sd0(j) > 1e-12);
  };

  for (int step = 0; step < p; ++step) {
    std::vector<int> U, cand;
    for (int j = 0; j < p; ++j)
      if (remaining[static_cast<std::size_t>(j)]) U.push_back(j);
    for (int i : U) {
      bool ok = true;
      for (int j : U)
        if (j != i && constraints.must_precede(j, i)) ok = false;
      if (ok) cand.push_back(i);
    }
    int pick = -1;
    for (int i : cand)
      if (pick < 0 && (role_tier(table.variable(i).role) == 0 || degenerate(i))) pick = i;
    if (pick < 0 && cand.size() == 1) pick = cand.front();
    if (pick < 0) {
      std::vector<int> live;
      for (int j : U)
        if (!degenerate(j)) live.push_back(j);
      std::vector<Eigen::VectorXd> xs(static_cast<std::size_t>(p));
      std::vector<double> h(static_cast<std::size_t>(p), 0.0);
      for (int j : live) {
        xs[static_cast<std::size_t>(j)] = standardized(R.col(j));
        h[static_cast<std::size_t>(j)] = lingam_entropy(xs[static_cast<std::size_t>(j)]);
      }
      // Entropy of the standardized residual of a regressed on b, each pair once per step.
      Eigen::MatrixXd memo = Eigen::MatrixXd::Constant(p, p, std::numeric_limits<double>::infinity());
      auto hres_raw = [&](int a, int b) {
        const auto& xa = xs[static_cast<std::size_t>(a)];
        const auto& xb = xs[static_cast<std::size_t>(b)];
        const double rho = xa.dot(xb) / static_cast<double>(n);
        const double v = 1.0 - rho * rho;
        if (!(v > 1e-12)) return std::numeric_limits<double>::quiet_NaN();
        return lingam_entropy((xa - rho * xb) / std::sqrt(v));
      };
      auto hres = [&](int a, int b) {
        if (std::isinf(memo(a, b))) memo(a, b) = hres_raw(a, b);
        return memo(a, b);
      };
      double best = -std::numeric_limits<double>::infinity();
      for (int i : cand) {
        double m = 0.0;
        for (int j : live) {
          if (j == i) continue;
          const double hij = hres(i, j), hji = hres(j, i);
          if (std::isnan(hij) || std::isnan(hji)) continue;
          // Positive when i -> j is the likelier direction (Hyvarinen and Smith 2013, eq. 25).
          const double diff = (h[static_cast<std::size_t>(j)] + hij) - (h[static_cast<std::size_t>(i)] + hji);
          m += std::min(0.0, diff) * std::min(0.0, diff);
        }
        if (-m > best) {
          best = -m;
          pick = i;
        }
      }
    }
    result.causal_order.push_back(pick);
    remaining[static_cast<std::size_t>(pick)] = 0;
    const double vm = R.col(pick).squaredNorm();
    if (vm > 0.0 && !degenerate(pick))
      for (int j : U)
        if (j != pick) R.col(j) -= (R.col(j).dot(R.col(pick)) / vm) * R.col(pick);
  }

  // Parents: earlier variables the constraints allow, pruned by adaptive lasso.
  Graph g(table.variables());
  for (std::size_t pos = 0; pos < result.causal_order.size(); ++pos) {
    const int j = result.causal_order[pos];
    std::vector<int> cols, forced;
    for (std::size_t q = 0; q < pos; ++q) {
      const int i = result.causal_order[q];
      if (!constraints.allowed(i, j)) continue;
      if (constraints.required(i, j)) forced.push_back(static_cast<int>(cols.size()));
      cols.push_back(i);
    }
    if (cols.empty()) continue;
    Eigen::MatrixXd Xp(n, static_cast<Eigen::Index>(cols.size()));
    for (std::size_t c = 0; c < cols.size(); ++c) Xp.col(static_cast<Eigen::Index>(c)) = X.col(cols[c]);
    const SparseRegression fit = adaptive_lasso_bic(Xp, X.col(j), forced);
    for (int c : fit.support) {
      g.add_directed(cols[static_cast<std::size_t>(c)], j);
      g.set_weight(cols[static_cast<std::size_t>(c)], j, fit.coefficients(c));
    }
  }
  constraints.check(g);
  result.dag = std::move(g);
  return result;
}

}  // namespace rescue::causal
