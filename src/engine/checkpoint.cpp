// Checkpoint format (version 1): the JSON document below, behind the line
// "RESCUE-CHECKPOINT <format>" (engine/checkpoint.hpp). Doubles are written with
// the shortest text that round-trips exactly; NaN (a missing value) as null.
// The problem is rebuilt through ProblemSpec's validating setters, so a
// checkpoint edited into an invalid problem is refused like a bad API call.
#include "engine/checkpoint.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "acq/rescue_strategy.hpp"
#include "engine/files.hpp"

namespace rescue::engine {
namespace {

using nlohmann::json;

const char kMagic[] = "RESCUE-CHECKPOINT";

json vec(const std::vector<double>& v) {
  json a = json::array();
  for (double x : v) a.push_back(std::isnan(x) ? json(nullptr) : json(x));
  return a;
}

[[noreturn]] void corrupt(const std::string& what) { fail(Status::CorruptCheckpoint, "corrupt checkpoint: " + what); }

const json& field(const json& obj, const char* key) {
  if (!obj.is_object()) corrupt(std::string("expected an object holding '") + key + "'");
  auto it = obj.find(key);
  if (it == obj.end()) corrupt(std::string("missing '") + key + "'");
  return *it;
}

const json& array(const json& obj, const char* key) {
  const json& a = field(obj, key);
  if (!a.is_array()) corrupt(std::string(key) + " is not an array");
  return a;
}

double real(const json& j, const char* what) {
  if (j.is_null()) return std::nan("");
  if (!j.is_number()) corrupt(std::string(what) + " is not a number");
  return j.get<double>();
}

double finite(const json& j, const char* what) {
  const double v = real(j, what);
  if (!std::isfinite(v)) corrupt(std::string(what) + " is missing or not finite");
  return v;
}

std::vector<double> reals(const json& j, const char* what, std::size_t expected, bool allow_nan) {
  if (!j.is_array()) corrupt(std::string(what) + " is not an array");
  if (j.size() != expected)
    corrupt(std::string(what) + " has " + std::to_string(j.size()) + " values, expected " + std::to_string(expected));
  std::vector<double> v;
  v.reserve(j.size());
  for (const auto& e : j) v.push_back(allow_nan ? real(e, what) : finite(e, what));
  return v;
}

std::int64_t integer(const json& j, const char* what) {
  if (!j.is_number_integer()) corrupt(std::string(what) + " is not an integer");
  return j.get<std::int64_t>();
}

std::string text(const json& j, const char* what) {
  if (!j.is_string()) corrupt(std::string(what) + " is not a string");
  return j.get<std::string>();
}

// The configuration, fidelity and cost of a saved observation or pending ticket.
void check_evaluation(const ProblemSpec& p, const std::vector<double>& x, double s, double cost, const std::string& what) {
  p.check_config(x.data());
  if (!p.fidelity().valid(s)) corrupt(what + " fidelity is not valid for the problem");
  if (!(cost > 0.0)) corrupt(what + " cost must be positive");
}

json problem_to_json(const ProblemSpec& p) {
  json j;
  json opts = json::array();
  for (const auto& o : p.options()) {
    json oj = {{"name", o.name}, {"lower", o.lower}, {"upper", o.upper}, {"kind", static_cast<int>(o.kind)}};
    if (o.categorical()) oj["labels"] = o.labels;
    opts.push_back(std::move(oj));
  }
  j["options"] = opts;
  const FidelitySpec& f = p.fidelity();
  j["fidelity"] = {{"discrete", f.discrete}, {"lower", f.lower}, {"upper", f.upper},
                   {"levels", vec(f.levels)}, {"target", f.target}};
  const CostModel& c = p.cost_model();
  j["cost"] = {{"kind", static_cast<int>(c.kind)}, {"rate", c.rate}, {"level_costs", vec(c.level_costs)}};
  json objs = json::array();
  for (const auto& o : p.objectives()) objs.push_back({{"name", o.name}, {"sense", static_cast<int>(o.sense)}});
  j["objectives"] = objs;
  json cons = json::array();
  for (const auto& c2 : p.constraints())
    cons.push_back({{"name", c2.name}, {"threshold", c2.threshold}, {"sense", static_cast<int>(c2.sense)}});
  j["constraints"] = cons;
  j["indicators"] = p.indicators();
  j["reference_point"] = vec(p.reference_point());
  j["seed"] = p.seed();
  j["strategy"] = p.strategy();
  j["budget"] = p.budget();
  j["initial_budget"] = p.has_initial_budget() ? json(p.initial_budget()) : json(nullptr);
  j["params"] = p.params();
  j["user_dag"] = p.has_user_dag() ? acq::edges_to_json(p.user_dag()) : json(nullptr);
  j["required_edges"] = acq::edges_to_json(p.required_edges());
  j["forbidden_edges"] = acq::edges_to_json(p.forbidden_edges());
  return j;
}

ProblemSpec problem_from_json(const json& j) {
  ProblemSpec p;
  const json& opts = array(j, "options");
  for (const auto& o : opts) {
    const auto kind = static_cast<OptionKind>(integer(field(o, "kind"), "option kind"));
    if (kind == OptionKind::Categorical) {
      const json& labels = array(o, "labels");
      std::vector<std::string> l;
      for (const auto& t : labels) l.push_back(text(t, "categorical level label"));
      p.add_categorical(text(field(o, "name"), "option name"), l);
      if (finite(field(o, "lower"), "option lower bound") != 0.0 || finite(field(o, "upper"), "option upper bound") != double(l.size() - 1))
        corrupt("a categorical option's bounds do not match its levels");
    } else {
      p.add_option(text(field(o, "name"), "option name"), finite(field(o, "lower"), "option lower bound"),
                   finite(field(o, "upper"), "option upper bound"), kind);
    }
  }
  const json& f = field(j, "fidelity");
  const json& disc = field(f, "discrete");
  if (!disc.is_boolean()) corrupt("fidelity.discrete is not a boolean");
  const double target = finite(field(f, "target"), "target fidelity");
  if (disc.get<bool>()) {
    const json& lv = field(f, "levels");
    p.set_fidelity_levels(reals(lv, "fidelity levels", lv.is_array() ? lv.size() : 0, false), target);
  } else {
    p.set_fidelity_range(finite(field(f, "lower"), "fidelity lower"), finite(field(f, "upper"), "fidelity upper"), target);
  }
  const json& c = field(j, "cost");
  switch (integer(field(c, "kind"), "cost kind")) {
    case static_cast<int>(CostKind::Exponential): p.set_cost_exponential(finite(field(c, "rate"), "cost rate")); break;
    case static_cast<int>(CostKind::PerLevel): {
      const json& lc = field(c, "level_costs");
      p.set_cost_levels(reals(lc, "level costs", lc.is_array() ? lc.size() : 0, false));
      break;
    }
    case static_cast<int>(CostKind::Callback): p.set_cost_callback_unbound(); break;
    default: corrupt("unknown cost kind");
  }
  const json& objs = array(j, "objectives");
  for (const auto& o : objs)
    p.add_objective(text(field(o, "name"), "objective name"), static_cast<Sense>(integer(field(o, "sense"), "objective sense")));
  const json& cons = array(j, "constraints");
  for (const auto& o : cons)
    p.add_constraint(text(field(o, "name"), "constraint name"), finite(field(o, "threshold"), "constraint threshold"),
                     static_cast<ConstraintSense>(integer(field(o, "sense"), "constraint sense")));
  const json& inds = array(j, "indicators");
  for (const auto& o : inds) p.add_indicator(text(o, "indicator name"));
  const json& ref = array(j, "reference_point");
  if (!ref.empty()) p.set_reference_point(reals(ref, "reference point", p.num_objectives(), false));
  const json& seed = field(j, "seed");
  if (!seed.is_number_unsigned() && !(seed.is_number_integer() && seed.get<std::int64_t>() >= 0)) corrupt("seed is not an unsigned integer");
  p.set_seed(seed.get<std::uint64_t>());
  p.set_strategy(text(field(j, "strategy"), "strategy"));
  p.set_budget(finite(field(j, "budget"), "budget"));
  const json& ib = field(j, "initial_budget");
  if (!ib.is_null()) p.set_initial_budget(finite(ib, "initial budget"));
  const json& params = field(j, "params");
  if (!params.is_object()) corrupt("params is not an object");
  for (auto it = params.begin(); it != params.end(); ++it) p.restore_param(it.key(), finite(it.value(), "parameter"));
  // Causal background knowledge: optional, since a format-1 checkpoint may lack it.
  if (j.contains("user_dag") && !j["user_dag"].is_null()) p.set_user_dag(acq::edges_from_json(j["user_dag"], "user DAG"));
  if (j.contains("required_edges"))
    for (const auto& e : acq::edges_from_json(j["required_edges"], "required edges")) p.add_edge_constraint(e, true);
  if (j.contains("forbidden_edges"))
    for (const auto& e : acq::edges_from_json(j["forbidden_edges"], "forbidden edges")) p.add_edge_constraint(e, false);
  return p;
}

}  // namespace

nlohmann::json Optimizer::to_json() const {
  json doc;
  doc["problem"] = problem_to_json(spec_);
  json obs = json::array();
  for (const auto& o : observations_)
    obs.push_back({{"x", vec(o.x)}, {"s", o.s}, {"y", vec(o.y)}, {"g", vec(o.g)}, {"z", vec(o.z)},
                   {"cost", o.cost}, {"ticket", o.ticket}, {"failed", o.failed}});
  doc["observations"] = obs;
  json pend = json::array();
  for (const auto& p : pending_) pend.push_back({{"ticket", p.ticket}, {"x", vec(p.x)}, {"s", p.s}, {"cost", p.cost}});
  doc["pending"] = pend;
  json rows = json::array();
  for (const auto& r : observational_) rows.push_back(vec(r));
  doc["observational"] = rows;
  doc["closed_tickets"] = closed_tickets_;
  doc["next_ticket"] = next_ticket_;
  doc["spent"] = spent_;
  doc["rng"] = rng_.to_string();
  doc["strategy_state"] = strategy_->save_state();
  return doc;
}

std::unique_ptr<Optimizer> Optimizer::from_json(const nlohmann::json& doc) {
  // A state the library refuses (an unknown strategy, bounds in the wrong
  // order, a count out of its domain...) is damage, whoever reads it
  // (rescue_load, a journal's replay); running out of memory, and a setting of an
  // earlier version that this one no longer supports, stay themselves.
  try {
    return from_json_unchecked(doc);
  } catch (const Error& e) {
    if (e.status() == Status::CorruptCheckpoint || e.status() == Status::OutOfMemory ||
        e.status() == Status::UnsupportedVersion)
      throw;
    corrupt(e.what());
  } catch (const json::exception& e) {
    corrupt(e.what());
  }
}

std::unique_ptr<Optimizer> Optimizer::from_json_unchecked(const nlohmann::json& doc) {
  if (!doc.is_object()) corrupt("the document is not an object");
  auto opt = std::make_unique<Optimizer>(problem_from_json(field(doc, "problem")));
  const ProblemSpec& p = opt->spec_;
  const std::size_t d = p.dim(), m = p.num_objectives(), q = p.num_constraints(), k = p.num_indicators();

  const std::int64_t next = integer(field(doc, "next_ticket"), "next_ticket");
  if (next < 1 || next > std::numeric_limits<int>::max()) corrupt("next_ticket out of range");
  opt->next_ticket_ = next;

  const json& obs = array(doc, "observations");
  for (const auto& o : obs) {
    Observation ob;
    ob.x = reals(field(o, "x"), "observation x", d, false);
    ob.s = finite(field(o, "s"), "observation fidelity");
    const json& failed = field(o, "failed");
    if (!failed.is_boolean()) corrupt("observation failed flag is not a boolean");
    ob.failed = failed.get<bool>();
    ob.y = reals(field(o, "y"), "observation objectives", m, ob.failed);
    ob.g = reals(field(o, "g"), "observation constraints", q, ob.failed);
    ob.z = reals(field(o, "z"), "observation indicators", k, true);
    ob.cost = finite(field(o, "cost"), "observation cost");
    ob.ticket = integer(field(o, "ticket"), "observation ticket");
    if (ob.ticket < 0 || ob.ticket >= next) corrupt("observation ticket out of range");
    check_evaluation(p, ob.x, ob.s, ob.cost, "observation");
    opt->observations_.push_back(std::move(ob));
  }
  const json& pend = array(doc, "pending");
  for (const auto& o : pend) {
    PendingTicket t;
    t.ticket = integer(field(o, "ticket"), "pending ticket");
    t.x = reals(field(o, "x"), "pending x", d, false);
    t.s = finite(field(o, "s"), "pending fidelity");
    t.cost = finite(field(o, "cost"), "pending cost");
    if (t.ticket < 1 || t.ticket >= next) corrupt("pending ticket out of range");
    for (const auto& other : opt->pending_)
      if (other.ticket == t.ticket) corrupt("pending ticket listed twice");
    check_evaluation(p, t.x, t.s, t.cost, "pending");
    opt->pending_.push_back(std::move(t));
  }
  const json& closed = array(doc, "closed_tickets");
  for (const auto& c : closed) {
    const std::int64_t t = integer(c, "closed ticket");
    if (t < 1 || t >= next || (!opt->closed_tickets_.empty() && t <= opt->closed_tickets_.back()))
      corrupt("closed tickets out of range or not increasing");
    opt->closed_tickets_.push_back(t);
  }
  for (const auto& t : opt->pending_)
    if (std::binary_search(opt->closed_tickets_.begin(), opt->closed_tickets_.end(), t.ticket))
      corrupt("ticket " + std::to_string(t.ticket) + " is both pending and closed");
  const json& rows = array(doc, "observational");
  std::vector<std::vector<double>> data;
  for (const auto& r : rows) data.push_back(reals(r, "observational row", opt->observational_width(), true));
  if (!data.empty()) opt->add_observational(data);
  const double spent = finite(field(doc, "spent"), "spent");
  if (spent < 0.0) corrupt("spent is negative");
  opt->spent_ = spent;
  if (!opt->rng_.from_string(text(field(doc, "rng"), "rng"))) corrupt("random generator state is malformed");
  opt->strategy_->load_state(field(doc, "strategy_state"), opt->view(HUGE_VAL));
  return opt;
}

std::string checkpoint_text(const Optimizer& opt) {
  return std::string(kMagic) + " " + std::to_string(kCheckpointFormat) + "\n" + opt.to_json().dump(1) + "\n";
}

std::unique_ptr<Optimizer> optimizer_from_checkpoint(const std::string& text) {
  const std::size_t eol = text.find('\n');
  std::istringstream first(text.substr(0, eol));
  std::string magic, rest;
  long long format = 0;
  if (!(first >> magic) || magic != kMagic)
    fail(Status::CorruptCheckpoint, "not a RESCUE checkpoint (the first line must start with RESCUE-CHECKPOINT)");
  if (!(first >> format) || (first >> rest) || format < 1) corrupt("malformed format number on the first line");
  if (format > kCheckpointFormat)
    fail(Status::UnsupportedVersion, "checkpoint format " + std::to_string(format) + " is newer than this library reads (" +
                                         std::to_string(kCheckpointFormat) + "); upgrade the library");
  if (eol == std::string::npos) corrupt("no content after the first line");
  const json doc = json::parse(text.begin() + static_cast<std::ptrdiff_t>(eol) + 1, text.end(), nullptr, false);
  if (doc.is_discarded()) corrupt("the content is not valid JSON");
  return Optimizer::from_json(doc);
}

void save_checkpoint(const Optimizer& opt, const std::string& path) { write_file_atomically(path, checkpoint_text(opt)); }

std::unique_ptr<Optimizer> load_checkpoint(const std::string& path) {
  return optimizer_from_checkpoint(read_file(path, "checkpoint"));
}

}  // namespace rescue::engine
