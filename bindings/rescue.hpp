// A header-only C++ facade over the RESCUE C ABI (rescue.h), for the SWIG bindings.
//
// It adds exactly what SWIG needs to produce idiomatic modules and nothing else: RAII,
// non-copyable handle classes with an idempotent close(); std::vector / std::string in and
// out instead of pointer-and-length pairs; small result structs instead of output pointers;
// and a non-OK status thrown as rescue_binding::Error carrying the library's own message.
// It depends only on rescue.h, so every binding depends only on the stable C ABI.
// One method per C function keeps it easy to extend when the C ABI grows.
#ifndef RESCUE_BINDING_HPP
#define RESCUE_BINDING_HPP

#include <stdexcept>
#include <string>
#include <vector>

#include "rescue.h"

namespace rescue_binding {

/** A failed call: the library's status code and its message. */
class Error : public std::runtime_error {
 public:
  Error(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  /** The rescue_status value (see rescue.h). */
  int status() const { return status_; }

 private:
  int status_;
};

#ifndef SWIG
namespace detail {
inline std::string text(const char* s) { return s ? std::string(s) : std::string(); }
// The message is read after the call has returned (never as a sibling argument of the call,
// whose evaluation order is unspecified).
inline void check(rescue_status st) {
  if (st != RESCUE_OK) throw Error(static_cast<int>(st), text(rescue_last_error()));
}
inline int length(const std::vector<double>& v) { return static_cast<int>(v.size()); }
inline const double* data_or_null(const std::vector<double>& v) { return v.empty() ? nullptr : v.data(); }
// A string for the C ABI, which ends it at the first NUL: one holding a NUL would silently
// become a shorter, different name or path.
inline const char* cstr(const std::string& s) {
  if (s.find('\0') != std::string::npos)
    throw Error(RESCUE_ERR_INVALID_ARGUMENT, "a name, path or text holds a NUL character: '" + text(s.c_str()) + "...'");
  return s.c_str();
}
[[noreturn]] inline void closed(const char* what) {
  throw Error(RESCUE_ERR_INVALID_STATE, std::string("the ") + what + " is closed");
}
}  // namespace detail
#endif

/** The library's version number, MAJOR * 10000 + MINOR * 100 + PATCH. */
inline int versionNumber() { return rescue_version_number(); }
/** The library's version, e.g. "0.1.0". */
inline std::string versionString() { return detail::text(rescue_version_string()); }
/** A human-readable name for a status code. */
inline std::string statusString(int status) { return detail::text(rescue_status_string(static_cast<rescue_status>(status))); }
/** The index-th known strategy name (0-based), or "" past the end. */
inline std::string strategyList(int index) { return detail::text(rescue_strategy_list(index)); }
/** The index-th strategy parameter name (0-based, sorted by name), or "" past the end. */
inline std::string paramList(int index) { return detail::text(rescue_param_list(index)); }

/** A strategy parameter as rescue_param_info() describes it. */
struct ParamInfo {
  std::string name;
  double defaultValue = 0.0;
  int kind = 0;  ///< RESCUE_PARAM_INTEGER, RESCUE_PARAM_CLOSED or RESCUE_PARAM_OPEN
  double lower = 0.0, upper = 0.0;  ///< the accepted values' bounds (infinite when there is none)
  std::string description;
};

/** Describes a strategy parameter: default, accepted values, meaning. */
inline ParamInfo describeParam(const std::string& name) {
  ParamInfo info;
  const char* text = nullptr;
  detail::check(rescue_param_info(detail::cstr(name), &info.defaultValue, &info.kind, &info.lower, &info.upper, &text));
  info.name = name;
  info.description = detail::text(text);
  return info;
}

/** Exact hypervolume of n points (point-major, n x m values), all objectives minimized. */
inline double hypervolume(const std::vector<double>& points, int m, const std::vector<double>& ref) {
  if (m < 1) throw Error(RESCUE_ERR_INVALID_ARGUMENT, "number of objectives must be >= 1");
  if (points.size() % static_cast<size_t>(m) != 0)
    throw Error(RESCUE_ERR_SIZE_MISMATCH, "the number of point values is not a multiple of the number of objectives");
  if (static_cast<int>(ref.size()) != m)
    throw Error(RESCUE_ERR_SIZE_MISMATCH, "the reference point needs one value per objective");
  double hv = 0.0;
  detail::check(rescue_hypervolume(detail::data_or_null(points), static_cast<int>(points.size()) / m, m, ref.data(), &hv));
  return hv;
}

/** Indices (0-based, increasing) of the non-dominated points; violation empty means all feasible. */
inline std::vector<int> paretoFilter(const std::vector<double>& points, int m, const std::vector<double>& violation) {
  if (m < 1) throw Error(RESCUE_ERR_INVALID_ARGUMENT, "number of objectives must be >= 1");
  if (points.size() % static_cast<size_t>(m) != 0)
    throw Error(RESCUE_ERR_SIZE_MISMATCH, "the number of point values is not a multiple of the number of objectives");
  const int n = static_cast<int>(points.size()) / m;
  if (!violation.empty() && static_cast<int>(violation.size()) != n)
    throw Error(RESCUE_ERR_SIZE_MISMATCH, "the violations need one value per point");
  std::vector<int> keep(static_cast<size_t>(n) + 1);
  int count = 0;
  detail::check(rescue_pareto_filter(detail::data_or_null(points), n, m, detail::data_or_null(violation), keep.data(), &count));
  keep.resize(static_cast<size_t>(count));
  return keep;
}

/** Values of one evaluation of a built-in problem. */
struct Evaluation {
  std::vector<double> objectives;   ///< M values
  std::vector<double> constraints;  ///< Q values
  std::vector<double> indicators;   ///< K values
};

/** The model's predictions (rescue_predict()) at n points. */
struct Prediction {
  std::vector<double> mean;      ///< n x (M + Q), row-major: objectives in their own sense, then constraints
  std::vector<double> sd;        ///< n x (M + Q), row-major: standard deviations of the noise-free outputs
  std::vector<double> feasible;  ///< n probabilities that every constraint holds
};

/** Leave-one-out predictions (rescue_cross_validate()): one row per observation, in the order reported. */
struct CrossValidation {
  int count = 0;            ///< number of rows (observations)
  std::vector<double> mean;  ///< count x (M + Q), row-major: held-out means, objectives in their own sense, then constraints
  std::vector<double> sd;    ///< count x (M + Q), row-major: held-out standard deviations of the observed values
};

/** How well each band of fidelities predicts the target (rescue_fidelity_agreement()). */
struct FidelityAgreement {
  std::vector<double> rmsZ;  ///< bands x (M + Q), row-major: root mean square standardized error at the target
  std::vector<double> rank;  ///< bands x (M + Q), row-major: Spearman correlation of predicted and observed target values
  std::vector<int> rows;     ///< per band: the successful observations in it
  int targetRows = 0;        ///< successful observations at the target fidelity
};

/** How much the model relies on the causal model (rescue_prior_weights()). */
struct PriorWeights {
  std::vector<double> scale;  ///< M + Q values a_m: the causal estimate's weight in each output's prior mean
  double kernelWeight = 0.0;  ///< w: the weight of the causal kernel term
  bool inUse = false;         ///< false when the fit chose the model without the prior (every a_m 0)
};

/** A suggestion: evaluate configuration x at this fidelity, then report it under this ticket. */
struct Suggestion {
  std::vector<double> x;
  double fidelity = 0.0;
  int ticket = 0;
};

/** One reported evaluation. */
struct Observation {
  std::vector<double> x;
  double fidelity = 0.0;
  std::vector<double> objectives;   ///< NaN for a failed evaluation
  std::vector<double> constraints;  ///< NaN for a failed evaluation
  bool failed = false;
};

/** Bounds and kind of an option. */
struct OptionInfo {
  double lower = 0.0, upper = 0.0;
  int kind = RESCUE_CONTINUOUS;
};

/** Threshold and direction of a constraint. */
struct ConstraintInfo {
  double threshold = 0.0;
  int sense = RESCUE_GEQ;
};

/** Budget accounting, in cost units. */
struct Budget {
  double spent = 0.0, pending = 0.0;
  double total = 0.0;  ///< 0 means unlimited
};

/** The recommended Pareto set: count points, configurations and objectives point-major. */
struct ParetoSet {
  int count = 0, dimension = 0, numObjectives = 0;
  std::vector<double> x;  ///< count x dimension
  std::vector<double> y;  ///< count x numObjectives
  /** Configuration of point i. */
  std::vector<double> point(int i) const { return slice(x, i, dimension); }
  /** Objective values of point i. */
  std::vector<double> objectives(int i) const { return slice(y, i, numObjectives); }

 private:
  std::vector<double> slice(const std::vector<double>& v, int i, int w) const {
    if (i < 0 || i >= count)
      throw Error(RESCUE_ERR_OUT_OF_RANGE, "Pareto point " + std::to_string(i) + " is outside [0, " + std::to_string(count) + ")");
    return std::vector<double>(v.begin() + static_cast<long>(i) * w, v.begin() + static_cast<long>(i + 1) * w);
  }
};

/** A problem definition; the optimizer copies it, so it may be closed right after. */
class Problem {
 public:
  /** An empty problem, to be defined with the add and set methods. */
  Problem() { detail::check(rescue_problem_new(&p_)); }
  /** A built-in benchmark problem ("branin-currin", "park", "healthcare", "robot-standin"). */
  explicit Problem(const std::string& builtin) {
    detail::check(rescue_problem_builtin(detail::cstr(builtin), &p_));
  }
  ~Problem() { close(); }
  Problem(const Problem&) = delete;
  Problem& operator=(const Problem&) = delete;

  /** Frees the problem now; closing twice is harmless. */
  void close() {
    rescue_problem_free(p_);
    p_ = nullptr;
  }
  bool closed() const { return p_ == nullptr; }

  void addOption(const std::string& name, double lower, double upper, int kind = RESCUE_CONTINUOUS) {
    check(rescue_problem_add_option(handle(), detail::cstr(name), lower, upper, kind));
  }
  /** A categorical option: its slot in every configuration holds the 0-based index of a label. */
  void addCategorical(const std::string& name, const std::vector<std::string>& labels) {
    std::vector<const char*> c;
    for (const auto& l : labels) c.push_back(detail::cstr(l));
    check(rescue_problem_add_categorical(handle(), detail::cstr(name), c.empty() ? nullptr : c.data(),
                                         static_cast<int>(c.size())));
  }
  void setFidelityRange(double lower, double upper, double target) {
    check(rescue_problem_set_fidelity_range(handle(), lower, upper, target));
  }
  void setFidelityLevels(const std::vector<double>& levels, double target) {
    check(rescue_problem_set_fidelity_levels(handle(), detail::data_or_null(levels), detail::length(levels), target));
  }
  void setCostExponential(double rate) { check(rescue_problem_set_cost_exponential(handle(), rate)); }
  void setCostLevels(const std::vector<double>& costs) {
    check(rescue_problem_set_cost_levels(handle(), detail::data_or_null(costs), detail::length(costs)));
  }
  void addObjective(const std::string& name, int sense = RESCUE_MINIMIZE) {
    check(rescue_problem_add_objective(handle(), detail::cstr(name), sense));
  }
  void addConstraint(const std::string& name, double threshold, int sense) {
    check(rescue_problem_add_constraint(handle(), detail::cstr(name), threshold, sense));
  }
  void addIndicator(const std::string& name) { check(rescue_problem_add_indicator(handle(), detail::cstr(name))); }
  void setReferencePoint(const std::vector<double>& ref) {
    check(rescue_problem_set_reference_point(handle(), detail::data_or_null(ref), detail::length(ref)));
  }
  /** The seed is a C unsigned int; bindings pass it as a non-negative int. */
  void setSeed(int seed) {
    if (seed < 0) throw Error(RESCUE_ERR_INVALID_ARGUMENT, "the seed must be >= 0, got " + std::to_string(seed));
    check(rescue_problem_set_seed(handle(), static_cast<unsigned int>(seed)));
  }
  void setStrategy(const std::string& name) { check(rescue_problem_set_strategy(handle(), detail::cstr(name))); }
  void setBudget(double budget) { check(rescue_problem_set_budget(handle(), budget)); }
  void setInitialBudget(double budget) { check(rescue_problem_set_initial_budget(handle(), budget)); }
  void setParam(const std::string& key, double value) { check(rescue_problem_set_param(handle(), detail::cstr(key), value)); }
  /** The parameter's value on this problem: the one set, or its default. */
  double getParam(const std::string& key) const {
    double value = 0.0;
    check(rescue_problem_get_param(get(), detail::cstr(key), &value));
    return value;
  }

  /** Noise-free evaluation of a built-in problem at configuration x and fidelity s. */
  Evaluation evaluate(const std::vector<double>& x, double s) const {
    int sizes[3];
    dims(sizes);
    Evaluation e;
    e.objectives.resize(static_cast<size_t>(sizes[0]));
    e.constraints.resize(static_cast<size_t>(sizes[1]));
    e.indicators.resize(static_cast<size_t>(sizes[2]));
    check(rescue_problem_evaluate(p_, detail::data_or_null(x), detail::length(x), s, e.objectives.data(), sizes[0],
                                  sizes[1] ? e.constraints.data() : nullptr, sizes[1],
                                  sizes[2] ? e.indicators.data() : nullptr, sizes[2]));
    return e;
  }

  /** n rows of observational data drawn from a built-in problem (row-major, d + 1 + K + M + Q values each). */
  std::vector<double> sampleObservational(int n, unsigned int seed) const {
    int sizes[3];
    dims(sizes);
    rescue_optimizer* o = nullptr;
    detail::check(rescue_create(get(), &o));
    const int width = rescue_dimension(o) + 1 + sizes[2] + sizes[0] + sizes[1];
    rescue_destroy(o);
    std::vector<double> rows(static_cast<size_t>(n > 0 ? n : 0) * static_cast<size_t>(width));
    check(rescue_problem_sample_observational(p_, n, seed, rows.empty() ? nullptr : rows.data(), width));
    return rows;
  }

  /** The underlying C handle (for the Optimizer). */
  const rescue_problem* get() const {
    if (!p_) detail::closed("problem");
    return p_;
  }

 private:
  rescue_problem* handle() {
    if (!p_) detail::closed("problem");
    return p_;
  }
  void check(rescue_status st) const {
    if (st != RESCUE_OK) throw Error(static_cast<int>(st), detail::text(rescue_problem_errmsg(p_)));
  }
  // The C ABI reports sizes on optimizers only, so a throw-away optimizer (a copy of the
  // problem) tells the number of objectives, constraints and indicators.
  void dims(int* sizes) const {
    rescue_optimizer* o = nullptr;
    detail::check(rescue_create(get(), &o));
    sizes[0] = rescue_num_objectives(o);
    sizes[1] = rescue_num_constraints(o);
    sizes[2] = rescue_num_indicators(o);
    rescue_destroy(o);
  }

  rescue_problem* p_ = nullptr;
};

/** An optimizer: ask (suggest) and tell (observe) until the budget is spent. */
class Optimizer {
 public:
  /** An optimizer for a copy of the problem. */
  explicit Optimizer(const Problem& problem) { detail::check(rescue_create(problem.get(), &o_)); }
  ~Optimizer() { close(); }
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  /** An optimizer restored from a checkpoint text (see save()). */
  static Optimizer* load(const std::string& text) {
    rescue_optimizer* o = nullptr;
    detail::check(rescue_load(text.data(), text.size(), &o));
    return new Optimizer(o);
  }
  /** An optimizer restored from a checkpoint file (see saveFile()). */
  static Optimizer* loadFile(const std::string& path) {
    rescue_optimizer* o = nullptr;
    detail::check(rescue_load_file(detail::cstr(path), &o));
    return new Optimizer(o);
  }

  /** An optimizer rebuilt from a crash-safe journal (see journalOpen()), which stays attached. */
  static Optimizer* journalResume(const std::string& path) {
    rescue_optimizer* o = nullptr;
    int torn = 0;
    detail::check(rescue_journal_resume(detail::cstr(path), &o, &torn));
    Optimizer* opt = new Optimizer(o);
    opt->torn_tail_ = torn != 0;
    return opt;
  }

  /** Frees the optimizer now; closing twice is harmless. */
  void close() {
    rescue_destroy(o_);
    o_ = nullptr;
  }
  bool closed() const { return o_ == nullptr; }

  /** Starts a crash-safe journal: every state change is synced to the file before it returns. */
  void journalOpen(const std::string& path) { check(rescue_journal_open(h(), detail::cstr(path))); }
  /** Detaches the journal; the file stays resumable. */
  void journalClose() { check(rescue_journal_close(h())); }
  bool journalIsOpen() const { return rescue_journal_is_open(h()) == 1; }
  /** After journalResume(): whether a partly written last record was ignored. */
  bool journalTornTail() const { return torn_tail_; }

  int dimension() const { return rescue_dimension(h()); }
  int numObjectives() const { return rescue_num_objectives(h()); }
  int numConstraints() const { return rescue_num_constraints(h()); }
  int numIndicators() const { return rescue_num_indicators(h()); }
  std::string strategyName() const { return detail::text(rescue_strategy_name(h())); }
  std::string optionName(int index) const { return name(rescue_option_name(h(), index), "option", index); }
  std::string objectiveName(int index) const { return name(rescue_objective_name(h(), index), "objective", index); }
  std::string constraintName(int index) const { return name(rescue_constraint_name(h(), index), "constraint", index); }
  std::string indicatorName(int index) const { return name(rescue_indicator_name(h(), index), "indicator", index); }
  OptionInfo optionInfo(int index) const {
    OptionInfo info;
    check(rescue_option_info(h(), index, &info.lower, &info.upper, &info.kind));
    return info;
  }
  /** The labels of a categorical option, by level index (empty for any other option). */
  std::vector<std::string> optionLabels(int index) const {
    const int n = rescue_option_levels(h(), index);
    if (n < 0) throw Error(RESCUE_ERR_OUT_OF_RANGE, "option index " + std::to_string(index) + " is out of range");
    std::vector<std::string> out;
    for (int k = 0; k < n; ++k) out.push_back(detail::text(rescue_option_label(h(), index, k)));
    return out;
  }
  ConstraintInfo constraintInfo(int index) const {
    ConstraintInfo info;
    check(rescue_constraint_info(h(), index, &info.threshold, &info.sense));
    return info;
  }
  int objectiveSense(int index) const {
    const int sense = rescue_objective_sense(h(), index);
    if (sense < 0) throw Error(RESCUE_ERR_OUT_OF_RANGE, "objective index " + std::to_string(index) + " is out of range");
    return sense;
  }
  std::vector<double> referencePoint() const {
    std::vector<double> ref(static_cast<size_t>(numObjectives()));
    check(rescue_reference_point(h(), ref.data(), detail::length(ref)));
    return ref;
  }
  double targetFidelity() const {
    double t = 0.0;
    check(rescue_target_fidelity(h(), &t));
    return t;
  }

  /** The next configuration and fidelity to evaluate. */
  Suggestion suggest() {
    Suggestion s;
    s.x.resize(static_cast<size_t>(dimension()));
    check(rescue_suggest(h(), s.x.data(), detail::length(s.x), &s.fidelity, &s.ticket));
    return s;
  }
  /** Reports the results of a pending ticket (constraints and indicators may be empty when the
   *  problem has none; a NaN indicator is an unmeasured one). */
  void observe(int ticket, const std::vector<double>& objectives,
               const std::vector<double>& constraints = std::vector<double>(),
               const std::vector<double>& indicators = std::vector<double>()) {
    check(rescue_observe(h(), ticket, detail::data_or_null(objectives), detail::length(objectives),
                         detail::data_or_null(constraints), detail::length(constraints),
                         detail::data_or_null(indicators), detail::length(indicators)));
  }
  /** Reports an evaluation of a configuration and fidelity the caller chose. */
  void observeAt(const std::vector<double>& x, double fidelity, const std::vector<double>& objectives,
                 const std::vector<double>& constraints = std::vector<double>(),
                 const std::vector<double>& indicators = std::vector<double>()) {
    check(rescue_observe_at(h(), detail::data_or_null(x), detail::length(x), fidelity, detail::data_or_null(objectives),
                            detail::length(objectives), detail::data_or_null(constraints), detail::length(constraints),
                            detail::data_or_null(indicators), detail::length(indicators)));
  }
  void cancel(int ticket) { check(rescue_cancel(h(), ticket)); }
  void fail(int ticket) { check(rescue_fail(h(), ticket)); }
  /** The pending tickets, in increasing order. */
  std::vector<int> pending() const {
    int count = 0;
    check(rescue_pending(h(), nullptr, 0, &count), true);
    std::vector<int> tickets(static_cast<size_t>(count) + 1);
    check(rescue_pending(h(), tickets.data(), count, &count));
    tickets.resize(static_cast<size_t>(count));
    return tickets;
  }
  int numObservations() const { return rescue_num_observations(h()); }
  Observation observation(int index) const {
    Observation o;
    o.x.resize(static_cast<size_t>(dimension()));
    o.objectives.resize(static_cast<size_t>(numObjectives()));
    o.constraints.resize(static_cast<size_t>(numConstraints()));
    int failed = 0;
    check(rescue_get_observation(h(), index, o.x.data(), detail::length(o.x), &o.fidelity, o.objectives.data(),
                                 detail::length(o.objectives), o.constraints.empty() ? nullptr : o.constraints.data(),
                                 detail::length(o.constraints), &failed));
    o.failed = failed != 0;
    return o;
  }
  /** The cost of evaluating x at this fidelity. */
  double cost(const std::vector<double>& x, double fidelity) const {
    double c = 0.0;
    check(rescue_cost(h(), detail::data_or_null(x), detail::length(x), fidelity, &c));
    return c;
  }
  Budget budget() const {
    Budget b;
    check(rescue_budget(h(), &b.spent, &b.pending, &b.total));
    return b;
  }
  /** Whether the budget is spent (reported plus pending cost). */
  bool done() const { return rescue_done(h()) == 1; }

  /** The recommended Pareto set at the target fidelity. */
  ParetoSet pareto() {
    ParetoSet set;
    set.dimension = dimension();
    set.numObjectives = numObjectives();
    check(rescue_pareto(h(), nullptr, nullptr, 0, &set.count));
    set.x.resize(static_cast<size_t>(set.count) * static_cast<size_t>(set.dimension) + 1);
    set.y.resize(static_cast<size_t>(set.count) * static_cast<size_t>(set.numObjectives) + 1);
    check(rescue_pareto(h(), set.x.data(), set.y.data(), set.count, &set.count));
    set.x.resize(static_cast<size_t>(set.count) * static_cast<size_t>(set.dimension));
    set.y.resize(static_cast<size_t>(set.count) * static_cast<size_t>(set.numObjectives));
    return set;
  }

  /** Adds rows of observational data, row-major, each of d + 1 + K + M + Q values (see rescue.h). */
  void addObservational(const std::vector<double>& rows, int ncols) {
    if (ncols < 1 || rows.size() % static_cast<size_t>(ncols) != 0)
      throw Error(RESCUE_ERR_SIZE_MISMATCH, "observational data: " + std::to_string(rows.size()) +
                                                " values are not whole rows of " + std::to_string(ncols));
    check(rescue_add_observational(h(), detail::data_or_null(rows), static_cast<int>(rows.size()) / ncols, ncols));
  }
  int numObservational() const { return rescue_num_observational(h()); }

  /** The checkpoint text. */
  std::string save() const {
    size_t length = 0;
    check(rescue_save(h(), nullptr, 0, &length));
    std::string text(length + 1, '\0');
    check(rescue_save(h(), &text[0], text.size(), &length));
    text.resize(length);
    return text;
  }
  /** Writes a checkpoint file atomically. */
  void saveFile(const std::string& path) const { check(rescue_save_file(h(), detail::cstr(path))); }

  /** Replaces causal discovery with a DAG given as JSON ({"edges": [{"from", "to"}, ...]}). */
  void setDag(const std::string& json) { check(rescue_set_dag(h(), detail::cstr(json))); }
  /** Goes back to causal discovery. */
  void clearDag() { check(rescue_set_dag(h(), nullptr)); }
  /** Requires (true) or forbids (false) the causal edge from -> to. */
  void constrainEdge(const std::string& from, const std::string& to, bool required) {
    check(rescue_constrain_edge(h(), detail::cstr(from), detail::cstr(to), required ? RESCUE_EDGE_REQUIRED : RESCUE_EDGE_FORBIDDEN));
  }
  /** The causal graph as Graphviz DOT (json = false) or JSON; the fitted DAG, or the graph as discovered. */
  std::string causalGraph(bool json, bool asDiscovered) const {
    const int format = json ? RESCUE_GRAPH_JSON : RESCUE_GRAPH_DOT;
    size_t length = 0;
    check(rescue_causal_graph(h(), format, asDiscovered ? 1 : 0, nullptr, 0, &length));
    std::string text(length + 1, '\0');
    check(rescue_causal_graph(h(), format, asDiscovered ? 1 : 0, &text[0], text.size(), &length));
    text.resize(length);
    return text;
  }
  /** Predictions of the model behind pareto() at the n points x (n x d, row-major) and fidelities s (n values). */
  Prediction predict(const std::vector<double>& x, const std::vector<double>& s) {
    const int d = dimension(), p = numObjectives() + numConstraints(), n = detail::length(s);
    if (n < 1) throw Error(RESCUE_ERR_SIZE_MISMATCH, "at least one point is needed");
    if (x.size() != static_cast<size_t>(n) * static_cast<size_t>(d))
      throw Error(RESCUE_ERR_SIZE_MISMATCH, "x needs n x d = " + std::to_string(n) + " x " + std::to_string(d) +
                                                " values, got " + std::to_string(x.size()));
    Prediction out;
    out.mean.resize(static_cast<size_t>(n) * static_cast<size_t>(p));
    out.sd.resize(out.mean.size());
    out.feasible.resize(static_cast<size_t>(n));
    check(rescue_predict(h(), x.data(), n, d, s.data(), out.mean.data(), out.sd.data(), p, out.feasible.data()));
    return out;
  }
  /** What the model behind predict() predicts for each observation from all the others (rows of failed
   *  evaluations are NaN). */
  CrossValidation crossValidate() {
    const int p = numObjectives() + numConstraints();
    CrossValidation out;
    check(rescue_cross_validate(h(), nullptr, nullptr, p, 0, &out.count));
    // One spare row: with no observation the buffers are still real, so the
    // call is not read as a size query and reports that there is no model.
    out.mean.resize(static_cast<size_t>(out.count + 1) * static_cast<size_t>(p));
    out.sd.resize(out.mean.size());
    check(rescue_cross_validate(h(), out.mean.data(), out.sd.data(), p, out.count + 1, &out.count));
    out.mean.resize(static_cast<size_t>(out.count) * static_cast<size_t>(p));
    out.sd.resize(out.mean.size());
    return out;
  }
  /** How well the observations in each band predict the target; bands holds (lower, upper) pairs in the
   *  problem's fidelity units, a pair (s, s) selecting the level s. */
  FidelityAgreement fidelityAgreement(const std::vector<double>& bands) {
    if (bands.size() % 2 != 0) throw Error(RESCUE_ERR_SIZE_MISMATCH, "bands must hold (lower, upper) pairs");
    const int p = numObjectives() + numConstraints();
    const int nb = static_cast<int>(bands.size() / 2);
    FidelityAgreement out;
    out.rmsZ.resize(static_cast<size_t>(nb) * static_cast<size_t>(p));
    out.rank.resize(out.rmsZ.size());
    out.rows.resize(static_cast<size_t>(nb));
    check(rescue_fidelity_agreement(h(), bands.data(), nb, out.rmsZ.data(), out.rank.data(), out.rows.data(), p,
                                    &out.targetRows));
    return out;
  }
  /** How much the model behind predict() relies on the causal model ("rescue" only, from its first suggestion). */
  PriorWeights priorWeights() {
    PriorWeights out;
    out.scale.resize(static_cast<size_t>(numObjectives() + numConstraints()));
    int used = 0;
    check(rescue_prior_weights(h(), out.scale.data(), static_cast<int>(out.scale.size()), &out.kernelWeight, &used));
    out.inUse = used == 1;
    return out;
  }
  /** Interventional means of every objective then constraint metric at the n points x (n x d, row-major) and
   *  fidelities s (n values); row-major n x (M + Q). */
  std::vector<double> causalMeans(const std::vector<double>& x, const std::vector<double>& s) const {
    return causal(x, s, true);
  }
  /** The matching standard deviations. */
  std::vector<double> causalSds(const std::vector<double>& x, const std::vector<double>& s) const {
    return causal(x, s, false);
  }

 private:
  std::vector<double> causal(const std::vector<double>& x, const std::vector<double>& s, bool want_mean) const {
    const int d = dimension(), p = numObjectives() + numConstraints(), n = detail::length(s);
    if (n > 0 && x.size() != static_cast<size_t>(n) * static_cast<size_t>(d))
      throw Error(RESCUE_ERR_SIZE_MISMATCH, "x needs n x d = " + std::to_string(n) + " x " + std::to_string(d) +
                                                " values, got " + std::to_string(x.size()));
    std::vector<double> mean(static_cast<size_t>(n > 0 ? n : 0) * static_cast<size_t>(p)), sd(mean.size());
    check(rescue_causal_estimates(h(), detail::data_or_null(x), n, d,
                                  detail::data_or_null(s), mean.empty() ? nullptr : mean.data(),
                                  sd.empty() ? nullptr : sd.data(), p));
    return want_mean ? mean : sd;
  }
  explicit Optimizer(rescue_optimizer* o) : o_(o) {}
  rescue_optimizer* h() const {
    if (!o_) detail::closed("optimizer");
    return o_;
  }
  void check(rescue_status st, bool allow_too_small = false) const {
    if (allow_too_small && st == RESCUE_ERR_BUFFER_TOO_SMALL) return;
    if (st != RESCUE_OK) throw Error(static_cast<int>(st), detail::text(rescue_errmsg(o_)));
  }
  static std::string name(const char* s, const char* what, int index) {
    if (!s) throw Error(RESCUE_ERR_OUT_OF_RANGE, std::string(what) + " index " + std::to_string(index) + " is out of range");
    return s;
  }

  rescue_optimizer* o_ = nullptr;
  bool torn_tail_ = false;
};

}  // namespace rescue_binding

#endif
