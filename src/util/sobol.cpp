#include "util/sobol.hpp"

#include <algorithm>

#include "util/error.hpp"

namespace rescue {
namespace {

// Joe & Kuo (2008), new-joe-kuo-6.21201, dimensions 2..32: degree s of the
// primitive polynomial, its coefficients a, and the initial numbers m_1..m_s.
struct Direction {
  int s;
  std::uint32_t a;
  std::uint32_t m[7];
};
constexpr Direction kTable[31] = {
    {1, 0, {1}},
    {2, 1, {1, 3}},
    {3, 1, {1, 3, 1}},
    {3, 2, {1, 1, 1}},
    {4, 1, {1, 1, 3, 3}},
    {4, 4, {1, 3, 5, 13}},
    {5, 2, {1, 1, 5, 5, 17}},
    {5, 4, {1, 1, 5, 5, 5}},
    {5, 7, {1, 1, 7, 11, 19}},
    {5, 11, {1, 1, 5, 1, 1}},
    {5, 13, {1, 1, 1, 3, 11}},
    {5, 14, {1, 3, 5, 5, 31}},
    {6, 1, {1, 3, 3, 9, 7, 49}},
    {6, 13, {1, 1, 1, 15, 21, 21}},
    {6, 16, {1, 3, 1, 13, 27, 49}},
    {6, 19, {1, 1, 1, 15, 7, 5}},
    {6, 22, {1, 3, 1, 15, 13, 25}},
    {6, 25, {1, 1, 5, 5, 19, 61}},
    {7, 1, {1, 3, 7, 11, 23, 15, 103}},
    {7, 4, {1, 3, 7, 13, 13, 15, 69}},
    {7, 7, {1, 1, 3, 13, 7, 35, 63}},
    {7, 8, {1, 3, 5, 9, 1, 25, 53}},
    {7, 14, {1, 3, 1, 13, 9, 35, 107}},
    {7, 19, {1, 3, 1, 5, 27, 61, 31}},
    {7, 21, {1, 1, 5, 11, 19, 41, 61}},
    {7, 28, {1, 3, 5, 3, 3, 13, 69}},
    {7, 31, {1, 1, 7, 13, 1, 19, 1}},
    {7, 32, {1, 3, 7, 5, 13, 19, 59}},
    {7, 37, {1, 1, 3, 9, 25, 29, 41}},
    {7, 41, {1, 3, 5, 13, 23, 1, 55}},
    {7, 42, {1, 3, 7, 3, 13, 59, 17}},
};

}  // namespace

Sobol::Sobol(int dim, bool shift, Rng& rng) : dim_(dim), x_(dim, 0), shift_(dim, 0), v_(32 * std::min(dim, kMaxDim)), rng_(&rng) {
  if (dim < 1) fail(Status::InvalidArgument, "Sobol: dimension must be >= 1");
  const int table_dims = std::min(dim, kMaxDim);
  for (int k = 0; k < 32; ++k) v_[k] = 1u << (31 - k);  // dimension 1: van der Corput
  for (int j = 1; j < table_dims; ++j) {
    const Direction& t = kTable[j - 1];
    std::uint32_t* v = &v_[32 * j];
    for (int k = 0; k < t.s; ++k) v[k] = t.m[k] << (31 - k);
    for (int k = t.s; k < 32; ++k) {
      v[k] = v[k - t.s] ^ (v[k - t.s] >> t.s);
      for (int i = 1; i < t.s; ++i)
        if ((t.a >> (t.s - 1 - i)) & 1u) v[k] ^= v[k - i];
    }
  }
  if (shift)
    for (int j = 0; j < dim; ++j) shift_[j] = static_cast<std::uint32_t>(rng.next_u64() >> 32);
}

std::vector<double> Sobol::next() {
  std::vector<double> p(dim_);
  const int table_dims = std::min(dim_, kMaxDim);
  for (int j = 0; j < table_dims; ++j) p[j] = static_cast<double>(x_[j] ^ shift_[j]) * 0x1.0p-32;
  for (int j = table_dims; j < dim_; ++j) p[j] = rng_->uniform();
  // Gray-code update: flip the direction number of the lowest zero bit of index.
  int c = 0;
  for (std::uint32_t i = index_; i & 1u; i >>= 1) ++c;
  if (c < 32)
    for (int j = 0; j < table_dims; ++j) x_[j] ^= v_[32 * j + c];
  ++index_;
  return p;
}

}  // namespace rescue
