// Private to the C ABI's translation units: the handle structs and the guard
// that turns every C++ exception into a status code and a message. Not installed.
#pragma once
#include <exception>
#include <memory>
#include <string>
#include <utility>

#include "rescue.h"

#include "core/problem_spec.hpp"
#include "engine/optimizer.hpp"
#include "problems/benchmark_problem.hpp"
#include "util/error.hpp"

struct rescue_problem {
  rescue::ProblemSpec spec;
  std::shared_ptr<const rescue::problems::BenchmarkProblem> builtin;  // set for built-in problems
  // Mutable: a call that only reads the problem still reports its failure here.
  mutable std::string errmsg;
};

struct rescue_optimizer {
  explicit rescue_optimizer(std::unique_ptr<rescue::engine::Optimizer> e)
      : engine(std::move(e)), strategy(engine->spec().strategy()) {}
  std::unique_ptr<rescue::engine::Optimizer> engine;
  // Mutable: a call that only reads the optimizer still reports its failure here.
  mutable std::string errmsg;
  // A copy that rescue_strategy_name can point into: the engine's problem is
  // replaced as a whole when the causal knowledge changes.
  std::string strategy;
};

namespace rescue::capi {

/// The message of the last failure on this thread (rescue_last_error()).
std::string& last_error();

/// Stores a failure's message in *msg (if given) and in the thread-local message.
void record(std::string* msg, const std::string& text) noexcept;

/// Records the message of the exception e (any type) as record() does and
/// returns its status: an Error's own, OUT_OF_MEMORY, or INTERNAL.
rescue_status record_exception(std::string* msg, std::exception_ptr e) noexcept;

/// Runs f; any exception becomes its status, with its message recorded.
template <class F>
rescue_status guarded(std::string* msg, F&& f) noexcept {
  try {
    f();
    return RESCUE_OK;
  } catch (...) {
    return record_exception(msg, std::current_exception());
  }
}

/// A NULL handle: recorded in the thread-local message.
rescue_status null_handle(const char* what) noexcept;

}  // namespace rescue::capi
