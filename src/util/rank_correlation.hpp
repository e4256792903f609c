// Ranks with ties averaged, and Spearman's rank correlation: how well one list
// of values orders items as another does (the fidelity-agreement check, the
// harness's comparison of fidelities).
#pragma once
#include <vector>

namespace rescue {

/// The 1-based rank of each value in v, tied values sharing the mean of their ranks.
std::vector<double> average_ranks(const std::vector<double>& v);

/// Spearman's rank correlation of a and b (equal lengths): the Pearson
/// correlation of their average ranks; NaN when either has no spread.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace rescue
