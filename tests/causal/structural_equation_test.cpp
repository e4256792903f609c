// The forms of a structural equation against closed forms: ordinary least
// squares solved independently, and noise-free functions the chosen form can
// represent exactly.
#include <gtest/gtest.h>

#include <cmath>

#include "causal/causal_model.hpp"
#include "causal/structural_equation.hpp"
#include "random_matrix.hpp"
#include "util/error.hpp"

using namespace rescue;
using namespace rescue::causal;
using rescue::causal::testing::uniform_matrix;

namespace {

double rms(const Eigen::VectorXd& v) { return std::sqrt(v.squaredNorm() / static_cast<double>(v.size())); }

// y = (0.5 + s) * (x_1 + ... + x_k): one parent (column 0, s in [0, 1])
// scales the effect of every other.
Eigen::VectorXd scaled_sum(const Eigen::MatrixXd& p) {
  Eigen::VectorXd y(p.rows());
  for (Eigen::Index i = 0; i < p.rows(); ++i) y(i) = (0.5 + p(i, 0)) * p.row(i).tail(p.cols() - 1).sum();
  return y;
}

Eigen::MatrixXd scaled_sum_parents(Eigen::Index rows, Eigen::Index options, Rng& rng) {
  Eigen::MatrixXd p = uniform_matrix(rows, options + 1, rng);
  p.col(0) = (p.col(0).array() + 1.0) / 2.0;
  return p;
}

}  // namespace

// Linear data: the linear form is chosen and equals the least-squares
// solution of the normal equations, in the data's units.
TEST(StructuralEquation, LinearFormIsLeastSquares) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    Rng rng(seed);
    const Eigen::Index n = 200;
    Eigen::MatrixXd p = uniform_matrix(n, 3, rng);
    p.col(1) = 10.0 * p.col(1).array() + 4.0;  // units differ from column to column
    Eigen::VectorXd y(n);
    for (Eigen::Index i = 0; i < n; ++i) y(i) = 1.0 + 2.0 * p(i, 0) - 0.3 * p(i, 1) + 0.5 * p(i, 2) + 0.1 * rng.normal();
    EquationOptions options;
    options.interactions = true;
    Rng fit_rng(seed);
    const StructuralEquation eq = StructuralEquation::fit(p, y, options, fit_rng);
    ASSERT_EQ(eq.kind(), StructuralEquation::Kind::Linear) << "seed " << seed;
    EXPECT_TRUE(eq.is_linear());
    Eigen::MatrixXd design(n, 4);
    design << Eigen::VectorXd::Ones(n), p;
    const Eigen::VectorXd ols = design.colPivHouseholderQr().solve(y);
    EXPECT_NEAR(eq.intercept(), ols(0), 1e-5 * (1.0 + std::abs(ols(0))));
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(eq.slopes()(j), ols(j + 1), 1e-5 * (1.0 + std::abs(ols(j + 1))));
    EXPECT_LT(eq.cv_mse_linear(), 0.015);
  }
}

// A noise-free quadratic (a product and a square) is represented exactly by
// the product form: chosen, and its predictions on new points match the
// function; without the option the form is never chosen.
TEST(StructuralEquation, ProductFormRecoversAQuadratic) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    Rng rng(10 + seed);
    auto f = [](const Eigen::MatrixXd& p) {
      return Eigen::VectorXd((p.col(0).array() * p.col(1).array() + 0.5 * p.col(2).array().square() -
                              0.8 * p.col(3).array() + 2.0)
                                 .matrix());
    };
    const Eigen::MatrixXd p = uniform_matrix(150, 4, rng);
    const Eigen::VectorXd y = f(p);
    EquationOptions with, without;
    with.interactions = true;
    Rng r1(seed), r2(seed);
    const StructuralEquation eq = StructuralEquation::fit(p, y, with, r1);
    const StructuralEquation plain = StructuralEquation::fit(p, y, without, r2);
    ASSERT_EQ(eq.kind(), StructuralEquation::Kind::Interactions) << "seed " << seed;
    EXPECT_FALSE(eq.is_linear());
    EXPECT_NE(plain.kind(), StructuralEquation::Kind::Interactions);
    const Eigen::MatrixXd q = uniform_matrix(400, 4, rng);
    EXPECT_LT(rms(eq.predict(q) - f(q)), 0.01) << "seed " << seed;
    // The same folds and the same random features: adding a candidate can only
    // lower the best cross-validated error.
    EXPECT_LE(eq.cv_mse_nonlinear(), plain.cv_mse_nonlinear());
    EXPECT_DOUBLE_EQ(eq.cv_mse_linear(), plain.cv_mse_linear());
  }
}

// The case the form is for: a parent that scales the effects of ten others.
// The product form fits it to the noise; random features of eleven parents
// have at least four times its error.
TEST(StructuralEquation, ProductFormFitsAnEffectOneParentScales) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    Rng rng(20 + seed);
    const Eigen::MatrixXd p = scaled_sum_parents(200, 10, rng);
    Eigen::VectorXd y = scaled_sum(p);
    for (Eigen::Index i = 0; i < y.size(); ++i) y(i) += 0.05 * rng.normal();
    EquationOptions with, without;
    with.interactions = true;
    Rng r1(seed), r2(seed);
    const StructuralEquation eq = StructuralEquation::fit(p, y, with, r1);
    const StructuralEquation plain = StructuralEquation::fit(p, y, without, r2);
    ASSERT_EQ(eq.kind(), StructuralEquation::Kind::Interactions) << "seed " << seed;
    const Eigen::MatrixXd q = scaled_sum_parents(500, 10, rng);
    const double err = rms(eq.predict(q) - scaled_sum(q)), err_plain = rms(plain.predict(q) - scaled_sum(q));
    EXPECT_LT(err, 0.05) << "seed " << seed;
    EXPECT_LT(err, 0.25 * err_plain) << "seed " << seed;
    // Residuals: centered, and their spread is the noise's (0.05), inflated
    // for the degrees of freedom the fit used.
    EXPECT_NEAR(eq.residuals().mean(), 0.0, 1e-10);
    EXPECT_GT(std::sqrt(eq.noise_variance()), 0.04);
    EXPECT_LT(std::sqrt(eq.noise_variance()), 0.08);
  }
}

// Above max_interaction_parents the product form is not tried, and a constant
// parent (a zero column once standardized) does not disturb it.
TEST(StructuralEquation, ProductFormLimitsAndConstantParents) {
  Rng rng(31);
  Eigen::MatrixXd p = uniform_matrix(120, 3, rng);
  const Eigen::VectorXd y = (p.col(0).array() * p.col(1).array()).matrix();
  EquationOptions options;
  options.interactions = true;
  options.max_interaction_parents = 2;
  Rng r1(1);
  EXPECT_NE(StructuralEquation::fit(p, y, options, r1).kind(), StructuralEquation::Kind::Interactions);
  options.max_interaction_parents = 3;
  p.col(2).setConstant(7.0);
  Rng r2(1);
  const StructuralEquation eq = StructuralEquation::fit(p, y, options, r2);
  ASSERT_EQ(eq.kind(), StructuralEquation::Kind::Interactions);
  Eigen::MatrixXd q = uniform_matrix(100, 3, rng);
  q.col(2).setConstant(7.0);
  EXPECT_LT(rms(eq.predict(q) - (q.col(0).array() * q.col(1).array()).matrix()), 0.01);
  EXPECT_TRUE(eq.predict(q).allFinite());
  EXPECT_THROW(eq.predict(q.leftCols(2)), Error);
}

// A parent with three levels that scales the other parents' effects in a way
// no polynomial of degree one in it does (the robot stand-in's clutter:
// 0.35, 0.05 and 1 at s = 0.2, 0.5 and 1), and adds an offset of its own:
// y = k(s) (x1 + x2 x3) + g(s) x4 + h(s). Every term is in the level-by-level
// form, which is chosen and reproduces the noise-free function at each level
// on new points (up to the ridge penalty's shrinkage, 2% of the function's
// spread); the product form alone (max_factor_levels = 2) misses it by at
// least five times as much at every level.
TEST(StructuralEquation, LevelFormFitsEffectsADiscreteParentScales) {
  const double levels[3] = {0.2, 0.5, 1.0};
  auto f = [](const Eigen::MatrixXd& p) {
    Eigen::VectorXd y(p.rows());
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
      const double s = p(i, 0);
      const double k = s == 0.2 ? 0.35 : s == 0.5 ? 0.05 : 1.0;
      const double g = s == 0.2 ? -1.0 : s == 0.5 ? 0.5 : 0.2;
      const double h = s == 0.2 ? 3.0 : s == 0.5 ? 0.0 : 1.0;
      y(i) = k * (p(i, 1) + p(i, 2) * p(i, 3)) + g * p(i, 4) + h;
    }
    return y;
  };
  auto draw = [&](Eigen::Index n, Rng& rng) {
    Eigen::MatrixXd p = uniform_matrix(n, 5, rng);
    for (Eigen::Index i = 0; i < n; ++i) p(i, 0) = levels[rng.below(3)];
    return p;
  };
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    Rng rng(50 + seed);
    const Eigen::MatrixXd p = draw(240, rng);
    const Eigen::VectorXd y = f(p);
    EquationOptions with, without;
    with.interactions = without.interactions = true;
    without.max_factor_levels = 2;
    Rng r1(seed), r2(seed);
    const StructuralEquation eq = StructuralEquation::fit(p, y, with, r1);
    const StructuralEquation plain = StructuralEquation::fit(p, y, without, r2);
    ASSERT_EQ(eq.kind(), StructuralEquation::Kind::LevelInteractions) << "seed " << seed;
    EXPECT_NE(plain.kind(), StructuralEquation::Kind::LevelInteractions);
    EXPECT_FALSE(eq.is_linear());
    for (double s : levels) {
      Eigen::MatrixXd q = uniform_matrix(300, 5, rng);
      q.col(0).setConstant(s);
      const double err = rms(eq.predict(q) - f(q)), err_plain = rms(plain.predict(q) - f(q));
      EXPECT_LT(err, 0.03) << "seed " << seed << ", s = " << s;  // the ridge penalty's shrinkage
      EXPECT_GT(err_plain, 5.0 * err) << "seed " << seed << ", s = " << s;
    }
    EXPECT_LE(eq.cv_mse_nonlinear(), plain.cv_mse_nonlinear());
    EXPECT_DOUBLE_EQ(eq.cv_mse_linear(), plain.cv_mse_linear());
  }
}

// Four and five levels, the factor in a middle column, observations with
// noise: every power up to the levels less one is needed (k and g below are
// no polynomial of lower degree in the level), the fit is within twice the
// noise's spread of the function at each level on new points (the ridge
// penalty shrinks the higher powers: 0.029 at five levels' middle one, the
// worst), and the residuals' spread
// is the noise's (0.02), inflated for the degrees of freedom used.
TEST(StructuralEquation, LevelFormAtFourAndFiveLevels) {
  for (int count : {4, 5}) {
    const std::vector<double> k = {0.3, -0.4, 1.0, 0.1, 0.7}, g = {1.0, 0.2, -0.5, 0.9, -1.0};
    auto f = [&](const Eigen::MatrixXd& p) {
      Eigen::VectorXd y(p.rows());
      for (Eigen::Index i = 0; i < p.rows(); ++i) {
        const auto l = static_cast<std::size_t>(p(i, 2));
        y(i) = k[l] * p(i, 0) * p(i, 1) + g[l] * p(i, 3) + 0.5 * p(i, 0);
      }
      return y;
    };
    Rng rng(80 + static_cast<std::uint64_t>(count));
    Eigen::MatrixXd p = uniform_matrix(400, 4, rng);
    for (Eigen::Index i = 0; i < p.rows(); ++i) p(i, 2) = static_cast<double>(rng.below(static_cast<std::uint64_t>(count)));
    Eigen::VectorXd y = f(p);
    for (Eigen::Index i = 0; i < y.size(); ++i) y(i) += 0.02 * rng.normal();
    EquationOptions options;
    options.interactions = true;
    Rng r1(1);
    const StructuralEquation eq = StructuralEquation::fit(p, y, options, r1);
    ASSERT_EQ(eq.kind(), StructuralEquation::Kind::LevelInteractions) << count << " levels";
    for (int level = 0; level < count; ++level) {
      Eigen::MatrixXd q = uniform_matrix(300, 4, rng);
      q.col(2).setConstant(level);
      EXPECT_LT(rms(eq.predict(q) - f(q)), 0.04) << count << " levels, level " << level;
    }
    EXPECT_GT(std::sqrt(eq.noise_variance()), 0.015) << count << " levels";
    EXPECT_LT(std::sqrt(eq.noise_variance()), 0.03) << count << " levels";
  }
}

// Which parents count as having levels: 3 to max_factor_levels distinct
// values. Two levels are already covered by the product form, a continuous
// parent or one with more levels is not a factor; then the level-by-level
// form is never tried, and fits are those of the product form exactly.
TEST(StructuralEquation, LevelFormOnlyForParentsWithFewLevels) {
  for (int count : {2, 6, 0}) {
    Rng rng(60 + static_cast<std::uint64_t>(count));
    Eigen::MatrixXd p = uniform_matrix(150, 3, rng);
    if (count > 0)
      for (Eigen::Index i = 0; i < p.rows(); ++i) p(i, 0) = static_cast<double>(rng.below(static_cast<std::uint64_t>(count)));
    const Eigen::VectorXd y = (p.col(0).array().square() * p.col(1).array() + p.col(2).array()).matrix();
    EquationOptions with, without;
    with.interactions = without.interactions = true;
    without.max_factor_levels = 0;
    Rng r1(1), r2(1);
    const StructuralEquation eq = StructuralEquation::fit(p, y, with, r1);
    const StructuralEquation ref = StructuralEquation::fit(p, y, without, r2);
    EXPECT_NE(eq.kind(), StructuralEquation::Kind::LevelInteractions) << count << " levels";
    EXPECT_EQ(eq.kind(), ref.kind());
    EXPECT_DOUBLE_EQ(eq.cv_mse_nonlinear(), ref.cv_mse_nonlinear());
    const Eigen::MatrixXd q = uniform_matrix(20, 3, rng);
    EXPECT_EQ(eq.predict(q), ref.predict(q));
  }
  // Six levels are a factor once max_factor_levels allows them.
  Rng rng(70);
  Eigen::MatrixXd p = uniform_matrix(300, 3, rng);
  for (Eigen::Index i = 0; i < p.rows(); ++i) p(i, 0) = static_cast<double>(rng.below(6));
  const Eigen::VectorXd y = ((p.col(0).array() - 2.5).cube() * p.col(1).array() + p.col(2).array()).matrix();
  EquationOptions six;
  six.interactions = true;
  six.max_factor_levels = 6;
  Rng r3(1);
  EXPECT_EQ(StructuralEquation::fit(p, y, six, r3).kind(), StructuralEquation::Kind::LevelInteractions);
}

// The product form inside the causal model: Z = (0.5 + S) * (X1 + X2) + U,
// Y = 2 Z - X3 + V. The interventional mean of Y is 2 (0.5 + s)(x1 + x2) - x3
// and its sd that of 2U + V; the model estimates both by Monte Carlo.
TEST(StructuralEquation, CausalModelWithProductFormMatchesTruth) {
  Rng rng(41);
  const Eigen::Index n = 600;
  const std::vector<Variable> vars = {{"x1", Role::Option},    {"x2", Role::Option},     {"x3", Role::Option},
                                      {"s", Role::Fidelity},   {"z", Role::Indicator},   {"y", Role::Objective}};
  Eigen::MatrixXd data(n, 6);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (int j = 0; j < 3; ++j) data(i, j) = rng.uniform(-1.0, 1.0);
    data(i, 3) = rng.uniform(0.0, 1.0);
    data(i, 4) = (0.5 + data(i, 3)) * (data(i, 0) + data(i, 1)) + 0.1 * rng.normal();
    data(i, 5) = 2.0 * data(i, 4) - data(i, 2) + 0.1 * rng.normal();
  }
  const DataTable table(vars, data);
  Graph dag(vars);
  for (const auto& [from, to] : std::vector<std::pair<int, int>>{{0, 4}, {1, 4}, {3, 4}, {4, 5}, {2, 5}})
    dag.add_directed(from, to);
  ScmOptions options;
  options.equations.interactions = true;
  options.mc_samples = 2048;
  options.seed = 5;
  CausalModel model = CausalModel::fit(table, dag, options);
  ASSERT_EQ(model.equation(4).kind(), StructuralEquation::Kind::Interactions);
  EXPECT_FALSE(model.closed_form(0));
  const Eigen::MatrixXd xs = uniform_matrix(50, 3, rng);
  Eigen::VectorXd s(50);
  for (Eigen::Index i = 0; i < 50; ++i) s(i) = rng.uniform(0.0, 1.0);
  Eigen::MatrixXd mean, sd;
  model.estimate(xs, s, &mean, &sd);
  // Tolerances: the fits' estimation error from 600 rows with noise sd 0.1
  // (about 0.013 for Z, doubled in Y), and the Monte Carlo error of the sd.
  const double sd_true = std::sqrt(4.0 * 0.01 + 0.01);
  Eigen::VectorXd err(50);
  for (Eigen::Index i = 0; i < 50; ++i) {
    err(i) = mean(i, 0) - (2.0 * (0.5 + s(i)) * (xs(i, 0) + xs(i, 1)) - xs(i, 2));
    EXPECT_LT(std::abs(err(i)), 0.12) << "point " << i;
    EXPECT_NEAR(sd(i, 0), sd_true, 0.04) << "point " << i;
  }
  EXPECT_LT(rms(err), 0.05);
}
