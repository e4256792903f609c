#include <algorithm>

#include "acq/random_strategy.hpp"
#include "acq/strategy.hpp"

namespace rescue::acq {

std::unique_ptr<Strategy> make_strategy(const std::string& name, const ProblemSpec& spec) {
  if (name == "random") return std::make_unique<RandomStrategy>(name, FidelityLaw::Uniform);
  if (name == "cost-aware-random") return std::make_unique<RandomStrategy>(name, FidelityLaw::InverseCost);
  fail(Status::UnknownName, "unknown strategy '" + name + "'");
}

}  // namespace rescue::acq
