#include "moo/nsga2.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "moo/pareto.hpp"
#include "util/error.hpp"

namespace rescue::moo {
namespace {

struct Population {
  std::size_t size = 0;
  std::vector<double> x, f, v;
  std::vector<std::size_t> rank;
  std::vector<double> crowding;
};

class Runner {
 public:
  Runner(const Nsga2Problem& problem, const Nsga2Options& options, Rng& rng)
      : pb_(problem), opt_(options), rng_(rng), d_(problem.n_var), m_(problem.n_obj) {
    validate();
    lo_ = pb_.lower;
    hi_ = pb_.upper;
    is_int_.assign(d_, false);
    is_cat_.assign(d_, false);
    for (std::size_t j = 0; j < d_; ++j) {
      if (!pb_.categorical.empty() && pb_.categorical[j]) is_cat_[j] = true;
      if ((!pb_.integer.empty() && pb_.integer[j]) || is_cat_[j]) {
        is_int_[j] = true;
        lo_[j] = std::ceil(lo_[j]);
        hi_[j] = std::floor(hi_[j]);
        if (lo_[j] > hi_[j])
          fail(Status::InvalidArgument, "nsga2: integer variable " + std::to_string(j) +
                                            " has no integer value within its bounds");
      }
    }
    pm_ = opt_.mutation_probability < 0.0 ? 1.0 / static_cast<double>(d_)
                                          : opt_.mutation_probability;
  }

  Nsga2Result run(const double* initial, std::size_t n_initial) {
    const std::size_t N = opt_.population;
    Population pop = make(N);
    const std::size_t seeded = std::min(n_initial, N);
    for (std::size_t i = 0; i < N; ++i) {
      double* xi = pop.x.data() + i * d_;
      for (std::size_t j = 0; j < d_; ++j) {
        if (i < seeded) {
          xi[j] = initial[i * d_ + j];
        } else if (is_int_[j]) {
          xi[j] = lo_[j] + static_cast<double>(rng_.below(static_cast<std::uint64_t>(hi_[j] - lo_[j]) + 1));
        } else {
          xi[j] = rng_.uniform(lo_[j], hi_[j]);
        }
      }
      repair(xi);
      evaluate(pop, i);
    }
    rank_and_crowd(pop);

    Population children = make(N), merged = make(2 * N);
    std::vector<double> c1(d_), c2(d_);
    for (std::size_t gen = 0; gen < opt_.generations; ++gen) {
      for (std::size_t i = 0; i < N; i += 2) {
        const double* p1 = pop.x.data() + tournament(pop) * d_;
        const double* p2 = pop.x.data() + tournament(pop) * d_;
        crossover(p1, p2, c1.data(), c2.data());
        mutate(c1.data());
        mutate(c2.data());
        std::copy(c1.begin(), c1.end(), children.x.begin() + i * d_);
        evaluate(children, i);
        if (i + 1 < N) {
          std::copy(c2.begin(), c2.end(), children.x.begin() + (i + 1) * d_);
          evaluate(children, i + 1);
        }
      }
      for (std::size_t i = 0; i < N; ++i) {
        copy_member(pop, i, merged, i);
        copy_member(children, i, merged, N + i);
      }
      select(merged, pop);
    }

    Nsga2Result out;
    out.size = N;
    out.n_var = d_;
    out.n_obj = m_;
    out.x = pop.x;
    out.f = pop.f;
    out.violation = pop.v;
    for (std::size_t i = 0; i < N; ++i)
      if (pop.rank[i] == 0) out.first_front.push_back(i);
    out.evaluations = evaluations_;
    return out;
  }

 private:
  void validate() const {
    if (d_ == 0) fail(Status::InvalidArgument, "nsga2: the problem has no variables");
    if (m_ == 0) fail(Status::InvalidArgument, "nsga2: the problem has no objectives");
    if (pb_.lower.size() != d_ || pb_.upper.size() != d_)
      fail(Status::SizeMismatch, "nsga2: bounds must have n_var = " + std::to_string(d_) + " values");
    if (!pb_.integer.empty() && pb_.integer.size() != d_)
      fail(Status::SizeMismatch, "nsga2: integer flags must be empty or have n_var values");
    if (!pb_.categorical.empty() && pb_.categorical.size() != d_)
      fail(Status::SizeMismatch, "nsga2: categorical flags must be empty or have n_var values");
    for (std::size_t j = 0; j < d_; ++j) {
      if (!std::isfinite(pb_.lower[j]) || !std::isfinite(pb_.upper[j]))
        fail(Status::NonFinite, "nsga2: the bounds of variable " + std::to_string(j) + " are not finite");
      if (pb_.lower[j] > pb_.upper[j])
        fail(Status::InvalidArgument, "nsga2: lower > upper for variable " + std::to_string(j));
    }
    if (!pb_.evaluate) fail(Status::NullPointer, "nsga2: the objective function is empty");
    if (opt_.population < 2) fail(Status::InvalidArgument, "nsga2: the population must be at least 2");
    auto prob = [](double p) { return std::isfinite(p) && p >= 0.0 && p <= 1.0; };
    if (!prob(opt_.crossover_probability))
      fail(Status::InvalidArgument, "nsga2: the crossover probability must lie in [0, 1]");
    if (opt_.mutation_probability >= 0.0 && !prob(opt_.mutation_probability))
      fail(Status::InvalidArgument, "nsga2: the mutation probability must lie in [0, 1] (or be negative for 1/n_var)");
    if (!(opt_.eta_crossover >= 0.0) || !std::isfinite(opt_.eta_crossover) ||
        !(opt_.eta_mutation >= 0.0) || !std::isfinite(opt_.eta_mutation))
      fail(Status::InvalidArgument, "nsga2: the distribution indices must be finite and >= 0");
  }

  Population make(std::size_t n) const {
    Population p;
    p.size = n;
    p.x.resize(n * d_);
    p.f.resize(n * m_);
    p.v.resize(n);
    p.rank.resize(n);
    p.crowding.resize(n);
    return p;
  }

  void copy_member(const Population& from, std::size_t i, Population& to, std::size_t k) const {
    std::copy_n(from.x.begin() + i * d_, d_, to.x.begin() + k * d_);
    std::copy_n(from.f.begin() + i * m_, m_, to.f.begin() + k * m_);
    to.v[k] = from.v[i];
  }

  void repair(double* x) const {
    for (std::size_t j = 0; j < d_; ++j) {
      if (!std::isfinite(x[j]))
        fail(Status::NonFinite, "nsga2: initial point variable " + std::to_string(j) + " is not finite");
      if (is_int_[j]) x[j] = std::round(x[j]);
      x[j] = std::clamp(x[j], lo_[j], hi_[j]);
    }
  }

  void evaluate(Population& p, std::size_t i) {
    double* f = p.f.data() + i * m_;
    double v = 0.0;
    pb_.evaluate(p.x.data() + i * d_, f, &v);
    ++evaluations_;
    for (std::size_t j = 0; j < m_; ++j)
      if (!std::isfinite(f[j]))
        fail(Status::Numerical, "nsga2: objective " + std::to_string(j) + " returned a non-finite value");
    if (!std::isfinite(v)) fail(Status::Numerical, "nsga2: the constraint violation is not finite");
    p.v[i] = std::max(0.0, v);
  }

  void rank_and_crowd(Population& p) const {
    const auto fronts = nondominated_sort(p.f.data(), p.size, m_, p.v.data());
    for (std::size_t r = 0; r < fronts.size(); ++r) {
      const auto cd = crowding_distance(p.f.data(), m_, fronts[r]);
      for (std::size_t k = 0; k < fronts[r].size(); ++k) {
        p.rank[fronts[r][k]] = r;
        p.crowding[fronts[r][k]] = cd[k];
      }
    }
  }

  // Binary tournament by the crowded-comparison operator (lower rank, then
  // larger crowding distance; a fair coin on full ties).
  std::size_t tournament(const Population& p) {
    const std::size_t a = rng_.below(p.size), b = rng_.below(p.size);
    if (p.rank[a] != p.rank[b]) return p.rank[a] < p.rank[b] ? a : b;
    if (p.crowding[a] != p.crowding[b]) return p.crowding[a] > p.crowding[b] ? a : b;
    return rng_.uniform() < 0.5 ? a : b;
  }

  // Bounded SBX (Deb & Agrawal 1995, in the form of Deb's NSGA-II code): the
  // spread factor's distribution is truncated so children stay within bounds.
  void crossover(const double* p1, const double* p2, double* c1, double* c2) {
    std::copy_n(p1, d_, c1);
    std::copy_n(p2, d_, c2);
    if (rng_.uniform() >= opt_.crossover_probability) return;
    const double e = opt_.eta_crossover + 1.0;
    for (std::size_t j = 0; j < d_; ++j) {
      if (rng_.uniform() > 0.5 || std::fabs(p1[j] - p2[j]) <= 1e-14) continue;
      if (is_cat_[j]) {  // the values trade places: uniform crossover
        c1[j] = p2[j];
        c2[j] = p1[j];
        continue;
      }
      const double y1 = std::min(p1[j], p2[j]), y2 = std::max(p1[j], p2[j]);
      const double lo = lo_[j], hi = hi_[j];
      const double u = rng_.uniform();
      auto spread = [&](double beta) {
        const double alpha = 2.0 - std::pow(beta, -e);
        return u <= 1.0 / alpha ? std::pow(u * alpha, 1.0 / e)
                                : std::pow(1.0 / (2.0 - u * alpha), 1.0 / e);
      };
      const double bq1 = spread(1.0 + 2.0 * (y1 - lo) / (y2 - y1));
      const double bq2 = spread(1.0 + 2.0 * (hi - y2) / (y2 - y1));
      double a = 0.5 * ((y1 + y2) - bq1 * (y2 - y1));
      double b = 0.5 * ((y1 + y2) + bq2 * (y2 - y1));
      a = std::clamp(a, lo, hi);
      b = std::clamp(b, lo, hi);
      if (rng_.uniform() <= 0.5) std::swap(a, b);
      c1[j] = a;
      c2[j] = b;
    }
    for (double* c : {c1, c2})
      for (std::size_t j = 0; j < d_; ++j)
        if (is_int_[j]) c[j] = std::clamp(std::round(c[j]), lo_[j], hi_[j]);
  }

  // Bounded polynomial mutation (Deb & Goyal 1996, as in Deb's NSGA-II code).
  void mutate(double* x) {
    const double e = opt_.eta_mutation + 1.0;
    for (std::size_t j = 0; j < d_; ++j) {
      if (rng_.uniform() >= pm_) continue;
      const double lo = lo_[j], hi = hi_[j];
      if (hi <= lo) continue;
      if (is_cat_[j]) {  // another value, each as likely
        const auto others = static_cast<std::uint64_t>(hi - lo);
        const double k = lo + static_cast<double>(rng_.below(others));
        x[j] = k >= x[j] ? k + 1.0 : k;
        continue;
      }
      const double y = x[j];
      const double d1 = (y - lo) / (hi - lo), d2 = (hi - y) / (hi - lo);
      const double u = rng_.uniform();
      double dq;
      if (u <= 0.5) {
        const double val = 2.0 * u + (1.0 - 2.0 * u) * std::pow(1.0 - d1, e);
        dq = std::pow(val, 1.0 / e) - 1.0;
      } else {
        const double val = 2.0 * (1.0 - u) + 2.0 * (u - 0.5) * std::pow(1.0 - d2, e);
        dq = 1.0 - std::pow(val, 1.0 / e);
      }
      double z = std::clamp(y + dq * (hi - lo), lo, hi);
      if (is_int_[j]) z = std::clamp(std::round(z), lo, hi);
      x[j] = z;
    }
  }

  // Elitist replacement: whole fronts of parents + children in rank order, the
  // last one cut by decreasing crowding distance (ties to the lower index).
  void select(const Population& merged, Population& next) const {
    const std::size_t N = next.size;
    const auto fronts = nondominated_sort(merged.f.data(), merged.size, m_, merged.v.data());
    std::size_t filled = 0;
    for (std::size_t r = 0; r < fronts.size() && filled < N; ++r) {
      const auto& front = fronts[r];
      const auto cd = crowding_distance(merged.f.data(), m_, front);
      std::vector<std::size_t> order(front.size());
      std::iota(order.begin(), order.end(), std::size_t{0});
      if (filled + front.size() > N)
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return cd[a] > cd[b]; });
      for (std::size_t k = 0; k < order.size() && filled < N; ++k, ++filled)
        copy_member(merged, front[order[k]], next, filled);
    }
    // Crowding of a cut front is recomputed among the survivors, so that the
    // tournament sees the spread of the population actually kept.
    rank_and_crowd(next);
  }

  const Nsga2Problem& pb_;
  const Nsga2Options& opt_;
  Rng& rng_;
  std::size_t d_, m_;
  std::vector<double> lo_, hi_;
  std::vector<bool> is_int_, is_cat_;
  double pm_ = 0.0;
  std::size_t evaluations_ = 0;
};

}  // namespace

Nsga2Result nsga2(const Nsga2Problem& problem, const Nsga2Options& options, Rng& rng,
                  const double* initial, std::size_t n_initial) {
  Runner runner(problem, options, rng);
  if (n_initial > 0 && initial == nullptr)
    fail(Status::NullPointer, "nsga2: the initial population is null");
  return runner.run(initial, n_initial);
}

}  // namespace rescue::moo
