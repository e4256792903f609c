// A run of a few suggestions for the harness's tests: a small initial design
// and budget, the recommender once after the last iteration.
#pragma once
#include <string>

#include "bench/run_record.hpp"

namespace rescue::bench {

inline RunSpec tiny_run(const std::string& problem, const std::string& strategy, const std::string& variant = "") {
  RunSpec r;
  r.problem = problem;
  r.strategy = strategy;
  r.variant = variant;
  r.seed = 4;
  r.initial_budget = 0.2;
  r.budget = 0.3;
  r.max_suggestions = 30;
  r.recommend_every = 100.0;  // the recommender once, after the last iteration
  r.observational_rows = 100;
  return r;
}

}  // namespace rescue::bench
