#include "bench/max_hv_search.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "bench/front_archive.hpp"
#include "moo/nsga2.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"
#include "util/sobol.hpp"

namespace rescue::bench {

MaxHvOptions MaxHvOptions::quick() {
  MaxHvOptions o;
  o.grid = 129;
  o.nsga_runs = 1;
  o.population = 60;
  o.generations = 60;
  o.seeded_generations = 20;
  o.refine_levels = 2;
  o.refine_samples = 4;
  o.refine_max_points = 2000;
  o.repeats = 1;
  return o;
}

MaxHvOptions MaxHvOptions::real_training() {
  MaxHvOptions o;
  o.uniform_samples = 2000;
  o.nsga_runs = 2;
  o.population = 40;
  o.generations = 40;
  o.seeded_generations = 25;
  o.refine_levels = 3;
  o.refine_samples = 2;
  o.refine_max_points = 40;
  o.repeats = 2;
  return o;
}

namespace {

// The target-fidelity function in the minimization convention, feeding every
// feasible evaluation to the archive.
class TargetFunction {
 public:
  TargetFunction(const problems::BenchmarkProblem& problem, FrontArchive& archive)
      : problem_(problem), spec_(problem.spec()), archive_(archive) {}

  // Writes both objectives (minimized) and returns the total violation.
  double operator()(const std::vector<double>& x, double* f) {
    ++evaluations_;
    const problems::Evaluation e = problem_.evaluate(x.data(), spec_.fidelity().target);
    double violation = 0.0;
    for (int q = 0; q < spec_.num_constraints(); ++q) violation += spec_.constraints()[q].violation(e.g[q]);
    for (int m = 0; m < 2; ++m) f[m] = spec_.to_min(m, e.y[m]);
    if (violation == 0.0) archive_.insert(f[0], f[1], x);
    return violation;
  }
  std::int64_t evaluations() const { return evaluations_; }

 private:
  const problems::BenchmarkProblem& problem_;
  const ProblemSpec& spec_;
  FrontArchive& archive_;
  std::int64_t evaluations_ = 0;
};

// Up to `count` members spread evenly along the front.
std::vector<std::vector<double>> spread_members(const FrontArchive& archive, std::size_t count) {
  const auto members = archive.members();
  std::vector<std::vector<double>> out;
  if (members.empty() || count == 0) return out;
  const std::size_t n = std::min(count, members.size());
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = n == 1 ? 0 : k * (members.size() - 1) / (n - 1);
    out.push_back(members[i].x);
  }
  return out;
}

// The options the search varies, and the configuration it completes: the
// problem's target_fixed_options() hold their values, the rest are free.
class Subspace {
 public:
  explicit Subspace(const problems::BenchmarkProblem& problem) : spec_(problem.spec()), base_(spec_.dim(), 0.0) {
    const int d = spec_.dim();
    std::vector<char> fixed(d, 0);
    for (const auto& [j, v] : problem.target_fixed_options()) {
      if (j < 0 || j >= d || fixed[j])
        fail(Status::InvalidState, "problem '" + problem.name() + "': invalid or repeated fixed option " +
                                       std::to_string(j));
      const auto& o = spec_.options()[j];
      if (!(v >= o.lower && v <= o.upper))
        fail(Status::InvalidState, "problem '" + problem.name() + "': fixed value of '" + o.name + "' out of its range");
      fixed[j] = 1;
      base_[j] = v;
    }
    for (int j = 0; j < d; ++j) (fixed[j] ? held_ : free_).push_back(j);
    if (free_.empty()) fail(Status::InvalidState, "problem '" + problem.name() + "': every option is fixed");
  }
  int dim() const { return static_cast<int>(free_.size()); }
  int held() const { return static_cast<int>(held_.size()); }
  const std::vector<int>& free() const { return free_; }
  const ProblemSpec& spec() const { return spec_; }
  // The full configuration of a point of the free options' unit cube.
  void from_unit(const double* u_free, std::vector<double>& x) const {
    std::vector<double> u(spec_.dim(), 0.0);
    for (int k = 0; k < dim(); ++k) u[free_[k]] = u_free[k];
    x.resize(spec_.dim());
    spec_.from_unit(u.data(), x.data());
    for (int j : held_) x[j] = base_[j];
  }
  // The free options' unit coordinates of a full configuration.
  std::vector<double> to_unit(const std::vector<double>& x) const {
    std::vector<double> u(spec_.dim()), out(free_.size());
    spec_.to_unit(x.data(), u.data());
    for (int k = 0; k < dim(); ++k) out[k] = u[free_[k]];
    return out;
  }

 private:
  const ProblemSpec& spec_;
  std::vector<double> base_;
  std::vector<int> free_, held_;
};

moo::Nsga2Result run_nsga2(const Subspace& sub, TargetFunction& fn, int population, int generations, Rng& rng,
                           const std::vector<std::vector<double>>& seeds) {
  moo::Nsga2Problem pb;
  pb.n_var = static_cast<std::size_t>(sub.dim());
  pb.n_obj = 2;
  for (int j : sub.free()) {
    const auto& o = sub.spec().options()[j];
    pb.lower.push_back(o.lower);
    pb.upper.push_back(o.upper);
    pb.integer.push_back(o.kind == OptionKind::Integer);
    pb.categorical.push_back(o.categorical());
  }
  std::vector<double> x;
  sub.from_unit(std::vector<double>(pb.n_var, 0.0).data(), x);
  pb.evaluate = [&](const double* xv, double* f, double* violation) {
    for (std::size_t k = 0; k < pb.n_var; ++k) x[sub.free()[k]] = xv[k];
    *violation = fn(x, f);
  };
  moo::Nsga2Options opt;
  opt.population = static_cast<std::size_t>(population);
  opt.generations = static_cast<std::size_t>(generations);
  std::vector<double> initial;
  for (const auto& s : seeds)
    for (int j : sub.free()) initial.push_back(s[j]);
  return moo::nsga2(pb, opt, rng, initial.empty() ? nullptr : initial.data(), seeds.size());
}

std::string fmt(double v) {
  std::ostringstream os;
  os.precision(10);
  os << v;
  return os.str();
}

// One search with one seed; its non-dominated evaluations end in `archive`.
MaxHvResult search_once(const problems::BenchmarkProblem& problem, const MaxHvOptions& options, std::uint64_t seed,
                        FrontArchive& archive, const std::function<void(const std::string&)>& log) {
  const ProblemSpec& spec = problem.spec();
  if (spec.num_objectives() != 2)
    fail(Status::InvalidArgument, "maximum hypervolume search supports two objectives, '" + problem.name() + "' has " +
                                      std::to_string(spec.num_objectives()));
  if (spec.reference_point().size() != 2)
    fail(Status::InvalidState, "problem '" + problem.name() + "' has no reference point");
  if (options.grid < 2 || options.population < 4 || options.refine_shrink <= 1.0 || options.refine_levels < 0)
    fail(Status::InvalidArgument, "maximum hypervolume search: invalid options");
  const double r1 = spec.to_min(0, spec.reference_point()[0]);
  const double r2 = spec.to_min(1, spec.reference_point()[1]);
  const Subspace sub(problem);
  const int d = sub.dim();
  auto say = [&](const std::string& s) {
    if (log) log(problem.name() + " (seed " + std::to_string(seed) + "): " + s);
  };

  TargetFunction fn(problem, archive);
  Rng rng(seed);
  MaxHvResult res;
  std::ostringstream method;
  std::vector<double> x, u(d);
  double f[2];
  if (sub.held() > 0) method << sub.held() << " options held at their values of target_fixed_options(), ";

  if (!options.start_points.empty()) {
    for (const auto& p : options.start_points) {
      if (p.size() != static_cast<std::size_t>(spec.dim()))
        fail(Status::InvalidArgument, "maximum hypervolume search: a start point has " + std::to_string(p.size()) +
                                          " values, the problem " + std::to_string(spec.dim()) + " options");
      sub.from_unit(sub.to_unit(p).data(), x);  // held options at their target values
      fn(x, f);
    }
    say("given configurations: archive " + std::to_string(archive.size()) + " points, HV " +
        fmt(archive.hypervolume(r1, r2)));
  }

  // Global stage.
  double h0;  // initial refinement half-width, unit box
  if (d <= 2) {
    const int g = options.grid;
    const std::int64_t total = d == 1 ? g : static_cast<std::int64_t>(g) * g;
    for (std::int64_t k = 0; k < total; ++k) {
      u[0] = static_cast<double>(k % g) / (g - 1);
      if (d == 2) u[1] = static_cast<double>(k / g) / (g - 1);
      sub.from_unit(u.data(), x);
      fn(x, f);
    }
    h0 = 1.0 / (g - 1);
    method << "grid " << g << "^" << d;
  } else {
    if (options.uniform_samples > 0) {
      // In ten or more dimensions a space-filling sample finds fronts that
      // small NSGA-II populations miss, and seeds the refinement with them.
      Sobol sobol(d, true, rng);
      for (int k = 0; k < options.uniform_samples; ++k) {
        sub.from_unit(sobol.next().data(), x);
        fn(x, f);
      }
      say("Sobol sample: archive " + std::to_string(archive.size()) + " points, HV " + fmt(archive.hypervolume(r1, r2)));
      method << options.uniform_samples << " Sobol points, ";
    }
    for (int r = 0; r < options.nsga_runs; ++r) {
      Rng run_rng = rng.split();
      run_nsga2(sub, fn, options.population, options.generations, run_rng, {});
      say("NSGA-II run " + std::to_string(r + 1) + ": archive " + std::to_string(archive.size()) + " points, HV " +
          fmt(archive.hypervolume(r1, r2)));
    }
    h0 = 0.02;
    method << options.nsga_runs << " NSGA-II runs (population " << options.population << ", " << options.generations
           << " generations)";
  }
  res.stage_values.push_back(archive.hypervolume(r1, r2));
  say("global stage: HV " + fmt(res.stage_values.back()) + ", " + std::to_string(fn.evaluations()) + " evaluations");

  // NSGA-II seeded with the front found so far.
  if (options.seeded_generations > 0) {
    Rng run_rng = rng.split();
    run_nsga2(sub, fn, options.population, options.seeded_generations, run_rng,
              spread_members(archive, static_cast<std::size_t>(options.population)));
    res.stage_values.push_back(archive.hypervolume(r1, r2));
    method << ", seeded NSGA-II (" << options.seeded_generations << " generations)";
    say("seeded NSGA-II: HV " + fmt(res.stage_values.back()));
  }

  // Local refinement around the non-dominated configurations.
  double h = h0;
  for (int level = 0; level < options.refine_levels; ++level) {
    const auto centres = spread_members(archive, options.refine_max_points);
    for (const auto& c : centres) {
      u = sub.to_unit(c);
      for (int k = 0; k < options.refine_samples; ++k) {
        std::vector<double> v(d);
        for (int j = 0; j < d; ++j) v[j] = std::clamp(u[j] + rng.uniform(-h, h), 0.0, 1.0);
        sub.from_unit(v.data(), x);
        fn(x, f);
      }
    }
    res.stage_values.push_back(archive.hypervolume(r1, r2));
    say("refinement level " + std::to_string(level + 1) + " (half-width " + fmt(h) + "): archive " +
        std::to_string(archive.size()) + " points, HV " + fmt(res.stage_values.back()));
    h /= options.refine_shrink;
  }
  if (options.refine_levels > 0)
    method << ", " << options.refine_levels << " levels of local refinement (" << options.refine_samples
           << " samples per front point, half-width " << fmt(h0) << " shrinking by " << options.refine_shrink << ")";

  res.value = archive.hypervolume(r1, r2);
  res.evaluations = fn.evaluations();
  res.front_size = archive.size();
  // Precision: the last gain, extrapolated as a geometric series when the
  // gains shrink; otherwise the last gain times the number of levels.
  const auto& sv = res.stage_values;
  double precision = 0.0;
  if (sv.size() >= 2) {
    const double last = sv[sv.size() - 1] - sv[sv.size() - 2];
    const double before = sv.size() >= 3 ? sv[sv.size() - 2] - sv[sv.size() - 3] : 0.0;
    precision = last;
    if (before > 0.0 && last < before) {
      const double ratio = last / before;
      precision = std::max(last, last * ratio / (1.0 - ratio));
    } else if (before > 0.0) {
      precision = last * static_cast<double>(sv.size());
    }
  }
  res.precision = precision;
  res.method = method.str();
  return res;
}

}  // namespace

MaxHvResult compute_max_hypervolume(const problems::BenchmarkProblem& problem, const MaxHvOptions& options,
                                    const std::function<void(const std::string&)>& log) {
  if (options.repeats < 1) fail(Status::InvalidArgument, "maximum hypervolume search: at least one repeat");
  const ProblemSpec& spec = problem.spec();
  FrontArchive all;
  MaxHvResult res;
  double lowest = INFINITY, extrapolated = 0.0;
  for (int r = 0; r < options.repeats; ++r) {
    FrontArchive archive;
    MaxHvOptions o = options;
    if (r > 0) o.start_points.clear();  // the first search starts from them; the others stay independent
    const MaxHvResult one = search_once(problem, o, options.seed + static_cast<std::uint64_t>(r), archive, log);
    for (const auto& m : archive.members()) all.insert(m.f1, m.f2, m.x);
    lowest = std::min(lowest, one.value);
    extrapolated = std::max(extrapolated, one.precision);
    res.evaluations += one.evaluations;
    res.stage_values = one.stage_values;
    res.method = one.method;
  }
  const double r1 = spec.to_min(0, spec.reference_point()[0]);
  const double r2 = spec.to_min(1, spec.reference_point()[1]);
  res.value = all.hypervolume(r1, r2);
  res.front_size = all.size();
  // The union of independent searches is at least as good as each; how far the
  // worst of them fell short of it measures what a search can miss.
  res.precision = std::max({extrapolated, res.value - lowest, 1e-12 * std::fabs(res.value)});
  const std::string given = options.start_points.empty() ? std::string()
                            : ", the first starting from " + std::to_string(options.start_points.size()) +
                                  " given configurations";
  res.method = "union of " + std::to_string(options.repeats) + " searches (seeds " + std::to_string(options.seed) +
               ".." + std::to_string(options.seed + options.repeats - 1) + ")" + given + ", each: " + res.method;
  if (log)
    log(problem.name() + ": union of " + std::to_string(options.repeats) + " searches: HV " + fmt(res.value) +
        ", worst single search " + fmt(lowest));
  return res;
}

}  // namespace rescue::bench
