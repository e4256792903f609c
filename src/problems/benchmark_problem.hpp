// A built-in benchmark problem: its definition (a ProblemSpec), a noise-free
// evaluation, a noisy one, and a sampler of observational data for the causal
// model. Definitions follow docs/problems.md (the exact formulas).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/problem_spec.hpp"
#include "problems/problem_options.hpp"
#include "util/rng.hpp"

namespace rescue::problems {

/// What one evaluation measures, in user units and sense.
struct Evaluation {
  std::vector<double> y;  // objectives (M)
  std::vector<double> g;  // constraint metrics (Q)
  std::vector<double> z;  // indicators (K)
};

class BenchmarkProblem {
 public:
  virtual ~BenchmarkProblem() = default;
  virtual const std::string& name() const = 0;
  /// Options, fidelity, cost model, objectives (with sense), constraints,
  /// indicators and reference point (in the objectives' own sense).
  virtual const ProblemSpec& spec() const = 0;
  /// Noise-free evaluation at (x, s); x in user units, s a valid fidelity.
  virtual Evaluation evaluate(const double* x, double s) const = 0;
  /// Evaluation with the problem's observation noise.
  virtual Evaluation evaluate_noisy(const double* x, double s, Rng& rng) const = 0;
  /// One row of observational data: options (d), fidelity, indicators (K),
  /// objectives (M), constraint metrics (Q), in that order; noisy.
  virtual std::vector<double> sample_observational(Rng& rng) const = 0;
  /// The causal graph the problem's equations define, as (cause, effect) name
  /// pairs over the variables of the causal model: the options, "fidelity",
  /// the indicators, objectives and constraint metrics. Where an effect runs
  /// through a variable the structural tiers do not let cause it (the
  /// robot's risk, a constraint metric, inside its recoveries, an indicator),
  /// the edges come from that variable's own parents instead.
  virtual std::vector<std::pair<std::string, std::string>> causal_edges() const = 0;
  /// Option values that can replace a configuration's own without loss at the
  /// target fidelity: for every configuration x, setting all of these (index,
  /// value) pairs leaves each objective no worse and each constraint metric no
  /// nearer to violation. The maximum-hypervolume search then holds them
  /// fixed and searches the other options only, since the projection of any
  /// Pareto-optimal configuration is feasible and at least as good. Empty
  /// (the default) when the problem states none.
  virtual std::vector<std::pair<int, double>> target_fixed_options() const { return {}; }
};

/// One observational row as the built-in problems draw it: options uniform on
/// their bounds (integers uniform among the integers), the fidelity uniform on
/// its range or among its levels, and the problem's noisy evaluation there.
std::vector<double> sample_uniform_row(const BenchmarkProblem& problem, Rng& rng);
/// n rows of observational data (BenchmarkProblem::sample_observational) drawn
/// in turn from `rng`, concatenated row after row.
std::vector<double> sample_observational(const BenchmarkProblem& problem, int n, Rng& rng);
/// The same from one generator seeded with `seed`.
std::vector<double> sample_observational(const BenchmarkProblem& problem, int n, std::uint64_t seed);

/// Builds a built-in problem by name; throws Error(UnknownName) for an unknown one.
std::unique_ptr<BenchmarkProblem> make_problem(const std::string& name);
/// Same, with problem parameters (noise, healthcare threshold, adversarial
/// bias); a name with a suffix of misleading_suffixes() ("-adversarial",
/// "-jump", "-growing", "-reflected", "-unrelated") makes the cheap fidelities
/// mislead that way (misleading_fidelity.hpp), a bias with strength
/// options.adversarial_bias, or 1 if unset.
std::unique_ptr<BenchmarkProblem> make_problem(const std::string& name, const ProblemOptions& options);
/// Names accepted by make_problem: the four problems, then their misleading variants, suffix by suffix.
const std::vector<std::string>& problem_names();

}  // namespace rescue::problems
