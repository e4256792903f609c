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

/// Constrained domination (Deb et al. 2002, Sec. V): va, vb are total constraint
/// violations (0 = feasible). A feasible point beats an infeasible one, an
/// infeasible point beats another with a larger violation, and two feasible
/// points compare by Pareto dominance.
inline bool constrained_dominates(const double* a, double va, const double* b, double vb,
                                  std::size_t m) {
  const bool fa = va <= 0.0, fb = vb <= 0.0;
  if (fa && fb) return dominates(a, b, m);
  if (fa != fb) return fa;
  return va < vb;
}

}  // namespace rescue::moo
