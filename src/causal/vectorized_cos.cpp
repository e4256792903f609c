#include "causal/vectorized_cos.hpp"

namespace rescue::causal {

// Not "avx512f" or "fma": those let the compiler fuse a multiply and an add,
// which rounds once instead of twice and would make the Monte Carlo estimates,
// and so the runs, depend on the machine.
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
__attribute__((target_clones("avx2", "default")))
#endif
#endif
void cos_in_place(double* x, Eigen::Index n) {
  for (Eigen::Index i = 0; i < n; ++i) x[i] = polynomial_cos(x[i]);
}

}  // namespace rescue::causal
