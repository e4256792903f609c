// Shared machinery of the built-in problems: input validation, the optional
// misleading cheap fidelities, noise and the observational sampler. Each problem supplies
// its noise-free model and its noise.
#pragma once
#include <string>
#include <vector>

#include "problems/misleading_fidelity.hpp"
#include "problems/benchmark_problem.hpp"

namespace rescue::problems {

class ModelProblem : public BenchmarkProblem {
 public:
  const std::string& name() const override { return name_; }
  const ProblemSpec& spec() const override { return spec_; }
  Evaluation evaluate(const double* x, double s) const override;
  Evaluation evaluate_noisy(const double* x, double s, Rng& rng) const override;
  std::vector<double> sample_observational(Rng& rng) const override;
  /// The problem's own graph; with misleading cheap fidelities also the edges
  /// they add (misleading_fidelity.hpp): a bias moves every objective with
  /// every option and the fidelity; an input map makes the fidelity a cause of
  /// every output an option causes, and each output an effect of the options
  /// the map feeds into its causes.
  std::vector<std::pair<std::string, std::string>> causal_edges() const override;

  /// Makes the cheap fidelities misleading (see misleading_fidelity.hpp); the
  /// problem's name gains the kind's suffix, except for a bias of strength 0,
  /// which leaves the problem as it is. The strength matters only for the biases.
  void set_misleading(Misleading kind, double strength);
  const MisleadingFidelity& misleading() const { return misleading_; }

 protected:
  ModelProblem(std::string name, std::vector<double> wrong_unit, std::vector<double> bias_scale);
  /// The noise-free model at a validated (x, s).
  virtual Evaluation model(const double* x, double s) const = 0;
  /// Adds the problem's observation noise to a noise-free evaluation.
  virtual void add_noise(Evaluation& e, Rng& rng) const = 0;
  using Edges = std::vector<std::pair<std::string, std::string>>;
  /// Appends cause -> effect for every cause.
  static void add_parents(Edges& edges, const std::string& effect, const std::vector<std::string>& causes);
  /// The graph of the noise-free model (see causal_edges()).
  virtual std::vector<std::pair<std::string, std::string>> model_edges() const = 0;

  ProblemSpec spec_;

 private:
  std::string base_name_, name_;
  MisleadingFidelity misleading_;
};

}  // namespace rescue::problems
