#pragma once
// Which OpenBLAS kernel the dense products run on (issue 16). Debian's OpenBLAS (0.3.21, built
// DYNAMIC_ARCH) picks its kernel from a table of CPU models, and a model newer than the table gets
// its generic SSE3 kernel ("Prescott"): measured on an Intel Xeon of family 6 model 207, SGEMM ran at
// 25 GFLOP/s per core against 122 with the AVX-512 kernel, and an MNIST epoch 4.3× slower.
//
// So every dpareto executable checks, as it starts, whether OpenBLAS chose a kernel without AVX2
// on a CPU that has it; if so, and the user has not set OPENBLAS_CORETYPE, it starts itself again
// (same arguments, same process id) with the variable set to the kernel chosen here from the CPU's
// instruction sets, and then takes the variable out of its environment again, so that commands it
// starts (an oracle's NumPy, say) make their own choice. OpenBLAS reads the variable only while it
// initializes, before any code of the executable runs, hence the second start. A CPU OpenBLAS
// knows keeps OpenBLAS's own choice.
#include <string>

namespace dpareto::learn {

// The instruction sets that decide the kernel.
struct CpuFeatures {
  bool avx2_fma = false;  // AVX2 and FMA3
  bool avx512 = false;    // AVX-512 F, CD, BW, DQ and VL, with the OS saving their state
  bool avx512_bf16 = false;
};

// The features of the processor this runs on.
CpuFeatures this_cpu();

// OpenBLAS's name for the fastest kernel these features run: "Cooperlake" (AVX-512 with BF16),
// "SkylakeX" (AVX-512), "Haswell" (AVX2 + FMA); null below AVX2, where OpenBLAS's own choice stands.
const char* openblas_kernel_for(const CpuFeatures& features);

// Whether an OpenBLAS kernel (as openblas_get_corename() names it) uses AVX2.
bool uses_avx2(const char* openblas_kernel);

// The kernel openblas_kernel_for(cpu) names when it uses wider instructions than `openblas_kernel`
// (AVX-512 beside an AVX2 kernel, AVX2 beside a generic one); null otherwise. What a user's
// OPENBLAS_CORETYPE keeps from use (on a Zen 5 its Haswell setting cost MLP1 epochs 1.6×; on a Zen 4
// the Haswell kernel was the faster one, so this names the kernel, not a gain).
const char* wider_kernel_than(const char* openblas_kernel, const CpuFeatures& cpu);

// The kernel this process chose through OPENBLAS_CORETYPE; null when OpenBLAS's own choice was kept
// or the user had set the variable.
const char* chosen_openblas_kernel();

// One line for `dpareto version` and the benchmarks: OpenBLAS's build, its kernel and who chose it.
std::string blas_description();

}  // namespace dpareto::learn
