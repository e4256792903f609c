#include "core/problem_spec.hpp"

#include <algorithm>
#include <cmath>

#include "core/parameters.hpp"
#include "util/text.hpp"
#include "util/utf8.hpp"

namespace rescue {
namespace {

void require_finite(double v, const std::string& what) {
  if (!std::isfinite(v)) fail(Status::NonFinite, what + " must be finite (got " + fmt17(v) + ")");
}

}  // namespace

const std::vector<std::string>& strategy_names() {
  // The engine's strategy factory builds exactly these (checked by a test).
  static const std::vector<std::string> names = {"rescue", "hvkg", "ehvi", "momf", "random", "cost-aware-random"};
  return names;
}

// ---- FidelitySpec ---------------------------------------------------------------------

double FidelitySpec::unit(double s) const {
  if (single_level()) return 1.0;
  return (s - lower) / (upper - lower);
}

int FidelitySpec::level_index(double s) const {
  for (std::size_t i = 0; i < levels.size(); ++i)
    if (levels[i] == s) return static_cast<int>(i);
  return -1;
}

bool FidelitySpec::valid(double s) const {
  if (!std::isfinite(s)) return false;
  if (discrete) return level_index(s) >= 0;
  return s >= lower && s <= upper;
}

// ---- ProblemSpec setters ---------------------------------------------------------------

void ProblemSpec::check_new_name(const std::string& name, const char* what) const {
  if (name.empty()) fail(Status::InvalidArgument, std::string(what) + " name must not be empty");
  if (name.find_first_of("\n\r\t") != std::string::npos)
    fail(Status::InvalidArgument, std::string(what) + " name must not contain control characters");
  if (!is_valid_utf8(name)) fail(Status::InvalidArgument, std::string(what) + " name must be valid UTF-8");
  auto clash = [&](const std::string& other) { return other == name; };
  bool dup = std::any_of(options_.begin(), options_.end(), [&](const OptionSpec& o) { return clash(o.name); }) ||
             std::any_of(objectives_.begin(), objectives_.end(), [&](const ObjectiveSpec& o) { return clash(o.name); }) ||
             std::any_of(constraints_.begin(), constraints_.end(), [&](const ConstraintSpec& c) { return clash(c.name); }) ||
             std::any_of(indicators_.begin(), indicators_.end(), clash);
  if (dup) fail(Status::InvalidArgument, "name '" + name + "' is already used in this problem");
  // The causal model names a categorical option's levels "option=label".
  for (const auto& o : options_)
    for (const auto& l : o.labels)
      if (name == o.name + "=" + l)
        fail(Status::InvalidArgument, "name '" + name + "' is the causal model's name of a level of option '" + o.name + "'");
}

void ProblemSpec::add_option(const std::string& name, double lower, double upper, OptionKind kind) {
  check_new_name(name, "option");
  require_finite(lower, "lower bound of option '" + name + "'");
  require_finite(upper, "upper bound of option '" + name + "'");
  if (!(lower < upper))
    fail(Status::InvalidArgument, "option '" + name + "': lower bound " + fmt17(lower) +
                                      " must be below upper bound " + fmt17(upper));
  // Configurations are scaled by the width; beyond DBL_MAX it is infinite.
  if (!std::isfinite(upper - lower))
    fail(Status::OutOfRange, "option '" + name + "': the width upper - lower of its bounds must be finite");
  switch (kind) {
    case OptionKind::Continuous: break;
    case OptionKind::Integer:
      if (std::ceil(lower) > std::floor(upper))
        fail(Status::InvalidArgument, "integer option '" + name + "' has no integer in its bounds");
      // Beyond 2^53 doubles skip integers, and the count of values must fit 64 bits.
      if (std::fabs(lower) > 0x1p53 || std::fabs(upper) > 0x1p53)
        fail(Status::OutOfRange, "integer option '" + name + "': bounds must lie within +-2^53 (9007199254740992)");
      break;
    case OptionKind::LogScale:
      if (lower <= 0.0)
        fail(Status::InvalidArgument, "log-scale option '" + name + "' needs a positive lower bound");
      break;
    case OptionKind::Categorical:
      fail(Status::InvalidArgument, "categorical option '" + name + "' needs its levels (add it with rescue_problem_add_categorical)");
    default: fail(Status::InvalidArgument, "unknown option kind for '" + name + "'");
  }
  options_.push_back({name, lower, upper, kind, {}});
}

void ProblemSpec::add_categorical(const std::string& name, const std::vector<std::string>& labels) {
  check_new_name(name, "option");
  if (labels.size() < 2)
    fail(Status::InvalidArgument, "categorical option '" + name + "' needs at least two levels (got " +
                                      std::to_string(labels.size()) + ")");
  // Indices must stay exact as doubles and as C ints.
  if (labels.size() > (1u << 20))
    fail(Status::OutOfRange, "categorical option '" + name + "' has more than 2^20 levels");
  for (std::size_t k = 0; k < labels.size(); ++k) {
    const std::string& l = labels[k];
    if (l.empty()) fail(Status::InvalidArgument, "categorical option '" + name + "': level " + std::to_string(k) + " has an empty label");
    if (l.find_first_of("\n\r\t") != std::string::npos)
      fail(Status::InvalidArgument, "categorical option '" + name + "': label of level " + std::to_string(k) +
                                        " must not contain control characters");
    if (!is_valid_utf8(l))
      fail(Status::InvalidArgument, "categorical option '" + name + "': label of level " + std::to_string(k) + " must be valid UTF-8");
    for (std::size_t j = 0; j < k; ++j)
      if (labels[j] == l)
        fail(Status::InvalidArgument, "categorical option '" + name + "': label '" + l + "' is given twice (levels " +
                                          std::to_string(j) + " and " + std::to_string(k) + ")");
  }
  for (const auto& l : labels) {
    const std::string level = name + "=" + l;
    try {
      check_new_name(level, "level");
    } catch (const Error&) {
      fail(Status::InvalidArgument, "categorical option '" + name + "': its level '" + l + "' would be named '" + level +
                                        "' in the causal model, a name already used in this problem");
    }
  }
  options_.push_back({name, 0.0, static_cast<double>(labels.size() - 1), OptionKind::Categorical, labels});
}

std::vector<int> ProblemSpec::categorical_levels() const {
  std::vector<int> out(options_.size(), 0);
  for (std::size_t i = 0; i < options_.size(); ++i) out[i] = options_[i].levels();
  return out;
}

bool ProblemSpec::has_categorical() const {
  return std::any_of(options_.begin(), options_.end(), [](const OptionSpec& o) { return o.categorical(); });
}

void ProblemSpec::set_fidelity_range(double lower, double upper, double target) {
  require_finite(lower, "fidelity lower bound");
  require_finite(upper, "fidelity upper bound");
  require_finite(target, "target fidelity");
  if (!(lower < upper)) fail(Status::InvalidArgument, "fidelity range needs lower < upper");
  if (!std::isfinite(upper - lower)) fail(Status::OutOfRange, "the fidelity range's width upper - lower must be finite");
  if (target < lower || target > upper)
    fail(Status::OutOfRange, "target fidelity " + fmt17(target) + " is outside [" + fmt17(lower) + ", " + fmt17(upper) + "]");
  if (cost_.kind == CostKind::PerLevel)
    fail(Status::InvalidState, "per-level costs need discrete fidelity levels; set the cost model again after changing fidelity");
  fidelity_ = FidelitySpec{false, lower, upper, {}, target};
}

void ProblemSpec::set_fidelity_levels(const std::vector<double>& levels, double target) {
  if (levels.empty()) fail(Status::SizeMismatch, "at least one fidelity level is needed");
  for (double v : levels) require_finite(v, "fidelity level");
  require_finite(target, "target fidelity");
  std::vector<double> sorted = levels;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    fail(Status::InvalidArgument, "fidelity levels must be distinct");
  if (!std::isfinite(sorted.back() - sorted.front()))
    fail(Status::OutOfRange, "the fidelity levels must span a finite width (highest - lowest)");
  if (std::find(sorted.begin(), sorted.end(), target) == sorted.end())
    fail(Status::OutOfRange, "target fidelity " + fmt17(target) + " is not one of the levels");
  if (cost_.kind == CostKind::PerLevel && cost_.level_costs.size() != sorted.size())
    fail(Status::InvalidState, "per-level costs were set for a different number of levels");
  fidelity_ = FidelitySpec{true, sorted.front(), sorted.back(), sorted, target};
}

void ProblemSpec::set_cost_exponential(double rate) {
  require_finite(rate, "cost rate");
  // exp(rate * u) for u in [0, 1] must stay a finite positive number, as must
  // the costs saved in checkpoints.
  if (std::abs(rate) > kMaxCostRate)
    fail(Status::OutOfRange, "cost rate " + fmt17(rate) + " is outside [-" + fmt17(kMaxCostRate) + ", " + fmt17(kMaxCostRate) +
                                 "]: exp(rate) would overflow or vanish");
  cost_ = CostModel{};
  cost_.rate = rate;
}

void ProblemSpec::set_cost_levels(const std::vector<double>& costs) {
  if (!fidelity_.discrete)
    fail(Status::InvalidState, "per-level costs need discrete fidelity levels (set them first)");
  if (costs.size() != fidelity_.levels.size())
    fail(Status::SizeMismatch, "expected " + std::to_string(fidelity_.levels.size()) +
                                   " level costs, got " + std::to_string(costs.size()));
  for (double c : costs) {
    require_finite(c, "level cost");
    if (c <= 0.0) fail(Status::InvalidArgument, "level costs must be positive");
  }
  cost_ = CostModel{};
  cost_.kind = CostKind::PerLevel;
  cost_.level_costs = costs;  // in the order of the sorted levels
}

void ProblemSpec::set_cost_callback(CostCallback fn, void* user) {
  if (!fn) fail(Status::NullPointer, "cost callback is NULL");
  cost_ = CostModel{};
  cost_.kind = CostKind::Callback;
  cost_.callback = fn;
  cost_.user = user;
}

void ProblemSpec::set_cost_callback_unbound() {
  cost_ = CostModel{};
  cost_.kind = CostKind::Callback;
}

void ProblemSpec::add_objective(const std::string& name, Sense sense) {
  check_new_name(name, "objective");
  if (sense != Sense::Minimize && sense != Sense::Maximize)
    fail(Status::InvalidArgument, "objective '" + name + "': sense must be minimize or maximize");
  objectives_.push_back({name, sense});
  reference_.clear();  // a reference point must match the objectives
}

void ProblemSpec::add_constraint(const std::string& name, double threshold, ConstraintSense sense) {
  check_new_name(name, "constraint");
  require_finite(threshold, "threshold of constraint '" + name + "'");
  if (sense != ConstraintSense::GreaterEqual && sense != ConstraintSense::LessEqual)
    fail(Status::InvalidArgument, "constraint '" + name + "': sense must be >= or <=");
  constraints_.push_back({name, threshold, sense});
}

void ProblemSpec::add_indicator(const std::string& name) {
  check_new_name(name, "indicator");
  indicators_.push_back(name);
}

void ProblemSpec::set_reference_point(const std::vector<double>& ref) {
  if (ref.size() != objectives_.size())
    fail(Status::SizeMismatch, "reference point has " + std::to_string(ref.size()) + " values, the problem has " +
                                   std::to_string(objectives_.size()) + " objectives");
  for (double v : ref) require_finite(v, "reference point value");
  reference_ = ref;
}

void ProblemSpec::set_strategy(const std::string& name) {
  const auto& names = strategy_names();
  if (std::find(names.begin(), names.end(), name) == names.end())
    fail(Status::UnknownName, "unknown strategy '" + name + "' (known: " + comma_list(names) + ")");
  strategy_ = name;
}

void ProblemSpec::set_budget(double budget) {
  require_finite(budget, "budget");
  if (budget < 0.0) fail(Status::InvalidArgument, "budget must be >= 0 (0 means unlimited)");
  budget_ = budget;
}

void ProblemSpec::set_initial_budget(double budget) {
  require_finite(budget, "initial budget");
  if (budget < 0.0) fail(Status::InvalidArgument, "initial budget must be >= 0");
  initial_budget_ = budget;
}

void ProblemSpec::set_param(const std::string& key, double value) {
  if (key.empty() || key.find_first_of(" \n\r\t") != std::string::npos)
    fail(Status::InvalidArgument, "parameter name must be non-empty and without spaces");
  check_parameter_name(key);
  require_finite(value, "parameter '" + key + "'");
  check_parameter(key, value);
  params_[key] = value;
}

void ProblemSpec::restore_param(const std::string& key, double value) {
  // A parameter this version no longer has is dropped when the checkpoint
  // holds the value this version behaves as, and refused otherwise.
  if (std::isfinite(value) && retired_parameter_in_force(key, value)) return;
  check_parameter_name(key);
  require_finite(value, "parameter '" + key + "'");
  // Counts (integer parameters other than switches and choices) size loops
  // and allocations: outside their domain they overflow an int or exhaust
  // memory, in earlier builds as in this one, so no checkpoint holds one
  // legitimately. Other values load as written (see the header).
  const ParameterInfo& info = *find_parameter(key);
  if (info.kind == ParameterKind::Integer && info.hi - info.lo > 2.0) check_parameter(key, value);
  params_[key] = value;
}

void ProblemSpec::add_edge_constraint(const EdgeSpec& edge, bool required) {
  if (edge.from.empty() || edge.to.empty()) fail(Status::InvalidArgument, "edge endpoints must be named");
  if (!is_valid_utf8(edge.from) || !is_valid_utf8(edge.to))
    fail(Status::InvalidArgument, "edge endpoint names must be valid UTF-8");
  auto& list = required ? required_edges_ : forbidden_edges_;
  if (std::find(list.begin(), list.end(), edge) == list.end()) list.push_back(edge);
}

double ProblemSpec::param(const std::string& key) const {
  auto it = params_.find(key);
  return it == params_.end() ? parameter_default(key) : it->second;
}

double ProblemSpec::initial_budget() const {
  return initial_budget_ >= 0.0 ? initial_budget_ : 2.0 * target_cost();
}

void ProblemSpec::validate_complete() const {
  if (options_.empty()) fail(Status::InvalidState, "the problem has no option (add one with rescue_problem_add_option)");
  if (objectives_.empty()) fail(Status::InvalidState, "the problem has no objective (add one with rescue_problem_add_objective)");
  if (cost_.kind == CostKind::PerLevel && cost_.level_costs.size() != fidelity_.levels.size())
    fail(Status::InvalidState, "per-level costs do not match the fidelity levels");
}

// ---- derived --------------------------------------------------------------------------

double ProblemSpec::cost(const double* x, double s) const {
  switch (cost_.kind) {
    case CostKind::Exponential:
      // Without a fidelity range there is nothing to trade: one evaluation, one unit.
      if (fidelity_.single_level()) return 1.0;
      return std::exp(cost_.rate * fidelity_.unit(s));
    case CostKind::PerLevel: {
      const int i = fidelity_.level_index(s);
      if (i < 0) fail(Status::OutOfRange, "fidelity " + fmt17(s) + " is not one of the levels");
      return cost_.level_costs[i];
    }
    case CostKind::Callback: {
      if (!cost_.callback)
        fail(Status::InvalidState, "the cost model is a user callback that is not set (after loading a checkpoint, "
                                   "set it again with rescue_set_cost_callback)");
      const double c = cost_.callback(x, dim(), s, cost_.user);
      if (!std::isfinite(c) || c <= 0.0)
        fail(Status::Callback, "the cost callback returned " + fmt17(c) + " at fidelity " + fmt17(s) +
                                   "; costs must be finite and positive");
      return c;
    }
  }
  fail(Status::Internal, "unknown cost model");
}

std::vector<double> ProblemSpec::centre() const {
  std::vector<double> mid(options_.size());
  for (std::size_t i = 0; i < options_.size(); ++i) mid[i] = 0.5 * (options_[i].lower + options_[i].upper);
  snap(mid.data());
  return mid;
}

double ProblemSpec::target_cost() const { return cost(centre().data(), fidelity_.target); }

void ProblemSpec::check_config(const double* x) const {
  for (std::size_t i = 0; i < options_.size(); ++i) {
    const auto& o = options_[i];
    if (!std::isfinite(x[i]))
      fail(Status::NonFinite, "option '" + o.name + "' is " + fmt17(x[i]) + "; values must be finite");
    if (x[i] < o.lower || x[i] > o.upper)
      fail(Status::OutOfRange, "option '" + o.name + "' = " + fmt17(x[i]) + " is outside [" + fmt17(o.lower) + ", " +
                                   fmt17(o.upper) + "]");
    if (o.kind == OptionKind::Integer && x[i] != std::round(x[i]))
      fail(Status::InvalidArgument, "integer option '" + o.name + "' = " + fmt17(x[i]) + " is not an integer");
    if (o.categorical() && x[i] != std::round(x[i]))
      fail(Status::InvalidArgument, "categorical option '" + o.name + "' = " + fmt17(x[i]) +
                                        " is not a level index (an integer from 0 to " + std::to_string(o.levels() - 1) + ")");
  }
}

void ProblemSpec::to_unit(const double* x, double* u) const {
  for (std::size_t i = 0; i < options_.size(); ++i) {
    const auto& o = options_[i];
    if (o.kind == OptionKind::LogScale)
      u[i] = (std::log(x[i]) - std::log(o.lower)) / (std::log(o.upper) - std::log(o.lower));
    else if (o.categorical())
      u[i] = categorical_unit(static_cast<int>(std::min(o.upper, std::max(0.0, std::round(x[i])))), o.levels());
    else
      u[i] = (x[i] - o.lower) / (o.upper - o.lower);
  }
}

void ProblemSpec::from_unit(const double* u, double* x) const {
  for (std::size_t i = 0; i < options_.size(); ++i) {
    const auto& o = options_[i];
    const double t = std::min(1.0, std::max(0.0, u[i]));
    if (o.kind == OptionKind::LogScale)
      x[i] = std::exp(std::log(o.lower) + t * (std::log(o.upper) - std::log(o.lower)));
    else if (o.categorical())
      x[i] = categorical_level(t, o.levels());
    else
      x[i] = o.lower + t * (o.upper - o.lower);
  }
  snap(x);
}

void ProblemSpec::snap(double* x) const {
  for (std::size_t i = 0; i < options_.size(); ++i) {
    const auto& o = options_[i];
    double v = std::min(o.upper, std::max(o.lower, x[i]));
    if (o.kind == OptionKind::Integer || o.categorical())
      v = std::min(std::floor(o.upper), std::max(std::ceil(o.lower), std::round(v)));
    x[i] = v;
  }
}

}  // namespace rescue
