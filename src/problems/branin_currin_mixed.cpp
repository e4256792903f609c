#include "problems/branin_currin_mixed.hpp"

#include <cmath>

#include "problems/branin_currin.hpp"

namespace rescue::problems {
namespace {

// Offsets of the copies' options and their ranks (the penalty's multiple);
// the original has neither.
struct Copy {
  double dx1, dx2;
  int rank;
};
constexpr Copy kCopies[] = {{0.5, 0.0, 1}, {0.0, 0.0, 0}, {0.25, 0.5, 2}, {0.5, 0.5, 3}};

double wrap(double u) { return u - std::floor(u); }

}  // namespace

const std::vector<std::string>& BraninCurrinMixed::copies() {
  static const std::vector<std::string> names = {"shift-a", "original", "shift-b", "shift-c"};
  return names;
}

BraninCurrinMixed::BraninCurrinMixed(const ProblemOptions& options)
    : SyntheticProblem("branin-currin-mixed", 2, objectives, {1.0, 1.0, 0.5}, {14.0, 0.7}, options) {
  spec_.add_categorical("copy", copies());
}

std::array<double, 2> BraninCurrinMixed::shifted(int level, double x1, double x2) {
  const Copy& c = kCopies[level];
  if (c.rank == 0) return {x1, x2};
  return {wrap(x1 + c.dx1), wrap(x2 + c.dx2)};
}

void BraninCurrinMixed::objectives(const double* x, double s, double& f1, double& f2) {
  const int level = static_cast<int>(x[2]);
  const auto u = shifted(level, x[0], x[1]);
  BraninCurrin::objectives(u[0], u[1], s, f1, f2);
  const double penalty = kCopyPenalty * kCopies[level].rank;
  f1 -= penalty;
  f2 -= penalty;
}

}  // namespace rescue::problems
