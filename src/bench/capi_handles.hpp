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

/// Throws Error with the call's status and "what: msg" when st is not RESCUE_OK.
inline void check(rescue_status st, const char* what, const char* msg) {
  if (st != RESCUE_OK) throw Error(static_cast<Status>(st), std::string(what) + ": " + msg);
}

}  // namespace rescue::bench
