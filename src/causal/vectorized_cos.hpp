#pragma once
#include <Eigen/Core>

namespace rescue::causal {

// cos for the random features, written so the compiler vectorizes it (libm's
// cos is scalar and dominated the Monte Carlo propagation). Reduces to
// r in [-pi, pi] with a two-part 2 pi, then cos r = 1 - 2 sin^2(r / 2) with the
// Taylor series of sin to degree 19 on [-pi/2, pi/2]: absolute error below 1e-13
// for |x| < 1e6 (the reduction loses about |x| * 1e-16 beyond). Callers fall back
// to std::cos for |x| above kVectorizedCosLimit.
constexpr double kVectorizedCosLimit = 1e12;

/// One value of that cos. Plain multiplies and adds, no fused ones
/// (vectorized_cos.cpp is built with -ffp-contract=off), so every instruction
/// set gives the same bits. A file that calls it and relies on those bits needs
/// the same flag.
inline double polynomial_cos(double x) {
  constexpr double inv_two_pi = 0.15915494309189535;
  constexpr double two_pi_hi = 6.283185307179586, two_pi_lo = 2.4492935982947064e-16;
  constexpr double round_magic = 6755399441055744.0;  // 1.5 * 2^52: adds and subtracts to round
  const double k = (x * inv_two_pi + round_magic) - round_magic;
  const double y = 0.5 * ((x - k * two_pi_hi) - k * two_pi_lo);
  const double y2 = y * y;
  double p = -1.0 / 121645100408832000.0;       // -1/19!
  p = p * y2 + 1.0 / 355687428096000.0;         // 1/17!
  p = p * y2 - 1.0 / 1307674368000.0;           // -1/15!
  p = p * y2 + 1.0 / 6227020800.0;              // 1/13!
  p = p * y2 - 1.0 / 39916800.0;                // -1/11!
  p = p * y2 + 1.0 / 362880.0;                  // 1/9!
  p = p * y2 - 1.0 / 5040.0;                    // -1/7!
  p = p * y2 + 1.0 / 120.0;                     // 1/5!
  p = p * y2 - 1.0 / 6.0;                       // -1/3!
  const double sn = y + y * y2 * p;
  return 1.0 - 2.0 * sn * sn;
}

/// The random-feature map, in place on a column-major rows x cols block:
/// a(i, j) <- scale * cos(a(i, j) + phase[j]), with polynomial_cos where every
/// argument is below kVectorizedCosLimit and std::cos otherwise. On x86-64
/// the loops are also built for AVX2 and that build is used where the CPU has
/// it (twice the doubles per instruction of the baseline SSE2). Neither build
/// fuses multiply-adds (-ffp-contract=off, and no "fma" target), so on the
/// polynomial path both give the same bits; the std::cos path is libm's.
/// phase holds cols values.
void cos_features_in_place(double* a, Eigen::Index rows, Eigen::Index cols, const double* phase, double scale);

namespace detail {
/// The two builds of cos_features_in_place, for tests. cos_features_avx2 may
/// only be called where cos_features_avx2_available() (off x86-64 it is the
/// baseline build and that returns false).
void cos_features_baseline(double* a, Eigen::Index rows, Eigen::Index cols, const double* phase, double scale);
void cos_features_avx2(double* a, Eigen::Index rows, Eigen::Index cols, const double* phase, double scale);
bool cos_features_avx2_available();
}  // namespace detail

}  // namespace rescue::causal
