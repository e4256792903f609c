#include "causal/input_edge_repair.hpp"

#include <algorithm>
#include <cmath>

#include "util/error.hpp"

namespace rescue::causal {

namespace {

Eigen::MatrixXd parent_matrix(const DataTable& table, const std::vector<int>& parents) {
  Eigen::MatrixXd P(table.rows(), static_cast<Eigen::Index>(parents.size()));
  for (std::size_t c = 0; c < parents.size(); ++c) P.col(static_cast<Eigen::Index>(c)) = table.data().col(parents[c]);
  return P;
}

double cv_error(const StructuralEquation& fit, bool has_parents) {
  if (!has_parents) return fit.noise_variance();
  const double lin = fit.cv_mse_linear(), nl = fit.cv_mse_nonlinear();
  return std::isnan(nl) ? lin : std::min(lin, nl);
}

// Relative drop of cross-validated error needed to add an edge.
constexpr double kMinGain = 0.05;

// Candidates cross-validated per round (the best by screen_score).
constexpr int kScreen = 3;

// Cross-validated error of the equation of y on `parents`, with the folds of `folds`.
double cv_error_of(const DataTable& table, const std::vector<int>& parents, const Eigen::VectorXd& y,
                   const EquationOptions& eq, const Rng& folds) {
  Rng rng = folds;
  return cv_error(StructuralEquation::fit(parent_matrix(table, parents), y, eq, rng), !parents.empty());
}

// Share of the residual's variance explained by x, x^2 and x * fitted.
double screen_score(const Eigen::VectorXd& r, const Eigen::VectorXd& x, const Eigen::VectorXd& fitted) {
  const Eigen::Index n = r.size();
  Eigen::MatrixXd A(n, 4);
  const Eigen::ArrayXd xc = x.array() - x.mean();
  const Eigen::ArrayXd fc = fitted.array() - fitted.mean();
  A.col(0).setOnes();
  A.col(1) = xc.matrix();
  A.col(2) = (xc.square() - xc.square().mean()).matrix();
  A.col(3) = (xc * fc).matrix();
  for (Eigen::Index c = 1; c < 4; ++c) {
    const double norm = A.col(c).norm();
    if (norm > 0.0) A.col(c) /= norm;
  }
  const Eigen::VectorXd b = A.colPivHouseholderQr().solve(r);
  const double total = (r.array() - r.mean()).square().sum();
  return total > 0.0 ? 1.0 - (r - A * b).squaredNorm() / total : 0.0;
}

}  // namespace

int repair_input_edges(const DataTable& table, const StructuralConstraints& constraints, Graph* dag,
                       const InputRepairOptions& options, Rng& rng) {
  if (!dag) fail(Status::NullPointer, "input edge repair: null graph");
  EquationOptions eq = options.equations;
  if (options.scope == RepairScope::None || !eq.allow_nonlinear || table.rows() < kMinRowsNonlinear) return 0;
  std::vector<int> inputs = table.columns_with_role(Role::Option);
  if (table.fidelity_column() >= 0) inputs.push_back(table.fidelity_column());
  const std::vector<int> indicators = table.columns_with_role(Role::Indicator);
  std::vector<int> outputs = table.columns_with_role(Role::Objective);
  for (int c : table.columns_with_role(Role::Constraint)) outputs.push_back(c);
  // (variable, its candidate parents); indicators before outputs.
  std::vector<std::pair<int, std::vector<int>>> targets;
  std::vector<int> output_candidates = inputs;
  if (options.scope == RepairScope::All) {
    for (int v : indicators) targets.emplace_back(v, inputs);
    output_candidates.insert(output_candidates.end(), indicators.begin(), indicators.end());
  }
  for (int v : outputs) targets.emplace_back(v, output_candidates);
  int added = 0;
  for (const auto& [v, candidates] : targets) {
    const Rng base = rng.split();  // the same folds for every comparison at v
    const Eigen::VectorXd y = table.data().col(v);
    std::vector<int> parents = dag->parents(v);
    while (true) {
      Rng fit_rng = base;
      const Eigen::MatrixXd P = parent_matrix(table, parents);
      const StructuralEquation fit = StructuralEquation::fit(P, y, eq, fit_rng);
      const double current = cv_error(fit, !parents.empty());
      const Eigen::VectorXd fitted = fit.predict(P);
      const Eigen::VectorXd r = y - fitted;
      std::vector<std::pair<double, int>> ranked;
      for (int i : candidates)
        if (!dag->adjacent(i, v) && constraints.allowed(i, v))
          ranked.emplace_back(-screen_score(r, table.data().col(i), fitted), i);
      std::sort(ranked.begin(), ranked.end());
      if (static_cast<int>(ranked.size()) > kScreen) ranked.resize(kScreen);
      int best_input = -1;
      double best = current;
      for (const auto& [score, i] : ranked) {
        std::vector<int> trial = parents;
        trial.push_back(i);
        std::sort(trial.begin(), trial.end());
        const double e = cv_error_of(table, trial, y, eq, base);
        if (e < best) {
          best = e;
          best_input = i;
        }
      }
      if (best_input < 0 || !(best < (1.0 - kMinGain) * current)) break;
      dag->add_directed(best_input, v);
      parents = dag->parents(v);
      ++added;
    }
  }
  return added;
}

}  // namespace rescue::causal
