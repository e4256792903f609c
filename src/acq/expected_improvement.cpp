#include "acq/expected_improvement.hpp"

#include <algorithm>
#include <cmath>

#include "moo/hv_kernels.hpp"
#include "moo/input_checks.hpp"
#include "moo/pareto.hpp"

namespace rescue::acq {
namespace {

// G(t) = integral_{-inf}^{t} Phi((u - mu) / s) du.
double psi(double t, double mu, double s) {
  if (t == HUGE_VAL) return HUGE_VAL;
  if (t == -HUGE_VAL) return 0.0;
  if (s <= 0.0) return std::max(t - mu, 0.0);
  const double z = (t - mu) / s;
  const double Phi = 0.5 * std::erfc(-z / std::sqrt(2.0));
  const double phi = std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI);
  return s * (z * Phi + phi);
}

}  // namespace

double ehvi_2d(const std::vector<double>& front, const std::vector<double>& ref, const double mu[2],
               const double sigma[2]) {
  // The non-dominated members of the front that dominate the reference, by f1 ascending.
  std::vector<std::pair<double, double>> pts;
  const std::size_t n = front.size() / 2;
  if (n > 0)
    for (std::size_t i : moo::nondominated_indices(front.data(), n, 2, nullptr, false))
      if (front[2 * i] < ref[0] && front[2 * i + 1] < ref[1]) pts.emplace_back(front[2 * i], front[2 * i + 1]);
  std::sort(pts.begin(), pts.end());
  double total = 0.0;
  // Strip i spans u in [a_i, b_i) and v below c_i.
  double a = -HUGE_VAL, c = ref[1];
  for (std::size_t i = 0; i <= pts.size(); ++i) {
    const double b = i < pts.size() ? pts[i].first : ref[0];
    if (b > a) {
      const double du = psi(b, mu[0], sigma[0]) - psi(a, mu[0], sigma[0]);
      total += du * psi(c, mu[1], sigma[1]);
    }
    if (i < pts.size()) {
      a = pts[i].first;
      c = pts[i].second;
    }
  }
  return total;
}

double ehvi_mc(const std::vector<double>& front, std::size_t m, const std::vector<double>& ref,
               const Eigen::VectorXd& mean, const Eigen::MatrixXd& covariance, const Eigen::MatrixXd& base) {
  Eigen::LLT<Eigen::MatrixXd> llt(covariance + 1e-12 * Eigen::MatrixXd::Identity(m, m));
  const Eigen::MatrixXd L = llt.matrixL();
  const std::size_t n = front.size() / m;
  // The front is checked once; each sample then goes to the raw kernel.
  moo::detail::check_points("ehvi_mc", front.data(), n, m, "front");
  moo::detail::check_vector("ehvi_mc", ref.data(), m, "reference point");
  double total = 0.0;
  Eigen::VectorXd y(m);
  std::vector<double> limit;
  for (Eigen::Index k = 0; k < base.rows(); ++k) {
    y = mean + L * base.row(k).transpose();
    moo::detail::check_vector("ehvi_mc", y.data(), m, "sample");
    total += moo::detail::contribution(y.data(), front.data(), n, m, ref.data(), limit);
  }
  return total / static_cast<double>(base.rows());
}

}  // namespace rescue::acq
