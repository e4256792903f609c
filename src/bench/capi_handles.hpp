// The harness drives the library through its C ABI: owning handles that free
// themselves, a check that turns a failed call into an exception carrying
// the library's message, and the reads the harness makes in more than one place.
#pragma once
#include <string>
#include <vector>

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

/// The configurations of the optimizer's recommended set (rescue_pareto),
/// point-major, `d` values each; `count` (may be null) gets the set's size.
inline std::vector<double> recommended_configurations(rescue_optimizer* opt, int d, int m, int* count = nullptr) {
  int n = 0;
  check(rescue_pareto(opt, nullptr, nullptr, 0, &n), "rescue_pareto", opt);
  std::vector<double> x(static_cast<std::size_t>(n) * d), y(static_cast<std::size_t>(n) * m);
  if (n > 0) check(rescue_pareto(opt, x.data(), y.data(), n, &n), "rescue_pareto", opt);
  if (count) *count = n;
  return x;
}

/// One causal graph of the optimizer as text (rescue_causal_graph: the size
/// query, then the copy); the status of the call that failed, if one did.
inline rescue_status causal_graph_text(rescue_optimizer* opt, int format, int as_discovered, std::string* text) {
  std::size_t len = 0;
  if (const rescue_status st = rescue_causal_graph(opt, format, as_discovered, nullptr, 0, &len); st != RESCUE_OK)
    return st;
  text->assign(len + 1, '\0');
  const rescue_status st = rescue_causal_graph(opt, format, as_discovered, text->data(), text->size(), &len);
  if (st == RESCUE_OK) text->resize(len);
  return st;
}

}  // namespace rescue::bench
