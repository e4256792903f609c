#include "acq/rescue_strategy.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "causal/structural_constraints.hpp"
#include "util/error.hpp"

namespace rescue::acq {
namespace {

// Edges by variable name, an edge from a categorical option standing for one
// from each of its level indicators (causal_variables).
std::vector<causal::NamedEdge> named(const ProblemSpec& spec, const std::vector<EdgeSpec>& edges) {
  std::vector<causal::NamedEdge> out;
  for (const auto& e : expand_option_edges(spec, edges)) out.push_back({e.from, e.to});
  return out;
}

}  // namespace

gp::GpOptions mf_cgp_options(const ProblemSpec& spec, const RescueOptions& options) {
  gp::GpOptions o;
  // Without the causal mean the surrogate is hvkg's plain multi-fidelity GP,
  // and the causal model steers C-HVKG only through HV_CI.
  if (!options.causal_mean()) return o;
  const bool fixed = options.fixed_prior;
  o.learn_mean_constant = !fixed;
  o.learn_mean_scale = !fixed;
  o.learn_hook_weight = !fixed;
  // With the prior at the target for every fidelity the residual carries the
  // whole fidelity discrepancy. The product kernel k_in k_fid carries its part
  // that is the same for every configuration only through long input
  // lengthscales, which the outputs share; a learned mean term c_m (t - s)
  // carries it at one parameter per output. The paper's fixed form has none.
  const FidelitySpec& f = spec.fidelity();
  o.learn_fidelity_offset = !fixed && !f.single_level();
  o.fidelity_anchor = f.single_level() ? 1.0 : f.unit(f.target);
  // Small data with a prior that explains most of an output leave its
  // residual to be read as noise; the low-noise start (gp_fit.cpp) gets out.
  // hvkg keeps its fit as it was (gp_fit.cpp says why).
  o.low_noise_start = true;
  return o;
}

void validate_causal_knowledge(const ProblemSpec& spec) {
  const std::vector<causal::Variable> vars = causal_variables(spec);
  const causal::StructuralConstraints constraints(vars, named(spec, spec.required_edges()), named(spec, spec.forbidden_edges()));
  if (spec.has_user_dag()) constraints.check(causal::Graph::dag_from_edges(vars, named(spec, spec.user_dag())));
}

Rescue::Rescue(const ProblemSpec& spec, const RescueOptions& options)
    : Hvkg(spec, mf_cgp_options(spec, options)), options_(options) {}

CausalKnowledge CausalKnowledge::of(const ProblemSpec& spec) {
  CausalKnowledge k;
  k.has_dag = spec.has_user_dag();
  k.dag = spec.user_dag();
  k.required = spec.required_edges();
  k.forbidden = spec.forbidden_edges();
  return k;
}

nlohmann::json edges_to_json(const std::vector<EdgeSpec>& edges) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& e : edges) a.push_back({{"from", e.from}, {"to", e.to}});
  return a;
}

std::vector<EdgeSpec> edges_from_json(const nlohmann::json& a, const std::string& what) {
  const auto bad = [&]() { fail(Status::CorruptCheckpoint, "corrupt checkpoint: " + what + " is not a list of edges"); };
  if (!a.is_array()) bad();
  std::vector<EdgeSpec> out;
  for (const auto& e : a) {
    if (!e.is_object() || !e.contains("from") || !e.contains("to") || !e["from"].is_string() || !e["to"].is_string()) bad();
    out.push_back({e["from"].get<std::string>(), e["to"].get<std::string>()});
  }
  return out;
}

nlohmann::json CausalKnowledge::to_json() const {
  return {{"user_dag", has_dag ? edges_to_json(dag) : nlohmann::json(nullptr)},
          {"required", edges_to_json(required)},
          {"forbidden", edges_to_json(forbidden)}};
}

CausalKnowledge CausalKnowledge::from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("user_dag") || !j.contains("required") || !j.contains("forbidden"))
    fail(Status::CorruptCheckpoint, "corrupt checkpoint: causal knowledge is not an object of three edge lists");
  CausalKnowledge k;
  k.has_dag = !j["user_dag"].is_null();
  if (k.has_dag) k.dag = edges_from_json(j["user_dag"], "the causal model's user DAG");
  k.required = edges_from_json(j["required"], "the causal model's required edges");
  k.forbidden = edges_from_json(j["forbidden"], "the causal model's forbidden edges");
  return k;
}

namespace {

// Learns the causal model of the data; nullptr when there are too few rows or
// the data do not allow a model (then the caller keeps what it had).
std::shared_ptr<CausalPrior> learn_prior(const ProblemSpec& spec, const RescueOptions& options,
                                         const CausalKnowledge& knowledge,
                                         const std::vector<std::vector<double>>& observational, std::size_t n_logs,
                                         const std::vector<Observation>& observations, std::size_t n_obs) {
  const causal::DataTable table = causal_table(spec, observational, observations, n_obs, n_logs);
  if (table.rows() < 2) return nullptr;
  causal::CpmOptions o;
  o.method = options.discovery;
  o.alpha = options.alpha;
  o.repair = options.repair;
  // The product forms of the structural equations, for effects that one
  // parent scales (a fidelity that multiplies the effects of options).
  o.scm.equations.interactions = true;
  o.seed = spec.seed();
  if (knowledge.has_dag) o.user_dag = named(spec, knowledge.dag);
  o.required = named(spec, knowledge.required);
  o.forbidden = named(spec, knowledge.forbidden);
  try {
    // The paper's fixed form queries f_do(x, s) at the queried fidelity; the
    // calibrated prior at the target (CausalPrior).
    return std::make_shared<CausalPrior>(spec, causal::learn_cpm(table, o), !options.fixed_prior);
  } catch (const Error& e) {
    // A user DAG that does not fit the problem is the user's error; a model
    // that cannot be learned from these data keeps the previous prior.
    if (knowledge.has_dag && e.status() != Status::Numerical) throw;
    return nullptr;
  }
}

}  // namespace

void Rescue::learn(const ProblemSpec& spec, const CausalKnowledge& knowledge,
                   const std::vector<std::vector<double>>& observational, std::size_t n_logs,
                   const std::vector<Observation>& observations, std::size_t n_obs) {
  learned_ = true;
  learned_at_ = n_obs;
  learned_logs_ = std::min(n_logs, observational.size());
  learned_knowledge_ = knowledge;
  std::shared_ptr<CausalPrior> next = learn_prior(spec, options_, knowledge, observational, n_logs, observations, n_obs);
  if (!next) return;
  prior_ = next;
  preview_.reset();
  if (!options_.causal_mean()) return;
  std::shared_ptr<CausalPrior> prior = prior_;
  // The causal kernel term sigma sigma' of MF-CGP can be left out (the
  // estimates then enter as the prior mean only); the paper's fixed form keeps it.
  gp::KernelHook sigma;
  if (options_.kernel_term()) sigma = [prior](const Eigen::MatrixXd& Z) { return prior->sd(Z); };
  model_.set_prior([prior](const Eigen::MatrixXd& Z) { return prior->mean(Z); }, std::move(sigma));
}

void Rescue::before_fit(const EngineView& view) {
  const std::size_t n = view.observations.size();
  const std::size_t every = options_.relearn_every;
  const CausalKnowledge knowledge = CausalKnowledge::of(view.spec);
  // Relearned every N_l observations (Algorithm 1, line 6), and at once when
  // the user changes the knowledge or adds logs.
  if (!learned_ || n >= learned_at_ + every || (!prior_ && n > learned_at_) || knowledge != learned_knowledge_ ||
      view.observational.size() != learned_logs_)
    learn(view.spec, knowledge, view.observational, view.observational.size(), view.observations, n);
}

CausalPrior* Rescue::causal(const EngineView& view) {
  const CausalKnowledge knowledge = CausalKnowledge::of(view.spec);
  if (prior_ && knowledge == learned_knowledge_ && view.observational.size() == learned_logs_) return prior_.get();
  const std::size_t rows = view.observational.size() + view.observations.size();
  if (!preview_ || preview_rows_ != rows || knowledge != preview_knowledge_) {
    preview_ = learn_prior(view.spec, options_, knowledge, view.observational, view.observational.size(), view.observations,
                           view.observations.size());
    preview_rows_ = rows;
    preview_knowledge_ = knowledge;
  }
  return preview_ ? preview_.get() : prior_.get();
}

bool Rescue::causal_objectives(const Eigen::MatrixXd& z, RowMatrix* out) {
  if (!prior_) return false;
  const int M = spec_.num_objectives();
  // The calibrated estimates b_m + a_m f_do are the causal model as the data
  // have judged it: one the fit has switched off (a_m = 0) no longer steers
  // the inner sets, while a trusted one does as in the paper.
  // The paper's fixed form (a_m = 1, b_m = 0) uses f_do itself, and so does a
  // GP without the causal mean, which has no calibration.
  if (options_.causal_mean() && !options_.fixed_prior)
    *out = model_.gp().prior_mean(z).leftCols(M);
  else
    *out = prior_->mean(z).leftCols(M);
  return true;
}

nlohmann::json Rescue::save_state() const {
  nlohmann::json j = Hvkg::save_state();
  j["causal_observations"] = learned_ ? nlohmann::json(learned_at_) : nlohmann::json(nullptr);
  if (learned_) {
    j["causal_logs"] = learned_logs_;
    j["causal_knowledge"] = learned_knowledge_.to_json();
  }
  return j;
}

void Rescue::load_state(const nlohmann::json& state, const EngineView& view) {
  if (!state.is_object()) fail(Status::CorruptCheckpoint, "strategy state is not an object");
  // The causal model is relearned from the same data as before saving (learning
  // is deterministic for a seed), then the GP fit is restored on top of it.
  if (state.contains("causal_observations") && !state["causal_observations"].is_null()) {
    if (!state["causal_observations"].is_number_unsigned())
      fail(Status::CorruptCheckpoint, "causal_observations is not a count");
    const std::size_t n = state["causal_observations"].get<std::size_t>();
    if (n > view.observations.size()) fail(Status::CorruptCheckpoint, "causal model refers to missing observations");
    // The logs and knowledge it was learned with (checkpoints of earlier
    // builds have neither: all logs and today's knowledge, as they assumed).
    std::size_t logs = view.observational.size();
    if (state.contains("causal_logs")) {
      if (!state["causal_logs"].is_number_unsigned()) fail(Status::CorruptCheckpoint, "causal_logs is not a count");
      logs = state["causal_logs"].get<std::size_t>();
      if (logs > view.observational.size()) fail(Status::CorruptCheckpoint, "causal model refers to missing log rows");
    }
    const CausalKnowledge knowledge = state.contains("causal_knowledge")
                                          ? CausalKnowledge::from_json(state["causal_knowledge"])
                                          : CausalKnowledge::of(view.spec);
    learn(view.spec, knowledge, view.observational, logs, view.observations, n);
  }
  Hvkg::load_state(state, view);
}

}  // namespace rescue::acq
