// The definition of an optimization problem: options, fidelity, cost model,
// objectives, constraints and indicators. Every setter validates its input and
// throws rescue::Error, leaving the spec unchanged on failure.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "util/categorical_bins.hpp"
#include "util/error.hpp"

namespace rescue {

enum class OptionKind : int { Continuous = 0, Integer = 1, LogScale = 2, Categorical = 3 };
enum class Sense : int { Minimize = 0, Maximize = 1 };
enum class ConstraintSense : int { GreaterEqual = 0, LessEqual = 1 };
enum class CostKind : int { Exponential = 0, PerLevel = 1, Callback = 2 };

/// Cost callback of the C ABI: cost of evaluating x (d values) at fidelity s.
using CostCallback = double (*)(const double* x, int d, double s, void* user);

/// A categorical option holds the index of its level (0 .. labels.size() - 1)
/// as its value; lower is 0 and upper the last index.
struct OptionSpec {
  std::string name;
  double lower = 0.0;
  double upper = 1.0;
  OptionKind kind = OptionKind::Continuous;
  std::vector<std::string> labels;  // the levels of a categorical option; empty otherwise

  bool categorical() const { return kind == OptionKind::Categorical; }
  /// Number of levels of a categorical option, 0 for the others.
  int levels() const { return static_cast<int>(labels.size()); }
};

/// A directed edge between two named variables of the causal model.
struct EdgeSpec {
  std::string from;
  std::string to;
  bool operator==(const EdgeSpec& o) const { return from == o.from && to == o.to; }
};

struct ObjectiveSpec {
  std::string name;
  Sense sense = Sense::Minimize;
};

struct ConstraintSpec {
  std::string name;
  double threshold = 0.0;
  ConstraintSense sense = ConstraintSense::LessEqual;

  bool feasible(double value) const {
    return sense == ConstraintSense::GreaterEqual ? value >= threshold : value <= threshold;
  }
  /// Amount by which the constraint is violated (0 when satisfied).
  double violation(double value) const {
    const double v = sense == ConstraintSense::GreaterEqual ? threshold - value : value - threshold;
    return v > 0.0 ? v : 0.0;
  }
};

struct FidelitySpec {
  bool discrete = true;          // default: a single level, i.e. no multi-fidelity
  double lower = 1.0, upper = 1.0;
  std::vector<double> levels{1.0};
  double target = 1.0;

  /// Whether there is only one fidelity (no range to trade cost against accuracy).
  bool single_level() const { return upper <= lower; }
  /// Maps s to [0, 1] over the fidelity range (1 for a single level).
  double unit(double s) const;
  /// Whether s is a valid fidelity (inside the range, or one of the levels).
  bool valid(double s) const;
  /// Index of s among the levels, or -1.
  int level_index(double s) const;
};

struct CostModel {
  CostKind kind = CostKind::Exponential;
  double rate = 4.8;                // c(s) = exp(rate * unit(s)), the paper's default; 1 for a single level
  std::vector<double> level_costs;  // one per fidelity level (PerLevel)
  CostCallback callback = nullptr;
  void* user = nullptr;
};

class ProblemSpec {
 public:
  // ---- setters (validate, throw rescue::Error) ----
  void add_option(const std::string& name, double lower, double upper, OptionKind kind);
  /// A categorical option with these levels (at least two, unique, non-empty).
  void add_categorical(const std::string& name, const std::vector<std::string>& labels);
  void set_fidelity_range(double lower, double upper, double target);
  void set_fidelity_levels(const std::vector<double>& levels, double target);
  void set_cost_exponential(double rate);
  void set_cost_levels(const std::vector<double>& costs);
  void set_cost_callback(CostCallback fn, void* user);
  /// A callback cost model whose function is not known yet (a loaded checkpoint):
  /// cost() fails with InvalidState until set_cost_callback() is called.
  void set_cost_callback_unbound();
  void add_objective(const std::string& name, Sense sense);
  void add_constraint(const std::string& name, double threshold, ConstraintSense sense);
  void add_indicator(const std::string& name);
  void set_reference_point(const std::vector<double>& ref);
  void set_seed(std::uint64_t seed) { seed_ = seed; }
  void set_strategy(const std::string& name);
  void set_budget(double budget);
  void set_initial_budget(double budget);
  /// Largest |rate| of the exponential cost model: exp(700) is about 1e304.
  static constexpr double kMaxCostRate = 700.0;
  void set_param(const std::string& key, double value);
  /// As set_param, with the domain check for counts only: for checkpoints,
  /// whose other values earlier builds accepted and whose strategies read
  /// them as they did then. A count outside its domain fails OutOfRange. A
  /// parameter this version no longer has is dropped at the value it behaves
  /// as and fails UnsupportedVersion at any other.
  void restore_param(const std::string& key, double value);
  /// Causal background knowledge, by variable name (checked against the
  /// structural rules by the causal layer before they are stored here).
  void set_user_dag(const std::vector<EdgeSpec>& edges) { user_dag_ = edges; has_user_dag_ = true; }
  void clear_user_dag() { user_dag_.clear(); has_user_dag_ = false; }
  void add_edge_constraint(const EdgeSpec& edge, bool required);

  // ---- accessors ----
  int dim() const { return static_cast<int>(options_.size()); }
  /// Per option, its number of levels if categorical, else 0.
  std::vector<int> categorical_levels() const;
  bool has_categorical() const;
  int num_objectives() const { return static_cast<int>(objectives_.size()); }
  int num_constraints() const { return static_cast<int>(constraints_.size()); }
  int num_indicators() const { return static_cast<int>(indicators_.size()); }
  const std::vector<OptionSpec>& options() const { return options_; }
  const FidelitySpec& fidelity() const { return fidelity_; }
  const CostModel& cost_model() const { return cost_; }
  const std::vector<ObjectiveSpec>& objectives() const { return objectives_; }
  const std::vector<ConstraintSpec>& constraints() const { return constraints_; }
  const std::vector<std::string>& indicators() const { return indicators_; }
  const std::vector<double>& reference_point() const { return reference_; }  // empty if unset
  std::uint64_t seed() const { return seed_; }
  const std::string& strategy() const { return strategy_; }
  double budget() const { return budget_; }                   // 0: unlimited
  double initial_budget() const;                              // default: 2 target evaluations
  bool has_initial_budget() const { return initial_budget_ >= 0.0; }
  const std::map<std::string, double>& params() const { return params_; }
  /// The value set for a known parameter, or its default from the parameter table.
  double param(const std::string& key) const;
  bool has_user_dag() const { return has_user_dag_; }
  const std::vector<EdgeSpec>& user_dag() const { return user_dag_; }
  const std::vector<EdgeSpec>& required_edges() const { return required_edges_; }
  const std::vector<EdgeSpec>& forbidden_edges() const { return forbidden_edges_; }

  /// Throws InvalidState if the problem cannot be optimized yet (no option, no objective).
  void validate_complete() const;

  // ---- derived quantities ----
  /// Cost of evaluating x at fidelity s; throws Callback if a user callback misbehaves.
  double cost(const double* x, double s) const;
  /// The centre of the option box, snapped: where a cost that depends on the configuration is quoted.
  std::vector<double> centre() const;
  double target_cost() const;
  /// Checks a configuration (bounds, finiteness, integrality); throws with a clear message.
  void check_config(const double* x) const;
  /// Maps x to [0, 1]^d (log options in log space) and back; integers are rounded on the way back.
  /// Level k of a categorical option with L levels maps to the middle of the
  /// k-th of L equal bins, (k + 0.5) / L, and every u in that bin maps back to
  /// k: a uniform u draws every level with the same probability.
  void to_unit(const double* x, double* u) const;
  void from_unit(const double* u, double* x) const;
  /// Rounds integer and categorical options and clips to bounds.
  void snap(double* x) const;
  /// Objective values in the internal minimization convention (maximized ones negated).
  double to_min(int m, double y) const {
    return objectives_[m].sense == Sense::Maximize ? -y : y;
  }

 private:
  void check_new_name(const std::string& name, const char* what) const;

  std::vector<OptionSpec> options_;
  FidelitySpec fidelity_;
  CostModel cost_;
  std::vector<ObjectiveSpec> objectives_;
  std::vector<ConstraintSpec> constraints_;
  std::vector<std::string> indicators_;
  std::vector<double> reference_;
  std::uint64_t seed_ = 0;
  std::string strategy_ = "rescue";
  double budget_ = 0.0;
  double initial_budget_ = -1.0;
  std::map<std::string, double> params_;
  bool has_user_dag_ = false;
  std::vector<EdgeSpec> user_dag_;
  std::vector<EdgeSpec> required_edges_, forbidden_edges_;
};

/// Names of the strategies the engine knows (validated by set_strategy).
const std::vector<std::string>& strategy_names();

}  // namespace rescue
