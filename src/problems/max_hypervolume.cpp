#include "problems/max_hypervolume.hpp"

#include "problems/misleading_fidelity.hpp"
#include "util/error.hpp"

namespace rescue::problems {

const std::vector<MaxHypervolume>& max_hypervolumes() {
  // Computed by `rescue-bench --check-max-hv` (src/bench/max_hv_search.hpp),
  // about 1.5 minutes on 2 cores: value, estimated absolute precision, method,
  // and evaluations of the noise-free target function.
  static const std::string grid_method =
      "union of 3 searches (seeds 1..3), each: grid 2049^2, seeded NSGA-II (200 generations), 8 levels of local "
      "refinement (8 samples per front point, half-width 0.00048828125 shrinking by 4)";
  static const std::string nsga_method =
      "union of 3 searches (seeds 1..3), each: 4 NSGA-II runs (population 200, 500 generations), seeded NSGA-II "
      "(200 generations), 8 levels of local refinement (8 samples per front point, half-width 0.02 shrinking by 4)";
  static const std::vector<MaxHypervolume> table = {
      {"branin-currin", 0.50401022656894079, 1.3846552964213998e-06, grid_method, 16310811},
      {"park", 0.089893973150215328, 7.7990100938452045e-07, nsga_method, 5163000},
      {"healthcare", 5.4125568980537775, 7.1861433870168412e-06, grid_method, 16555803},
      {"robot-standin", 283.12154280770068, 0.19926504207535345, nsga_method, 3812432},
      // Every value of a copy other than the original is dominated by the
      // original's at the shifted options (branin_currin_mixed.hpp), so the
      // front is Branin-Currin's.
      {"branin-currin-mixed", 0.50401022656894079, 1.3846552964213998e-06,
       "branin-currin's (the other copies are dominated point by point)", 0},
  };
  return table;
}

const MaxHypervolume& max_hypervolume(const std::string& name) {
  std::string base;
  misleading_kind(name, &base);
  for (const auto& entry : max_hypervolumes())
    if (entry.problem == base) return entry;
  fail(Status::UnknownName, "no stored maximum hypervolume for problem '" + name + "'");
}

}  // namespace rescue::problems
