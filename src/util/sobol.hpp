// Sobol low-discrepancy points (Joe and Kuo's direction numbers, the
// new-joe-kuo-6.21201 set, first 32 dimensions) with an optional random digital
// shift. Used for the candidate pools of the acquisitions, where points that
// fill the unit cube evenly matter more than randomness.
#pragma once
#include <cstdint>
#include <vector>

#include "util/rng.hpp"

namespace rescue {

class Sobol {
 public:
  /// Dimensions beyond the 32 of the table are filled with uniform random
  /// values from rng (documented fallback; no built-in problem needs it).
  static constexpr int kMaxDim = 32;

  /// A generator of `dim` coordinates; with `shift` the points get a random
  /// digital shift drawn from rng (a randomized quasi-Monte Carlo sequence).
  Sobol(int dim, bool shift, Rng& rng);

  int dim() const { return dim_; }
  /// The next point in [0, 1)^dim (the unshifted sequence starts at 0).
  std::vector<double> next();

 private:
  int dim_;
  std::uint32_t index_ = 0;
  std::vector<std::uint32_t> x_;      // current integer coordinates
  std::vector<std::uint32_t> shift_;  // digital shift per dimension
  std::vector<std::uint32_t> v_;      // direction numbers, 32 per dimension
  Rng* rng_;
};

}  // namespace rescue
