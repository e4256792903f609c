// Matrices of independent uniform draws, for the tests' parent data.
#pragma once
#include <Eigen/Dense>

#include "util/rng.hpp"

namespace rescue::causal::testing {

inline Eigen::MatrixXd uniform_matrix(Eigen::Index rows, Eigen::Index cols, Rng& rng, double lo = -1.0,
                                      double hi = 1.0) {
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) m(i, j) = rng.uniform(lo, hi);
  return m;
}

}  // namespace rescue::causal::testing
