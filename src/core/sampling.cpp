#include "core/sampling.hpp"

#include <algorithm>
#include <cmath>

namespace rescue {

std::vector<double> sample_configuration(const ProblemSpec& spec, Rng& rng) {
  std::vector<double> x(spec.dim());
  for (int i = 0; i < spec.dim(); ++i) {
    const OptionSpec& o = spec.options()[i];
    switch (o.kind) {
      case OptionKind::Categorical:
        x[i] = static_cast<double>(rng.below(static_cast<std::uint64_t>(o.levels())));
        break;
      case OptionKind::Integer: {
        const double lo = std::ceil(o.lower), hi = std::floor(o.upper);
        x[i] = lo + static_cast<double>(rng.below(static_cast<std::uint64_t>(hi - lo) + 1));
        break;
      }
      case OptionKind::LogScale:
        x[i] = std::exp(rng.uniform(std::log(o.lower), std::log(o.upper)));
        if (x[i] > o.upper) x[i] = o.upper;  // guard the last ulp of exp(log(upper))
        break;
      default:
        x[i] = rng.uniform(o.lower, o.upper);
    }
  }
  return x;
}

bool sample_fidelity(const ProblemSpec& spec, const double* x, FidelityLaw law, double max_cost, Rng& rng,
                     double* s_out) {
  const FidelitySpec& f = spec.fidelity();
  auto weight = [&](double s) {
    const double c = spec.cost(x, s);
    if (c > max_cost) return 0.0;
    return law == FidelityLaw::InverseCost ? 1.0 / c : 1.0;
  };

  if (f.discrete) {
    // Discrete case of the CDF: P(s_j) proportional to 1 / c(s_j) over the affordable levels.
    std::vector<double> w(f.levels.size());
    double total = 0.0;
    for (std::size_t j = 0; j < w.size(); ++j) total += (w[j] = weight(f.levels[j]));
    if (total <= 0.0) return false;
    double u = rng.uniform() * total;
    for (std::size_t j = 0; j < w.size(); ++j) {
      if (w[j] <= 0.0) continue;
      *s_out = f.levels[j];
      if ((u -= w[j]) < 0.0) break;
    }
    return true;
  }

  // Continuous case: invert the CDF of the density proportional to weight(s),
  // tabulated on a fine grid (trapezoidal rule), linear within a cell. The grid
  // handles any cost model, including a user callback.
  constexpr int kCells = 512;
  std::vector<double> s(kCells + 1), w(kCells + 1), cdf(kCells + 1, 0.0);
  for (int i = 0; i <= kCells; ++i) {
    s[i] = f.lower + (f.upper - f.lower) * i / kCells;
    w[i] = weight(s[i]);
  }
  for (int i = 1; i <= kCells; ++i) cdf[i] = cdf[i - 1] + 0.5 * (w[i - 1] + w[i]) * (s[i] - s[i - 1]);
  if (cdf[kCells] <= 0.0) {
    // Only isolated grid points may be affordable (e.g. exactly the lower bound).
    for (int i = 0; i <= kCells; ++i)
      if (w[i] > 0.0) {
        *s_out = s[i];
        return true;
      }
    return false;
  }
  const double u = rng.uniform() * cdf[kCells];
  int i = 1;
  while (i < kCells && cdf[i] < u) ++i;
  // Within cell [s_{i-1}, s_i] the density is linear; invert its quadratic CDF.
  const double a = w[i - 1], b = w[i], h = s[i] - s[i - 1], r = u - cdf[i - 1];
  double t;  // fraction of the cell
  if (std::fabs(b - a) < 1e-12 * (a + b)) {
    t = (a + b) > 0.0 ? r / (0.5 * (a + b) * h) : 0.5;
  } else {
    // r = h (a t + (b - a) t^2 / 2)  =>  t = (-a + sqrt(a^2 + 2 (b - a) r / h)) / (b - a)
    const double disc = a * a + 2.0 * (b - a) * r / h;
    t = (-a + std::sqrt(disc > 0.0 ? disc : 0.0)) / (b - a);
  }
  t = std::min(1.0, std::max(0.0, t));
  double v = s[i - 1] + t * h;
  // A cell whose ends differ in affordability may put v just past the affordable edge.
  if (spec.cost(x, v) > max_cost) v = w[i - 1] > 0.0 ? s[i - 1] : s[i];
  *s_out = v;
  return true;
}

}  // namespace rescue
