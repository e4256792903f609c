// Private to the C ABI's translation units: the handle structs and the guard
// that turns every C++ exception into a status code and a message. Not installed.
#pragma once
#include <memory>
#include <new>
#include <string>

#include "rescue.h"

#include "core/problem_spec.hpp"
#include "engine/optimizer.hpp"
#include "problems/benchmark_problem.hpp"
#include "util/error.hpp"

struct rescue_problem {
  rescue::ProblemSpec spec;
  std::shared_ptr<const rescue::problems::BenchmarkProblem> builtin;  // set for built-in problems
  std::string errmsg;
};

struct rescue_optimizer {
  std::unique_ptr<rescue::engine::Optimizer> engine;
  std::string errmsg;
  std::string strategy;
};

namespace rescue::capi {

/// The message of the last failure on this thread (rescue_last_error()).
std::string& last_error();

/// Stores a failure's message in *msg (if given) and in the thread-local message.
void record(std::string* msg, const std::string& text) noexcept;

/// Runs f; any exception becomes its status, with its message recorded.
template <class F>
rescue_status guarded(std::string* msg, F&& f) noexcept {
  Status status = Status::Ok;
  std::string text;
  try {
    f();
    return RESCUE_OK;
  } catch (const Error& e) {
    status = e.status();
    text = e.what();
  } catch (const std::bad_alloc&) {
    status = Status::OutOfMemory;
    text = "out of memory";
  } catch (const std::exception& e) {
    status = Status::Internal;
    text = std::string("internal error: ") + e.what();
  } catch (...) {
    status = Status::Internal;
    text = "internal error: unknown exception";
  }
  record(msg, text);
  return static_cast<rescue_status>(status);
}

/// A NULL handle: recorded in the thread-local message.
rescue_status null_handle(const char* what) noexcept;

}  // namespace rescue::capi
