// `dpareto --version` and `dpareto version` print the version of CMake's project() (issue 21 item 5)
// and the OpenBLAS kernel the training runs on (issue 16).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "../support/test_support.hpp"
#include "dpareto/learn/blas_kernel.hpp"

TEST_CASE("--version and version print project()'s VERSION and exit 0") {
  const std::string cmake = dpareto::test::read_text(std::filesystem::path(DPARETO_SOURCE_DIR) / "CMakeLists.txt");
  std::smatch version;
  REQUIRE(std::regex_search(cmake, version, std::regex(R"(project\(dpareto VERSION ([0-9.]+))")));
  for (const char* args : {"--version", "version"}) {
    CAPTURE(args);
    const auto r = dpareto::test::run_cli(args);
    CHECK(r.status == 0);
    CHECK(r.output.rfind("dpareto " + version[1].str() + "\nBLAS: OpenBLAS ", 0) == 0);
  }
}

TEST_CASE("version names the OpenBLAS kernel and who chose it") {
  // The user's choice stands (Prescott, the generic SSE3 kernel, runs on every x86-64 CPU); and the
  // second start after dpareto chose one (the marker variable is what the first start sets). The
  // restart itself: tests/learn/blas_kernel_test.cpp.
  struct Case {
    const char* coretype;
    const char* marker;
    std::string expected;
  };
  const char* kernel = dpareto::learn::openblas_kernel_for(dpareto::learn::this_cpu());
  // Beside a user's narrower kernel, the one this CPU's instruction sets run is named.
  std::vector<Case> cases{{"Prescott", nullptr,
                           std::string(", kernel Prescott (OPENBLAS_CORETYPE=Prescott") +
                               (kernel != nullptr ? std::string("; this CPU also runs the ") + kernel +
                                                        " kernel, with wider instructions)"
                                                  : std::string(")"))}};
  if (kernel != nullptr)
    cases.push_back(
        {kernel, kernel, std::string(", kernel ") + kernel + " (chosen by dpareto from the CPU's instruction sets)"});
  for (const auto& c : cases) {
    CAPTURE(c.expected);
    const dpareto::test::ScopedEnv coretype("OPENBLAS_CORETYPE", c.coretype);
    const dpareto::test::ScopedEnv marker("DPARETO_OPENBLAS_CORETYPE", c.marker);
    const auto r = dpareto::test::run_cli("version");
    CHECK(r.status == 0);
    CHECK(r.output.find(c.expected) != std::string::npos);
  }
}
