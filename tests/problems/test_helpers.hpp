// Small helpers shared by the problem tests.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "problems/benchmark_problem.hpp"
#include "util/error.hpp"

namespace rescue::problems::testing {

/// |a - b| <= tol * max(1, |b|): absolute near zero, relative for large values.
inline ::testing::AssertionResult close(double a, double b, double tol = 1e-12) {
  if (std::fabs(a - b) <= tol * std::max(1.0, std::fabs(b))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a << " vs " << b << " (diff " << a - b << ")";
}

/// Index of an option by name.
inline int option_index(const ProblemSpec& spec, const std::string& name) {
  for (int i = 0; i < spec.dim(); ++i)
    if (spec.options()[i].name == name) return i;
  ADD_FAILURE() << "no option named " << name;
  return -1;
}

/// A uniformly random configuration inside the bounds (integers rounded).
inline std::vector<double> random_config(const ProblemSpec& spec, Rng& rng) {
  std::vector<double> u(spec.dim()), x(spec.dim());
  for (double& v : u) v = rng.uniform();
  spec.from_unit(u.data(), x.data());
  return x;
}

/// Runs f and returns the status of the rescue::Error it throws (Ok if none).
template <class F>
Status status_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.status();
  }
  return Status::Ok;
}

}  // namespace rescue::problems::testing
