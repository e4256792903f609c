// An archive of the non-dominated points of a two-objective minimization
// problem, with their configurations. Insertion is O(log n) amortized: the
// archive is kept sorted by the first objective, so the second decreases
// along it. Used to keep every non-dominated evaluation of a long search.
#pragma once
#include <cstddef>
#include <map>
#include <vector>

namespace rescue::bench {

class FrontArchive {
 public:
  /// Inserts (f1, f2) with configuration x unless a member weakly dominates it;
  /// removes the members it dominates. Returns whether it was inserted.
  bool insert(double f1, double f2, const std::vector<double>& x);
  std::size_t size() const { return members_.size(); }
  /// Hypervolume with respect to (r1, r2), minimization.
  double hypervolume(double r1, double r2) const;
  /// Members as (f1, f2, x), sorted by f1.
  struct Member {
    double f1, f2;
    std::vector<double> x;
  };
  std::vector<Member> members() const;

 private:
  struct Entry {
    double f2;
    std::vector<double> x;
  };
  std::map<double, Entry> members_;  // keyed by f1; f2 strictly decreasing along the map
};

}  // namespace rescue::bench
