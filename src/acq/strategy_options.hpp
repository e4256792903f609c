// The strategy parameters (core/parameters.cpp, rescue_problem_set_param)
// parsed once per strategy into typed options. The parameter table holds every
// default; nothing here repeats one.
#pragma once
#include <cstddef>

#include "acq/candidate_search.hpp"
#include "causal/causal_performance_model.hpp"
#include "core/problem_spec.hpp"

namespace rescue::acq {

/// The outer search of every model strategy (acq.starts, acq.refine,
/// acq.refine_evals), at any cost (SearchOptions::within restricts it).
SearchOptions search_options(const ProblemSpec& spec);

/// The knowledge gradient of hvkg and rescue (paper, C-HVKG).
struct HvkgOptions {
  int fantasies = 0;                  ///< kg.fantasies: K fantasy samples
  std::size_t set_size = 0;           ///< kg.set_size: P, the inner maximization's set
  int pool = 0;                       ///< kg.pool: Sobol points of the inner pool
  std::size_t feasible_pool = 0;      ///< kg.feasible_pool: predicted-feasible pool size sought
  double feasibility_threshold = 0;   ///< feasibility.threshold: to enter the inner pool
  double zero_gain = 0;               ///< kg.zero_gain: relative gain that counts as none
  SearchOptions search;               ///< the outer search (search_options)
  static HvkgOptions from(const ProblemSpec& spec);
};

/// The expected hypervolume improvement of ehvi and momf.
struct EhviOptions {
  int mc_samples = 0;                 ///< acq.mc_samples: Monte Carlo samples beyond two objectives
  SearchOptions search;               ///< the outer search (search_options)
  static EhviOptions from(const ProblemSpec& spec);
};

/// The RESCUE strategy's causal model and prior.
struct RescueOptions {
  double weight = 0;                  ///< rescue.weight: w of HV_CI in C-HVKG
  bool fixed_prior = false;           ///< rescue.fixed_prior: the paper's fixed MF-CGP form
  bool prior_mean = false;            ///< rescue.prior_mean (the fixed form implies it)
  bool causal_kernel = false;         ///< rescue.causal_kernel (the fixed form implies it)
  causal::DiscoveryMethod discovery = causal::DiscoveryMethod::PC;  ///< rescue.discovery
  double alpha = 0;                   ///< rescue.alpha: PC's significance level
  causal::RepairScope repair = causal::RepairScope::None;  ///< rescue.repair
  std::size_t relearn_every = 0;      ///< rescue.relearn_every: N_l of Algorithm 1
  static RescueOptions from(const ProblemSpec& spec);

  /// Whether the causal estimates are the GP's prior mean (MF-CGP).
  bool causal_mean() const { return prior_mean || fixed_prior; }
  /// Whether sigma(x, s) sigma(x', s') enters the GP's kernel.
  bool kernel_term() const { return causal_kernel || fixed_prior; }
};

}  // namespace rescue::acq
