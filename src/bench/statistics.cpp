#include "bench/statistics.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "util/error.hpp"

namespace rescue::bench {

double mean(const std::vector<double>& v) {
  if (v.empty()) fail(Status::InvalidArgument, "mean of an empty sample");
  double s = 0.0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double sample_sd(const std::vector<double>& v) {
  const double m = mean(v);
  if (v.size() < 2) return 0.0;
  double ss = 0.0;
  for (double x : v) ss += (x - m) * (x - m);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

namespace {

// Continued fraction for I_x(a, b) (Numerical Recipes, eq. 6.4.5), converging
// quickly for x < (a + 1) / (a + b + 2).
double beta_continued_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  constexpr double eps = 1e-16;
  const double qab = a + b, qap = a + 1.0, qam = a - 1.0;
  double c = 1.0;
  double d = 1.0 - qab * x / qap;
  if (std::fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  // One step of the fraction with coefficient aa; returns its factor d c.
  const auto step = [&](double aa) {
    d = 1.0 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    return d * c;
  };
  for (int m = 1; m <= 10000; ++m) {
    const double m2 = 2.0 * m;
    h *= step(m * (b - m) * x / ((qam + m2) * (a + m2)));
    const double del = step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)));
    h *= del;
    if (std::fabs(del - 1.0) < eps) return h;
  }
  fail(Status::Numerical, "incomplete beta: continued fraction did not converge");
}

}  // namespace

double incomplete_beta(double a, double b, double x) {
  if (!(a > 0.0) || !(b > 0.0) || !std::isfinite(a) || !std::isfinite(b))
    fail(Status::InvalidArgument, "incomplete beta: a and b must be finite and positive");
  if (!(x >= 0.0 && x <= 1.0)) fail(Status::OutOfRange, "incomplete beta: x must lie in [0, 1]");
  if (x == 0.0) return 0.0;
  if (x == 1.0) return 1.0;
  // Prefactor x^a (1-x)^b / (a B(a, b)), in logs to avoid overflow.
  const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) +
                           b * std::log1p(-x);
  const double front = std::exp(log_front);
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_continued_fraction(a, b, x) / a;
  return 1.0 - front * beta_continued_fraction(b, a, 1.0 - x) / b;
}

double student_t_cdf(double t, double df) {
  if (!(df > 0.0) || !std::isfinite(df)) fail(Status::InvalidArgument, "Student t: degrees of freedom must be positive");
  if (std::isnan(t)) fail(Status::NonFinite, "Student t: t is NaN");
  if (std::isinf(t)) return t > 0 ? 1.0 : 0.0;
  const double tail = 0.5 * incomplete_beta(0.5 * df, 0.5, df / (df + t * t));  // P(T > |t|)
  return t >= 0.0 ? 1.0 - tail : tail;
}

PairedTTest paired_t_test(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size())
    fail(Status::SizeMismatch, "paired t-test: samples of sizes " + std::to_string(a.size()) + " and " +
                                   std::to_string(b.size()));
  if (a.size() < 2) fail(Status::InvalidArgument, "paired t-test needs at least two pairs");
  std::vector<double> d(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i]) || !std::isfinite(b[i])) fail(Status::NonFinite, "paired t-test: non-finite value");
    d[i] = a[i] - b[i];
  }
  PairedTTest r;
  r.n = static_cast<int>(d.size());
  r.mean_difference = mean(d);
  r.sd_difference = sample_sd(d);
  const double inf = std::numeric_limits<double>::infinity();
  if (r.sd_difference > 0.0) {
    r.t = r.mean_difference / (r.sd_difference / std::sqrt(static_cast<double>(r.n)));
    r.cohens_d = r.mean_difference / r.sd_difference;
    r.p_value = 2.0 * student_t_cdf(-std::fabs(r.t), r.n - 1.0);
  } else if (r.mean_difference != 0.0) {
    // Identical non-zero differences: the evidence is as strong as it gets.
    r.t = r.cohens_d = r.mean_difference > 0 ? inf : -inf;
    r.p_value = 0.0;
  }
  return r;
}

double relative_gain(double a, double b) {
  if (b == 0.0) fail(Status::InvalidArgument, "relative gain against a zero score");
  return (b - a) / std::fabs(b);
}

void on_common_seeds(const std::map<std::uint64_t, double>& a, const std::map<std::uint64_t, double>& b,
                     std::vector<double>* va, std::vector<double>* vb) {
  for (const auto& [seed, v] : a) {
    const auto it = b.find(seed);
    if (it == b.end()) continue;
    va->push_back(v);
    vb->push_back(it->second);
  }
}

}  // namespace rescue::bench
