#include "causal/input_edge_repair.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "util/error.hpp"

namespace rescue::causal {

namespace {

double cv_error(const DataTable& table, int v, const std::vector<int>& parents, const EquationOptions& eq, Rng rng) {
  Eigen::MatrixXd P(table.rows(), static_cast<Eigen::Index>(parents.size()));
  for (std::size_t c = 0; c < parents.size(); ++c) P.col(static_cast<Eigen::Index>(c)) = table.data().col(parents[c]);
  const StructuralEquation fit = StructuralEquation::fit(P, table.data().col(v), eq, rng);
  if (parents.empty()) return fit.noise_variance();
  const double lin = fit.cv_mse_linear(), nl = fit.cv_mse_nonlinear();
  return std::isnan(nl) ? lin : std::min(lin, nl);
}

}  // namespace

int repair_input_edges(const DataTable& table, const StructuralConstraints& constraints, Graph* dag,
                       const InputRepairOptions& options, Rng& rng) {
  if (!dag) fail(Status::NullPointer, "input edge repair: null graph");
  EquationOptions eq = options.equations;
  if (!eq.allow_nonlinear || table.rows() < eq.min_rows_nonlinear) return 0;
  std::vector<int> inputs = table.columns_with_role(Role::Option);
  if (table.fidelity_column() >= 0) inputs.push_back(table.fidelity_column());
  std::vector<int> outputs = table.columns_with_role(Role::Objective);
  for (int c : table.columns_with_role(Role::Constraint)) outputs.push_back(c);
  int added = 0;
  for (int v : outputs) {
    const Rng base = rng.split();  // the same folds for every comparison at v
    std::vector<int> parents = dag->parents(v);
    double current = cv_error(table, v, parents, eq, base);
    while (true) {
      int best_input = -1;
      double best = current;
      for (int i : inputs) {
        if (dag->adjacent(i, v) || !constraints.allowed(i, v)) continue;
        std::vector<int> trial = parents;
        trial.push_back(i);
        std::sort(trial.begin(), trial.end());
        const double e = cv_error(table, v, trial, eq, base);
        if (e < best) {
          best = e;
          best_input = i;
        }
      }
      if (best_input < 0 || !(best < (1.0 - options.min_gain) * current)) break;
      dag->add_directed(best_input, v);
      parents = dag->parents(v);
      current = best;
      ++added;
    }
  }
  return added;
}

}  // namespace rescue::causal
