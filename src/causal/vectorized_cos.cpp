#include "causal/vectorized_cos.hpp"

#include <cmath>

namespace rescue::causal {

// Not "avx512f" or "fma": those let the compiler fuse a multiply and an add,
// which rounds once instead of twice and would make the Monte Carlo estimates,
// and so the runs, depend on the machine.
// target_clones needs ifunc: ELF with glibc. Not under ThreadSanitizer: the
// ifunc resolver runs while the dynamic linker relocates
// the library, before the TSan runtime is initialized, and crashes (clang 14).
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RESCUE_NO_CLONES 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define RESCUE_NO_CLONES 1
#endif
#if defined(__x86_64__) && defined(__ELF__) && defined(__GLIBC__) && defined(__has_attribute) && \
    !defined(RESCUE_NO_CLONES)
#if __has_attribute(target_clones)
#define RESCUE_AVX2_CLONE __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef RESCUE_AVX2_CLONE
#define RESCUE_AVX2_CLONE
#endif

namespace {

// a(:, j) += phase[j]; true when every |a| is below kVectorizedCosLimit (a
// NaN is not). One pass over memory; an OR of comparisons vectorizes where a
// floating-point max would not.
RESCUE_AVX2_CLONE
bool add_phase_within_limit(double* a, Eigen::Index rows, Eigen::Index cols, const double* phase) {
  int over = 0;
  for (Eigen::Index j = 0; j < cols; ++j) {
    double* c = a + j * rows;
    const double ph = phase[j];
    for (Eigen::Index i = 0; i < rows; ++i) {
      c[i] += ph;
      over |= !(std::abs(c[i]) < kVectorizedCosLimit);
    }
  }
  return over == 0;
}

RESCUE_AVX2_CLONE
void scaled_polynomial_cos(double* x, Eigen::Index n, double scale) {
  for (Eigen::Index i = 0; i < n; ++i) x[i] = polynomial_cos(x[i]) * scale;
}

}  // namespace

void cos_features_in_place(double* a, Eigen::Index rows, Eigen::Index cols, const double* phase, double scale) {
  const Eigen::Index n = rows * cols;
  if (add_phase_within_limit(a, rows, cols, phase)) {
    scaled_polynomial_cos(a, n, scale);
  } else {
    for (Eigen::Index i = 0; i < n; ++i) a[i] = std::cos(a[i]) * scale;
  }
}

}  // namespace rescue::causal
