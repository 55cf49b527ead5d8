#include "dpareto/learn/blas_kernel.hpp"

#include <cblas.h>
#include <strings.h>
#include <unistd.h>

#include <cstdlib>

namespace dpareto::learn {

CpuFeatures this_cpu() {
  __builtin_cpu_init();  // called from an initializer, which may run before libgcc's own
  CpuFeatures f;
  f.avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  f.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
             __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512vl");
  f.avx512_bf16 = f.avx512 && __builtin_cpu_supports("avx512bf16");
  return f;
}

const char* openblas_kernel_for(const CpuFeatures& features) {
  if (features.avx512 && features.avx512_bf16) return "Cooperlake";
  if (features.avx512) return "SkylakeX";
  if (features.avx2_fma) return "Haswell";
  return nullptr;
}

bool uses_avx2(const char* openblas_kernel) {
  for (const char* name : {"Haswell", "Zen", "Excavator", "SkylakeX", "Cooperlake", "SapphireRapids"})
    if (strcasecmp(openblas_kernel, name) == 0) return true;
  return false;
}

namespace {

// 0 below AVX2, 1 AVX2, 2 AVX-512, 3 AVX-512 with BF16.
int instruction_width(const char* openblas_kernel) {
  if (strcasecmp(openblas_kernel, "Cooperlake") == 0 || strcasecmp(openblas_kernel, "SapphireRapids") == 0) return 3;
  if (strcasecmp(openblas_kernel, "SkylakeX") == 0) return 2;
  return uses_avx2(openblas_kernel) ? 1 : 0;
}

}  // namespace

const char* wider_kernel_than(const char* openblas_kernel, const CpuFeatures& cpu) {
  const char* best = openblas_kernel_for(cpu);
  return best != nullptr && instruction_width(best) > instruction_width(openblas_kernel) ? best : nullptr;
}

namespace {

constexpr const char* kCoretype = "OPENBLAS_CORETYPE";
constexpr const char* kChosenByUs = "DPARETO_OPENBLAS_CORETYPE";  // marks a kernel chosen below

const char* chosen_kernel = nullptr;

// An initializer of the executable: it runs after every shared library's, so OpenBLAS has chosen
// its kernel already (it reads OPENBLAS_CORETYPE once, in its own initializer). When it chose one
// below what the CPU runs, the process starts itself again with the variable set (glibc passes
// initializers the program's arguments).
void choose_openblas_kernel(int, char** argv, char**) {
  if (const char* ours = std::getenv(kChosenByUs)) {  // the process started again below
    const char* kernel = openblas_kernel_for(this_cpu());
    if (kernel != nullptr && strcasecmp(ours, kernel) == 0) chosen_kernel = kernel;
    unsetenv(kCoretype);
    unsetenv(kChosenByUs);
    return;
  }
  if (std::getenv(kCoretype) != nullptr) return;  // the user's choice stands
  const char* kernel = openblas_kernel_for(this_cpu());
  if (kernel == nullptr || uses_avx2(openblas_get_corename())) return;
  if (setenv(kCoretype, kernel, 1) == 0 && setenv(kChosenByUs, kernel, 1) == 0) execv("/proc/self/exe", argv);
  unsetenv(kCoretype);  // could not start again: carry on with OpenBLAS's choice
  unsetenv(kChosenByUs);
}

[[gnu::used, gnu::section(".init_array")]] void (*choose_kernel_at_start)(int, char**,
                                                                          char**) = &choose_openblas_kernel;

}  // namespace

const char* chosen_openblas_kernel() {
  return chosen_kernel;
}

std::string blas_description() {
  const char* user_choice = std::getenv(kCoretype);
  const char* wider = wider_kernel_than(openblas_get_corename(), this_cpu());
  const std::string by = chosen_kernel != nullptr ? "chosen by dpareto from the CPU's instruction sets"
                         : user_choice != nullptr
                             ? std::string(kCoretype) + "=" + user_choice +
                                   (wider != nullptr ? std::string("; this CPU also runs the ") + wider +
                                                           " kernel, with wider instructions"
                                                     : std::string())
                             : "OpenBLAS's own choice";
  return std::string(openblas_get_config()) + ", kernel " + openblas_get_corename() + " (" + by + ")";
}

}  // namespace dpareto::learn
