#include "acq/strategy_options.hpp"

namespace rescue::acq {
namespace {

// Counts, switches and choices hold whole numbers (the table's domains).
int whole(double v) { return static_cast<int>(v); }
bool on(double v) { return v != 0.0; }

}  // namespace

SearchOptions search_options(const ProblemSpec& spec) {
  SearchOptions o;
  o.starts = whole(spec.param("acq.starts"));
  o.refine = whole(spec.param("acq.refine"));
  o.refine_evals = whole(spec.param("acq.refine_evals"));
  return o;
}

HvkgOptions HvkgOptions::from(const ProblemSpec& spec) {
  HvkgOptions o;
  o.fantasies = whole(spec.param("kg.fantasies"));
  o.set_size = static_cast<std::size_t>(whole(spec.param("kg.set_size")));
  o.pool = whole(spec.param("kg.pool"));
  o.feasible_pool = static_cast<std::size_t>(whole(spec.param("kg.feasible_pool")));
  o.feasibility_threshold = spec.param("feasibility.threshold");
  o.zero_gain = spec.param("kg.zero_gain");
  o.search = search_options(spec);
  return o;
}

EhviOptions EhviOptions::from(const ProblemSpec& spec) {
  EhviOptions o;
  o.mc_samples = whole(spec.param("acq.mc_samples"));
  o.search = search_options(spec);
  return o;
}

RescueOptions RescueOptions::from(const ProblemSpec& spec) {
  RescueOptions o;
  o.weight = spec.param("rescue.weight");
  o.fixed_prior = on(spec.param("rescue.fixed_prior"));
  o.prior_mean = on(spec.param("rescue.prior_mean"));
  o.causal_kernel = on(spec.param("rescue.causal_kernel"));
  o.discovery = on(spec.param("rescue.discovery")) ? causal::DiscoveryMethod::DirectLiNGAM : causal::DiscoveryMethod::PC;
  o.alpha = spec.param("rescue.alpha");
  const double repair = spec.param("rescue.repair");
  o.repair = repair == 0.0   ? causal::RepairScope::None
             : repair >= 2.0 ? causal::RepairScope::All
                             : causal::RepairScope::Outputs;
  o.relearn_every = static_cast<std::size_t>(whole(spec.param("rescue.relearn_every")));
  return o;
}

}  // namespace rescue::acq
