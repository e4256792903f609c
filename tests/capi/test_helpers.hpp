// Small helpers shared by the C ABI tests.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "rescue.h"

namespace rescue_test {

/// A two-option, two-objective, one-constraint problem with continuous fidelity.
inline rescue_problem* small_problem(const char* strategy = "cost-aware-random", unsigned seed = 3) {
  rescue_problem* p = nullptr;
  rescue_problem_new(&p);
  rescue_problem_add_option(p, "a", 0.0, 1.0, RESCUE_CONTINUOUS);
  rescue_problem_add_option(p, "n", 1.0, 8.0, RESCUE_INTEGER);
  rescue_problem_add_option(p, "lr", 1e-4, 1e-1, RESCUE_LOG_SCALE);
  rescue_problem_set_fidelity_range(p, 0.0, 1.0, 1.0);
  rescue_problem_add_objective(p, "loss", RESCUE_MINIMIZE);
  rescue_problem_add_objective(p, "speed", RESCUE_MAXIMIZE);
  rescue_problem_add_constraint(p, "memory", 4.0, RESCUE_LEQ);
  rescue_problem_add_indicator(p, "load");
  rescue_problem_set_strategy(p, strategy);
  rescue_problem_set_seed(p, seed);
  return p;
}

/// A deterministic stand-in simulator for small_problem.
inline void simulate(const double* x, double s, double* y, double* g, double* z) {
  y[0] = (x[0] - 0.3) * (x[0] - 0.3) + 0.01 * x[1] + 0.1 * (1.0 - s);
  y[1] = 1.0 - x[0] + 0.05 * x[1];
  g[0] = x[1] / 2.0;
  z[0] = x[0] + x[2];
}

/// The optimizer's full state as text, to check that rejected calls change nothing.
inline std::string state(const rescue_optimizer* opt) {
  size_t len = 0;
  rescue_save(opt, nullptr, 0, &len);
  std::string text(len + 1, '\0');
  rescue_save(opt, &text[0], text.size(), &len);
  text.resize(len);
  return text;
}

/// An optimizer created from a problem, which it frees; destroyed with it.
struct Opt {
  rescue_optimizer* h = nullptr;
  explicit Opt(rescue_problem* p) {
    EXPECT_EQ(rescue_create(p, &h), RESCUE_OK) << rescue_last_error();
    rescue_problem_free(p);
  }
  ~Opt() { rescue_destroy(h); }
  Opt(const Opt&) = delete;
  Opt& operator=(const Opt&) = delete;
};

/// Small acquisition settings, which keep the model strategies fast (the
/// logic is the same), past the initial design after a few points.
inline void set_fast(rescue_problem* p) {
  rescue_problem_set_param(p, "kg.pool", 16);
  rescue_problem_set_param(p, "kg.fantasies", 2);
  rescue_problem_set_param(p, "acq.starts", 8);
  rescue_problem_set_param(p, "acq.refine", 1);
  rescue_problem_set_param(p, "acq.refine_evals", 8);
  rescue_problem_set_param(p, "acq.mc_samples", 16);
  rescue_problem_set_param(p, "recommend.population", 12);
  rescue_problem_set_param(p, "recommend.generations", 4);
  rescue_problem_set_budget(p, 1e6);
  rescue_problem_set_initial_budget(p, 0.05);
}

/// small_problem with set_fast's settings.
inline rescue_problem* fast_problem(const char* strategy, unsigned seed = 5) {
  rescue_problem* p = small_problem(strategy, seed);
  set_fast(p);
  return p;
}

/// Two optimizers of `problem` take the same steps (step(opt, i)); after each
/// of the second's, between(second, i). Returns their saved states at the
/// end, equal when `between` changed nothing the optimizer does (empty if
/// one could not be created).
template <class Step, class Between>
std::pair<std::string, std::string> twin_states(const rescue_problem* problem, int steps, Step step,
                                                Between between) {
  rescue_optimizer *a = nullptr, *b = nullptr;
  if (rescue_create(problem, &a) != RESCUE_OK || rescue_create(problem, &b) != RESCUE_OK) {
    rescue_destroy(a);
    return {};
  }
  for (int i = 0; i < steps; ++i) {
    step(a, i);
    step(b, i);
    between(b, i);
  }
  std::pair<std::string, std::string> out{state(a), state(b)};
  rescue_destroy(a);
  rescue_destroy(b);
  return out;
}

}  // namespace rescue_test
