// One structural equation V = f_V(Pa(V)) + U_V of the causal performance model
// (paper, Background: V_i = f_i(Pa(V_i), U_i)). f_V is either linear least
// squares, random-feature ridge regression (a cheap stand-in for a small GP:
// random Fourier features of an RBF kernel plus linear terms) or
// ridge regression on the parents and their pairwise products, chosen by K-fold
// cross-validation; U_V is the empirical distribution of the residuals.
// The product form is there for effects that one parent scales: a fidelity
// that multiplies the effects of many options is a sum of products, which a
// product basis fits exactly and 64 random features fit poorly once the
// parents number ten or so. A parent with only a few distinct values (a
// discrete fidelity's levels) can scale effects in any way from level to
// level: there the product form of the other parents is also fitted once per
// level (its terms times the powers of that parent up to the number of levels
// less one, which interpolate any function of the level), shrunk together by
// the ridge penalty.
#pragma once
#include <Eigen/Dense>
#include <cstdint>

#include "util/rng.hpp"

namespace rescue::causal {

/// Below this many rows only the linear form is tried.
constexpr int kMinRowsNonlinear = 30;

struct EquationOptions {
  bool allow_nonlinear = true;
  /// Also try the pairwise-product form (when it has at most
  /// max_interaction_parents parents).
  bool interactions = false;
  int max_interaction_parents = 16;
  /// With interactions: a parent with 3 to max_factor_levels distinct values
  /// also gets the level-by-level product form (see above).
  int max_factor_levels = 5;
};

class StructuralEquation {
 public:
  enum class Kind { Constant, Linear, RandomFeatures, Interactions, LevelInteractions };

  StructuralEquation() = default;

  /// Fits y on the columns of parents (n x k, k may be 0). Needs n >= 2.
  static StructuralEquation fit(const Eigen::MatrixXd& parents, const Eigen::VectorXd& y, const EquationOptions& options,
                                Rng& rng);

  Kind kind() const { return kind_; }
  /// True when f is affine in the parents (intercept() and slopes() are all of it).
  bool is_linear() const { return kind_ == Kind::Constant || kind_ == Kind::Linear; }
  /// f(parents) for each row of p (rows x k).
  Eigen::VectorXd predict(const Eigen::MatrixXd& p) const;
  /// Intercept and slopes in the data's units; the whole f for Kind::Linear and
  /// Kind::Constant.
  double intercept() const { return intercept_; }
  const Eigen::VectorXd& slopes() const { return slopes_; }
  /// Centered residuals, inflated for the degrees of freedom used by the fit.
  const Eigen::VectorXd& residuals() const { return residuals_; }
  /// Variance of the residual distribution (mean of squared residuals).
  double noise_variance() const { return residuals_.size() ? residuals_.squaredNorm() / residuals_.size() : 0.0; }
  /// Cross-validated mean squared errors of the linear form and of the best
  /// nonlinear one (NaN if not computed).
  double cv_mse_linear() const { return cv_linear_; }
  double cv_mse_nonlinear() const { return cv_nonlinear_; }

 private:
  Kind kind_ = Kind::Constant;
  double intercept_ = 0.0;
  Eigen::VectorXd slopes_;       // data units (Linear), standardized units (RandomFeatures, Interactions)
  Eigen::RowVectorXd mean_, sd_;  // parent standardization
  Eigen::MatrixXd omega_;        // k x D frequencies
  Eigen::RowVectorXd phase_;     // D phases
  Eigen::VectorXd theta_;        // D feature weights, or the product weights (Interactions, LevelInteractions)
  int factor_ = -1;              // LevelInteractions: the parent with few levels
  int factor_degree_ = 0;        // LevelInteractions: its number of levels less one
  Eigen::VectorXd residuals_;
  double cv_linear_ = 0.0, cv_nonlinear_ = 0.0;
};

}  // namespace rescue::causal
