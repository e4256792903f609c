// NSGA-II (Deb, Pratap, Agarwal & Meyarivan 2002): elitist multi-objective
// genetic algorithm with fast non-dominated sorting, crowding distance,
// binary tournament by the crowded-comparison operator, simulated binary
// crossover (SBX) and polynomial mutation, and constrained domination
// (feasible beats infeasible, infeasible points compare by total violation).
// All objectives are minimized.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "util/rng.hpp"

namespace rescue::moo {

/// Evaluates x (n_var values): writes n_obj objectives to f (minimized) and
/// the total constraint violation to *violation (0 = feasible; it is preset
/// to 0, so unconstrained problems may leave it alone).
using Nsga2Objective = std::function<void(const double* x, double* f, double* violation)>;

struct Nsga2Problem {
  std::size_t n_var = 0;
  std::size_t n_obj = 0;
  std::vector<double> lower;  ///< n_var lower bounds
  std::vector<double> upper;  ///< n_var upper bounds (>= lower)
  std::vector<bool> integer;  ///< empty, or n_var flags: variable takes integer values
  /// Empty, or n_var flags: the variable is categorical, one of the integers in
  /// its bounds without an order. Crossover passes its value from either parent
  /// unchanged (uniform crossover) and mutation draws another value uniformly,
  /// so a child never holds a value between two levels.
  std::vector<bool> categorical;
  Nsga2Objective evaluate;
};

struct Nsga2Options {
  std::size_t population = 100;  ///< >= 2
  std::size_t generations = 250;  ///< 0 evaluates and ranks the initial population only
  double crossover_probability = 0.9;
  double eta_crossover = 15.0;
  double eta_mutation = 20.0;
  double mutation_probability = -1.0;  ///< per variable; negative means 1 / n_var
};

struct Nsga2Result {
  std::size_t size = 0;  ///< population size
  std::size_t n_var = 0;
  std::size_t n_obj = 0;
  std::vector<double> x;          ///< size x n_var, row-major
  std::vector<double> f;          ///< size x n_obj, row-major
  std::vector<double> violation;  ///< size
  std::vector<std::size_t> first_front;  ///< indices of the non-dominated (rank 0) members
  std::size_t evaluations = 0;
};

/// Runs NSGA-II. `initial` (n_initial x n_var, row-major, may be null when
/// n_initial = 0) seeds the first population, e.g. with the best observed
/// points; seeds are clipped to the bounds (and rounded for integer
/// variables), at most `population` are used, and the rest is drawn uniformly.
/// The run is a deterministic function of the problem, options and rng state.
Nsga2Result nsga2(const Nsga2Problem& problem, const Nsga2Options& options, Rng& rng,
                  const double* initial = nullptr, std::size_t n_initial = 0);

}  // namespace rescue::moo
