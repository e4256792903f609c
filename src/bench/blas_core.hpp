// The BLAS kernel a run used. OpenBLAS picks its kernels by CPU at load time
// (or by OPENBLAS_CORETYPE), and two kernels round differently, so a run
// repeats digit for digit only on the same kernel; the run files record it.
#pragma once
#include <string>

namespace rescue::bench {

/// OpenBLAS's name for the kernel in use ("Haswell", "SkylakeX", ...), or
/// "unknown" when the BLAS in the process is not OpenBLAS.
std::string blas_core();

}  // namespace rescue::bench
