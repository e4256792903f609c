// Pareto dominance relations, minimization convention (objectives to maximize
// are negated once, at the library boundary).
#pragma once
#include <cstddef>

namespace rescue::moo {

/// a dominates b: a is no worse in every objective and better in at least one.
inline bool dominates(const double* a, const double* b, std::size_t m) {
  bool better = false;
  for (std::size_t j = 0; j < m; ++j) {
    if (a[j] > b[j]) return false;
    if (a[j] < b[j]) better = true;
  }
  return better;
}

/// a weakly dominates b: a is no worse in every objective.
inline bool weakly_dominates(const double* a, const double* b, std::size_t m) {
  for (std::size_t j = 0; j < m; ++j)
    if (a[j] > b[j]) return false;
  return true;
}

}  // namespace rescue::moo
