#include "acq/fidelity_agreement.hpp"

#include <cmath>
#include <limits>
#include <optional>

#include "util/error.hpp"
#include "util/rank_correlation.hpp"

namespace rescue::acq {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Predictive mean and variance (noise included) at Z from the GP conditioned
// on the given rows; false when those rows observe nothing.
bool predict_from(const gp::MultiFidelityGp& gp, const TrainingSet& data, const std::vector<Eigen::Index>& rows,
                  const Eigen::MatrixXd& Z, Eigen::MatrixXd& mean, Eigen::MatrixXd& var) {
  if (rows.empty()) return false;
  const Eigen::MatrixXd Y = data.Y(rows, Eigen::all);
  if (!Y.array().isFinite().any()) return false;
  gp.conditioned_on(data.X(rows, Eigen::all), Y).posterior_mean_variance(Z, mean, var, true);
  // An output the rows never observe is predicted only through the others: not the band's own figure.
  for (Eigen::Index p = 0; p < Y.cols(); ++p)
    if (!Y.col(p).array().isFinite().any()) mean.col(p).setConstant(kNaN);
  return true;
}

}  // namespace

FidelityAgreement fidelity_agreement(const gp::MultiFidelityGp& model, const TrainingSet& data,
                                     const std::vector<double>& fidelity, double target,
                                     const std::vector<FidelityBand>& bands) {
  // A band is judged as if it spoke for the target: the model's learned
  // target correlation (gp::GpOptions::target_fidelity) is set to its upper
  // bound, near 1. At its learned value a band that mirrors the target would
  // predict it well through a negative correlation, which is what the model
  // makes of the band, but not what the check asks of it.
  std::optional<gp::MultiFidelityGp> linked;
  if (const int k = model.layout().target_link_offset(); k >= 0) {
    Eigen::VectorXd lo, hi;
    model.layout().bounds(1e-6, lo, hi);
    gp::Hyperparameters h = model.hyperparameters();
    h.target_link = hi[k];
    linked.emplace(model);
    linked->set_hyperparameters(h);
  }
  const gp::MultiFidelityGp& gp = linked ? *linked : model;
  const Eigen::Index n = data.X.rows(), P = data.Y.cols();
  std::vector<Eigen::Index> at_target;
  for (Eigen::Index i = 0; i < n; ++i)
    if (fidelity[static_cast<std::size_t>(i)] == target) at_target.push_back(i);
  const Eigen::Index T = static_cast<Eigen::Index>(at_target.size());
  const Eigen::MatrixXd Z = data.X(at_target, Eigen::all);
  const Eigen::MatrixXd Yt = data.Y(at_target, Eigen::all);

  FidelityAgreement out;
  out.target_rows = static_cast<int>(T);
  const Eigen::Index B = static_cast<Eigen::Index>(bands.size());
  out.rms_z = Eigen::MatrixXd::Constant(B, P, kNaN);
  out.rank = out.rms_z;
  for (Eigen::Index b = 0; b < B; ++b) {
    const FidelityBand& band = bands[static_cast<std::size_t>(b)];
    std::vector<Eigen::Index> in;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double s = fidelity[static_cast<std::size_t>(i)];
      if (s >= band.lower && s <= band.upper) in.push_back(i);
    }
    out.rows.push_back(static_cast<int>(in.size()));
    Eigen::MatrixXd mean = Eigen::MatrixXd::Constant(T, P, kNaN), var = mean;
    if (target < band.lower || target > band.upper) {
      if (T > 0) predict_from(gp, data, in, Z, mean, var);
    } else {
      // The band holds the target rows: each is predicted from the band's others.
      for (Eigen::Index t = 0; t < T; ++t) {
        std::vector<Eigen::Index> others;
        for (Eigen::Index i : in)
          if (i != at_target[static_cast<std::size_t>(t)]) others.push_back(i);
        Eigen::MatrixXd m, v;
        if (!predict_from(gp, data, others, Z.row(t), m, v)) continue;
        mean.row(t) = m.row(0);
        var.row(t) = v.row(0);
      }
    }
    if (mean.array().isInf().any() || var.array().isInf().any())
      fail(Status::Numerical, "the model's predictions of the target overflowed (are the outputs of extreme magnitude? "
                              "rescale them)");
    for (Eigen::Index p = 0; p < P; ++p) {
      std::vector<double> y, mu;
      double z2 = 0.0;
      for (Eigen::Index t = 0; t < T; ++t) {
        if (std::isnan(Yt(t, p)) || std::isnan(mean(t, p)) || !(var(t, p) > 0.0)) continue;
        const double z = (Yt(t, p) - mean(t, p)) / std::sqrt(var(t, p));
        z2 += z * z;
        y.push_back(Yt(t, p));
        mu.push_back(mean(t, p));
      }
      if (y.size() >= 2) out.rms_z(b, p) = std::sqrt(z2 / static_cast<double>(y.size()));
      if (y.size() >= 3) out.rank(b, p) = spearman(mu, y);
    }
  }
  return out;
}

}  // namespace rescue::acq
