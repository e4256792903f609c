// The BLAS kernel a run used. OpenBLAS picks its kernels by CPU at load time
// (or by OPENBLAS_CORETYPE), and two kernels round differently, so a run
// repeats digit for digit only on the same kernel and thread count; the run
// files record both.
#pragma once
#include <string>

namespace rescue::bench {

/// OpenBLAS's name for the kernel in use ("Haswell", "SkylakeX", ...), or
/// "unknown" when the BLAS in the process is not OpenBLAS.
std::string blas_core();

/// The number of threads OpenBLAS splits its work across (OPENBLAS_NUM_THREADS,
/// or one per core by default), or 0 when the BLAS is not OpenBLAS. It parts
/// twin runs as the kernel does, since the threads split the same sums
/// differently; and runs in parallel with several threads each oversubscribe
/// the cores, which inflates the wall-time columns.
int blas_threads();

/// Sets OpenBLAS to one thread unless the user chose a count through
/// OPENBLAS_NUM_THREADS, GOTO_NUM_THREADS or OMP_NUM_THREADS. OpenBLAS reads
/// those when it loads, before main runs, so setting the variable from main
/// would change nothing: the count is set through OpenBLAS's own function.
/// Returns whether it set it (false: the user's choice, or not OpenBLAS).
bool one_blas_thread_unless_chosen();

}  // namespace rescue::bench
