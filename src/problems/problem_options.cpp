#include "problems/problem_options.hpp"

#include <cmath>

#include "util/error.hpp"
#include "util/text.hpp"

namespace rescue::problems {
namespace {

void require_sd(double v, const char* what) {
  if (!std::isfinite(v) || v < 0.0)
    fail(Status::InvalidArgument,
         std::string(what) + " must be a finite standard deviation >= 0 (got " + fmt17(v) + ")");
}

}  // namespace

const std::vector<std::string>& ProblemOptions::keys() {
  static const std::vector<std::string> k = {
      "synthetic_noise", "synthetic_noise_sd", "cancer_threshold", "statin_sd", "cancer_sd", "psa_sd",
      "time_rel_sd",     "energy_sd",          "completion_sd",    "adversarial_bias"};
  return k;
}

void ProblemOptions::validate() const {
  require_sd(synthetic_noise_sd, "synthetic_noise_sd");
  if (!std::isfinite(cancer_threshold)) fail(Status::InvalidArgument, "cancer_threshold must be finite");
  require_sd(statin_sd, "statin_sd");
  require_sd(cancer_sd, "cancer_sd");
  require_sd(psa_sd, "psa_sd");
  require_sd(time_rel_sd, "time_rel_sd");
  require_sd(energy_sd, "energy_sd");
  require_sd(completion_sd, "completion_sd");
  if (!std::isfinite(adversarial_bias) || adversarial_bias < 0.0)
    fail(Status::InvalidArgument, "adversarial_bias must be finite and >= 0");
}

void ProblemOptions::set(const std::string& key, double value) {
  ProblemOptions next = *this;  // validate before committing: unchanged on failure
  if (key == "synthetic_noise") {
    if (value != 0.0 && value != 1.0) fail(Status::InvalidArgument, "synthetic_noise must be 0 or 1");
    next.synthetic_noise = value != 0.0;
  } else if (key == "synthetic_noise_sd") next.synthetic_noise_sd = value;
  else if (key == "cancer_threshold") next.cancer_threshold = value;
  else if (key == "statin_sd") next.statin_sd = value;
  else if (key == "cancer_sd") next.cancer_sd = value;
  else if (key == "psa_sd") next.psa_sd = value;
  else if (key == "time_rel_sd") next.time_rel_sd = value;
  else if (key == "energy_sd") next.energy_sd = value;
  else if (key == "completion_sd") next.completion_sd = value;
  else if (key == "adversarial_bias") next.adversarial_bias = value;
  else
    fail(Status::UnknownName, "unknown problem parameter '" + key + "' (known: " + comma_list(keys()) + ")");
  next.validate();
  *this = next;
}

}  // namespace rescue::problems
