#include "bench/blas_core.hpp"

#include <dlfcn.h>

#include <cstdlib>

namespace rescue::bench {

std::string blas_core() {
  // Looked up rather than linked: the library may be built against another
  // BLAS, which has no such function.
  using CoreName = char* (*)();
  void* sym = dlsym(RTLD_DEFAULT, "openblas_get_corename");
  if (sym == nullptr) return "unknown";
  const char* name = reinterpret_cast<CoreName>(sym)();
  if (name == nullptr || *name == '\0') return "unknown";
  std::string s(name);
  // The name goes on one metadata line of the run file.
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

int blas_threads() {
  using NumThreads = int (*)();
  void* sym = dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
  if (sym == nullptr) return 0;
  const int n = reinterpret_cast<NumThreads>(sym)();
  return n > 0 ? n : 0;
}

bool one_blas_thread_unless_chosen() {
  for (const char* var : {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"})
    if (std::getenv(var) != nullptr) return false;
  using SetThreads = void (*)(int);
  void* sym = dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
  if (sym == nullptr) return false;
  reinterpret_cast<SetThreads>(sym)(1);
  return true;
}

}  // namespace rescue::bench
