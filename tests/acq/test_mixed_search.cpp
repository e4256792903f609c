// The acquisition search on mixed spaces: it evaluates level indices only,
// enumerates a small categorical space, moves level by level in a large one,
// and refines the continuous options around the levels it found.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "acq/candidate_search.hpp"
#include "core/problem_spec.hpp"

namespace rescue::acq {
namespace {

struct Probe {
  int evaluations = 0;
  int off_level = 0;  // evaluations at a categorical coordinate that is no level's
};

// f(u) = -(x - 0.7)^2 + sum_j w_j[level_j]: continuous option 0, categorical the rest.
AcquisitionFn mixed_fn(const ProblemSpec& spec, const std::vector<std::vector<double>>& w, Probe& probe) {
  return [&spec, w, &probe](const double* u, double) {
    ++probe.evaluations;
    double v = -(u[0] - 0.7) * (u[0] - 0.7);
    for (int j = 1; j < spec.dim(); ++j) {
      const int L = spec.options()[j].levels();
      const int k = categorical_level(u[j], L);
      if (u[j] != categorical_unit(k, L)) ++probe.off_level;
      v += w[j - 1][k];
    }
    return v;
  };
}

SearchOptions search_options() {
  SearchOptions o;
  o.starts = 12;
  o.refine = 2;
  o.refine_evals = 60;
  return o;
}

TEST(MixedSearch, SmallCategoricalSpacesAreEnumerated) {
  ProblemSpec spec;
  spec.add_option("x", 0.0, 1.0, OptionKind::Continuous);
  spec.add_categorical("a", {"p", "q", "r"});
  spec.add_categorical("b", {"s", "t", "u", "v"});
  // An interaction: level 2 of a is good only with level 1 of b; no single
  // move from the other good pair (0, 3) reaches it.
  const std::vector<std::vector<double>> w = {{0.5, 0.0, 0.0}, {0.0, 0.0, 0.0, 0.5}};
  Probe probe;
  AcquisitionFn base = mixed_fn(spec, w, probe);
  AcquisitionFn f = [&](const double* u, double s) {
    const bool best = categorical_level(u[1], 3) == 2 && categorical_level(u[2], 4) == 1;
    return base(u, s) + (best ? 2.0 : 0.0);
  };
  Rng rng(3);
  const SearchResult r = maximize_acquisition(spec, f, rng, search_options());
  EXPECT_EQ(probe.off_level, 0);
  EXPECT_EQ(categorical_level(r.u[1], 3), 2);
  EXPECT_EQ(categorical_level(r.u[2], 4), 1);
  EXPECT_NEAR(r.u[0], 0.7, 0.02);
}

TEST(MixedSearch, LargeCategoricalSpacesAreSearchedByLevelMoves) {
  ProblemSpec spec;
  spec.add_option("x", 0.0, 1.0, OptionKind::Continuous);
  const std::vector<std::string> labels = {"l0", "l1", "l2", "l3"};
  for (const char* name : {"a", "b", "c"}) spec.add_categorical(name, labels);
  const std::vector<std::vector<double>> w = {{0.0, 0.0, 0.0, 1.0}, {0.0, 1.0, 0.2, 0.1}, {0.3, 0.0, 1.0, 0.0}};
  Probe probe;
  const AcquisitionFn f = mixed_fn(spec, w, probe);
  Rng rng(4);
  SearchOptions o = search_options();
  o.starts = 4;  // too few to hit the best of 64 combinations by chance alone
  const SearchResult r = maximize_acquisition(spec, f, rng, o);
  EXPECT_EQ(probe.off_level, 0);
  EXPECT_EQ(categorical_level(r.u[1], 4), 3);
  EXPECT_EQ(categorical_level(r.u[2], 4), 1);
  EXPECT_EQ(categorical_level(r.u[3], 4), 2);
  EXPECT_NEAR(r.u[0], 0.7, 0.02);
  // Single-option moves, not all 64 combinations per refined start.
  EXPECT_LT(probe.evaluations, o.starts + o.refine * (3 * 3 * 3 + o.refine_evals) + 1);
}

TEST(MixedSearch, AllCategoricalSpacesNeedNoLocalRefinement) {
  ProblemSpec spec;
  spec.add_categorical("a", {"p", "q"});
  spec.add_categorical("b", {"s", "t", "u"});
  Probe probe;
  const AcquisitionFn f = [&](const double* u, double) {
    ++probe.evaluations;
    for (int j = 0; j < 2; ++j) {
      const int L = spec.options()[j].levels();
      if (u[j] != categorical_unit(categorical_level(u[j], L), L)) ++probe.off_level;
    }
    return categorical_level(u[0], 2) == 1 && categorical_level(u[1], 3) == 0 ? 1.0 : 0.0;
  };
  Rng rng(5);
  SearchOptions o = search_options();
  o.starts = 1;
  const SearchResult r = maximize_acquisition(spec, f, rng, o);
  EXPECT_EQ(probe.off_level, 0);
  EXPECT_EQ(r.value, 1.0);
  EXPECT_LE(probe.evaluations, 1 + o.refine * 6);
}

// A move changes a categorical option's level with probability min(1/2, 2
// scale), to each other level alike, and keeps every coordinate a valid one.
TEST(MixedSearch, MovesChangeLevelsAtTheirRate) {
  ProblemSpec spec;
  spec.add_option("x", 0.0, 1.0, OptionKind::Continuous);
  spec.add_categorical("c", {"p", "q", "r", "s"});
  Rng rng(6);
  for (double scale : {0.05, 0.1, 0.5}) {
    int changed = 0, to[4] = {0, 0, 0, 0};
    double moved = 0.0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
      double u[2] = {0.5, categorical_unit(2, 4)};
      perturb_unit(spec, u, scale, rng);
      const int k = categorical_level(u[1], 4);
      ASSERT_EQ(u[1], categorical_unit(k, 4));
      ++to[k];
      changed += k != 2;
      moved += (u[0] - 0.5) * (u[0] - 0.5);
    }
    const double p = std::min(0.5, 2.0 * scale);
    EXPECT_NEAR(changed / double(n), p, 4.0 * std::sqrt(p * (1 - p) / n)) << scale;
    for (int k : {0, 1, 3}) EXPECT_NEAR(to[k] / double(n), p / 3.0, 0.015) << scale;
    if (scale < 0.2) {  // clipping is rare at these scales
      EXPECT_NEAR(std::sqrt(moved / n), scale, 0.1 * scale);
    }
  }
}

}  // namespace
}  // namespace rescue::acq
