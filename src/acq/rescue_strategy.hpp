// RESCUE (paper, Algorithm 1): the multi-fidelity causal GP (MF-CGP) with the
// causal hypervolume knowledge gradient (C-HVKG).
//
// - The causal performance model is learned from the observational data at
//   the start (line 2) and relearned from observational plus interventional
//   data every rescue.relearn_every (N_l) new observations (line 6). Without
//   observational data and without a user DAG it is learned from the
//   interventional data alone (below five rows: the prior graph in which
//   every option and the fidelity may affect every outcome), so RESCUE also
//   serves users with no logs; its prior is then weaker at the start.
// - MF-CGP: the GP's prior mean is f_do and its kernel adds
//   sigma sigma' to k_in k_fid, both multiplied by K_obj:
//   k_mm' = (k_in k_fid + w_c sigma_m sigma_m') K_obj[m, m'] on standardized
//   outputs, i.e. sigma enters each output pair scaled by that pair's
//   inter-output covariance. So that a wrong causal model is overridden by
//   data, the prior is calibrated: the mean is
//   b_m + a_m f_do + c_m (s_target - s) with a learned scale a_m, offset b_m
//   and fidelity offset c_m per output, w_c is learned, f_do and sigma are
//   evaluated at the target fidelity for every s (the fidelity discrepancy is
//   left to k_fid and c_m; causal_prior.cpp says why), and the fit with the
//   prior on and the plain one are chosen between by leave-one-out predictive
//   density (gp_fit.cpp). rescue.fixed_prior = 1 gives the paper's form:
//   a_m = 1, b_m = 0, w_c = 1, no fidelity offset, f_do(x, s) and sigma(x, s).
// - C-HVKG: as hvkg, with the inner selection maximizing HV_GP + w HV_CI
//   (w = rescue.weight), HV_CI the hypervolume at the target of the same set
//   under the GP's calibrated b_m + a_m f_do, so a prior the fit switched off
//   no longer steers the inner sets (the fixed form: f_do itself); the outer
//   maximization skips candidates whose probability of feasibility at the
//   target is below 0.05 (the paper's E[g(x, s_target)] > 0).
// - Discovery: rescue.discovery 0 = PC, 1 = DirectLiNGAM; rescue.alpha the PC
//   significance level. rescue.repair: after discovery, a nonparametric check
//   of the local Markov condition restores missed parents
//   (input_edge_repair.hpp): 0 none, 1 the options and fidelity of objectives
//   and constraints, 2 also the options and fidelity of indicators and the
//   indicators of objectives and constraints. A user DAG (rescue_set_dag)
//   replaces discovery and is not repaired. Each structural equation chooses
//   among linear, random-feature and pairwise-product forms by
//   cross-validation (structural_equation.hpp).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "acq/causal_prior.hpp"
#include "acq/hvkg.hpp"

namespace rescue::acq {

/// Edges as a JSON array of {"from", "to"} objects (the checkpoints' form).
nlohmann::json edges_to_json(const std::vector<EdgeSpec>& edges);
/// The inverse; a malformed value fails CorruptCheckpoint naming `what`.
std::vector<EdgeSpec> edges_from_json(const nlohmann::json& a, const std::string& what);

/// The causal background knowledge a model is learned with: the user's DAG
/// (or discovery) and the required and forbidden edges.
struct CausalKnowledge {
  bool has_dag = false;
  std::vector<EdgeSpec> dag, required, forbidden;
  static CausalKnowledge of(const ProblemSpec& spec);
  bool operator==(const CausalKnowledge& o) const {
    return has_dag == o.has_dag && dag == o.dag && required == o.required && forbidden == o.forbidden;
  }
  bool operator!=(const CausalKnowledge& o) const { return !(*this == o); }
  nlohmann::json to_json() const;
  /// Throws CorruptCheckpoint on a malformed value.
  static CausalKnowledge from_json(const nlohmann::json& j);
};

class Rescue : public Hvkg {
 public:
  explicit Rescue(const ProblemSpec& spec) : Rescue(spec, RescueOptions::from(spec)) {}
  std::string name() const override { return "rescue"; }
  CausalPrior* causal(const EngineView& view) override;
  nlohmann::json save_state() const override;
  void load_state(const nlohmann::json& state, const EngineView& view) override;
  /// Learns the causal model now, with this knowledge, from the first n_logs
  /// observational rows and the first n_obs observations (used on loading, and
  /// by before_fit).
  void learn(const ProblemSpec& spec, const CausalKnowledge& knowledge,
             const std::vector<std::vector<double>>& observational, std::size_t n_logs,
             const std::vector<Observation>& observations, std::size_t n_obs);

 protected:
  void before_fit(const EngineView& view) override;
  bool causal_objectives(const Eigen::MatrixXd& z, RowMatrix* out) override;
  double causal_weight() const override { return options_.weight; }
  /// The paper's restriction of (x_t, s_t) to configurations that may be
  /// feasible at the target, at a low floor so that the search keeps room.
  double outer_feasibility_floor() const override { return 0.05; }

 private:
  Rescue(const ProblemSpec& spec, const RescueOptions& options);

  RescueOptions options_;
  std::shared_ptr<CausalPrior> prior_;
  std::shared_ptr<CausalPrior> preview_;  // for queries before the strategy learned its own
  std::size_t preview_rows_ = 0;
  CausalKnowledge preview_knowledge_;
  std::size_t learned_at_ = 0;    // observations used by the current causal model
  std::size_t learned_logs_ = 0;  // observational rows used by it
  bool learned_ = false;
  CausalKnowledge learned_knowledge_;  // the user DAG and edge constraints it was learned with
};

/// GP options of the MF-CGP: learned prior scale, offset and weight, or the
/// paper's fixed form (RescueOptions::fixed_prior); hvkg's plain options
/// without the causal mean.
gp::GpOptions mf_cgp_options(const ProblemSpec& spec, const RescueOptions& options);

/// Checks a user DAG or edge constraints against the problem's variables and
/// the structural rules; throws rescue::Error with the first problem found.
void validate_causal_knowledge(const ProblemSpec& spec);

}  // namespace rescue::acq
