#include "acq/pareto_observed.hpp"

#include "moo/pareto.hpp"

namespace rescue::acq {

ParetoSet pareto_of_observations(const ProblemSpec& spec, const std::vector<Observation>& observations) {
  const int m = spec.num_objectives();
  std::vector<const Observation*> candidates;
  for (const auto& o : observations) {
    if (o.failed || o.s != spec.fidelity().target) continue;
    bool feasible = true;
    for (int q = 0; q < spec.num_constraints(); ++q) feasible = feasible && spec.constraints()[q].feasible(o.g[q]);
    if (feasible) candidates.push_back(&o);
  }
  std::vector<double> points(candidates.size() * m);
  for (std::size_t i = 0; i < candidates.size(); ++i)
    for (int j = 0; j < m; ++j) points[i * m + j] = spec.to_min(j, candidates[i]->y[j]);
  ParetoSet out;
  if (candidates.empty()) return out;
  for (std::size_t i : moo::nondominated_indices(points.data(), candidates.size(), m, nullptr, false)) {
    out.x.push_back(candidates[i]->x);
    out.y.push_back(candidates[i]->y);
  }
  return out;
}

}  // namespace rescue::acq
