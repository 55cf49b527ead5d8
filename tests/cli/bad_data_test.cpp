// Data and flags that used to crash or mislead (issues 23 and 24): each is one line naming the value
// and its source, exit 2, never a signal.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../support/test_support.hpp"

namespace fs = std::filesystem;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot bad_data_root("dpareto_bad_data_test_");

std::string be32(std::uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

// An MNIST-format directory whose images are side × side.
fs::path mnist_dir(const std::string& name, std::uint32_t side) {
  const auto dir = bad_data_root.dir(name) / "mnist";
  fs::create_directories(dir);
  for (const std::string split : {"train", "t10k"}) {
    const std::uint32_t n = 40;
    std::string images = be32(2051) + be32(n) + be32(side) + be32(side);
    images.append(std::size_t{n} * side * side, '\x10');
    std::string labels = be32(2049) + be32(n);
    for (std::uint32_t i = 0; i < n; ++i) labels += static_cast<char>(i % 10);
    std::ofstream(dir / (split + "-images-idx3-ubyte"), std::ios::binary) << images;
    std::ofstream(dir / (split + "-labels-idx1-ubyte"), std::ios::binary) << labels;
  }
  return dir.parent_path();
}

}  // namespace

TEST_CASE("MNIST files whose images are not 28x28: a clear error at load, not an abort inside training") {
  const auto data = mnist_dir("mnist20", 20);
  const auto r = run_cli("evaluate --problem mnist-mlp2-sgd --data-dir " + data.string() +
                         " --params epochs=1,lot_size=16,learning_rate=0.1,noise_multiplier=1,clip_norm=1 --repeats 1");
  check_one_line_exit_2(r, "examples have 400 features, the model mlp2 of mnist-mlp2-sgd expects 784 (28x28 images)");
  // The same directory with 28×28 images runs.
  const auto good = mnist_dir("mnist28", 28);
  const auto ok =
      run_cli("evaluate --problem mnist-mlp2-sgd --data-dir " + good.string() +
              " --params epochs=1,lot_size=16,learning_rate=0.1,noise_multiplier=1,clip_norm=1 --repeats 1");
  CHECK_MESSAGE(ok.status == 0, ok.output);
}

TEST_CASE("tune and account tuning: a Poisson mean below 1 is refused with the reason, not an internal RDP error") {
  const auto dir = bad_data_root.dir("mu");
  std::ofstream(dir / "c.json") << R"({"problem": "synthetic-logreg-sgd", "candidates": [
      {"epochs": 1, "lot_size": 64, "learning_rate": 0.05, "clip_norm": 1}]})";
  check_one_line_exit_2(
      run_cli("tune --problem synthetic-logreg-sgd --set train_subset=500 --candidates " + (dir / "c.json").string() +
              " --method random-stopping --mu 0.5 --target-epsilon 2 "
              "--delta 1e-5 --seed 1 --out " +
              (dir / "out").string()),
      "mu = 0.5 must be a finite number >= 1");
  CHECK_FALSE(fs::exists(dir / "out"));
  check_one_line_exit_2(run_cli("account tuning --distribution poisson --mu 0.5 --sampling poisson --q 0.01 --sigma 2 "
                                "--steps 100 --delta 1e-5"),
                        "--mu 0.5 must be a finite number >= 1");
}

TEST_CASE("integer parameters out of int range are refused echoing the value, not wrapped") {
  // Outside the exploration domain `evaluate` warns and runs anyway; the evaluation then fails with
  // the value named (it used to train with epochs = -727379968).
  const auto r = run_cli(
      "evaluate --problem synthetic-logreg-sgd --set train_subset=500 "
      "--params epochs=1e12,lot_size=16,learning_rate=0.05,noise_multiplier=1,clip_norm=1");
  CHECK(r.status != 0);
  CHECK(r.output.find("epochs=1e+12 is outside [1, 2147483647]") != std::string::npos);
  CHECK(r.output.find("-727379968") == std::string::npos);
}

TEST_CASE("exact --points out of range: refused before any conversion or allocation") {
  for (const std::string points : {"inf,3", "1e12,2", "100000,100000", "-1,3", "nan,2"}) {
    CAPTURE(points);
    const auto dir = bad_data_root.dir("exact");
    const auto r = run_cli("exact --problem svt --points " + points + " --out " + (dir / "out").string());
    CHECK(r.status == 2);
    CHECK(r.output.find("--points") != std::string::npos);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(dir / "out"));
  }
}

TEST_CASE("plot surrogate --resolution outside [4, 400] is refused, not clamped silently") {
  const auto dir = bad_data_root.dir("resolution");
  REQUIRE(run_cli("explore --problem svt --budget 6 --init 4 --seed 1 --out " + (dir / "run").string()).status == 0);
  const auto r =
      run_cli("plot surrogate " + (dir / "run").string() + " --resolution 1000 --out " + (dir / "s.png").string());
  CHECK(r.status == 2);
  CHECK(r.output.find("--resolution 1000 must be in [4, 400]") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "s.png"));
}

TEST_CASE("sizes that would exhaust memory are refused before anything is allocated") {
  const auto dir = bad_data_root.dir("sizes");
  REQUIRE(run_cli("explore --problem svt --budget 6 --init 4 --seed 1 --out " + (dir / "run").string()).status == 0);
  check_one_line_exit_2(run_cli("pick " + (dir / "run").string() +
                                " --max-epsilon 1000 --candidates 2000000000 --out " + (dir / "c.json").string()),
                        "--candidates 2000000000: needs 1 <= K <= 10000");
  check_one_line_exit_2(
      run_cli("explore --problem svt --budget 6 --init 4 --candidates 2000000000 --out " + (dir / "run2").string()),
      "--candidates 2000000000: must be in [1, 1000000]");
  check_one_line_exit_2(run_cli("explore --problem svt --method grid --grid-points 2000000000 --budget 6 --out " +
                                (dir / "run3").string()),
                        "points per dimension must be in [1, 1000000], got 2000000000");
}

TEST_CASE("a write that fails on a full disk is an error, never 'wrote ...' with exit 0") {
  const auto dir = bad_data_root.dir("full");
  REQUIRE(run_cli("explore --problem svt --budget 8 --init 4 --seed 2 --out " + (dir / "run").string()).status == 0);
  // /dev/full fails every write with ENOSPC, as a full disk does.
  const auto pick = run_cli("pick " + (dir / "run").string() + " --max-epsilon 1000 --candidates 3 --out /dev/full");
  CHECK(pick.status == 2);
  CHECK(pick.output.find("cannot write") != std::string::npos);
  CHECK(pick.output.find("wrote") == std::string::npos);
  // A figure path that is a symlink (to /dev/full here) is replaced by the figure, never written
  // through (issue 14: a run directory from elsewhere may point its files anywhere).
  fs::create_symlink("/dev/full", dir / "front.png");
  const auto plot = run_cli("plot front " + (dir / "run").string() + " --out " + (dir / "front.png").string());
  CHECK(plot.status == 0);
  CHECK(fs::is_regular_file(fs::symlink_status(dir / "front.png")));
  CHECK(fs::is_character_file("/dev/full"));
}

TEST_CASE("flags and configs that used to be taken silently or wrongly are one-line errors, exit 2") {
  const auto dir = bad_data_root.dir("flags");
  check_one_line_exit_2(run_cli("evaluate --problem synthetic-logreg-sgd --set train_subset=500 --set train_subset=600 "
                                "--params epochs=1,lot_size=16,learning_rate=0.05,noise_multiplier=1,clip_norm=1"),
                        "--set train_subset given twice");
  check_one_line_exit_2(run_cli("explore --problem svt --config " + dir.string() + " --out " + (dir / "o").string()),
                        "not a regular file");
  check_one_line_exit_2(run_cli("explore --problem svt --config /dev/zero --out " + (dir / "o").string()),
                        "--config /dev/zero: not a regular file");
  // Config errors name the file and the line.
  const std::vector<std::pair<std::string, std::string>> configs{
      {"# budget\n\nbudget = many\n", ":3: the argument ('many') for option 'budget' is invalid"},
      {"init = 4\nbudgte = 6\n", ":2: unknown flag 'budgte'"},
      {"budget = 6\ninit = 4\nbudget = 7\n", ":3: 'budget' given again (first on line 1)"},
      {"budget 6\n", ":1: 'budget 6' is not 'flag = value'"}};
  for (const auto& [text, message] : configs) {
    std::ofstream(dir / "bad.ini") << text;
    check_one_line_exit_2(
        run_cli("explore --problem svt --config " + (dir / "bad.ini").string() + " --out " + (dir / "o").string()),
        "--config " + (dir / "bad.ini").string() + message);
  }
  // Fuzz finding (fuzz/config.cpp): a carriage return in a config's --set value reached the message raw.
  std::ofstream(dir / "cr.ini") << "set = = study\rng\n";
  const auto cr =
      run_cli("explore --problem svt --config " + (dir / "cr.ini").string() + " --out " + (dir / "o").string());
  check_one_line_exit_2(cr, "--set = study?ng: expected key=value");
  CHECK(cr.output.find('\r') == std::string::npos);
  std::ofstream(dir / "cr.ini") << "set = a=2\r\n";
  const auto twice = run_cli("explore --problem svt --set a=1 --config " + (dir / "cr.ini").string() + " --out " +
                             (dir / "o").string());
  check_one_line_exit_2(twice, "--set a given twice (a=1 and a=2");
  CHECK(twice.output.find('\r') == std::string::npos);
  // Fuzz finding (fuzz/config.cpp): Boost.Program_options looped forever wording its error about a
  // value or flag holding one of its placeholders (%value%, %canonical_option%).
  check_one_line_exit_2(run_cli("explore --problem svt --budget x%value% --out " + (dir / "o").string()),
                        "explore: argument 'x%value%' holds %value%, which the flag parser reserves");
  check_one_line_exit_2(run_cli("explore --problem svt --%canonical_option% --out " + (dir / "o").string()),
                        "explore: argument '--%canonical_option%' holds %canonical_option%");
  std::ofstream(dir / "percent.ini") << "budget = 6\nbudget = x%value%\n";
  check_one_line_exit_2(
      run_cli("explore --problem svt --config " + (dir / "percent.ini").string() + " --out " + (dir / "o").string()),
      "--config " + (dir / "percent.ini").string() + ":2: 'budget = x%value%' holds %value%");
  check_one_line_exit_2(run_cli("explore --problem svt --seed -1 --out " + (dir / "o").string()),
                        "--seed -1: expected a non-negative integer");
  check_one_line_exit_2(run_cli("explore --problem svt --budget 2000000000 --out " + (dir / "o").string()),
                        "--budget 2000000000 is above 100000");
  check_one_line_exit_2(run_cli("evaluate --problem synthetic-logreg-sgd --repeats 2000000000 "
                                "--params epochs=1,lot_size=16,learning_rate=0.05,noise_multiplier=1,clip_norm=1"),
                        "repeats=2000000000: at most 10000");
  CHECK_FALSE(fs::exists(dir / "o"));
  // No subcommand: usage (on stderr) and exit 2.
  const auto none = run_cli("");
  CHECK(none.status == 2);
  CHECK(none.output.find("usage: dpareto COMMAND") != std::string::npos);
}

TEST_CASE("hostile space files, run directories and values: one line naming file and value") {
  const auto dir = bad_data_root.dir("hostile");
  std::ofstream(dir / "overflow.json")
      << R"({"parameters": [{"name": "x", "kind": "continuous", "low": 0, "high": 1e999}]})";
  const auto overflow = run_cli("explore --space " + (dir / "overflow.json").string() +
                                " --oracle-cmd 'true {x}' --out " + (dir / "o").string());
  CHECK(overflow.status == 2);
  CHECK(overflow.output.find("overflow.json") != std::string::npos);
  CHECK(overflow.output.find("internal error") == std::string::npos);
  std::ofstream(dir / "newline.json")
      << R"({"parameters": [{"name": "x\ny", "kind": "continuous", "low": 0, "high": 1}]})";
  check_one_line_exit_2(run_cli("explore --space " + (dir / "newline.json").string() + " --oracle-cmd 'true' --out " +
                                (dir / "o").string()),
                        "parameter name 'x?y' may hold only letters");
  std::ofstream(dir / "huge.json") << R"({"parameters": [{"name": "n", "kind": "integer", "low": 1, "high": 1e300}]})";
  check_one_line_exit_2(run_cli("explore --space " + (dir / "huge.json").string() + " --oracle-cmd 'true {n}' --out " +
                                (dir / "o").string()),
                        "beyond +-2^53");
  const auto svt = run_cli("evaluate --problem svt --params bound=1e300,noise=1");  // warns, then fails naming it
  CHECK(svt.status != 0);
  CHECK(svt.output.find("bound=1e+300 must be in [1, 1e9]") != std::string::npos);

  // An edited run directory: utility 7.0, a negative epsilon, an id of 1e300 are refused by pick.
  REQUIRE(run_cli("explore --problem svt --budget 5 --init 4 --seed 1 --out " + (dir / "run").string()).status == 0);
  const std::string csv = dpareto::test::read_text(dir / "run" / "evaluations.csv");
  const auto first_row = csv.find('\n') + 1;
  const auto second_row = csv.find('\n', first_row) + 1;
  const std::string header = csv.substr(0, first_row), row = csv.substr(first_row, second_row - first_row);
  auto with_row = [&](const std::string& edited) {
    std::ofstream(dir / "run" / "evaluations.csv") << header << edited;
    return run_cli("pick " + (dir / "run").string() + " --max-epsilon 1000");
  };
  auto field = [&](std::string r, int column, const std::string& value) {  // replace a CSV field
    std::size_t begin = 0;
    for (int c = 0; c < column; ++c) begin = r.find(',', begin) + 1;
    const auto end = r.find(',', begin);
    return r.replace(begin, end - begin, value);
  };
  // Columns: id,phase,status,bound,noise,epsilon,delta,utility,utility_min,utility_max,seconds,message
  check_one_line_exit_2(with_row(field(row, 7, "7.0")), "an ok row needs");
  check_one_line_exit_2(with_row(field(row, 5, "-1")), "an ok row needs");
  check_one_line_exit_2(with_row(field(row, 0, "1e300")), "id 1e300 is not a whole number");
  check_one_line_exit_2(with_row(field(row, 2, "bogus")),
                        "evaluations.csv:2: status 'bogus' is not ok, failed or running");
}

TEST_CASE("a directory, a FIFO-like device or a deep document as a JSON input is one line naming it") {
  const auto dir = bad_data_root.dir("jsonfiles");
  check_one_line_exit_2(run_cli("tune --problem synthetic-logreg-sgd --candidates " + dir.string() +
                                " --method grid --target-epsilon 1 --delta 1e-5 --out " + (dir / "o").string()),
                        "the candidates file is not a regular file");
  std::ofstream(dir / "deep.json") << std::string(100000, '[');
  check_one_line_exit_2(
      run_cli("explore --space " + (dir / "deep.json").string() + " --oracle-cmd true --out " + (dir / "o").string()),
      "the space file nests deeper than 64 levels");
  check_one_line_exit_2(run_cli("ledger show /dev/zero"), "not a regular file");
}
