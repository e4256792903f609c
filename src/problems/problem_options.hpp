// Parameters of the built-in benchmark problems. Each problem reads only the
// fields that concern it; defaults are the published settings (docs/problems.md).
#pragma once
#include <string>
#include <vector>

namespace rescue::problems {

struct ProblemOptions {
  // Branin-Currin and Park: noise-free unless `synthetic_noise` is set, then each
  // objective gets independent N(0, synthetic_noise_sd^2) noise.
  bool synthetic_noise = false;
  double synthetic_noise_sd = 0.01;

  // Healthcare: constraint Cancer <= cancer_threshold (the appendix's 0.35; the
  // main text uses 0.3) and the observation noise standard deviations.
  double cancer_threshold = 0.35;
  double statin_sd = 0.005;
  double cancer_sd = 0.005;
  double psa_sd = 0.05;

  // Robot stand-in: relative sd of the time noise, sd of the energy and
  // completion noise.
  double time_rel_sd = 0.03;
  double energy_sd = 0.02;
  double completion_sd = 0.02;

  // Strength of the misleading low-fidelity bias (0: none). A name with a
  // bias suffix ("-adversarial", "-jump", "-growing") uses 1 unless this is
  // set to a positive value; on a plain name it makes the problem adversarial.
  double adversarial_bias = 0.0;

  /// Sets a parameter by key (see keys()); throws UnknownName for an unknown key
  /// and InvalidArgument for a value out of its domain (negative sd, non-finite).
  void set(const std::string& key, double value);
  /// The keys accepted by set().
  static const std::vector<std::string>& keys();
  /// Throws InvalidArgument if any field is out of its domain.
  void validate() const;
};

}  // namespace rescue::problems
