// The harness drives the library through its C ABI: owning handles that free
// themselves, and a check that turns a failed call into an exception carrying
// the library's message.
#pragma once
#include <string>

#include "rescue.h"
#include "util/error.hpp"

namespace rescue::bench {

struct ProblemHandle {
  rescue_problem* p = nullptr;
  ProblemHandle() = default;
  ProblemHandle(const ProblemHandle&) = delete;
  ProblemHandle& operator=(const ProblemHandle&) = delete;
  ~ProblemHandle() { rescue_problem_free(p); }
};

struct OptimizerHandle {
  rescue_optimizer* o = nullptr;
  OptimizerHandle() = default;
  OptimizerHandle(const OptimizerHandle&) = delete;
  OptimizerHandle& operator=(const OptimizerHandle&) = delete;
  ~OptimizerHandle() { rescue_destroy(o); }
};

/// Marks a call without a handle (rescue_create, rescue_problem_builtin):
/// its message is rescue_last_error().
struct LastError {};
inline constexpr LastError kLastError{};

/// Throws Error with the call's status and "what: message" when st is not
/// RESCUE_OK, the message read from the handle the call used. It is read here,
/// after the call: read as another argument of check() it could be read first
/// (the order of arguments is unspecified), and the call's own message would
/// then replace the string it points into.
inline void check(rescue_status st, const char* what, const rescue_optimizer* opt) {
  if (st != RESCUE_OK) throw Error(static_cast<Status>(st), std::string(what) + ": " + rescue_errmsg(opt));
}
inline void check(rescue_status st, const char* what, const rescue_problem* problem) {
  if (st != RESCUE_OK) throw Error(static_cast<Status>(st), std::string(what) + ": " + rescue_problem_errmsg(problem));
}
inline void check(rescue_status st, const char* what, LastError) {
  if (st != RESCUE_OK) throw Error(static_cast<Status>(st), std::string(what) + ": " + rescue_last_error());
}

}  // namespace rescue::bench
