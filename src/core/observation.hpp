// One evaluated (configuration, fidelity) and what was measured there.
#pragma once
#include <cstdint>
#include <vector>

namespace rescue {

struct Observation {
  std::vector<double> x;  // configuration in user units (d values)
  double s = 1.0;         // fidelity
  std::vector<double> y;  // objectives in user units and sense (M values)
  std::vector<double> g;  // constraint metrics (Q values)
  std::vector<double> z;  // indicators (K values; NaN where not measured)
  double cost = 0.0;      // cost charged for this evaluation
  std::int64_t ticket = 0;  // the suggestion it answers, 0 if the user chose (x, s)
  bool failed = false;      // the evaluation failed: y and g are NaN
};

}  // namespace rescue
