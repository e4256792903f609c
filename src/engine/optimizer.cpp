#include "engine/optimizer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/sampling.hpp"
#include "acq/pareto_observed.hpp"
#include "acq/recommender.hpp"
#include "acq/rescue_strategy.hpp"
#include "causal/graph.hpp"
#include "util/text.hpp"

namespace rescue::engine {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void check_values(const std::vector<double>& v, std::size_t expected, const char* what, bool allow_nan) {
  if (v.size() != expected)
    fail(Status::SizeMismatch, std::string(what) + ": expected " + std::to_string(expected) + " values, got " +
                                   std::to_string(v.size()));
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (std::isfinite(v[i]) || (allow_nan && std::isnan(v[i]))) continue;
    fail(Status::NonFinite, std::string(what) + "[" + std::to_string(i) + "] is " + fmt17(v[i]) +
                                (allow_nan ? "; values must be finite or NaN (not measured)" : "; values must be finite"));
  }
}

// The cheapest evaluation's cost when it does not depend on the configuration (exponential
// and per-level costs; the exponential one is monotone in s, so an end of the range), or 0
// when it may (a user callback).
double cheapest_cost(const ProblemSpec& spec) {
  if (spec.cost_model().kind == CostKind::Callback) return 0.0;
  std::vector<double> x(spec.dim());
  for (int j = 0; j < spec.dim(); ++j) x[j] = spec.options()[j].lower;
  const FidelitySpec& f = spec.fidelity();
  const std::vector<double> candidates = f.discrete ? f.levels : std::vector<double>{f.lower, f.upper};
  double c = kInf;
  for (double s : candidates) c = std::min(c, spec.cost(x.data(), s));
  return c;
}

}  // namespace

Optimizer::Optimizer(ProblemSpec spec) : spec_(std::move(spec)), rng_(spec_.seed()) {
  spec_.validate_complete();
  strategy_ = acq::make_strategy(spec_.strategy(), spec_);
}

double Optimizer::pending_cost() const {
  double c = 0.0;
  for (const auto& p : pending_) c += p.cost;
  return c;
}

double Optimizer::budget_left() const {
  if (spec_.budget() <= 0.0) return kInf;
  return spec_.budget() - spent_ - pending_cost();
}

bool Optimizer::done() const {
  if (spec_.budget() <= 0.0) return false;
  const double left = budget_left();
  if (left <= 0.0) return true;
  // Done as well when even the cheapest fidelity no longer fits.
  try {
    const std::vector<double> mid = spec_.centre();
    const FidelitySpec& f = spec_.fidelity();
    double cheapest = kInf;
    if (f.discrete) {
      for (double s : f.levels) cheapest = std::min(cheapest, spec_.cost(mid.data(), s));
    } else {
      for (int i = 0; i <= 64; ++i) cheapest = std::min(cheapest, spec_.cost(mid.data(), f.lower + (f.upper - f.lower) * i / 64));
    }
    return cheapest > left;
  } catch (const Error&) {
    return false;  // an unset callback: suggest() will report it
  }
}

EngineView Optimizer::view(double max_cost) const {
  return EngineView{spec_, observations_, pending_, observational_, spent_, max_cost};
}

PendingTicket Optimizer::suggest() {
  ready_to_change();
  if (next_ticket_ >= std::numeric_limits<int>::max())
    fail(Status::InvalidState, "no ticket numbers are left for this optimizer");
  const double left = budget_left();
  if (left <= 0.0)
    fail(Status::BudgetExhausted, "the budget of " + fmt17(spec_.budget()) + " is spent (" + fmt17(spent_) +
                                      " reported, " + fmt17(pending_cost()) + " pending)");
  // Work on a copy of the generator so that a failure leaves the state unchanged.
  Rng rng = rng_;
  std::optional<Suggestion> next;
  // The cost-aware initial design (paper, Appendix A, Algorithm 2) comes first,
  // for every strategy, while its budget lasts: fidelities drawn with probability
  // proportional to 1 / cost among those that still fit.
  const double init_left = spec_.initial_budget() - spent_ - pending_cost();
  if (init_left > 0.0) {
    Suggestion sug;
    sug.x = sample_configuration(spec_, rng);
    if (sample_fidelity(spec_, sug.x.data(), FidelityLaw::InverseCost, std::min(left, init_left), rng, &sug.s))
      next = std::move(sug);
  }
  // Refused before the strategy runs when nothing is affordable, so that the refusal leaves
  // its state (model fits, the causal model) as it was.
  if (!next && cheapest_cost(spec_) > left)
    fail(Status::BudgetExhausted, "no fidelity is affordable with the " + fmt17(left) + " budget left");
  if (!next) {
    // The strategy refreshes its caches (model fits, the causal model) before it can find out
    // that nothing is affordable (a callback cost depends on x) or before a user callback
    // fails; either way the refused call must leave the state as it was, so the strategy is
    // then restored from its state before the call, as a checkpoint would restore it.
    // The cached prediction model may copy the strategy's model, which the
    // call may refit or (restored below) replace.
    predictor_.reset();
    const nlohmann::json saved = strategy_->save_state();
    const auto restore = [&] {
      if (strategy_->save_state() == saved) return;
      auto restored = acq::make_strategy(spec_.strategy(), spec_);
      restored->load_state(saved, view(left));
      strategy_ = std::move(restored);
    };
    try {
      next = strategy_->suggest(view(left), rng);
    } catch (const Error& e) {
      restore();
      // Every value the user gave was checked finite where it came in, so a
      // non-finite value inside the strategy is its arithmetic overflowing
      // (outputs of magnitude near 1e155 square to infinity, for example).
      if (e.status() == Status::NonFinite)
        fail(Status::Numerical, std::string("the strategy's arithmetic overflowed (are the outputs of extreme "
                                            "magnitude? rescale them): ") + e.what());
      throw;
    } catch (...) {
      restore();
      throw;
    }
    if (!next) restore();
  }
  if (!next)
    fail(Status::BudgetExhausted, "no fidelity is affordable with the " + fmt17(left) + " budget left");
  spec_.check_config(next->x.data());
  if (!spec_.fidelity().valid(next->s)) fail(Status::Internal, "strategy suggested an invalid fidelity " + fmt17(next->s));
  PendingTicket t;
  t.x = std::move(next->x);
  t.s = next->s;
  t.cost = spec_.cost(t.x.data(), t.s);
  t.ticket = next_ticket_;
  pending_.push_back(t);
  ++next_ticket_;
  rng_ = rng;
  notify();
  return t;
}

Optimizer::Batch Optimizer::suggest_batch(int q) {
  Batch batch;
  for (int i = 0; i < q; ++i) {
    try {
      batch.tickets.push_back(suggest());
    } catch (...) {
      if (batch.tickets.empty()) throw;
      batch.stopped_by = std::current_exception();
      break;
    }
  }
  return batch;
}

std::vector<std::int64_t> Optimizer::pending_tickets() const {
  std::vector<std::int64_t> ids;
  for (const auto& p : pending_) ids.push_back(p.ticket);
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<PendingTicket>::iterator Optimizer::find_pending(std::int64_t ticket, const char* action) {
  auto it = std::find_if(pending_.begin(), pending_.end(), [&](const PendingTicket& p) { return p.ticket == ticket; });
  if (it != pending_.end()) return it;
  std::string why = "is not pending";
  if (ticket <= 0 || ticket >= next_ticket_)
    why = "was never issued";
  else if (std::binary_search(closed_tickets_.begin(), closed_tickets_.end(), ticket))
    why = "was already observed, failed or cancelled";
  fail(Status::UnknownTicket, std::string("cannot ") + action + " ticket " + std::to_string(ticket) + ": it " + why);
}

void Optimizer::check_outputs(const std::vector<double>& y, const std::vector<double>& g,
                              const std::vector<double>& z) const {
  check_values(y, spec_.num_objectives(), "objectives", false);
  check_values(g, spec_.num_constraints(), "constraint metrics", false);
  if (!z.empty()) check_values(z, spec_.num_indicators(), "indicators", true);
}

Observation Optimizer::make_observation(const std::vector<double>& x, double s, double cost, std::int64_t ticket,
                                        const std::vector<double>& y, const std::vector<double>& g,
                                        const std::vector<double>& z) const {
  Observation o;
  o.x = x;
  o.s = s;
  o.y = y;
  o.g = g;
  o.z = z.empty() ? std::vector<double>(spec_.num_indicators(), std::nan("")) : z;
  o.cost = cost;
  o.ticket = ticket;
  return o;
}

static void insert_sorted(std::vector<std::int64_t>& v, std::int64_t t) {
  v.insert(std::upper_bound(v.begin(), v.end(), t), t);
}

void Optimizer::check_spend(double cost) const {
  // Checkpoints store the total; an overflow would make them unloadable.
  if (!std::isfinite(spent_ + cost))
    fail(Status::OutOfRange, "the cost " + fmt17(cost) + " would make the total cost spent (" + fmt17(spent_) +
                                 ") overflow; use smaller cost units");
}

void Optimizer::observe(std::int64_t ticket, const std::vector<double>& y, const std::vector<double>& g,
                        const std::vector<double>& z) {
  ready_to_change();
  auto it = find_pending(ticket, "observe");
  check_outputs(y, g, z);
  check_spend(it->cost);
  close_ticket(it, make_observation(it->x, it->s, it->cost, ticket, y, g, z));
}

void Optimizer::close_ticket(std::vector<PendingTicket>::iterator it, Observation o) {
  observations_.push_back(std::move(o));
  spent_ += it->cost;
  insert_sorted(closed_tickets_, it->ticket);
  pending_.erase(it);
  notify();
}

void Optimizer::check_point(const std::vector<double>& x, double s) const {
  if (x.size() != static_cast<std::size_t>(spec_.dim()))
    fail(Status::SizeMismatch, "configuration: expected " + std::to_string(spec_.dim()) + " values, got " +
                                   std::to_string(x.size()));
  spec_.check_config(x.data());
  if (!std::isfinite(s)) fail(Status::NonFinite, "fidelity is " + fmt17(s) + "; it must be finite");
  if (!spec_.fidelity().valid(s)) fail(Status::OutOfRange, "fidelity " + fmt17(s) + " is not a valid fidelity of this problem");
}

double Optimizer::cost(const std::vector<double>& x, double s) const {
  check_point(x, s);
  return spec_.cost(x.data(), s);
}

void Optimizer::observe_at(const std::vector<double>& x, double s, const std::vector<double>& y,
                           const std::vector<double>& g, const std::vector<double>& z) {
  ready_to_change();
  check_point(x, s);
  check_outputs(y, g, z);
  const double cost = spec_.cost(x.data(), s);
  check_spend(cost);
  observations_.push_back(make_observation(x, s, cost, 0, y, g, z));
  spent_ += cost;
  notify();
}

void Optimizer::cancel(std::int64_t ticket) {
  ready_to_change();
  auto it = find_pending(ticket, "cancel");
  pending_.erase(it);
  insert_sorted(closed_tickets_, ticket);
  notify();
}

void Optimizer::fail_ticket(std::int64_t ticket) {
  ready_to_change();
  auto it = find_pending(ticket, "mark as failed");
  check_spend(it->cost);
  const double nan = std::nan("");
  Observation o = make_observation(it->x, it->s, it->cost, ticket, std::vector<double>(spec_.num_objectives(), nan),
                                   std::vector<double>(spec_.num_constraints(), nan), {});
  o.failed = true;
  close_ticket(it, std::move(o));
}

ParetoSet Optimizer::pareto() {
  if (recommendation_ && recommendation_count_ == observations_.size()) return *recommendation_;
  // The recommendation depends on the data and the seed only, never on the
  // suggestion stream or on how often it was asked for: it never changes a
  // model's warm-start history. A model-based strategy's model is used as it
  // is when current, else a copy of it is refit (warm, as the strategy itself
  // would); model-free strategies get a fresh fit.
  Rng rng(spec_.seed() ^ (0xD1B54A32D192ED03ULL * (observations_.size() + 1)));
  std::optional<ParetoSet> rec;
  const acq::Surrogate* model = nullptr;
  try {
    model = current_model();
  } catch (const Error& e) {
    if (e.status() != Status::Numerical) throw;  // an unfittable model falls back to observations
  }
  if (model) rec = acq::recommend_from_model(spec_, *model, observations_, rng, acq::RecommenderOptions::from(spec_));
  if (!rec) rec = acq::pareto_of_observations(spec_, observations_);
  recommendation_ = rec;
  recommendation_count_ = observations_.size();
  return *rec;
}

const acq::Surrogate* Optimizer::current_model() {
  if (predictor_ && predictor_count_ == observations_.size()) return &*predictor_;
  // The strategy's own model (refit on a copy when stale, so the suggestion
  // stream is untouched), or a fresh GP for model-free strategies.
  const acq::Surrogate* own = strategy_->model();
  acq::Surrogate model = own ? *own : acq::Surrogate(spec_);
  if (!model.refresh(observations_, spec_.seed())) return nullptr;
  predictor_ = std::move(model);
  predictor_count_ = observations_.size();
  return &*predictor_;
}

Eigen::MatrixXd Optimizer::unit_points(const Eigen::MatrixXd& x, const Eigen::VectorXd& s) const {
  const int d = spec_.dim();
  if (x.cols() != d) fail(Status::SizeMismatch, "configurations need one column per option");
  if (x.rows() != s.size()) fail(Status::SizeMismatch, "one fidelity per configuration is needed");
  Eigen::MatrixXd Z(x.rows(), d + 1);
  std::vector<double> row(static_cast<std::size_t>(d)), u(static_cast<std::size_t>(d));
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    for (int j = 0; j < d; ++j) row[static_cast<std::size_t>(j)] = x(i, j);
    spec_.check_config(row.data());
    if (!std::isfinite(s[i]))
      fail(Status::NonFinite, "fidelity of point " + std::to_string(i) + " is " + fmt17(s[i]) + "; it must be finite");
    if (!spec_.fidelity().valid(s[i]))
      fail(Status::OutOfRange, "fidelity of point " + std::to_string(i) + " is not a valid fidelity of the problem");
    spec_.to_unit(row.data(), u.data());
    for (int j = 0; j < d; ++j) Z(i, j) = u[static_cast<std::size_t>(j)];
    Z(i, d) = spec_.fidelity().unit(s[i]);
  }
  return Z;
}

void Optimizer::predict(const Eigen::MatrixXd& x, const Eigen::VectorXd& s, Eigen::MatrixXd* mean,
                        Eigen::MatrixXd* sd, Eigen::VectorXd* feasible) {
  const int Q = spec_.num_constraints();
  const Eigen::MatrixXd Z = unit_points(x, s);
  const acq::Surrogate* model = current_model();
  if (!model) fail(Status::InvalidState, "no model yet: predictions need at least two successful observations");
  Eigen::MatrixXd m, v;
  model->predict(Z, &m, &v);
  // Outputs of extreme magnitude overflow the model's arithmetic: say so
  // rather than hand out an infinite or NaN prediction as a success.
  if (!m.allFinite() || !v.allFinite())
    fail(Status::Numerical, "the model's prediction overflowed (are the outputs of extreme magnitude? rescale them)");
  if (feasible) *feasible = Q > 0 ? model->probability_feasible(m, v) : Eigen::VectorXd::Ones(Z.rows());
  to_user_senses(&m);
  if (mean) *mean = m;
  if (sd) *sd = v.cwiseMax(0.0).cwiseSqrt();
}

void Optimizer::to_user_senses(Eigen::MatrixXd* objectives_first) const {
  // The models minimize every objective.
  for (int k = 0; k < spec_.num_objectives(); ++k)
    if (spec_.objectives()[static_cast<std::size_t>(k)].sense == Sense::Maximize)
      objectives_first->col(k) = -objectives_first->col(k);
}

void Optimizer::cross_validate(Eigen::MatrixXd* mean, Eigen::MatrixXd* sd) {
  const acq::Surrogate* model = current_model();
  if (!model) fail(Status::InvalidState, "no model yet: cross-validation needs at least two successful observations");
  Eigen::MatrixXd m, v;
  model->gp().loo_predictive(m, v);
  // The model's rows are the successful observations in order (training_set).
  std::size_t ok = 0;
  for (const auto& o : observations_) ok += o.failed ? 0 : 1;
  if (static_cast<std::size_t>(m.rows()) != ok)
    fail(Status::InvalidState, "the model's data do not match the observations; suggest or predict to refresh it");
  // NaN marks a missing output; an infinity is an overflow.
  if (m.array().isInf().any() || v.array().isInf().any())
    fail(Status::Numerical, "the model's held-out predictions overflowed (are the outputs of extreme magnitude? rescale them)");
  const Eigen::Index n = static_cast<Eigen::Index>(observations_.size());
  Eigen::MatrixXd outm = Eigen::MatrixXd::Constant(n, m.cols(), std::numeric_limits<double>::quiet_NaN());
  Eigen::MatrixXd outs = outm;
  for (Eigen::Index i = 0, r = 0; i < n; ++i) {
    if (observations_[static_cast<std::size_t>(i)].failed) continue;
    outm.row(i) = m.row(r);
    outs.row(i) = v.row(r++);
  }
  to_user_senses(&outm);
  if (mean) *mean = std::move(outm);
  if (sd) *sd = std::move(outs);
}

acq::FidelityAgreement Optimizer::fidelity_agreement(const std::vector<acq::FidelityBand>& bands) {
  const FidelitySpec& f = spec_.fidelity();
  for (const acq::FidelityBand& b : bands) {
    if (!std::isfinite(b.lower) || !std::isfinite(b.upper)) fail(Status::NonFinite, "a band's ends must be finite");
    if (b.lower > b.upper) fail(Status::InvalidArgument, "a band's lower end is above its upper end");
    if (b.lower < f.lower || b.upper > f.upper)
      fail(Status::OutOfRange, "a band reaches outside the fidelity range [" + fmt17(f.lower) + ", " +
                                   fmt17(f.upper) + "]");
  }
  const acq::Surrogate* model = current_model();
  if (!model) fail(Status::InvalidState, "no model yet: the check needs at least two successful observations");
  std::vector<double> s;
  for (const auto& o : observations_)
    if (!o.failed) s.push_back(o.s);
  return acq::fidelity_agreement(model->gp(), acq::training_set(spec_, observations_), s, f.target, bands);
}

Optimizer::PriorWeights Optimizer::prior_weights() {
  const acq::Surrogate* model = current_model();
  if (!model) fail(Status::InvalidState, "no model yet: the prior's weights need at least two successful observations");
  const gp::MultiFidelityGp& gp = model->gp();
  if (!gp.has_mean_hook())
    fail(Status::InvalidState, "the model has no causal prior: only the \"rescue\" strategy's has one, from its "
                               "first suggestion with at least two rows of data");
  PriorWeights w;
  const gp::Hyperparameters& h = gp.hyperparameters();
  w.scale = h.mean_scale;
  w.kernel_weight = gp.has_kernel_hook() ? std::exp(h.log_hook_weight) : 0.0;
  w.in_use = !gp.prior_switched_off();
  return w;
}

acq::CausalPrior& Optimizer::causal_model() {
  acq::CausalPrior* prior = strategy_->causal(view(HUGE_VAL));
  if (!prior)
    fail(Status::InvalidState, "no causal model yet: it is learned by the \"rescue\" strategy at its first "
                               "suggestion with at least two rows of data");
  return *prior;
}

void Optimizer::causal_estimates(const Eigen::MatrixXd& x, const Eigen::VectorXd& s, Eigen::MatrixXd* mean,
                                 Eigen::MatrixXd* sd) {
  unit_points(x, s);  // the checks only: the causal model takes user units
  causal_model().estimate(x, s, mean, sd);
}

void Optimizer::set_user_dag(const char* json) {
  ready_to_change();
  ProblemSpec next = spec_;
  if (json) {
    std::vector<EdgeSpec> edges;
    for (const auto& e : causal::Graph::edges_from_json(json)) edges.push_back({e.from, e.to});
    next.set_user_dag(edges);
  } else {
    next.clear_user_dag();
  }
  acq::validate_causal_knowledge(next);
  spec_ = next;
  notify();  // the causal knowledge is part of the state (journaled like data)
}

void Optimizer::constrain_edge(const std::string& from, const std::string& to, bool required) {
  ready_to_change();
  ProblemSpec next = spec_;
  next.add_edge_constraint({from, to}, required);
  acq::validate_causal_knowledge(next);
  spec_ = next;
  notify();  // the causal knowledge is part of the state (journaled like data)
}

void Optimizer::add_observational(const std::vector<std::vector<double>>& rows) {
  ready_to_change();
  if (rows.empty()) fail(Status::SizeMismatch, "no observational rows given");
  const std::size_t width = observational_width();
  const int d = spec_.dim();
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    if (row.size() != width)
      fail(Status::SizeMismatch, "observational rows need " + std::to_string(width) +
                                     " columns (options, fidelity, indicators, objectives, constraints), got " +
                                     std::to_string(row.size()));
    for (std::size_t j = 0; j < width; ++j) {
      const bool key = static_cast<int>(j) <= d;  // options and fidelity must be present
      if (std::isfinite(row[j]) || (!key && std::isnan(row[j]))) continue;
      fail(Status::NonFinite, "observational row " + std::to_string(r) + ", column " + std::to_string(j) + " is " +
                                  fmt17(row[j]) + (key ? " (options and fidelity must be finite)" : " (use NaN for missing)"));
    }
    spec_.check_config(row.data());
    if (!spec_.fidelity().valid(row[d]))
      fail(Status::OutOfRange, "observational row " + std::to_string(r) + ": fidelity " + fmt17(row[d]) + " is not valid");
  }
  observational_.insert(observational_.end(), rows.begin(), rows.end());
  notify();
}

}  // namespace rescue::engine
