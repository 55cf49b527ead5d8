// scripts/demo builds the CLI target alone (issue 21 item 8), while scripts/build without a target,
// as scripts/test runs it, still builds everything. Both run on a copy of the scripts where cmake,
// the package set-up and the CLI are stubs that record their arguments.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "../support/test_support.hpp"

namespace fs = std::filesystem;

namespace {

const dpareto::test::TempRoot demo_script_root("dpareto_demo_script_test_");

// An executable at `path` that appends its arguments, one call a line, to `log`.
void recording_stub(const fs::path& path, const fs::path& log) {
  std::ofstream(path) << "#!/bin/sh\necho \"$*\" >> '" << log.string() << "'\n";
  fs::permissions(path, fs::perms::owner_all, fs::perm_options::add);
}

}  // namespace

TEST_CASE("scripts/demo builds only the dpareto target; scripts/build alone builds every target") {
  const auto root = demo_script_root.dir("checkout");
  for (const char* dir : {"scripts", "bin", "build"}) fs::create_directories(root / dir);
  for (const char* script : {"demo", "build"})
    fs::copy_file(fs::path(DPARETO_SOURCE_DIR) / "scripts" / script, root / "scripts" / script);
  std::ofstream(root / "scripts" / "setup") << "exit 0\n";  // no package installation here
  recording_stub(root / "bin" / "cmake", root / "cmake.log");
  recording_stub(root / "build" / "dpareto", root / "dpareto.log");
  const std::string shell = "cd '" + root.string() + "' && PATH='" + (root / "bin").string() + "':\"$PATH\" bash ";

  // The configure step (a unity build unless DPARETO_UNITY says otherwise), then the build step
  // with the job count of this machine.
  const std::string configure =
      R"(-S \. -B build -DCMAKE_BUILD_TYPE=Release -DDPARETO_NATIVE=\w+ -DCMAKE_UNITY_BUILD=\w+\n--build build -j\d+)";
  REQUIRE(std::system((shell + "scripts/demo >/dev/null").c_str()) == 0);
  const std::string demo_log = dpareto::test::read_text(root / "cmake.log");
  CHECK_MESSAGE(std::regex_match(demo_log, std::regex(configure + " --target dpareto\n")), demo_log);
  CHECK(dpareto::test::read_text(root / "dpareto.log").rfind("explore --problem svt ", 0) == 0);

  fs::remove(root / "cmake.log");
  REQUIRE(std::system((shell + "scripts/build >/dev/null").c_str()) == 0);
  const std::string build_log = dpareto::test::read_text(root / "cmake.log");
  CHECK_MESSAGE(std::regex_match(build_log, std::regex(configure + "\n")), build_log);
}
