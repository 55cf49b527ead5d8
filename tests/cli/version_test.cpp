// `dpareto --version` and `dpareto version` print the version of CMake's project() (issue 21 item 5).
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "../support/test_support.hpp"

TEST_CASE("--version and version print project()'s VERSION and exit 0") {
  const std::string cmake = dpareto::test::read_text(std::filesystem::path(DPARETO_SOURCE_DIR) / "CMakeLists.txt");
  std::smatch version;
  REQUIRE(std::regex_search(cmake, version, std::regex(R"(project\(dpareto VERSION ([0-9.]+))")));
  for (const char* args : {"--version", "version"}) {
    CAPTURE(args);
    const auto r = dpareto::test::run_cli(args);
    CHECK(r.status == 0);
    CHECK(r.output == "dpareto " + version[1].str() + "\n");
  }
}
