// End-to-end checks of the CLI: bad input gives a one-line error naming the value and a non-zero
// exit; explore writes the run directory of DESIGN §2 and is reproducible for a seed.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

struct Result {
  int exit_code;
  std::string out;
  std::string err;
};

Result run(const std::string& args) {
  const auto err_path = fs::temp_directory_path() / ("dpareto-cli-err-" + std::to_string(::getpid()));
  const std::string command = std::string(DPARETO_CLI) + " " + args + " 2>" + err_path.string();
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe)) out += buffer.data();
  const int status = ::pclose(pipe);
  std::ifstream err_file(err_path);
  std::stringstream err;
  err << err_file.rdbuf();
  fs::remove(err_path);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, err.str()};
}

int lines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

void check_bad_input(const std::string& args, const std::string& mentions) {
  CAPTURE(args);
  const auto r = run(args);
  CHECK(r.exit_code == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.find(mentions) != std::string::npos);
  CAPTURE(r.err);
}

fs::path temp_dir(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("dpareto-cli-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

}  // namespace

TEST_CASE("bad input: one-line error naming the value, exit code 2") {
  check_bad_input("explore --problem nosuch --budget 4", "nosuch");
  check_bad_input("explore --problem svt --bogus-flag 3", "bogus-flag");
  check_bad_input("explore --problem svt --init 10 --budget 4", "--init 10");
  check_bad_input("explore --problem svt --budget 0", "--budget");
  check_bad_input("explore --problem svt --reference 0.001,1 --init 2 --budget 4", "--reference");
  check_bad_input("explore --problem svt --reference 10,0 --init 2 --budget 4", "--reference");
  check_bad_input("explore --problem svt --reference 10 --init 2 --budget 4", "--reference");
  check_bad_input("explore --problem svt --method bayes", "bayes");
  check_bad_input("explore --problem svt --hv-axis cubic", "cubic");
  check_bad_input("explore --problem svt --set repeats=many", "repeats=many");
  check_bad_input("evaluate --problem svt --params bound=3", "noise");
  check_bad_input("evaluate --problem svt --params bound=3,noise=abc", "abc");
  check_bad_input("evaluate --problem svt --params bound=3,noise=1,lr=2", "lr");
  check_bad_input("evaluate --problem svt --params bound=3.5,noise=1", "3.5");
  check_bad_input("exact --problem svt --points 3 --out /tmp/x", "--points");
  check_bad_input("nosuchcommand", "nosuchcommand");
}

TEST_CASE("evaluate prints the documented JSON keys; out-of-domain values warn but run") {
  const auto r = run("evaluate --problem svt --params bound=10,noise=0.05 --seed 3 --json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"epsilon", "delta", "utility", "utility_min", "utility_max", "seconds"})
    CHECK(j.contains(key));
  CHECK(j["utility"].get<double>() > 0.9);
  const auto outside = run("evaluate --problem svt --params bound=40,noise=500 --seed 3 --json");
  CHECK(outside.exit_code == 0);
  CHECK(outside.err.find("warning") != std::string::npos);
}

TEST_CASE("explore writes evaluations.csv, front.csv, summary.json; a seed reproduces the run") {
  const auto a = temp_dir("a"), b = temp_dir("b");
  const std::string common = "explore --problem svt --init 5 --budget 9 --seed 11 --candidates 300 --set repeats=10 ";
  REQUIRE(run(common + "--out " + a.string()).exit_code == 0);
  REQUIRE(run(common + "--out " + b.string()).exit_code == 0);
  auto read = [](const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  const auto csv = read(a / "evaluations.csv");
  CHECK(csv.rfind("id,phase,status,bound,noise,epsilon,delta,utility,utility_min,utility_max,seconds,message\n", 0) ==
        0);
  CHECK(lines(csv) == 10);
  const auto summary = nlohmann::json::parse(read(a / "summary.json"));
  CHECK(summary["evaluations"] == 9);
  CHECK(summary["hv_history"].size() == 9);
  CHECK(summary["hv_axis"] == "log");
  CHECK(summary["reference"][0] == 1000.0);
  // Same seed, same evaluations (timings aside): compare everything but the seconds column.
  auto strip_seconds = [](const std::string& text) {
    std::stringstream in(text), out;
    for (std::string line; std::getline(in, line);) {
      auto cut = line.rfind(',');
      cut = line.rfind(',', cut - 1);
      out << line.substr(0, cut) << "\n";
    }
    return out.str();
  };
  CHECK(strip_seconds(csv) == strip_seconds(read(b / "evaluations.csv")));
  fs::remove_all(a);
  fs::remove_all(b);
}

TEST_CASE("--config FILE supplies flags; the command line wins") {
  const auto dir = temp_dir("config");
  fs::create_directories(dir);
  std::ofstream(dir / "explore.ini")
      << "problem = svt\ninit = 3\nbudget = 5\nseed = 4\nset = repeats=5\ncandidates = 200\n";
  const auto r =
      run("explore --config " + (dir / "explore.ini").string() + " --budget 4 --json --out " + (dir / "run").string());
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["evaluations"] == 4);
  check_bad_input("explore --config " + (dir / "missing.ini").string(), "missing.ini");
  fs::remove_all(dir);
}
