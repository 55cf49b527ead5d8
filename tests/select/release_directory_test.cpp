// tune's output directory is replaced as a whole or refused, never mixed (issues 23 item 3, 24
// item 4): no stale model.bin after a run that released nothing, no foreign directory clobbered,
// and a refusal happens before any budget is spent.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "../support/test_support.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/select/release_directory.hpp"

namespace fs = std::filesystem;
using dpareto::test::read_text;
using dpareto::test::run_cli;
using namespace dpareto::select;

namespace {
const dpareto::test::TempRoot release_directory_root("dpareto_release_test_");

std::size_t entries(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}
}  // namespace

TEST_CASE("write_release_directory: a new release replaces the old one whole; nothing else is left") {
  const auto root = release_directory_root.dir("swap");
  const auto out = root / "out";
  Eigen::VectorXf w(3);
  w << 1, 2, 3;
  write_release_directory(out, {{"run", 1}}, "logreg", w);
  CHECK(fs::exists(out / "model.bin"));
  write_release_directory(out, {{"run", 2}}, "logreg", std::nullopt);  // nothing released this time
  CHECK_FALSE(fs::exists(out / "model.bin"));                          // the previous model is gone with it
  CHECK(nlohmann::json::parse(read_text(out / "certificate.json"))["run"] == 2);
  CHECK(entries(root) == 1);  // no staging or old directory left beside it
  CHECK(entries(out) == 1);
}

TEST_CASE("check_release_directory: a directory with other files, or a file, is refused") {
  const auto root = release_directory_root.dir("refuse");
  CHECK_NOTHROW(check_release_directory(root / "absent"));
  fs::create_directories(root / "mine");
  std::ofstream(root / "mine" / "notes.txt") << "keep me";
  CHECK_THROWS_WITH_AS(check_release_directory(root / "mine"), doctest::Contains("holds notes.txt"),
                       dpareto::InputError);
  std::ofstream(root / "file") << "x";
  CHECK_THROWS_AS(check_release_directory(root / "file"), dpareto::InputError);
}

TEST_CASE("tune --out over a foreign directory is refused before any budget is spent") {
  const auto dir = release_directory_root.dir("cli");
  std::ofstream(dir / "c.json") << R"({"problem": "synthetic-logreg-sgd", "candidates": [
      {"epochs": 1, "lot_size": 64, "learning_rate": 0.05, "clip_norm": 1}]})";
  fs::create_directories(dir / "results");
  std::ofstream(dir / "results" / "front.csv") << "id\n";
  const auto r =
      run_cli("tune --problem synthetic-logreg-sgd --set train_subset=500 --candidates " + (dir / "c.json").string() +
              " --method random-stopping --target-epsilon 2 --delta 1e-5 "
              "--seed 1 --ledger " +
              (dir / "ledger.json").string() + " --out " + (dir / "results").string());
  CHECK(r.status == 2);
  CHECK(r.output.find("holds front.csv") != std::string::npos);
  CHECK(read_text(dir / "results" / "front.csv") == "id\n");
  CHECK_FALSE(fs::exists(dir / "ledger.json"));  // nothing was spent
}
