// The target correlation gamma (GpOptions::target_fidelity): a valid kernel for
// every gamma, learned from the target's rows (faithful, mirrored and unrelated
// cheap fidelities), and its posterior draws against the posterior evaluated by
// brute force on a fine grid.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "gp/kernel.hpp"
#include "gp/multi_fidelity_gp.hpp"
#include "gp_test_support.hpp"
#include "util/error.hpp"

namespace rescue::gp {
namespace {

TEST(TargetCorrelation, EveryGammaGivesAPositiveSemidefiniteGram) {
  Rng rng(31);
  Eigen::MatrixXd X = testing::uniform_matrix(40, 3, rng);
  for (Eigen::Index i = 0; i < X.rows(); i += 3) X(i, 2) = 1.0;
  const Eigen::Vector3d log_ls(std::log(0.3), std::log(0.4), std::log(0.5));
  const auto at = at_target(X, 1.0);
  ASSERT_EQ(at.count(), 14);
  for (double gamma : {-1.0, -0.6, 0.0, 0.4, 0.9, 1.0}) {
    Eigen::MatrixXd K = input_fidelity_kernel(X, X, log_ls);
    const Eigen::MatrixXd K0 = K;
    scale_target_pairs(K, at, at, gamma);
    for (Eigen::Index j = 0; j < K.cols(); ++j)
      for (Eigen::Index i = 0; i < K.rows(); ++i)
        EXPECT_DOUBLE_EQ(K(i, j), K0(i, j) * (at[i] != at[j] ? gamma : 1.0));
    const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K).eigenvalues();
    EXPECT_GE(ev.minCoeff(), -1e-10) << "gamma " << gamma;
  }
  // A factor that is not of the form gamma for pairs across the target (here:
  // -1 between two cheap rows) breaks positive semidefiniteness on the same
  // points, so the check above can fail.
  Eigen::MatrixXd K = input_fidelity_kernel(X, X, log_ls);
  K(1, 2) = K(2, 1) = -K(1, 2);
  K(4, 5) = K(5, 4) = -K(4, 5);
  EXPECT_LT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K).eigenvalues().minCoeff(), -1e-6);
}

// Cheap rows (s in [0, 0.5]) follow g(x); the target rows follow target(x).
struct TwoSources {
  Eigen::MatrixXd X, Y;
};

template <class Cheap, class Target>
TwoSources two_sources(int cheap, int at_target, Cheap g, Target f, Rng& rng) {
  TwoSources d;
  d.X = testing::uniform_matrix(cheap + at_target, 2, rng);
  d.Y.resize(d.X.rows(), 1);
  for (Eigen::Index i = 0; i < d.X.rows(); ++i) {
    const bool target = i >= cheap;
    if (target) d.X(i, 1) = 1.0; else d.X(i, 1) *= 0.5;
    d.Y(i, 0) = (target ? f(d.X(i, 0)) : g(d.X(i, 0))) + 0.01 * rng.normal();
  }
  return d;
}

MultiFidelityGp fitted(const TwoSources& d, unsigned seed) {
  GpOptions o;
  o.target_fidelity = 1.0;
  MultiFidelityGp gp(2, 1, o);
  gp.set_data(d.X, d.Y);
  Rng rng(seed);
  gp.fit(rng);
  return gp;
}

TEST(TargetCorrelation, IsLearnedFromAFewTargetRows) {
  auto g = [](double x) { return std::sin(6.0 * x); };
  Rng rng(8);
  const TwoSources faithful = two_sources(30, 6, g, g, rng);
  const TwoSources mirrored = two_sources(30, 6, g, [&](double x) { return -g(x); }, rng);
  const TwoSources unrelated = two_sources(30, 6, g, [](double x) { return std::cos(11.0 * x + 1.0); }, rng);
  const double faithful_gamma = fitted(faithful, 1).hyperparameters().target_correlation();
  const MultiFidelityGp mirror = fitted(mirrored, 1);
  const double mirrored_gamma = mirror.hyperparameters().target_correlation();
  const double unrelated_gamma = fitted(unrelated, 1).hyperparameters().target_correlation();
  std::cout << "learned gamma: faithful " << faithful_gamma << ", mirrored " << mirrored_gamma << ", unrelated "
            << unrelated_gamma << "\n";
  EXPECT_GT(faithful_gamma, 0.95);
  EXPECT_LT(mirrored_gamma, -0.9);
  EXPECT_LT(std::abs(unrelated_gamma), 0.7);
  // The mirrored cheap rows predict the target through gamma: the target's
  // posterior mean away from its six rows is -g.
  Eigen::MatrixXd Z(50, 2);
  double worst = 0.0;
  for (Eigen::Index i = 0; i < Z.rows(); ++i) Z(i, 0) = (i + 0.5) / Z.rows(), Z(i, 1) = 1.0;
  const Eigen::MatrixXd mean = mirror.posterior_mean(Z);
  for (Eigen::Index i = 0; i < Z.rows(); ++i) worst = std::max(worst, std::abs(mean(i, 0) + g(Z(i, 0))));
  EXPECT_LT(worst, 0.15);
}

TEST(TargetCorrelation, DrawsFollowThePosteriorOnAFineGrid) {
  auto g = [](double x) { return std::sin(6.0 * x); };
  Rng rng(12);
  // Two target rows: a posterior that is wide and skewed, not a point mass.
  const TwoSources d = two_sources(25, 2, g, [&](double x) { return 0.5 * g(x) + 0.4 * std::cos(9.0 * x); }, rng);
  const MultiFidelityGp gp = fitted(d, 3);
  const int k = gp.layout().target_link_offset();
  ASSERT_GE(k, 0);
  Eigen::VectorXd lo, hi;
  gp.layout().bounds(1e-6, lo, hi);
  // Brute force: the posterior mean of gamma and P(gamma < 0.8) on a grid 40 times finer.
  const int fine = 40 * MultiFidelityGp::kTargetLinkCells;
  Eigen::VectorXd theta = gp.layout().pack(gp.hyperparameters());
  std::vector<double> logp(fine);
  double top = -HUGE_VAL;
  for (int c = 0; c < fine; ++c) {
    theta[k] = lo[k] + (c + 0.5) * (hi[k] - lo[k]) / fine;
    logp[c] = gp.objective(theta, nullptr, true);
    top = std::max(top, logp[c]);
  }
  double mass = 0.0, mean_gamma = 0.0, below = 0.0;
  for (int c = 0; c < fine; ++c) {
    const double w = std::exp(logp[c] - top), t = lo[k] + (c + 0.5) * (hi[k] - lo[k]) / fine;
    mass += w;
    mean_gamma += w * std::tanh(t);
    if (std::tanh(t) < 0.8) below += w;
  }
  mean_gamma /= mass;
  below /= mass;
  ASSERT_GT(below, 0.05);
  ASSERT_LT(below, 0.95);

  Rng draw_rng(5);
  const int draws = 400;
  double sum = 0.0, count_below = 0.0;
  for (int i = 0; i < draws; ++i) {
    const double t = gp.sample_target_link(draw_rng);
    ASSERT_GE(t, lo[k]);
    ASSERT_LE(t, hi[k]);
    sum += std::tanh(t);
    if (std::tanh(t) < 0.8) count_below += 1.0;
  }
  std::cout << "posterior of gamma: mean " << mean_gamma << " (draws " << sum / draws << "), P(gamma < 0.8) "
            << below << " (draws " << count_below / draws << ")\n";
  // Three standard errors of 400 draws: about 0.015 for the mean, 0.047 for the probability.
  EXPECT_NEAR(sum / draws, mean_gamma, 0.03);
  EXPECT_NEAR(count_below / draws, below, 0.05);
  // Deterministic given the generator.
  Rng a(77), b(77);
  EXPECT_EQ(gp.sample_target_link(a), gp.sample_target_link(b));
}

TEST(TargetCorrelation, IsAbsentWithoutATargetAndRejectsAnInfiniteOne) {
  MultiFidelityGp plain(2, 1);
  EXPECT_EQ(plain.layout().target_link_offset(), -1);
  Rng rng(1);
  plain.set_data(Eigen::MatrixXd::Random(4, 2), Eigen::MatrixXd::Random(4, 1));
  EXPECT_THROW(plain.sample_target_link(rng), Error);
  GpOptions o;
  o.target_fidelity = std::numeric_limits<double>::infinity();
  EXPECT_THROW(MultiFidelityGp(2, 1, o), Error);
}

}  // namespace
}  // namespace rescue::gp
