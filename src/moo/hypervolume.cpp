#include "moo/hypervolume.hpp"

#include <string>

#include "moo/hv_kernels.hpp"
#include "moo/input_checks.hpp"
#include "util/error.hpp"

namespace rescue::moo {
namespace {

void check(const char* where, const double* points, std::size_t n, std::size_t m,
           const double* ref) {
  detail::check_points(where, points, n, m);
  detail::check_vector(where, ref, m, "reference point");
}

bool strictly_inside(const double* p, std::size_t m, const double* ref) {
  for (std::size_t j = 0; j < m; ++j)
    if (!(p[j] < ref[j])) return false;
  return true;
}

}  // namespace

double hypervolume(const double* points, std::size_t n, std::size_t m, const double* ref) {
  check("hypervolume", points, n, m, ref);
  std::vector<double> inside;
  inside.reserve(n * m);
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!strictly_inside(points + i * m, m, ref)) continue;
    inside.insert(inside.end(), points + i * m, points + i * m + m);
    ++k;
  }
  return detail::hv_inside(inside.data(), k, m, ref);
}

double hypervolume(const std::vector<double>& points, std::size_t m, const std::vector<double>& ref) {
  if (m == 0) fail(Status::InvalidArgument, "hypervolume: the number of objectives is 0");
  if (points.size() % m != 0)
    fail(Status::SizeMismatch, "hypervolume: " + std::to_string(points.size()) +
                                   " values do not make whole points of " + std::to_string(m) +
                                   " objectives");
  if (ref.size() != m)
    fail(Status::SizeMismatch, "hypervolume: the reference point has " +
                                   std::to_string(ref.size()) + " values, expected " +
                                   std::to_string(m));
  return hypervolume(points.data(), points.size() / m, m, ref.data());
}

double hv_contribution(const double* point, const double* set, std::size_t n, std::size_t m,
                       const double* ref) {
  check("hv_contribution", set, n, m, ref);
  detail::check_vector("hv_contribution", point, m, "point");
  std::vector<double> limit;
  return detail::contribution(point, set, n, m, ref, limit);
}

}  // namespace rescue::moo
