// Validation shared by the entry points of the multi-objective layer: every
// public function checks its arrays before touching them and throws
// rescue::Error with a message naming the function and the offending entry.
#pragma once
#include <cmath>
#include <cstddef>
#include <string>

#include "util/error.hpp"

namespace rescue::moo::detail {

inline void check_points(const char* where, const double* points, std::size_t n, std::size_t m,
                         const char* name = "points") {
  if (m == 0) fail(Status::InvalidArgument, std::string(where) + ": the number of objectives is 0");
  if (n > 0 && points == nullptr)
    fail(Status::NullPointer, std::string(where) + ": " + name + " is null");
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j)
      if (!std::isfinite(points[i * m + j]))
        fail(Status::NonFinite, std::string(where) + ": " + name + "[" + std::to_string(i) +
                                    "][" + std::to_string(j) + "] is not finite");
}

inline void check_vector(const char* where, const double* v, std::size_t n, const char* name) {
  if (n > 0 && v == nullptr) fail(Status::NullPointer, std::string(where) + ": " + name + " is null");
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(v[i]))
      fail(Status::NonFinite, std::string(where) + ": " + name + "[" + std::to_string(i) +
                                  "] is not finite");
}

}  // namespace rescue::moo::detail
