// The ask/tell engine: owns the problem, every observation, the pending
// tickets, the observational data, the strategy and the random generator.
// Every mutating call validates all of its input before it changes anything,
// so a rejected call leaves the state exactly as it was.
#pragma once
#include <cmath>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/observation.hpp"
#include "core/problem_spec.hpp"
#include "acq/fidelity_agreement.hpp"
#include "acq/strategy.hpp"
#include "acq/surrogate.hpp"
#include "util/rng.hpp"

namespace rescue::engine {

using acq::EngineView;
using acq::ParetoSet;
using acq::PendingTicket;
using acq::Strategy;
using acq::Suggestion;

/// The columns of an observational row: options, fidelity, indicators, objectives, constraints.
inline int observational_width(const ProblemSpec& spec) {
  return spec.dim() + 1 + spec.num_indicators() + spec.num_objectives() + spec.num_constraints();
}

class Optimizer {
 public:
  /// Validates that the problem is complete and builds its strategy.
  explicit Optimizer(ProblemSpec spec);

  const ProblemSpec& spec() const { return spec_; }
  const Strategy& strategy() const { return *strategy_; }

  // ---- ask / tell ----
  /// The next (x, s) with a new ticket; throws BudgetExhausted when nothing affordable is left.
  PendingTicket suggest();
  /// Up to q suggestions, each made with the earlier ones pending (as q calls
  /// of suggest()). The first refusal ends the batch: it is thrown when it
  /// comes first, otherwise the batch holds the tickets made before it and
  /// the refusal itself.
  struct Batch {
    std::vector<PendingTicket> tickets;
    std::exception_ptr stopped_by;  ///< null when all q were made
  };
  Batch suggest_batch(int q);
  /// Results for a pending ticket. y: M values, g: Q values, z: K values or empty.
  void observe(std::int64_t ticket, const std::vector<double>& y, const std::vector<double>& g,
               const std::vector<double>& z);
  /// Results at a (x, s) the user chose.
  void observe_at(const std::vector<double>& x, double s, const std::vector<double>& y,
                  const std::vector<double>& g, const std::vector<double>& z);
  void cancel(std::int64_t ticket);
  void fail_ticket(std::int64_t ticket);

  // ---- state ----
  const std::vector<Observation>& observations() const { return observations_; }
  const std::vector<PendingTicket>& pending() const { return pending_; }
  /// The pending tickets' numbers, ascending (a loaded checkpoint may list them in any order).
  std::vector<std::int64_t> pending_tickets() const;
  double spent() const { return spent_; }
  double pending_cost() const;
  /// The cost of evaluating x at fidelity s, both checked as observe_at() checks them.
  double cost(const std::vector<double>& x, double s) const;
  bool done() const;
  /// The recommended Pareto set at the target fidelity: NSGA-II on the model's
  /// posterior mean (acq/recommender.hpp) once a model can be fitted, before
  /// that the non-dominated feasible observations at the target fidelity.
  ParetoSet pareto();
  /// Posterior predictions of the model the recommendation uses (the
  /// strategy's own, else a GP fitted to the observations) at n configurations
  /// (n x d, user units) and fidelities: mean and standard deviation of the
  /// latent (noise-free) outputs, objectives in their own sense then
  /// constraint metrics (n x (M + Q) each), and the probability that every
  /// constraint holds (n). Throws InvalidState before two successful
  /// observations, OutOfRange for a configuration or fidelity outside the problem.
  void predict(const Eigen::MatrixXd& x, const Eigen::VectorXd& s, Eigen::MatrixXd* mean, Eigen::MatrixXd* sd,
               Eigen::VectorXd* feasible);
  /// Leave-one-out predictions of that same model, one row per observation in
  /// the order reported (n x (M + Q) each, objectives in their own sense): the
  /// mean and standard deviation of each observed value (observation noise
  /// included) given every other successful observation, with the fitted
  /// hyperparameters held. Rows of failed evaluations, and outputs an
  /// observation lacks, are NaN. Throws InvalidState before two successful
  /// observations.
  void cross_validate(Eigen::MatrixXd* mean, Eigen::MatrixXd* sd);
  /// How well each band of fidelities predicts the target with that same
  /// model (acq/fidelity_agreement.hpp); bands in user units, each inside the
  /// fidelity range with lower <= upper. Throws InvalidState before two
  /// successful observations.
  acq::FidelityAgreement fidelity_agreement(const std::vector<acq::FidelityBand>& bands);
  /// How much that same model relies on its causal prior: the learned scale
  /// a_m of the causal estimate in each output's prior mean (objectives then
  /// constraints), the weight w of the causal kernel term, and whether the fit
  /// kept the prior (false: it chose the prior-off model). Throws InvalidState
  /// when the model has no causal prior (a strategy other than "rescue", or
  /// before its first suggestion) or before two successful observations.
  struct PriorWeights {
    Eigen::VectorXd scale;
    double kernel_weight = 0.0;
    bool in_use = false;
  };
  PriorWeights prior_weights();

  void add_observational(const std::vector<std::vector<double>>& rows);
  const std::vector<std::vector<double>>& observational() const { return observational_; }
  int observational_width() const { return engine::observational_width(spec_); }

  void set_cost_callback(CostCallback fn, void* user) {
    ready_to_change();
    spec_.set_cost_callback(fn, user);
    notify();  // replacing another cost model changes the saved state (its kind)
  }

  // ---- causal knowledge and the causal model ----
  /// A user DAG as JSON (edges by name), or nullptr to go back to discovery.
  void set_user_dag(const char* json);
  void constrain_edge(const std::string& from, const std::string& to, bool required);
  /// The strategy's causal prior; throws InvalidState when there is none (not
  /// "rescue", or nothing learned yet).
  acq::CausalPrior& causal_model();
  /// The causal model's estimates (acq::CausalPrior::estimate) at n
  /// configurations and fidelities, checked as predict() checks them.
  void causal_estimates(const Eigen::MatrixXd& x, const Eigen::VectorXd& s, Eigen::MatrixXd* mean,
                        Eigen::MatrixXd* sd);

  /// Told of every state change (suggest, observe, observe_at, cancel, fail_ticket,
  /// add_observational) before the changing call returns; engine/journal.hpp uses it
  /// to make each change durable. If it throws, the call fails with the change made.
  class Listener {
   public:
    virtual ~Listener() = default;
    /// Throws when a change could not be recorded (a stopped journal), so
    /// that a state-changing call fails before it changes anything.
    virtual void ready() const {}
    virtual void changed(const Optimizer& opt) = 0;
  };
  /// Attaches (replacing any) or, with nullptr, detaches the listener; the optimizer owns it.
  void set_listener(std::unique_ptr<Listener> listener) { listener_ = std::move(listener); }
  bool has_listener() const { return listener_ != nullptr; }

  // ---- checkpoints ----
  nlohmann::json to_json() const;
  /// Any refusal of the document is Status::CorruptCheckpoint (OutOfMemory stays itself).
  static std::unique_ptr<Optimizer> from_json(const nlohmann::json& doc);

 private:
  EngineView view(double max_cost) const;
  std::vector<PendingTicket>::iterator find_pending(std::int64_t ticket, const char* action);
  /// Records the outcome of a pending ticket: its cost is spent and the ticket closed.
  void close_ticket(std::vector<PendingTicket>::iterator it, Observation o);
  /// Model outputs (objectives in the first columns, minimized) in the senses of the user's objectives.
  void to_user_senses(Eigen::MatrixXd* objectives_first) const;
  /// Fails OutOfRange, before anything changes, when adding cost to the total spent would overflow.
  void check_spend(double cost) const;
  /// Fails, before anything changes, unless x is a configuration of the problem and s a valid fidelity.
  void check_point(const std::vector<double>& x, double s) const;
  void check_outputs(const std::vector<double>& y, const std::vector<double>& g, const std::vector<double>& z) const;
  Observation make_observation(const std::vector<double>& x, double s, double cost, std::int64_t ticket,
                               const std::vector<double>& y, const std::vector<double>& g,
                               const std::vector<double>& z) const;
  double budget_left() const;
  /// Checks n query points (n x d, user units, and n fidelities) and returns
  /// them in the model's unit coordinates (n x (d + 1), the fidelity last).
  Eigen::MatrixXd unit_points(const Eigen::MatrixXd& x, const Eigen::VectorXd& s) const;
  /// The fitted model for the current data that pareto() and predict() use
  /// (cached); nullptr when none can be fitted yet.
  const acq::Surrogate* current_model();

  ProblemSpec spec_;
  std::unique_ptr<Strategy> strategy_;
  std::optional<ParetoSet> recommendation_;  // cached until the observations change
  std::size_t recommendation_count_ = 0;
  // Cached until the observations change or the strategy runs (it may refit or
  // replace the model this copies, whose problem the copy points to).
  std::optional<acq::Surrogate> predictor_;
  std::size_t predictor_count_ = 0;
  Rng rng_;
  std::vector<Observation> observations_;
  std::vector<PendingTicket> pending_;
  std::vector<std::vector<double>> observational_;
  std::vector<std::int64_t> closed_tickets_;  // observed, failed or cancelled (sorted), for clear messages
  std::int64_t next_ticket_ = 1;
  double spent_ = 0.0;
  std::unique_ptr<Listener> listener_;  // not part of the state; never saved
  static std::unique_ptr<Optimizer> from_json_unchecked(const nlohmann::json& doc);
  void notify() const {
    if (listener_) listener_->changed(*this);
  }
  // First step of every state-changing call (those that end in notify()).
  void ready_to_change() const {
    if (listener_) listener_->ready();
  }
};

}  // namespace rescue::engine
