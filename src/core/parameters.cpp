#include "core/parameters.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "util/error.hpp"
#include "util/text.hpp"

namespace rescue {

namespace {

constexpr ParameterKind kInteger = ParameterKind::Integer;
constexpr ParameterKind kClosed = ParameterKind::Closed;
constexpr ParameterKind kOpen = ParameterKind::Open;
constexpr double kInf = std::numeric_limits<double>::infinity();
// Counts are read as int; this keeps them far from overflow and from
// allocations no machine has, while leaving any sensible setting open.
constexpr double kMaxCount = 1e6;

}  // namespace

const std::vector<ParameterInfo>& known_parameters() {
  static const std::vector<ParameterInfo> table = {
      {"acq.mc_samples", "128", kInteger, 1, kMaxCount, "ehvi, momf: Monte Carlo samples of the improvement for three or more objectives"},
      {"acq.refine", "3", kInteger, 0, kMaxCount, "model strategies: best starts of the acquisition search refined locally (BOBYQA)"},
      {"acq.refine_evals", "40", kInteger, 1, kMaxCount, "model strategies: acquisition evaluations per local refinement"},
      {"acq.starts", "128", kInteger, 1, kMaxCount, "model strategies: Sobol starts of the acquisition search over (x, s)"},
      {"feasibility.threshold", "0.5", kClosed, 0, 1,
       "model strategies: probability of feasibility at the target a configuration needs to enter the inner "
       "sets of the knowledge gradient"},
      {"gp.fidelity_levels", "1", kInteger, 0, 1,
       "every model (strategies, rescue_pareto, rescue_predict), with three or more discrete fidelity levels: 1 "
       "learns where the kernel over the fidelity places each level between the lowest and the highest (a middle "
       "level less like the target than the lowest one sits farther from it), once every level has three "
       "evaluations; 0 places each at its value"},
      {"gp.target_correlation", "0", kInteger, 0, 1,
       "every model but the harness's shared recommender, with a fidelity range or levels: 1 learns a correlation "
       "gamma between the target and the other fidelities (one for all outputs; mirrored or unrelated cheap "
       "fidelities reach gamma near -1 or 0 from a few target evaluations), and the model strategies decide on a "
       "draw of gamma from its posterior once the target has been evaluated, so that doubt about the cheap "
       "fidelities sends evaluations to the target; 0 assumes the target follows them (gamma = 1)"},
      {"kg.fantasies", "8", kInteger, 1, kMaxCount, "hvkg, rescue: fantasy samples K of the knowledge gradient (fixed base samples)"},
      {"kg.feasible_pool", "64", kInteger, 0, kMaxCount,
       "hvkg, rescue: with constraints, an inner pool in which fewer configurations than this are predicted feasible "
       "at the target is widened by moves (sd 0.02 to 0.2) of those that are and of the observed ones predicted "
       "feasible, and one in which none is is first searched for the configuration most likely feasible; 0 does "
       "neither"},
      {"kg.pool", "256", kInteger, 8, kMaxCount, "hvkg, rescue: Sobol points of the inner pool (plus the recommended set and perturbations)"},
      {"kg.set_size", "10", kInteger, 1, kMaxCount, "hvkg, rescue: configurations P of the inner maximization's set"},
      {"kg.zero_gain", "1e-8", kClosed, -kInf, kInf,
       "hvkg, rescue: a best estimated gain at or below this fraction of the current value counts as zero, and the "
       "least certain recommended configuration is evaluated at the target fidelity instead; negative turns it off"},
      {"recommend.feasibility", "0.5", kOpen, 0, 1,
       "recommender (rescue_pareto): probability with which the model must expect each constraint of a recommended "
       "configuration to hold; at 0.5 its posterior mean satisfies it, higher keeps away from the constraints' "
       "uncertain edges"},
      {"recommend.generations", "60", kInteger, 0, kMaxCount, "recommender (rescue_pareto): NSGA-II generations"},
      {"recommend.points", "100", kInteger, 1, kMaxCount, "recommender: most configurations returned (thinned by greedy hypervolume)"},
      {"recommend.population", "100", kInteger, 4, kMaxCount, "recommender: NSGA-II population"},
      {"rescue.alpha", "0.05", kOpen, 0, 1, "rescue: significance level of PC's conditional independence tests"},
      {"rescue.causal_kernel", "1", kInteger, 0, 1,
       "rescue: 1 adds the causal kernel term sigma(x, s) sigma(x', s'), with its learned weight, to the GP's "
       "kernel; 0 leaves it out, so the causal estimates enter as the prior mean only (rescue.fixed_prior = 1 "
       "keeps it)"},
      {"rescue.discovery", "0", kInteger, 0, 1, "rescue: causal discovery method, 0 for PC, 1 for DirectLiNGAM"},
      {"rescue.fixed_prior", "0", kInteger, 0, 1,
       "rescue: 1 uses the paper's fixed MF-CGP prior: f_do(x, s) at the queried fidelity as the GP's mean and "
       "sigma(x, s) sigma(x', s') in its kernel, both unscaled, and HV_CI from f_do; 0 calibrates the prior "
       "instead: f_do and sigma at the target fidelity for every s, a learned scale a_m, constant b_m and fidelity "
       "offset c_m (s_target - s) per output and a learned weight of the kernel term, the fit with the prior and "
       "the plain one chosen between by leave-one-out predictive density, and HV_CI from b_m + a_m f_do"},
      {"rescue.prior_mean", "1", kInteger, 0, 1,
       "rescue: 1 makes the causal estimates the GP's prior mean (MF-CGP); 0 leaves the GP without them (hvkg's "
       "surrogate), so that the causal model steers C-HVKG only through HV_CI, computed from f_do itself "
       "(rescue.fixed_prior = 1 keeps the prior mean)"},
      {"rescue.relearn_every", "40", kInteger, 1, kMaxCount, "rescue: new observations between relearnings of the causal model (N_l)"},
      {"rescue.repair", "2", kInteger, 0, 2,
       "rescue: after discovery, missed parents restored by a nonparametric check of the local Markov condition: 0 "
       "none, 1 the options and fidelity of objectives and constraints, 2 also the options and fidelity of "
       "indicators and the indicators of objectives and constraints"},
      {"rescue.weight", "0.5", kClosed, 0, 1, "rescue: weight w of the causal hypervolume HV_CI in C-HVKG's inner maximization"},
  };
  return table;
}

namespace {

// Parameters of earlier versions whose non-default value lost in the
// experiments (docs/results/README.md, "Tried and not adopted"): each with the
// value this version behaves as (NaN: any value, a setting only the removed
// variant read).
struct RetiredParameter {
  const char* name;
  double value;
};
constexpr double kAny = std::numeric_limits<double>::quiet_NaN();
constexpr RetiredParameter kRetired[] = {
    {"gp.fidelity_discrepancy", 0},  {"kg.verify_share", 0},         {"rescue.ci_calibrated", 1},
    {"rescue.fidelity_offset", 1},   {"rescue.fidelity_parents", 0}, {"rescue.gp_equations", 0},
    {"rescue.interactions", 1},      {"rescue.log_lengthscale_var", kAny}, {"rescue.log_lengthscales", 0},
    {"rescue.min_feasibility", 0.05}, {"rescue.prior_at_target", 1}, {"rescue.prior_by_loo", 1},
    {"rescue.prune", 0},
};

const RetiredParameter* find_retired(const std::string& name) {
  for (const auto& r : kRetired)
    if (name == r.name) return &r;
  return nullptr;
}

std::string value_text(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// Edit distance, to name the parameter a misspelt one was probably meant to be.
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

const ParameterInfo* find_parameter(const std::string& name) {
  for (const auto& p : known_parameters())
    if (name == p.name) return &p;
  return nullptr;
}

double parameter_default(const ParameterInfo& p) { return std::strtod(p.default_text, nullptr); }

double parameter_default(const std::string& name) {
  const ParameterInfo* p = find_parameter(name);
  if (p == nullptr) fail(Status::Internal, "parameter '" + name + "' is read but not in the parameter table");
  return parameter_default(*p);
}

bool retired_parameter_in_force(const std::string& name, double value) {
  const RetiredParameter* r = find_retired(name);
  if (r == nullptr) return false;
  if (std::isnan(r->value) || value == r->value) return true;
  fail(Status::UnsupportedVersion, "parameter '" + name + "' = " + value_text(value) +
                                       " is no longer supported: this version always behaves as '" + name +
                                       "' = " + (std::isnan(r->value) ? std::string("its default") : value_text(r->value)));
}

void check_parameter_name(const std::string& name) {
  if (const RetiredParameter* r = find_retired(name)) {
    std::string msg = "parameter '" + name + "' no longer exists";
    if (!std::isnan(r->value)) msg += ": this version always behaves as '" + name + "' = " + value_text(r->value);
    fail(Status::UnknownName, msg + " (docs/results/README.md, \"Tried and not adopted\")");
  }
  const auto& table = known_parameters();
  const ParameterInfo* closest = nullptr;
  std::size_t best = std::string::npos;
  for (const auto& p : table) {
    if (name == p.name) return;
    const std::size_t dist = distance(name, p.name);
    if (dist < best) {
      best = dist;
      closest = &p;
    }
  }
  std::string msg = "unknown parameter '" + name + "'";
  if (closest != nullptr && best <= 3) msg += " (did you mean '" + std::string(closest->name) + "'?)";
  msg += "; the parameters are listed in docs/guide.md";
  fail(Status::UnknownName, msg);
}

std::string parameter_domain_text(const ParameterInfo& p) {
  std::ostringstream out;
  if (p.kind == ParameterKind::Integer) {
    if (p.hi - p.lo <= 2.0) {
      for (double v = p.lo; v <= p.hi; v += 1.0)
        out << (v == p.lo ? "" : v == p.hi ? " or " : ", ") << static_cast<int>(v);
    } else {
      out << "integer in [" << static_cast<int>(p.lo) << ", " << static_cast<int>(p.hi) << "]";
    }
  } else if (std::isinf(p.lo) && std::isinf(p.hi)) {
    out << "any";
  } else {
    const bool open = p.kind == ParameterKind::Open;
    out << (open ? "(" : "[") << p.lo << ", " << p.hi << (open ? ")" : "]");
  }
  return out.str();
}

void check_parameter(const std::string& name, double value) {
  check_parameter_name(name);
  const ParameterInfo& p = *find_parameter(name);
  bool ok = false;
  switch (p.kind) {
    case ParameterKind::Integer: ok = value >= p.lo && value <= p.hi && value == std::floor(value); break;
    case ParameterKind::Closed: ok = value >= p.lo && value <= p.hi; break;
    case ParameterKind::Open: ok = value > p.lo && value < p.hi; break;
  }
  if (ok) return;
  fail(Status::OutOfRange,
       "parameter '" + name + "' = " + fmt17(value) + " is outside its values: " + parameter_domain_text(p));
}

}  // namespace rescue
