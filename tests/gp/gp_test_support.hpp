// Shared helpers for the GP tests: random data, simple hooks, and a naive dense
// reference implementation of the model written straight from the formulas in
// gp/multi_fidelity_gp.hpp (scalar kernel loops, explicit Gram matrix, LU solves).
#pragma once
#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Dense>

#include "gp/multi_fidelity_gp.hpp"
#include "util/rng.hpp"

namespace rescue::gp::testing {

inline Eigen::MatrixXd uniform_matrix(Eigen::Index r, Eigen::Index c, Rng& rng) {
  Eigen::MatrixXd M(r, c);
  for (Eigen::Index j = 0; j < c; ++j)
    for (Eigen::Index i = 0; i < r; ++i) M(i, j) = rng.uniform();
  return M;
}

/// Smooth correlated test outputs with some noise, P columns.
inline Eigen::MatrixXd smooth_outputs(const Eigen::MatrixXd& X, int P, Rng& rng) {
  Eigen::MatrixXd Y(X.rows(), P);
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    const double s = X(i, X.cols() - 1);
    double base = 0.0;
    for (Eigen::Index j = 0; j + 1 < X.cols(); ++j) base += std::sin(3.0 * X(i, j) + j);
    for (int m = 0; m < P; ++m)
      Y(i, m) = (m + 1) * base + 0.5 * m * std::cos(4.0 * X(i, 0)) + 0.3 * s + 0.05 * rng.normal();
  }
  return Y;
}

inline MeanHook test_mean_hook(int P) {
  return [P](const Eigen::MatrixXd& Z) {
    Eigen::MatrixXd H(Z.rows(), P);
    for (Eigen::Index i = 0; i < Z.rows(); ++i)
      for (int m = 0; m < P; ++m)
        H(i, m) = (m + 1) * std::sin(2.0 * Z(i, 0) + m) + 0.5 * Z(i, Z.cols() - 1);
    return H;
  };
}

inline KernelHook test_kernel_hook(int P) {
  return [P](const Eigen::MatrixXd& Z) {
    Eigen::MatrixXd S(Z.rows(), P);
    for (Eigen::Index i = 0; i < Z.rows(); ++i)
      for (int m = 0; m < P; ++m) S(i, m) = 0.3 + 0.4 * Z(i, 0) * (m + 1) + 0.2 * Z(i, Z.cols() - 1);
    return S;
  };
}

inline Hyperparameters random_hyperparameters(int D, int P, int R, Rng& rng) {
  Hyperparameters h;
  h.log_lengthscale.resize(D);
  for (int j = 0; j < D; ++j) h.log_lengthscale[j] = std::log(rng.uniform(0.3, 1.2));
  h.coreg_factor.resize(P, R);
  for (int k = 0; k < R; ++k)
    for (int m = 0; m < P; ++m) h.coreg_factor(m, k) = 0.6 * rng.normal() + (m == k ? 0.6 : 0.0);
  h.log_kappa.resize(P);
  h.log_noise.resize(P);
  h.mean_constant.resize(P);
  h.mean_scale.resize(P);
  for (int m = 0; m < P; ++m) {
    h.log_kappa[m] = std::log(rng.uniform(0.05, 0.3));
    h.log_noise[m] = std::log(rng.uniform(0.01, 0.05));
    h.mean_constant[m] = rng.uniform(-0.5, 0.5);
    h.mean_scale[m] = rng.uniform(0.5, 1.5);
  }
  h.fidelity_slope.resize(P);
  for (int m = 0; m < P; ++m) h.fidelity_slope[m] = rng.uniform(-0.5, 0.5);
  h.log_hook_weight = std::log(rng.uniform(0.5, 2.0));
  h.target_link = rng.uniform(-1.5, 2.0);
  return h;
}

/// Naive reference of the model (same formulas, no shared code beyond the hooks).
struct Reference {
  Eigen::MatrixXd X, Y;
  Eigen::VectorXd center, scale;
  Hyperparameters h;
  MeanHook mean_hook;
  KernelHook kernel_hook;
  int P = 0;
  double anchor = 1.0;  // GpOptions::fidelity_anchor
  std::vector<double> levels;  // GpOptions::fidelity_levels (positions: h.fidelity_position)
  double target = std::numeric_limits<double>::quiet_NaN();  // GpOptions::target_fidelity
  std::vector<int> categorical;  // GpOptions::categorical_levels

  /// The fidelity as k_fid sees it: linear interpolation through the points
  /// (level, its position), the end levels fixed, slope 1 beyond them.
  double fid(double s) const {
    const std::size_t L = levels.size();
    if (L < 3) return s;
    std::vector<double> v(levels);
    for (std::size_t k = 1; k + 1 < L; ++k) v[k] = h.fidelity_position[static_cast<Eigen::Index>(k - 1)];
    if (s < levels.front()) return s;  // v.front() == levels.front()
    if (s > levels.back()) return s;
    for (std::size_t k = 0; k + 1 < L; ++k)
      if (s <= levels[k + 1]) {
        const double t = (s - levels[k]) / (levels[k + 1] - levels[k]);
        return v[k] + t * (v[k + 1] - v[k]);
      }
    return s;
  }

  double k(const Eigen::RowVectorXd& a, const Eigen::RowVectorXd& b) const {
    const Eigen::Index D = a.size();
    double r2 = 0.0;
    for (Eigen::Index j = 0; j + 1 < D; ++j) {
      const int L = j < Eigen::Index(categorical.size()) ? categorical[j] : 0;
      if (L > 0) {
        // Overlap: exp(-1 / l) for different levels (the bins of width 1 / L).
        const bool differ = std::floor(a[j] * L) != std::floor(b[j] * L);
        r2 += differ ? 2.0 / std::exp(h.log_lengthscale[j]) : 0.0;
        continue;
      }
      const double t = (a[j] - b[j]) / std::exp(h.log_lengthscale[j]);
      r2 += t * t;
    }
    const double tf = (fid(a[D - 1]) - fid(b[D - 1])) / std::exp(h.log_lengthscale[D - 1]);
    // The target correlation: one point at the target and the other not.
    const bool across = (a[D - 1] == target) != (b[D - 1] == target);
    return std::exp(-0.5 * r2) * std::exp(-0.5 * tf * tf) * (across ? std::tanh(h.target_link) : 1.0);
  }
  Eigen::MatrixXd B() const {
    Eigen::MatrixXd b = h.coreg_factor * h.coreg_factor.transpose();
    for (int m = 0; m < P; ++m) b(m, m) += std::exp(h.log_kappa[m]);
    return b;
  }
  // Standardized prior mean and sigma at the rows of Z.
  Eigen::MatrixXd mu(const Eigen::MatrixXd& Z) const {
    Eigen::MatrixXd M(Z.rows(), P);
    Eigen::MatrixXd H = mean_hook ? mean_hook(Z) : Eigen::MatrixXd::Zero(Z.rows(), P);
    for (Eigen::Index i = 0; i < Z.rows(); ++i)
      for (int m = 0; m < P; ++m)
        M(i, m) = h.mean_constant[m] +
                  (mean_hook ? h.mean_scale[m] * (H(i, m) - center[m]) / scale[m] : 0.0) +
                  (h.fidelity_slope.size() == P ? h.fidelity_slope[m] * (anchor - Z(i, Z.cols() - 1)) : 0.0);
    return M;
  }
  Eigen::MatrixXd sig(const Eigen::MatrixXd& Z) const {
    if (!kernel_hook) return Eigen::MatrixXd::Zero(Z.rows(), P);
    Eigen::MatrixXd S = kernel_hook(Z);
    for (int m = 0; m < P; ++m) S.col(m) /= scale[m];
    return S;
  }
  // Covariance between (Z1 row i, output m) and (Z2 row j, output m'), standardized.
  double cov(const Eigen::MatrixXd& Z1, Eigen::Index i, int m, const Eigen::MatrixXd& S1,
             const Eigen::MatrixXd& Z2, Eigen::Index j, int mp, const Eigen::MatrixXd& S2) const {
    const Eigen::MatrixXd b = B();
    return b(m, mp) * k(Z1.row(i), Z2.row(j)) + std::exp(h.log_hook_weight) * S1(i, m) * S2(j, mp) * b(m, mp);
  }
  std::vector<std::pair<Eigen::Index, int>> observed() const {
    std::vector<std::pair<Eigen::Index, int>> o;
    for (int m = 0; m < P; ++m)
      for (Eigen::Index i = 0; i < X.rows(); ++i)
        if (!std::isnan(Y(i, m))) o.push_back({i, m});
    return o;
  }
  Eigen::MatrixXd gram() const {
    const auto o = observed();
    const Eigen::MatrixXd S = sig(X);
    Eigen::MatrixXd K(o.size(), o.size());
    for (std::size_t a = 0; a < o.size(); ++a)
      for (std::size_t b = 0; b < o.size(); ++b)
        K(a, b) = cov(X, o[a].first, o[a].second, S, X, o[b].first, o[b].second, S) +
                  (a == b ? std::exp(h.log_noise[o[a].second]) : 0.0);
    return K;
  }
  Eigen::VectorXd resid() const {
    const auto o = observed();
    const Eigen::MatrixXd M = mu(X);
    Eigen::VectorXd r(o.size());
    for (std::size_t a = 0; a < o.size(); ++a)
      r[a] = (Y(o[a].first, o[a].second) - center[o[a].second]) / scale[o[a].second] -
             M(o[a].first, o[a].second);
    return r;
  }
  double lml() const {
    const Eigen::MatrixXd K = gram();
    const Eigen::VectorXd r = resid();
    Eigen::FullPivLU<Eigen::MatrixXd> lu(K);
    double logdet = 0.0;
    const Eigen::MatrixXd U = lu.matrixLU().triangularView<Eigen::Upper>();
    for (Eigen::Index i = 0; i < U.rows(); ++i) logdet += std::log(std::abs(U(i, i)));
    return -0.5 * r.dot(lu.solve(r)) - 0.5 * logdet - 0.5 * r.size() * std::log(2.0 * M_PI);
  }
  /// Mean (n* x P) and covariance ((n* P)^2, output-major) in original units.
  void posterior(const Eigen::MatrixXd& Z, Eigen::MatrixXd& mean, Eigen::MatrixXd& covar) const {
    const auto o = observed();
    const Eigen::MatrixXd K = gram();
    Eigen::FullPivLU<Eigen::MatrixXd> lu(K);
    const Eigen::MatrixXd SX = sig(X), SZ = sig(Z);
    const Eigen::Index ns = Z.rows();
    Eigen::MatrixXd Kc(o.size(), ns * P);
    for (std::size_t a = 0; a < o.size(); ++a)
      for (int m = 0; m < P; ++m)
        for (Eigen::Index z = 0; z < ns; ++z)
          Kc(a, m * ns + z) = cov(X, o[a].first, o[a].second, SX, Z, z, m, SZ);
    Eigen::MatrixXd Kzz(ns * P, ns * P);
    for (int m = 0; m < P; ++m)
      for (Eigen::Index i = 0; i < ns; ++i)
        for (int mp = 0; mp < P; ++mp)
          for (Eigen::Index j = 0; j < ns; ++j) Kzz(m * ns + i, mp * ns + j) = cov(Z, i, m, SZ, Z, j, mp, SZ);
    const Eigen::VectorXd a = lu.solve(resid());
    const Eigen::VectorXd f = Kc.transpose() * a;
    const Eigen::MatrixXd M = mu(Z);
    mean.resize(ns, P);
    for (int m = 0; m < P; ++m)
      for (Eigen::Index z = 0; z < ns; ++z) mean(z, m) = center[m] + scale[m] * (M(z, m) + f[m * ns + z]);
    covar = Kzz - Kc.transpose() * lu.solve(Kc);
    for (int m = 0; m < P; ++m)
      for (int mp = 0; mp < P; ++mp)
        covar.block(m * ns, mp * ns, ns, ns) *= scale[m] * scale[mp];
  }
};

inline double max_abs(const Eigen::MatrixXd& A) { return A.cwiseAbs().maxCoeff(); }

}  // namespace rescue::gp::testing
