// Samples from the multi-fidelity healthcare model of the paper's appendix, as
// printed in the benchmark definitions (Age fixed at 65): options BMI and
// Aspirin, fidelity S, objectives Statin and PSA, constraint metric Cancer.
// Noise (sd 0.005 on Statin and Cancer, 0.05 on PSA) enters each structural
// equation, so it propagates downstream.
#pragma once
#include <Eigen/Dense>
#include <cmath>
#include <vector>

#include "causal/data_table.hpp"
#include "util/rng.hpp"

namespace rescue::causal::testing {

inline std::vector<Variable> healthcare_variables() {
  return {{"BMI", Role::Option},      {"Aspirin", Role::Option}, {"S", Role::Fidelity},
          {"Statin", Role::Objective}, {"Cancer", Role::Constraint}, {"PSA", Role::Objective}};
}

/// One row (BMI, Aspirin, S, Statin, Cancer, PSA) at the given inputs.
inline Eigen::VectorXd healthcare_draw(double bmi, double aspirin, double s, Rng& rng, double noise_scale = 1.0) {
  const double age = 65.0;
  auto sig = [](double u) { return 1.0 / (1.0 + std::exp(-u)); };
  const double statin = sig(s * (-13.0 + 0.1 * age + 0.2 * bmi)) + noise_scale * 0.005 * rng.normal();
  const double cancer =
      sig(s * (2.2 - 0.05 * age + 0.01 * bmi - 0.04 * statin + 0.2 * aspirin)) + noise_scale * 0.005 * rng.normal();
  const double psa = (s + 6.8) * (0.04 * age - 0.15 * bmi + 0.6 * statin + 0.55 * aspirin + cancer) +
                     noise_scale * 0.05 * rng.normal();
  Eigen::VectorXd v(6);
  v << bmi, aspirin, s, statin, cancer, psa;
  return v;
}

/// Observational data: BMI, Aspirin and S uniform, every variable recorded.
inline DataTable healthcare_table(int n, Rng& rng) {
  Eigen::MatrixXd X(n, 6);
  for (int i = 0; i < n; ++i) {
    const double bmi = rng.uniform(20.0, 30.0), aspirin = rng.uniform(0.0, 1.0), s = rng.uniform(0.0, 1.0);
    X.row(i) = healthcare_draw(bmi, aspirin, s, rng).transpose();
  }
  return DataTable(healthcare_variables(), X);
}

}  // namespace rescue::causal::testing
