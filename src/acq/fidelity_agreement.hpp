// How well the observations at each band of fidelities predict the target:
// the check a user runs when a cheap fidelity may mislead. The model's fitted
// hyperparameters, prior mean and output scaling are held; the GP is
// conditioned on one band's observations alone and predicts the observations
// at the target fidelity. A band that holds target observations predicts each
// of them from the band's other rows (leave-one-out), so the band made of the
// target alone is the target-only reference the others are read against.
#pragma once
#include <vector>

#include <Eigen/Dense>

#include "acq/surrogate.hpp"
#include "gp/multi_fidelity_gp.hpp"

namespace rescue::acq {

struct FidelityBand {
  double lower = 0.0, upper = 0.0;  // closed interval, user fidelity units
};

struct FidelityAgreement {
  std::vector<int> rows;  // per band: the successful observations in it
  int target_rows = 0;    // successful observations at the target fidelity
  /// bands x P: root mean square of z = (y - mean) / sd over the target
  /// observations, sd the predictive standard deviation (noise included);
  /// NaN with fewer than 2 predicted values.
  Eigen::MatrixXd rms_z;
  /// bands x P: Spearman rank correlation of predicted means with observed
  /// values at the target (average ranks for ties); NaN with fewer than 3
  /// predicted values or no spread.
  Eigen::MatrixXd rank;
};

/// data: the rows gp was built on (training_set); fidelity: their fidelities
/// in user units, same order; target: the target fidelity.
FidelityAgreement fidelity_agreement(const gp::MultiFidelityGp& gp, const TrainingSet& data,
                                     const std::vector<double>& fidelity, double target,
                                     const std::vector<FidelityBand>& bands);

}  // namespace rescue::acq
