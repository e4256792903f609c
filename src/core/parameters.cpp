#include "core/parameters.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "util/error.hpp"

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
      {"gp.fidelity_discrepancy", "0", kInteger, 0, 2,
       "every model (strategies, rescue_pareto, rescue_predict): adds a fidelity discrepancy phi(s) delta_m(x) per "
       "output, a GP with its own variance and input lengthscales; 2 vanishes at the lowest fidelity (phi = s - "
       "s_low: the target varies beyond what the cheap fidelities show, as in Kennedy and O'Hagan), 1 at the "
       "target (phi = s_target - s: cheap fidelities are the target plus an error); 0 none (the product kernel "
       "alone)"},
      {"gp.fidelity_levels", "1", kInteger, 0, 1,
       "every model (strategies, rescue_pareto, rescue_predict), with three or more discrete fidelity levels: 1 "
       "learns where the kernel over the fidelity places each level between the lowest and the highest (a middle "
       "level less like the target than the lowest one sits farther from it), once every level has three "
       "evaluations; 0 places each at its value"},
      {"kg.fantasies", "8", kInteger, 1, kMaxCount, "hvkg, rescue: fantasy samples K of the knowledge gradient (fixed base samples)"},
      {"kg.feasible_pool", "64", kInteger, 0, kMaxCount,
       "hvkg, rescue: with constraints, an inner pool in which fewer configurations than this are predicted feasible "
       "at the target is widened by moves (sd 0.02 to 0.2) of those that are and of the observed ones predicted "
       "feasible, and one in which none is is first searched for the configuration most likely feasible; 0 does "
       "neither"},
      {"kg.pool", "256", kInteger, 8, kMaxCount, "hvkg, rescue: Sobol points of the inner pool (plus the recommended set and perturbations)"},
      {"kg.set_size", "10", kInteger, 1, kMaxCount, "hvkg, rescue: configurations P of the inner maximization's set"},
      {"kg.verify_share", "0", kClosed, 0, 1,
       "hvkg, rescue: share of the cost spent that may go to checking recommended configurations at the target "
       "fidelity (the least certain of them, instead of the knowledge gradient's choice) once the recommendation "
       "has a hypervolume; 0 checks only when every gain is zero (kg.zero_gain)"},
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
      {"rescue.ci_calibrated", "1", kInteger, 0, 1,
       "rescue: 1 computes HV_CI from the causal estimates as the GP has calibrated them (b_m + a_m f_do), 0 from "
       "f_do itself as the paper does (as does rescue.fixed_prior = 1)"},
      {"rescue.discovery", "0", kInteger, 0, 1, "rescue: causal discovery method, 0 for PC, 1 for DirectLiNGAM"},
      {"rescue.fidelity_offset", "1", kInteger, 0, 1,
       "rescue: 1 adds a learned mean term c_m (s_target - s) per output, an offset between fidelities that is "
       "the same for every configuration (off in the fixed form); 0 none"},
      {"rescue.fidelity_parents", "0", kInteger, 0, 1,
       "rescue: 1 requires the fidelity as a parent of every objective and constraint metric in the causal "
       "graph (unless an edge constraint forbids it; not with a user DAG), for a fidelity that acts on the "
       "outputs directly as well as through the indicators; 0 leaves it to discovery and repair"},
      {"rescue.fixed_prior", "0", kInteger, 0, 1,
       "rescue: 1 uses the paper's fixed MF-CGP prior (causal mean and kernel term unscaled) instead of the learned "
       "scale, offset and weight"},
      {"rescue.gp_equations", "0", kInteger, 0, 1,
       "rescue: 1 lets each structural equation of the causal model with at most 8 parents also take the form of "
       "exact GP regression (squared-exponential kernel with a lengthscale per parent, fitted by marginal "
       "likelihood), chosen by cross-validation against the other forms: far more accurate causal estimates of "
       "smooth responses, but on Park the runs fare worse with them (docs/guide.md); 0 leaves the linear, "
       "random-feature and product forms"},
      {"rescue.interactions", "1", kInteger, 0, 1,
       "rescue: 1 lets each structural equation of the causal model also take the form of ridge regression on its "
       "parents and their pairwise products (chosen by cross-validation against the linear and random-feature "
       "forms), for effects that one parent scales, such as a fidelity that multiplies the effects of options, and "
       "for a parent with 3 to 5 distinct values (a discrete fidelity's levels) that form level by level; 0 leaves "
       "the linear and random-feature forms"},
      {"rescue.log_lengthscale_var", "0.25", kOpen, 0, 100,
       "rescue: variance of the Gaussian prior on each log lengthscale of the GP centred on the logs' model "
       "(rescue.log_lengthscales = 1)"},
      {"rescue.log_lengthscales", "0", kInteger, 0, 1,
       "rescue: 1 fits hvkg's plain GP to the observational rows whenever they change and centres the prior of the "
       "run's GP on each log lengthscale (options and fidelity) on its values, with variance "
       "rescue.log_lengthscale_var; 0 keeps the weak default prior (on Branin-Currin and the robot stand-in the "
       "runs fared no better with it: docs/results/README.md)"},
      {"rescue.min_feasibility", "0.05", kClosed, 0, 1,
       "rescue: configurations whose predicted probability of feasibility is below this are not suggested"},
      {"rescue.prior_at_target", "1", kInteger, 0, 1,
       "rescue: 1 evaluates the causal prior (f_do and sigma) at the target fidelity for every fidelity, leaving "
       "the fidelity discrepancy to the GP's fidelity kernel; 0 evaluates it at the queried fidelity, f_do(x, s), "
       "as does rescue.fixed_prior = 1"},
      {"rescue.prior_by_loo", "1", kInteger, 0, 1,
       "rescue: 1 chooses between the GP fits with the causal prior on and off by their leave-one-out predictive "
       "density, and keeps the prior's scale and weight as chosen until the next check; 0 by their evidence"},
      {"rescue.prior_mean", "1", kInteger, 0, 1,
       "rescue: 1 makes the causal estimates the GP's prior mean (MF-CGP); 0 leaves the GP without them (hvkg's "
       "surrogate), so that the causal model steers C-HVKG only through HV_CI, computed from f_do itself "
       "(rescue.fixed_prior = 1 keeps the prior mean)"},
      {"rescue.prune", "0", kInteger, 0, 1,
       "rescue: 1 drops, after discovery and repair, each parent of an indicator, objective or constraint metric "
       "whose removal lowers the cross-validated error of its structural equation (backward elimination; "
       "required edges stay); 0 keeps the graph as discovery and repair left it"},
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

void check_parameter_name(const std::string& name) {
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
  std::ostringstream msg;
  msg.precision(17);
  msg << "parameter '" << name << "' = " << value << " is outside its values: " << parameter_domain_text(p);
  fail(Status::OutOfRange, msg.str());
}

}  // namespace rescue
