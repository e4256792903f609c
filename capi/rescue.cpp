// The C ABI: translates between C arguments and the engine, validates pointers
// and sizes, and turns every C++ exception into a status code and a message.
// No logic of its own lives here.
#include "rescue.h"

#include "capi/handles.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/parameters.hpp"
#include "core/problem_spec.hpp"
#include "engine/checkpoint.hpp"
#include "engine/optimizer.hpp"
#include "acq/causal_prior.hpp"
#include "moo/hypervolume.hpp"
#include "moo/pareto.hpp"
#include "problems/benchmark_problem.hpp"
#include "util/error.hpp"

namespace {

using rescue::Error;
using rescue::Status;
using rescue::capi::guarded;
using rescue::capi::null_handle;

static_assert(static_cast<int>(Status::Internal) == RESCUE_ERR_INTERNAL, "status codes must match rescue.h");
static_assert(static_cast<int>(Status::Callback) == RESCUE_ERR_CALLBACK, "status codes must match rescue.h");
static_assert(rescue::engine::kCheckpointFormat == RESCUE_CHECKPOINT_FORMAT, "checkpoint formats must match rescue.h");

void need(const void* p, const char* what) {
  if (!p) rescue::fail(Status::NullPointer, std::string(what) + " is NULL");
}

std::string need_name(const char* name, const char* what) {
  need(name, what);
  return std::string(name);
}

// The query of rescue_predict and rescue_causal_estimates: n x d
// configurations (point-major) and n fidelities, answered with p = M + Q
// outputs per point into `mean`. The engine checks the points themselves.
using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct QueryPoints {
  Eigen::MatrixXd X;
  Eigen::VectorXd S;
};
QueryPoints read_points(const rescue::ProblemSpec& spec, const double* x, int n, int d, const double* s,
                        const double* mean, int p) {
  if (n < 1) rescue::fail(Status::SizeMismatch, "at least one point is needed");
  if (d != spec.dim()) rescue::fail(Status::SizeMismatch, "d must equal the number of options");
  if (p != spec.num_objectives() + spec.num_constraints())
    rescue::fail(Status::SizeMismatch, "p must equal the number of objectives plus constraints");
  need(x, "configurations");
  need(s, "fidelities");
  need(mean, "mean buffer");
  return QueryPoints{Eigen::Map<const RowMajor>(x, n, d), Eigen::Map<const Eigen::VectorXd>(s, n)};
}

// Writes the n x p means, and the standard deviations unless sd is NULL, point-major.
void write_outputs(const Eigen::MatrixXd& m, const Eigen::MatrixXd& v, double* mean, double* sd) {
  Eigen::Map<RowMajor>(mean, m.rows(), m.cols()) = m;
  if (sd) Eigen::Map<RowMajor>(sd, v.rows(), v.cols()) = v;
}

// Copies n values from a caller array after checking the pointer and count.
std::vector<double> copy_in(const double* p, int n, int expected, const char* what) {
  if (n != expected)
    rescue::fail(Status::SizeMismatch, std::string(what) + ": length " + std::to_string(n) + " given, the problem needs " +
                                           std::to_string(expected));
  if (n > 0) need(p, what);
  return n > 0 ? std::vector<double>(p, p + n) : std::vector<double>();
}

struct Outputs {
  std::vector<double> y, g, z;
};
Outputs outputs_in(const rescue::ProblemSpec& spec, const double* y, int m, const double* g, int q, const double* z, int k) {
  Outputs o;
  o.y = copy_in(y, m, spec.num_objectives(), "objective values");
  o.g = copy_in(g, q, spec.num_constraints(), "constraint metrics");
  if (z != nullptr || k != 0) o.z = copy_in(z, k, spec.num_indicators(), "indicator values");
  return o;
}

// An output buffer holds exactly as many values as the problem has `items`.
void need_length(int n, int expected, const char* what, const char* items) {
  if (n != expected)
    rescue::fail(Status::SizeMismatch, std::string(what) + ": length " + std::to_string(n) + ", the problem has " +
                                           std::to_string(expected) + " " + items);
}

// The count and capacity of a list the caller sizes (a size query passes capacity 0).
void need_count(const int* count, int capacity) {
  need(count, "count pointer");
  if (capacity < 0) rescue::fail(Status::InvalidArgument, "capacity must be >= 0");
}

// Copies text and its NUL into a caller's buffer, or fails with `too_small`;
// capacity 0 with no buffer asks for the length only.
void text_out(const std::string& text, char* buffer, size_t capacity, size_t* length, const std::string& too_small) {
  *length = text.size();
  if (capacity < text.size() + 1) {
    if (capacity == 0 && !buffer) return;  // size query
    rescue::fail(Status::BufferTooSmall, too_small);
  }
  need(buffer, "buffer");
  std::memcpy(buffer, text.c_str(), text.size() + 1);
}

template <class Seq, class Get>
const char* name_at(const rescue_optimizer* opt, const Seq& (rescue::ProblemSpec::*seq)() const, int index, Get get) {
  if (!opt) return nullptr;
  const Seq& items = (opt->engine->spec().*seq)();
  if (index < 0 || index >= static_cast<int>(items.size())) return nullptr;
  return get(items[index]).c_str();
}

// The body is variadic because braces do not protect commas from the preprocessor.
#define RESCUE_PROBLEM_CALL(problem, ...)         \
  if (!(problem)) return null_handle("problem");  \
  return guarded(&(problem)->errmsg, [&] { __VA_ARGS__; })

#define RESCUE_OPT_CALL(opt, ...)                 \
  if (!(opt)) return null_handle("optimizer");    \
  return guarded(&(opt)->errmsg, [&] { __VA_ARGS__; })

}  // namespace

extern "C" {

// ---- version and errors --------------------------------------------------------------

int rescue_version_number(void) { return RESCUE_VERSION_NUMBER; }
const char* rescue_version_string(void) { return RESCUE_VERSION_STRING; }

const char* rescue_status_string(rescue_status status) {
  // A C caller may pass any int, but in C++ a value outside the enumerators' range is not a
  // valid rescue_status (loading it is undefined), so the code is read from the bytes.
  static_assert(sizeof(status) == sizeof(int), "rescue_status is passed as an int");
  int code = 0;
  std::memcpy(&code, &status, sizeof code);
  switch (code) {
    case RESCUE_OK: return "ok";
    case RESCUE_ERR_NULL_POINTER: return "null pointer";
    case RESCUE_ERR_INVALID_ARGUMENT: return "invalid argument";
    case RESCUE_ERR_OUT_OF_RANGE: return "value out of range";
    case RESCUE_ERR_NON_FINITE: return "non-finite value";
    case RESCUE_ERR_SIZE_MISMATCH: return "size mismatch";
    case RESCUE_ERR_BUFFER_TOO_SMALL: return "buffer too small";
    case RESCUE_ERR_UNKNOWN_TICKET: return "unknown ticket";
    case RESCUE_ERR_UNKNOWN_NAME: return "unknown name";
    case RESCUE_ERR_INVALID_STATE: return "invalid state";
    case RESCUE_ERR_BUDGET_EXHAUSTED: return "budget exhausted";
    case RESCUE_ERR_IO: return "input/output error";
    case RESCUE_ERR_CORRUPT_CHECKPOINT: return "corrupt checkpoint";
    case RESCUE_ERR_UNSUPPORTED_VERSION: return "unsupported checkpoint version";
    case RESCUE_ERR_NUMERICAL: return "numerical failure";
    case RESCUE_ERR_OUT_OF_MEMORY: return "out of memory";
    case RESCUE_ERR_CALLBACK: return "callback failed";
    case RESCUE_ERR_INTERNAL: return "internal error";
  }
  return "unknown status";
}

const char* rescue_last_error(void) { return rescue::capi::last_error().c_str(); }
const char* rescue_errmsg(const rescue_optimizer* opt) { return opt ? opt->errmsg.c_str() : rescue_last_error(); }
const char* rescue_problem_errmsg(const rescue_problem* problem) {
  return problem ? problem->errmsg.c_str() : rescue_last_error();
}

// ---- problem --------------------------------------------------------------------------

rescue_status rescue_problem_new(rescue_problem** out) {
  if (!out) return null_handle("output pointer");
  *out = nullptr;
  return guarded(nullptr, [&] { *out = new rescue_problem(); });
}

rescue_status rescue_problem_builtin(const char* name, rescue_problem** out) {
  if (!out) return null_handle("output pointer");
  *out = nullptr;
  return guarded(nullptr, [&] {
    auto bench = rescue::problems::make_problem(need_name(name, "problem name"));
    auto p = std::make_unique<rescue_problem>();
    p->spec = bench->spec();
    p->builtin = std::move(bench);
    *out = p.release();
  });
}

void rescue_problem_free(rescue_problem* problem) { delete problem; }

rescue_status rescue_problem_add_option(rescue_problem* problem, const char* name, double lower, double upper, int kind) {
  RESCUE_PROBLEM_CALL(problem, {
    if (kind == RESCUE_CATEGORICAL)
      rescue::fail(Status::InvalidArgument, "a categorical option needs its levels: add it with rescue_problem_add_categorical");
    if (kind < RESCUE_CONTINUOUS || kind > RESCUE_LOG_SCALE)
      rescue::fail(Status::InvalidArgument, "option kind " + std::to_string(kind) + " is not a rescue_option_kind");
    problem->spec.add_option(need_name(name, "option name"), lower, upper, static_cast<rescue::OptionKind>(kind));
  });
}

rescue_status rescue_problem_add_categorical(rescue_problem* problem, const char* name, const char* const* labels, int n) {
  RESCUE_PROBLEM_CALL(problem, {
    const std::string option = need_name(name, "option name");
    need(labels, "labels");
    if (n < 2)
      rescue::fail(Status::InvalidArgument, "categorical option '" + option + "' needs at least two levels (n = " +
                                                std::to_string(n) + ")");
    std::vector<std::string> l;
    for (int k = 0; k < n; ++k) {
      if (!labels[k]) rescue::fail(Status::NullPointer, "label " + std::to_string(k) + " of option '" + option + "' is NULL");
      l.emplace_back(labels[k]);
    }
    problem->spec.add_categorical(option, l);
  });
}

rescue_status rescue_problem_set_fidelity_range(rescue_problem* problem, double lower, double upper, double target) {
  RESCUE_PROBLEM_CALL(problem, problem->spec.set_fidelity_range(lower, upper, target));
}

rescue_status rescue_problem_set_fidelity_levels(rescue_problem* problem, const double* levels, int n, double target) {
  RESCUE_PROBLEM_CALL(problem, {
    if (n < 1) rescue::fail(Status::SizeMismatch, "at least one fidelity level is needed");
    problem->spec.set_fidelity_levels(copy_in(levels, n, n, "fidelity levels"), target);
  });
}

rescue_status rescue_problem_set_cost_exponential(rescue_problem* problem, double rate) {
  RESCUE_PROBLEM_CALL(problem, problem->spec.set_cost_exponential(rate));
}

rescue_status rescue_problem_set_cost_levels(rescue_problem* problem, const double* costs, int n) {
  RESCUE_PROBLEM_CALL(problem, {
    const int levels = static_cast<int>(problem->spec.fidelity().levels.size());
    problem->spec.set_cost_levels(copy_in(costs, n, problem->spec.fidelity().discrete ? levels : n, "level costs"));
  });
}

rescue_status rescue_problem_set_cost_callback(rescue_problem* problem, rescue_cost_fn fn, void* user) {
  RESCUE_PROBLEM_CALL(problem, problem->spec.set_cost_callback(fn, user));
}

rescue_status rescue_problem_add_objective(rescue_problem* problem, const char* name, int sense) {
  RESCUE_PROBLEM_CALL(problem, {
    if (sense != RESCUE_MINIMIZE && sense != RESCUE_MAXIMIZE)
      rescue::fail(Status::InvalidArgument, "objective sense " + std::to_string(sense) + " is not RESCUE_MINIMIZE or RESCUE_MAXIMIZE");
    problem->spec.add_objective(need_name(name, "objective name"), static_cast<rescue::Sense>(sense));
  });
}

rescue_status rescue_problem_add_constraint(rescue_problem* problem, const char* name, double threshold, int sense) {
  RESCUE_PROBLEM_CALL(problem, {
    if (sense != RESCUE_GEQ && sense != RESCUE_LEQ)
      rescue::fail(Status::InvalidArgument, "constraint sense " + std::to_string(sense) + " is not RESCUE_GEQ or RESCUE_LEQ");
    problem->spec.add_constraint(need_name(name, "constraint name"), threshold, static_cast<rescue::ConstraintSense>(sense));
  });
}

rescue_status rescue_problem_add_indicator(rescue_problem* problem, const char* name) {
  RESCUE_PROBLEM_CALL(problem, problem->spec.add_indicator(need_name(name, "indicator name")));
}

rescue_status rescue_problem_set_reference_point(rescue_problem* problem, const double* ref, int m) {
  RESCUE_PROBLEM_CALL(problem, problem->spec.set_reference_point(
                                   copy_in(ref, m, problem->spec.num_objectives(), "reference point")));
}

rescue_status rescue_problem_set_seed(rescue_problem* problem, unsigned int seed) {
  RESCUE_PROBLEM_CALL(problem, problem->spec.set_seed(seed));
}

rescue_status rescue_problem_set_strategy(rescue_problem* problem, const char* name) {
  RESCUE_PROBLEM_CALL(problem, problem->spec.set_strategy(need_name(name, "strategy name")));
}

rescue_status rescue_problem_set_budget(rescue_problem* problem, double budget) {
  RESCUE_PROBLEM_CALL(problem, problem->spec.set_budget(budget));
}

rescue_status rescue_problem_set_initial_budget(rescue_problem* problem, double budget) {
  RESCUE_PROBLEM_CALL(problem, problem->spec.set_initial_budget(budget));
}

rescue_status rescue_problem_set_param(rescue_problem* problem, const char* key, double value) {
  RESCUE_PROBLEM_CALL(problem, problem->spec.set_param(need_name(key, "parameter name"), value));
}

rescue_status rescue_problem_get_param(const rescue_problem* problem, const char* key, double* value) {
  RESCUE_PROBLEM_CALL(problem, {
    const std::string name = need_name(key, "parameter name");
    need(value, "value pointer");
    rescue::check_parameter_name(name);
    *value = problem->spec.param(name);
  });
}

rescue_status rescue_problem_evaluate(const rescue_problem* problem, const double* x, int d, double s, double* y, int m,
                                      double* g, int q, double* z, int k) {
  RESCUE_PROBLEM_CALL(problem, {
    if (!problem->builtin)
      rescue::fail(Status::InvalidState, "only built-in problems (rescue_problem_builtin) can be evaluated by the library");
    const rescue::ProblemSpec& spec = problem->builtin->spec();
    const auto xv = copy_in(x, d, spec.dim(), "configuration");
    need_length(m, spec.num_objectives(), "objective buffer", "objectives");
    need_length(q, spec.num_constraints(), "constraint buffer", "constraints");
    if (z != nullptr || k != 0) {
      need_length(k, spec.num_indicators(), "indicator buffer", "indicators");
      if (k > 0) need(z, "indicator buffer");
    }
    need(y, "objective buffer");
    if (q > 0) need(g, "constraint buffer");
    spec.check_config(xv.data());
    if (!spec.fidelity().valid(s)) rescue::fail(Status::OutOfRange, "fidelity is not valid for this problem");
    const auto e = problem->builtin->evaluate(xv.data(), s);
    std::copy(e.y.begin(), e.y.end(), y);
    if (q > 0) std::copy(e.g.begin(), e.g.end(), g);
    if (z && k > 0) std::copy(e.z.begin(), e.z.end(), z);
  });
}

// ---- optimizer ------------------------------------------------------------------------

rescue_status rescue_create(const rescue_problem* problem, rescue_optimizer** out) {
  if (!out) return null_handle("output pointer");
  *out = nullptr;
  if (!problem) return null_handle("problem");
  return guarded(nullptr, [&] {
    *out = new rescue_optimizer(std::make_unique<rescue::engine::Optimizer>(problem->spec));
  });
}

void rescue_destroy(rescue_optimizer* opt) { delete opt; }

rescue_status rescue_set_cost_callback(rescue_optimizer* opt, rescue_cost_fn fn, void* user) {
  RESCUE_OPT_CALL(opt, opt->engine->set_cost_callback(fn, user));
}

int rescue_dimension(const rescue_optimizer* opt) { return opt ? opt->engine->spec().dim() : -1; }
int rescue_num_objectives(const rescue_optimizer* opt) { return opt ? opt->engine->spec().num_objectives() : -1; }
int rescue_num_constraints(const rescue_optimizer* opt) { return opt ? opt->engine->spec().num_constraints() : -1; }
int rescue_num_indicators(const rescue_optimizer* opt) { return opt ? opt->engine->spec().num_indicators() : -1; }
const char* rescue_strategy_name(const rescue_optimizer* opt) { return opt ? opt->strategy.c_str() : nullptr; }


const char* rescue_option_name(const rescue_optimizer* opt, int index) {
  return name_at(opt, &rescue::ProblemSpec::options, index, [](const rescue::OptionSpec& o) -> const std::string& { return o.name; });
}
const char* rescue_objective_name(const rescue_optimizer* opt, int index) {
  return name_at(opt, &rescue::ProblemSpec::objectives, index,
                 [](const rescue::ObjectiveSpec& o) -> const std::string& { return o.name; });
}
const char* rescue_constraint_name(const rescue_optimizer* opt, int index) {
  return name_at(opt, &rescue::ProblemSpec::constraints, index,
                 [](const rescue::ConstraintSpec& o) -> const std::string& { return o.name; });
}
const char* rescue_indicator_name(const rescue_optimizer* opt, int index) {
  return name_at(opt, &rescue::ProblemSpec::indicators, index, [](const std::string& o) -> const std::string& { return o; });
}

rescue_status rescue_option_info(const rescue_optimizer* opt, int index, double* lower, double* upper, int* kind) {
  RESCUE_OPT_CALL(opt, {
    const auto& options = opt->engine->spec().options();
    if (index < 0 || index >= static_cast<int>(options.size()))
      rescue::fail(Status::OutOfRange, "option index " + std::to_string(index) + " is out of range");
    if (lower) *lower = options[index].lower;
    if (upper) *upper = options[index].upper;
    if (kind) *kind = static_cast<int>(options[index].kind);
  });
}

int rescue_option_levels(const rescue_optimizer* opt, int index) {
  if (!opt) return -1;
  const auto& options = opt->engine->spec().options();
  if (index < 0 || index >= static_cast<int>(options.size())) return -1;
  return options[index].levels();
}

const char* rescue_option_label(const rescue_optimizer* opt, int index, int level) {
  if (!opt) return nullptr;
  const auto& options = opt->engine->spec().options();
  if (index < 0 || index >= static_cast<int>(options.size())) return nullptr;
  const auto& labels = options[index].labels;
  if (level < 0 || level >= static_cast<int>(labels.size())) return nullptr;
  return labels[level].c_str();
}

rescue_status rescue_constraint_info(const rescue_optimizer* opt, int index, double* threshold, int* sense) {
  RESCUE_OPT_CALL(opt, {
    const auto& cons = opt->engine->spec().constraints();
    if (index < 0 || index >= static_cast<int>(cons.size()))
      rescue::fail(Status::OutOfRange, "constraint index " + std::to_string(index) + " is out of range");
    if (threshold) *threshold = cons[index].threshold;
    if (sense) *sense = static_cast<int>(cons[index].sense);
  });
}

int rescue_objective_sense(const rescue_optimizer* opt, int index) {
  if (!opt || index < 0 || index >= opt->engine->spec().num_objectives()) return -1;
  return static_cast<int>(opt->engine->spec().objectives()[index].sense);
}

rescue_status rescue_reference_point(const rescue_optimizer* opt, double* ref, int m) {
  RESCUE_OPT_CALL(opt, {
    const auto& spec = opt->engine->spec();
    need_length(m, spec.num_objectives(), "reference buffer", "objectives");
    need(ref, "reference buffer");
    if (spec.reference_point().empty()) rescue::fail(Status::InvalidState, "the problem has no reference point");
    std::copy(spec.reference_point().begin(), spec.reference_point().end(), ref);
  });
}

rescue_status rescue_target_fidelity(const rescue_optimizer* opt, double* target) {
  RESCUE_OPT_CALL(opt, {
    need(target, "target pointer");
    *target = opt->engine->spec().fidelity().target;
  });
}

const char* rescue_strategy_list(int index) {
  const auto& names = rescue::strategy_names();
  if (index < 0 || index >= static_cast<int>(names.size())) return nullptr;
  return names[index].c_str();
}

static_assert(RESCUE_PARAM_INTEGER == static_cast<int>(rescue::ParameterKind::Integer) &&
                  RESCUE_PARAM_CLOSED == static_cast<int>(rescue::ParameterKind::Closed) &&
                  RESCUE_PARAM_OPEN == static_cast<int>(rescue::ParameterKind::Open),
              "rescue_param_kind must match rescue::ParameterKind");

const char* rescue_param_list(int index) {
  const auto& table = rescue::known_parameters();
  if (index < 0 || index >= static_cast<int>(table.size())) return nullptr;
  return table[static_cast<std::size_t>(index)].name;
}

rescue_status rescue_param_info(const char* name, double* default_value, int* kind, double* lower, double* upper,
                                const char** description) {
  return guarded(nullptr, [&] {
    const std::string key = need_name(name, "parameter name");
    rescue::check_parameter_name(key);
    const rescue::ParameterInfo& p = *rescue::find_parameter(key);
    if (default_value) *default_value = rescue::parameter_default(p);
    if (kind) *kind = static_cast<int>(p.kind);
    if (lower) *lower = p.lo;
    if (upper) *upper = p.hi;
    if (description) *description = p.meaning;
  });
}

// ---- ask / tell -----------------------------------------------------------------------

rescue_status rescue_suggest(rescue_optimizer* opt, double* x, int d, double* s, int* ticket) {
  RESCUE_OPT_CALL(opt, {
    need_length(d, opt->engine->spec().dim(), "configuration buffer", "options");
    need(x, "configuration buffer");
    need(s, "fidelity pointer");
    need(ticket, "ticket pointer");
    const auto t = opt->engine->suggest();
    std::copy(t.x.begin(), t.x.end(), x);
    *s = t.s;
    *ticket = static_cast<int>(t.ticket);
  });
}

rescue_status rescue_suggest_batch(rescue_optimizer* opt, int q, double* x, int d, double* s, int* tickets, int* count) {
  RESCUE_OPT_CALL(opt, {
    need(count, "count pointer");
    *count = 0;
    if (q < 1) rescue::fail(Status::InvalidArgument, "q must be >= 1");
    if (!x || !s || !tickets) rescue::fail(Status::NullPointer, "output buffer is NULL");
    need_length(d, opt->engine->spec().dim(), "configuration buffer", "options");
    const rescue::engine::Optimizer::Batch batch = opt->engine->suggest_batch(q);
    for (const auto& t : batch.tickets) {
      std::copy(t.x.begin(), t.x.end(), x + static_cast<size_t>(*count) * d);
      s[*count] = t.s;
      tickets[*count] = static_cast<int>(t.ticket);
      ++*count;
    }
    // A batch cut short still succeeds; why it stopped is the handle's message.
    if (batch.stopped_by) rescue::capi::record_exception(&opt->errmsg, batch.stopped_by);
  });
}

rescue_status rescue_observe(rescue_optimizer* opt, int ticket, const double* y, int m, const double* g, int q,
                             const double* z, int k) {
  RESCUE_OPT_CALL(opt, {
    const Outputs o = outputs_in(opt->engine->spec(), y, m, g, q, z, k);
    opt->engine->observe(ticket, o.y, o.g, o.z);
  });
}

rescue_status rescue_observe_at(rescue_optimizer* opt, const double* x, int d, double s, const double* y, int m,
                                const double* g, int q, const double* z, int k) {
  RESCUE_OPT_CALL(opt, {
    const auto xv = copy_in(x, d, opt->engine->spec().dim(), "configuration");
    const Outputs o = outputs_in(opt->engine->spec(), y, m, g, q, z, k);
    opt->engine->observe_at(xv, s, o.y, o.g, o.z);
  });
}

rescue_status rescue_cancel(rescue_optimizer* opt, int ticket) { RESCUE_OPT_CALL(opt, opt->engine->cancel(ticket)); }
rescue_status rescue_fail(rescue_optimizer* opt, int ticket) { RESCUE_OPT_CALL(opt, opt->engine->fail_ticket(ticket)); }

rescue_status rescue_pending(const rescue_optimizer* opt, int* tickets, int capacity, int* count) {
  RESCUE_OPT_CALL(opt, {
    need_count(count, capacity);
    const std::vector<std::int64_t> ids = opt->engine->pending_tickets();
    *count = static_cast<int>(ids.size());
    if (capacity < *count)
      rescue::fail(Status::BufferTooSmall, "ticket buffer holds " + std::to_string(capacity) + ", " +
                                               std::to_string(*count) + " tickets are pending");
    if (!ids.empty()) need(tickets, "ticket buffer");
    for (size_t i = 0; i < ids.size(); ++i) tickets[i] = static_cast<int>(ids[i]);
  });
}

int rescue_num_observations(const rescue_optimizer* opt) {
  return opt ? static_cast<int>(opt->engine->observations().size()) : -1;
}

rescue_status rescue_get_observation(const rescue_optimizer* opt, int index, double* x, int d, double* s, double* y,
                                     int m, double* g, int q, int* failed) {
  RESCUE_OPT_CALL(opt, {
    const auto& obs = opt->engine->observations();
    if (index < 0 || index >= static_cast<int>(obs.size()))
      rescue::fail(Status::OutOfRange, "observation index " + std::to_string(index) + " is outside [0, " +
                                           std::to_string(obs.size()) + ")");
    const auto& spec = opt->engine->spec();
    if (x) need_length(d, spec.dim(), "configuration buffer", "options");
    if (y) need_length(m, spec.num_objectives(), "objective buffer", "objectives");
    if (g) need_length(q, spec.num_constraints(), "constraint buffer", "constraints");
    const auto& o = obs[index];
    if (x) std::copy(o.x.begin(), o.x.end(), x);
    if (s) *s = o.s;
    if (y) std::copy(o.y.begin(), o.y.end(), y);
    if (g) std::copy(o.g.begin(), o.g.end(), g);
    if (failed) *failed = o.failed ? 1 : 0;
  });
}

rescue_status rescue_cost(const rescue_optimizer* opt, const double* x, int d, double s, double* cost) {
  RESCUE_OPT_CALL(opt, {
    const auto xv = copy_in(x, d, opt->engine->spec().dim(), "configuration");
    need(cost, "cost pointer");
    *cost = opt->engine->cost(xv, s);
  });
}

rescue_status rescue_budget(const rescue_optimizer* opt, double* spent, double* pending, double* budget) {
  if (!opt) return null_handle("optimizer");
  if (spent) *spent = opt->engine->spent();
  if (pending) *pending = opt->engine->pending_cost();
  if (budget) *budget = opt->engine->spec().budget();
  return RESCUE_OK;
}

int rescue_done(const rescue_optimizer* opt) {
  if (!opt) return -1;
  return opt->engine->done() ? 1 : 0;
}

// ---- results --------------------------------------------------------------------------

rescue_status rescue_pareto(rescue_optimizer* opt, double* x, double* y, int capacity, int* count) {
  RESCUE_OPT_CALL(opt, {
    need_count(count, capacity);
    const rescue::engine::ParetoSet set = opt->engine->pareto();
    *count = static_cast<int>(set.x.size());
    if (capacity == 0 && !x && !y) return;  // size query
    if (capacity < *count)
      rescue::fail(Status::BufferTooSmall, "buffers hold " + std::to_string(capacity) + " points, the Pareto set has " +
                                               std::to_string(*count));
    need(x, "configuration buffer");
    need(y, "objective buffer");
    const int d = opt->engine->spec().dim(), m = opt->engine->spec().num_objectives();
    for (int i = 0; i < *count; ++i) {
      std::copy(set.x[i].begin(), set.x[i].end(), x + static_cast<size_t>(i) * d);
      std::copy(set.y[i].begin(), set.y[i].end(), y + static_cast<size_t>(i) * m);
    }
  });
}

rescue_status rescue_predict(rescue_optimizer* opt, const double* x, int n, int d, const double* s, double* mean,
                             double* sd, int p, double* feasible) {
  RESCUE_OPT_CALL(opt, {
    const QueryPoints q = read_points(opt->engine->spec(), x, n, d, s, mean, p);
    Eigen::MatrixXd m, v;
    Eigen::VectorXd f;
    opt->engine->predict(q.X, q.S, &m, &v, &f);
    write_outputs(m, v, mean, sd);
    if (feasible) std::copy(f.data(), f.data() + n, feasible);
  });
}

rescue_status rescue_cross_validate(rescue_optimizer* opt, double* mean, double* sd, int p, int capacity, int* count) {
  RESCUE_OPT_CALL(opt, {
    need_count(count, capacity);
    const rescue::ProblemSpec& spec = opt->engine->spec();
    if (p != spec.num_objectives() + spec.num_constraints())
      rescue::fail(Status::SizeMismatch, "p must equal the number of objectives plus constraints");
    *count = static_cast<int>(opt->engine->observations().size());
    if (capacity == 0 && !mean && !sd) return;  // size query
    if (capacity < *count)
      rescue::fail(Status::BufferTooSmall, "buffers hold " + std::to_string(capacity) + " rows, there are " +
                                               std::to_string(*count) + " observations");
    need(mean, "mean buffer");
    Eigen::MatrixXd m, v;
    opt->engine->cross_validate(&m, &v);
    write_outputs(m, v, mean, sd);
  });
}

rescue_status rescue_fidelity_agreement(rescue_optimizer* opt, const double* bands, int nbands, double* rms_z,
                                        double* rank, int* rows, int p, int* target_rows) {
  RESCUE_OPT_CALL(opt, {
    if (nbands < 1) rescue::fail(Status::InvalidArgument, "nbands must be at least 1");
    need(bands, "bands");
    need(rms_z, "rms_z buffer");
    const rescue::ProblemSpec& spec = opt->engine->spec();
    const int P = spec.num_objectives() + spec.num_constraints();
    if (p != P) rescue::fail(Status::SizeMismatch, "p must equal the number of objectives plus constraints");
    const std::size_t nb = static_cast<std::size_t>(nbands);
    std::vector<rescue::acq::FidelityBand> b(nb);
    for (std::size_t i = 0; i < nb; ++i) b[i] = {bands[2 * i], bands[2 * i + 1]};
    const rescue::acq::FidelityAgreement a = opt->engine->fidelity_agreement(b);
    Eigen::Map<RowMajor>(rms_z, a.rms_z.rows(), a.rms_z.cols()) = a.rms_z;
    if (rank) Eigen::Map<RowMajor>(rank, a.rank.rows(), a.rank.cols()) = a.rank;
    if (rows) std::copy(a.rows.begin(), a.rows.end(), rows);
    if (target_rows) *target_rows = a.target_rows;
  });
}

rescue_status rescue_prior_weights(rescue_optimizer* opt, double* scale, int p, double* kernel_weight, int* in_use) {
  RESCUE_OPT_CALL(opt, {
    need(scale, "scale buffer");
    const rescue::ProblemSpec& spec = opt->engine->spec();
    if (p != spec.num_objectives() + spec.num_constraints())
      rescue::fail(Status::SizeMismatch, "p must equal the number of objectives plus constraints");
    const rescue::engine::Optimizer::PriorWeights w = opt->engine->prior_weights();
    std::copy(w.scale.data(), w.scale.data() + w.scale.size(), scale);
    if (kernel_weight) *kernel_weight = w.kernel_weight;
    if (in_use) *in_use = w.in_use ? 1 : 0;
  });
}

// ---- observational data ---------------------------------------------------------------

rescue_status rescue_add_observational(rescue_optimizer* opt, const double* rows, int n, int ncols) {
  RESCUE_OPT_CALL(opt, {
    const int width = opt->engine->observational_width();
    if (ncols != width)
      rescue::fail(Status::SizeMismatch, "observational rows need " + std::to_string(width) +
                                             " columns (options, fidelity, indicators, objectives, constraints), got " +
                                             std::to_string(ncols));
    if (n < 1) rescue::fail(Status::SizeMismatch, "at least one observational row is needed");
    need(rows, "observational rows");
    std::vector<std::vector<double>> data(n);
    for (int i = 0; i < n; ++i) data[i].assign(rows + static_cast<size_t>(i) * width, rows + static_cast<size_t>(i + 1) * width);
    opt->engine->add_observational(data);
  });
}

int rescue_num_observational(const rescue_optimizer* opt) {
  return opt ? static_cast<int>(opt->engine->observational().size()) : -1;
}

// ---- the causal model -----------------------------------------------------------------

rescue_status rescue_set_dag(rescue_optimizer* opt, const char* json) { RESCUE_OPT_CALL(opt, opt->engine->set_user_dag(json)); }

rescue_status rescue_constrain_edge(rescue_optimizer* opt, const char* from, const char* to, int kind) {
  RESCUE_OPT_CALL(opt, {
    if (kind != RESCUE_EDGE_REQUIRED && kind != RESCUE_EDGE_FORBIDDEN)
      rescue::fail(Status::InvalidArgument, "edge kind must be RESCUE_EDGE_REQUIRED or RESCUE_EDGE_FORBIDDEN");
    opt->engine->constrain_edge(need_name(from, "edge source"), need_name(to, "edge target"), kind == RESCUE_EDGE_REQUIRED);
  });
}

rescue_status rescue_causal_graph(rescue_optimizer* opt, int format, int as_discovered, char* buffer, size_t capacity,
                                  size_t* length) {
  RESCUE_OPT_CALL(opt, {
    need(length, "length pointer");
    if (format != RESCUE_GRAPH_DOT && format != RESCUE_GRAPH_JSON)
      rescue::fail(Status::InvalidArgument, "format must be RESCUE_GRAPH_DOT or RESCUE_GRAPH_JSON");
    const auto& cpm = opt->engine->causal_model().cpm();
    const auto& g = as_discovered ? cpm.learned : cpm.dag;
    const std::string text = format == RESCUE_GRAPH_DOT ? g.to_dot() : g.to_json();
    text_out(text, buffer, capacity, length, "the graph needs " + std::to_string(text.size() + 1) + " bytes");
  });
}

rescue_status rescue_causal_estimates(rescue_optimizer* opt, const double* x, int n, int d, const double* s,
                                      double* mean, double* sd, int p) {
  RESCUE_OPT_CALL(opt, {
    const QueryPoints q = read_points(opt->engine->spec(), x, n, d, s, mean, p);
    Eigen::MatrixXd m, v;
    opt->engine->causal_estimates(q.X, q.S, &m, &v);
    write_outputs(m, v, mean, sd);
  });
}

rescue_status rescue_problem_sample_observational(const rescue_problem* problem, int n, unsigned int seed, double* rows,
                                                  int ncols) {
  RESCUE_PROBLEM_CALL(problem, {
    if (!problem->builtin) rescue::fail(Status::InvalidState, "only built-in problems have an observational sampler");
    const int width = rescue::engine::observational_width(problem->builtin->spec());
    if (ncols != width) rescue::fail(Status::SizeMismatch, "rows need " + std::to_string(width) + " columns");
    if (n < 1) rescue::fail(Status::SizeMismatch, "at least one row is needed");
    need(rows, "row buffer");
    const std::vector<double> data = rescue::problems::sample_observational(*problem->builtin, n, seed);
    std::copy(data.begin(), data.end(), rows);
  });
}

// ---- checkpoints ----------------------------------------------------------------------

rescue_status rescue_save(const rescue_optimizer* opt, char* buffer, size_t capacity, size_t* length) {
  RESCUE_OPT_CALL(opt, {
    need(length, "length pointer");
    const std::string text = rescue::engine::checkpoint_text(*opt->engine);
    text_out(text, buffer, capacity, length,
             "the checkpoint needs " + std::to_string(text.size() + 1) + " bytes, the buffer has " + std::to_string(capacity));
  });
}

rescue_status rescue_load(const char* buffer, size_t length, rescue_optimizer** out) {
  if (!out) return null_handle("output pointer");
  *out = nullptr;
  return guarded(nullptr, [&] {
    need(buffer, "buffer");
    *out = new rescue_optimizer(rescue::engine::optimizer_from_checkpoint(std::string(buffer, length)));
  });
}

rescue_status rescue_save_file(const rescue_optimizer* opt, const char* path) {
  RESCUE_OPT_CALL(opt, rescue::engine::save_checkpoint(*opt->engine, need_name(path, "path")));
}

rescue_status rescue_load_file(const char* path, rescue_optimizer** out) {
  if (!out) return null_handle("output pointer");
  *out = nullptr;
  return guarded(nullptr, [&] { *out = new rescue_optimizer(rescue::engine::load_checkpoint(need_name(path, "path"))); });
}

// ---- multi-objective utilities --------------------------------------------------------

rescue_status rescue_hypervolume(const double* points, int n, int m, const double* ref, double* hv) {
  return guarded(nullptr, [&] {
    need(hv, "result pointer");
    if (n < 0) rescue::fail(Status::InvalidArgument, "number of points must be >= 0");
    if (m < 1) rescue::fail(Status::InvalidArgument, "number of objectives must be >= 1");
    need(ref, "reference point");
    if (n > 0) need(points, "points");
    *hv = rescue::moo::hypervolume(points, static_cast<size_t>(n), static_cast<size_t>(m), ref);
  });
}

rescue_status rescue_pareto_filter(const double* points, int n, int m, const double* violation, int* keep, int* count) {
  return guarded(nullptr, [&] {
    need(count, "count pointer");
    *count = 0;
    if (n < 0) rescue::fail(Status::InvalidArgument, "number of points must be >= 0");
    if (m < 1) rescue::fail(Status::InvalidArgument, "number of objectives must be >= 1");
    if (n == 0) return;
    need(points, "points");
    need(keep, "index buffer");
    if (violation)
      for (int i = 0; i < n; ++i)
        if (violation[i] < 0.0)  // NaN is left to the filter, which reports it as NON_FINITE
          rescue::fail(Status::OutOfRange, "violation[" + std::to_string(i) + "] is negative; violations are >= 0");
    const auto idx = rescue::moo::nondominated_indices(points, static_cast<size_t>(n), static_cast<size_t>(m), violation);
    for (size_t i = 0; i < idx.size(); ++i) keep[i] = static_cast<int>(idx[i]);
    *count = static_cast<int>(idx.size());
  });
}

}  // extern "C"
