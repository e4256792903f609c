#include <algorithm>

#include "acq/ehvi.hpp"
#include "acq/hvkg.hpp"
#include "acq/random_strategy.hpp"
#include "acq/rescue_strategy.hpp"
#include "acq/strategy.hpp"

namespace rescue::acq {

std::unique_ptr<Strategy> make_strategy(const std::string& name, const ProblemSpec& spec) {
  if (name == "random") return std::make_unique<RandomStrategy>(name, FidelityLaw::Uniform);
  if (name == "cost-aware-random") return std::make_unique<RandomStrategy>(name, FidelityLaw::InverseCost);
  if (name == "rescue") return std::make_unique<Rescue>(spec);
  if (name == "hvkg") return std::make_unique<Hvkg>(spec);
  if (name == "ehvi") return std::make_unique<Ehvi>(spec);
  if (name == "momf") return std::make_unique<Momf>(spec);
  fail(Status::UnknownName, "unknown strategy '" + name + "'");
}

}  // namespace rescue::acq
