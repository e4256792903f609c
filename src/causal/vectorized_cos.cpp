#include "causal/vectorized_cos.hpp"

#include <cmath>

namespace rescue::causal {

// The loops are built twice on x86-64 with GCC or Clang: for the baseline
// (SSE2) and for AVX2, chosen per call by the CPU. A plain runtime test rather
// than target_clones: no ifunc (which needs ELF and glibc, and whose resolver
// runs during relocation, before a ThreadSanitizer runtime is up), and the
// test can run both builds. The same bits on every CPU rest on -ffp-contract=off
// (CMakeLists.txt): a fused multiply-add rounds once instead of twice and would
// make the Monte Carlo estimates, and so the runs, depend on the machine. The
// target is only "avx2", without "fma", as a second guard.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(_MSC_VER)
#define RESCUE_COS_AVX2 1
#define RESCUE_INLINE inline __attribute__((always_inline))
#else
#define RESCUE_INLINE inline
#endif

namespace {

// a(:, j) += phase[j]; true when every |a| is below kVectorizedCosLimit (a
// NaN is not). One pass over memory; an OR of comparisons vectorizes where a
// floating-point max would not.
RESCUE_INLINE bool add_phase_within_limit(double* a, Eigen::Index rows, Eigen::Index cols, const double* phase) {
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

RESCUE_INLINE void scaled_polynomial_cos(double* x, Eigen::Index n, double scale) {
  for (Eigen::Index i = 0; i < n; ++i) x[i] = polynomial_cos(x[i]) * scale;
}

RESCUE_INLINE void cos_features(double* a, Eigen::Index rows, Eigen::Index cols, const double* phase, double scale) {
  const Eigen::Index n = rows * cols;
  if (add_phase_within_limit(a, rows, cols, phase)) {
    scaled_polynomial_cos(a, n, scale);
  } else {
    for (Eigen::Index i = 0; i < n; ++i) a[i] = std::cos(a[i]) * scale;
  }
}

}  // namespace

namespace detail {

void cos_features_baseline(double* a, Eigen::Index rows, Eigen::Index cols, const double* phase, double scale) {
  cos_features(a, rows, cols, phase, scale);
}

#ifdef RESCUE_COS_AVX2
__attribute__((target("avx2"))) void cos_features_avx2(double* a, Eigen::Index rows, Eigen::Index cols,
                                                       const double* phase, double scale) {
  cos_features(a, rows, cols, phase, scale);
}

bool cos_features_avx2_available() {
  // __builtin_cpu_init: in case this runs before the runtime's own initializer.
  static const bool has_avx2 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return has_avx2;
}
#else
void cos_features_avx2(double* a, Eigen::Index rows, Eigen::Index cols, const double* phase, double scale) {
  cos_features(a, rows, cols, phase, scale);
}

bool cos_features_avx2_available() { return false; }
#endif

}  // namespace detail

void cos_features_in_place(double* a, Eigen::Index rows, Eigen::Index cols, const double* phase, double scale) {
  if (detail::cos_features_avx2_available())
    detail::cos_features_avx2(a, rows, cols, phase, scale);
  else
    detail::cos_features_baseline(a, rows, cols, phase, scale);
}

}  // namespace rescue::causal
