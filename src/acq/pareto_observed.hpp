// The recommendation before any model exists: the non-dominated feasible
// observations at the target fidelity, with their observed values.
#pragma once
#include <vector>

#include "core/observation.hpp"
#include "core/problem_spec.hpp"
#include "acq/strategy.hpp"

namespace rescue::acq {

ParetoSet pareto_of_observations(const ProblemSpec& spec, const std::vector<Observation>& observations);

}  // namespace rescue::acq
