// A stand-in for OpenBLAS's openblas_get_corename, preloaded (LD_PRELOAD) by the learn tests to act
// out a CPU that OpenBLAS does not know: while OPENBLAS_CORETYPE is unset it names the generic SSE3
// kernel, as Debian's OpenBLAS does on such a CPU; once set (the second start), the real answer.
#include <dlfcn.h>

#include <cstdlib>

namespace {
const bool acting_unknown_cpu = std::getenv("OPENBLAS_CORETYPE") == nullptr;
}

extern "C" char* openblas_get_corename() {
  static char generic[] = "Prescott";
  if (acting_unknown_cpu) return generic;
  using Corename = char* (*)();
  return reinterpret_cast<Corename>(dlsym(RTLD_NEXT, "openblas_get_corename"))();
}
