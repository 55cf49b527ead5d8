// The OpenBLAS kernel chosen from the CPU's instruction sets when OpenBLAS's own choice lacks AVX2
// (issue 16).
#include "dpareto/learn/blas_kernel.hpp"

#include <cblas.h>
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "../support/test_support.hpp"

using namespace dpareto::learn;

TEST_CASE("the kernel follows the widest instruction set the CPU has") {
  CpuFeatures f;
  CHECK(openblas_kernel_for(f) == nullptr);  // below AVX2: OpenBLAS's own choice stands
  f.avx2_fma = true;
  CHECK(std::string(openblas_kernel_for(f)) == "Haswell");
  f.avx512 = true;
  CHECK(std::string(openblas_kernel_for(f)) == "SkylakeX");
  f.avx512_bf16 = true;
  CHECK(std::string(openblas_kernel_for(f)) == "Cooperlake");
}

TEST_CASE("OpenBLAS's generic kernels are told from its AVX2 ones") {
  for (const char* generic : {"Prescott", "Core2", "Nehalem", "Sandybridge", "Barcelona", "Bulldozer"}) {
    CAPTURE(generic);
    CHECK_FALSE(uses_avx2(generic));
  }
  for (const char* avx2 : {"Haswell", "Zen", "SkylakeX", "Cooperlake", "cooperlake", "SapphireRapids"}) {
    CAPTURE(avx2);
    CHECK(uses_avx2(avx2));
  }
  // Every kernel chosen here is one OpenBLAS would keep.
  CpuFeatures f{true, true, true};
  CHECK(uses_avx2(openblas_kernel_for(f)));
  f.avx512_bf16 = false;
  CHECK(uses_avx2(openblas_kernel_for(f)));
  f.avx512 = false;
  CHECK(uses_avx2(openblas_kernel_for(f)));
}

TEST_CASE("a kernel of wider instructions than the one in use is named, none of the same or narrower") {
  CpuFeatures avx2{true, false, false}, avx512{true, true, false}, bf16{true, true, true};
  CHECK(std::string(wider_kernel_than("Prescott", avx2)) == "Haswell");
  CHECK(wider_kernel_than("Haswell", avx2) == nullptr);
  CHECK(wider_kernel_than("Zen", avx2) == nullptr);
  CHECK(std::string(wider_kernel_than("Haswell", avx512)) == "SkylakeX");
  CHECK(std::string(wider_kernel_than("zen", bf16)) == "Cooperlake");
  CHECK(std::string(wider_kernel_than("SkylakeX", bf16)) == "Cooperlake");
  CHECK(wider_kernel_than("Cooperlake", bf16) == nullptr);
  CHECK(wider_kernel_than("SapphireRapids", bf16) == nullptr);
  CHECK(wider_kernel_than("SkylakeX", avx2) == nullptr);  // the user's wider setting: nothing to add
  CHECK(wider_kernel_than("Prescott", CpuFeatures{}) == nullptr);
}

TEST_CASE("this process runs an AVX2 kernel wherever the CPU has AVX2, and the environment is left clean") {
  CAPTURE(blas_description());
  if (this_cpu().avx2_fma && std::getenv("OPENBLAS_CORETYPE") == nullptr) CHECK(uses_avx2(openblas_get_corename()));
  CHECK(std::getenv("DPARETO_OPENBLAS_CORETYPE") == nullptr);
  if (chosen_openblas_kernel() != nullptr) CHECK(std::getenv("OPENBLAS_CORETYPE") == nullptr);
}

TEST_CASE("on a CPU OpenBLAS does not know, dpareto starts again with the kernel chosen from the CPU") {
  const char* kernel = openblas_kernel_for(this_cpu());
  if (kernel == nullptr) return;  // below AVX2 nothing is chosen
  // The preloaded stand-in names OpenBLAS's generic kernel until OPENBLAS_CORETYPE is set; a
  // kernel the user chose (OPENBLAS_CORETYPE in the environment running the tests) would stand.
  const dpareto::test::ScopedEnv no_user_choice("OPENBLAS_CORETYPE", nullptr);
  const dpareto::test::ScopedEnv preload("LD_PRELOAD", DPARETO_FAKE_CORENAME);
  const auto r = dpareto::test::run_cli("version");
  CHECK(r.status == 0);
  CAPTURE(r.output);
  CHECK(r.output.find(std::string(", kernel ") + kernel + " (chosen by dpareto from the CPU's instruction sets)") !=
        std::string::npos);
}
