// The error of a causal prior at the target fidelity: a model learned from a
// benchmark problem's observational rows, its interventional means against the
// problem's noise-free equations.
#pragma once
#include <cmath>
#include <vector>

#include "causal/causal_performance_model.hpp"
#include "problems/benchmark_problem.hpp"

namespace rescue::causal::testing {

// How the causal model is learned: the problem's true graph (no discovery) or
// PC with the given repair.
struct Setting {
  bool true_graph = true;
  RepairScope repair = RepairScope::Outputs;
  bool interactions = false;
  int max_factor_levels = EquationOptions{}.max_factor_levels;
};

// Mean squared error of the interventional means at the target fidelity over
// uniformly drawn configurations, divided by the outputs' variance there
// (1 is the error of predicting the mean), for each output.
inline std::vector<double> relative_errors(const problems::BenchmarkProblem& problem, const Setting& setting,
                                    std::uint64_t seed) {
  const ProblemSpec& spec = problem.spec();
  const int d = static_cast<int>(spec.options().size()), M = spec.num_objectives(), Q = spec.num_constraints();
  std::vector<Variable> vars;
  for (const auto& o : spec.options()) vars.push_back({o.name, Role::Option});
  vars.push_back({"fidelity", Role::Fidelity});
  for (const auto& z : spec.indicators()) vars.push_back({z, Role::Indicator});
  for (const auto& m : spec.objectives()) vars.push_back({m.name, Role::Objective});
  for (const auto& c : spec.constraints()) vars.push_back({c.name, Role::Constraint});
  Rng rng(seed);
  const int rows = 200, points = 300;
  Eigen::MatrixXd data(rows, static_cast<Eigen::Index>(vars.size()));
  for (int r = 0; r < rows; ++r) {
    const std::vector<double> row = problem.sample_observational(rng);
    for (std::size_t c = 0; c < row.size(); ++c) data(r, static_cast<Eigen::Index>(c)) = row[c];
  }
  CpmOptions options;
  options.seed = seed;
  options.scm.equations.interactions = setting.interactions;
  options.scm.equations.max_factor_levels = setting.max_factor_levels;
  options.repair = setting.repair;
  if (setting.true_graph) {
    options.user_dag.emplace();
    for (const auto& [from, to] : problem.causal_edges()) options.user_dag->push_back({from, to});
  }
  CausalPerformanceModel cpm = learn_cpm(DataTable(vars, data), options);

  Eigen::MatrixXd xs(points, d), truth(points, M + Q);
  const Eigen::VectorXd s = Eigen::VectorXd::Constant(points, spec.fidelity().target);
  std::vector<double> x(static_cast<std::size_t>(d));
  for (int i = 0; i < points; ++i) {
    for (int j = 0; j < d; ++j) {
      const auto& o = spec.options()[static_cast<std::size_t>(j)];
      const double u = rng.uniform(0.0, 1.0);
      double v = o.kind == OptionKind::LogScale ? std::exp(std::log(o.lower) + u * std::log(o.upper / o.lower))
                                                : o.lower + u * (o.upper - o.lower);
      if (o.kind == OptionKind::Integer) v = std::round(v);
      x[static_cast<std::size_t>(j)] = xs(i, j) = v;
    }
    const auto e = problem.evaluate(x.data(), s(i));
    for (int m = 0; m < M; ++m) truth(i, m) = e.y[static_cast<std::size_t>(m)];
    for (int q = 0; q < Q; ++q) truth(i, M + q) = e.g[static_cast<std::size_t>(q)];
  }
  Eigen::MatrixXd mean, sd;
  cpm.model.estimate(xs, s, &mean, &sd);
  std::vector<double> out;
  for (int k = 0; k < M + Q; ++k) {
    const double var = (truth.col(k).array() - truth.col(k).mean()).square().mean();
    out.push_back((mean.col(k) - truth.col(k)).squaredNorm() / points / var);
  }
  return out;
}

}  // namespace rescue::causal::testing
