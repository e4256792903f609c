#include "bench/front_archive.hpp"

#include <iterator>

namespace rescue::bench {

bool FrontArchive::insert(double f1, double f2, const std::vector<double>& x) {
  // The member with the largest f1 <= f1 has the smallest f2 among those; it
  // alone decides whether the new point is weakly dominated.
  auto it = members_.upper_bound(f1);
  if (it != members_.begin()) {
    auto prev = std::prev(it);
    if (prev->second.f2 <= f2) return false;
  }
  // Members with f1' >= f1 and f2' >= f2 are dominated; they follow contiguously.
  auto first = members_.lower_bound(f1);
  auto last = first;
  while (last != members_.end() && last->second.f2 >= f2) ++last;
  members_.erase(first, last);
  members_.emplace(f1, Entry{f2, x});
  return true;
}

double FrontArchive::hypervolume(double r1, double r2) const {
  double hv = 0.0, ceiling = r2;
  for (const auto& [f1, e] : members_) {
    if (f1 >= r1) break;
    if (e.f2 < ceiling) {
      hv += (r1 - f1) * (ceiling - e.f2);
      ceiling = e.f2;
    }
  }
  return hv;
}

std::vector<FrontArchive::Member> FrontArchive::members() const {
  std::vector<Member> out;
  out.reserve(members_.size());
  for (const auto& [f1, e] : members_) out.push_back({f1, e.f2, e.x});
  return out;
}

}  // namespace rescue::bench
