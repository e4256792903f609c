// The recommendation before a model exists.
#include <gtest/gtest.h>

#include <algorithm>

#include "acq/pareto_observed.hpp"

namespace {

using namespace rescue;

TEST(ParetoOfObservations, NonDominatedFeasibleAtTheTargetOnly) {
  ProblemSpec p;
  p.add_option("a", 0.0, 1.0, OptionKind::Continuous);
  p.set_fidelity_range(0.0, 1.0, 1.0);
  p.add_objective("loss", Sense::Minimize);
  p.add_objective("speed", Sense::Maximize);
  p.add_constraint("memory", 4.0, ConstraintSense::LessEqual);
  struct Row {
    double a, s, loss, speed, memory;
    bool failed;
  } rows[] = {
      {0.1, 1.0, 1.0, 5.0, 1.0, false},  // non-dominated
      {0.2, 1.0, 2.0, 6.0, 1.0, false},  // non-dominated
      {0.3, 1.0, 2.0, 4.0, 1.0, false},  // dominated by the second
      {0.4, 1.0, 0.5, 9.0, 5.0, false},  // infeasible
      {0.5, 0.5, 0.1, 9.0, 1.0, false},  // not at the target fidelity
      {0.6, 1.0, 3.0, 7.0, 4.0, false},  // non-dominated, on the constraint boundary
      {0.7, 1.0, 0.0, 99.0, 0.0, true},  // failed
      {0.2, 1.0, 2.0, 6.0, 1.0, false},  // a duplicate of the second
  };
  std::vector<Observation> obs;
  for (const Row& r : rows) {
    Observation o;
    o.x = {r.a};
    o.s = r.s;
    o.y = {r.loss, r.speed};
    o.g = {r.memory};
    o.failed = r.failed;
    obs.push_back(o);
  }
  const acq::ParetoSet set = acq::pareto_of_observations(p, obs);
  ASSERT_EQ(set.x.size(), 3u);
  std::vector<double> as;
  for (const auto& x : set.x) as.push_back(x[0]);
  std::sort(as.begin(), as.end());
  EXPECT_EQ(as, (std::vector<double>{0.1, 0.2, 0.6}));
  for (std::size_t i = 0; i < set.x.size(); ++i) {
    if (set.x[i][0] == 0.2) {
      EXPECT_EQ(set.y[i], (std::vector<double>{2.0, 6.0}));  // own sense
    }
  }
}

}  // namespace
