// The multi-fidelity GP as the acquisitions see it: built from the
// observations (failed evaluations left out), with objectives in the
// minimization convention followed by the constraint metrics as outputs
// (paper, Methodology: constraints are "additional outputs using the same
// probabilistic model"), inputs scaled to the unit cube with the fidelity last.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include "core/observation.hpp"
#include "core/problem_spec.hpp"
#include "gp/multi_fidelity_gp.hpp"
#include "util/rng.hpp"

namespace rescue::acq {

/// Unit inputs (n x (d+1), fidelity last) and outputs (n x (M+Q)) of the
/// successful observations.
struct TrainingSet {
  Eigen::MatrixXd X, Y;
};
TrainingSet training_set(const ProblemSpec& spec, const std::vector<Observation>& observations);

/// Rows of unit configurations (n x d) with a fidelity column (unit scale) appended.
Eigen::MatrixXd with_fidelity(const Eigen::MatrixXd& U, double unit_fidelity);

/// The hypervolume reference point in the minimization convention: the
/// problem's own, or one inferred from the data as BoTorch does (the nadir of
/// the observed Pareto front pushed out by 10% of its range), the front of
/// the feasible observations when there is one (of all observations before).
std::vector<double> reference_point_min(const ProblemSpec& spec, const std::vector<Observation>& observations);

/// The nadir of the Pareto front of n points (n x M, row-major, minimized)
/// pushed out by 10% of the front's range in each objective; zeros for n = 0.
std::vector<double> front_reference_point(const double* points, std::size_t n, int M);

class Surrogate {
 public:
  explicit Surrogate(const ProblemSpec& spec, gp::GpOptions options = {});

  /// Sets the GP's prior mean and extra kernel term (paper, MF-CGP: the causal
  /// estimates f_do and sigma); hooks take unit inputs and return values in the
  /// GP's output convention. Replacing them makes the next refresh() refit.
  void set_prior(gp::MeanHook mean, gp::KernelHook sigma);

  /// Fits the GP to the successful observations (warm-started from the last
  /// fit). Returns false, leaving the model unfitted, when there are fewer
  /// than two of them.
  bool fit(const std::vector<Observation>& observations, Rng& rng);
  /// Fits unless the current fit already used exactly these observations. The
  /// fit's random starts come from (seed, number of observations) alone, so
  /// the model at a given data state does not depend on who asked for it.
  bool refresh(const std::vector<Observation>& observations, std::uint64_t seed);
  bool ready() const { return ready_; }

  const gp::MultiFidelityGp& gp() const { return *gp_; }
  int num_objectives() const { return M_; }
  int num_constraints() const { return Q_; }
  double target_unit() const { return target_unit_; }

  /// Posterior mean and variance at Z (n x (d+1)): objectives (min convention) then constraints.
  void predict(const Eigen::MatrixXd& Z, Eigen::MatrixXd* mean, Eigen::MatrixXd* variance) const;
  /// Probability that every constraint holds, per row, treating the
  /// constraint outputs as independent Gaussians.
  Eigen::VectorXd probability_feasible(const Eigen::MatrixXd& mean, const Eigen::MatrixXd& variance) const;
  /// Its logarithm, accurate where the probability itself underflows (for
  /// ranking configurations none of which is likely feasible).
  Eigen::VectorXd log_probability_feasible(const Eigen::MatrixXd& mean, const Eigen::MatrixXd& variance) const;
  /// Total violation of the constraints by the posterior mean of one row, each
  /// in units of its output's scale (0: predicted feasible, i.e. probability >= 0.5).
  double mean_violation(const Eigen::RowVectorXd& mean) const;

  /// A copy that also "observes" the points Zp (n x (d+1) unit inputs) at its
  /// posterior mean, with the same hyperparameters (the kriging believer):
  /// what the model will look like once pending evaluations return, so that
  /// further suggestions go elsewhere. The mean there is unchanged; the
  /// variance collapses.
  Surrogate believing(const Eigen::MatrixXd& Zp) const;
  /// Whether draw_target_link() would draw: the model learns a target
  /// correlation (gp.target_correlation) and its data hold a row at the target.
  bool draws_target_link() const;
  /// Replaces the target link theta (gp::Hyperparameters::target_link) by a
  /// draw from its posterior given the other hyperparameters and the data;
  /// nothing changes when draws_target_link() is false, or when the drawn
  /// Gram matrix cannot be factorized.
  void draw_target_link(Rng& rng);

  /// The fit (hyperparameters and the number of observations it used), for
  /// checkpoints; load() restores it on the same observations.
  nlohmann::json save() const;
  void load(const nlohmann::json& state, const std::vector<Observation>& observations);

 private:
  void ensure_gp();

  const ProblemSpec* spec_;
  gp::GpOptions options_;
  gp::MeanHook mean_hook_;
  gp::KernelHook sigma_hook_;
  int M_, Q_;
  double target_unit_;
  std::optional<gp::MultiFidelityGp> gp_;
  TrainingSet data_;  // what the current fit was conditioned on
  bool ready_ = false;
  std::size_t fitted_count_ = 0;
};

}  // namespace rescue::acq
