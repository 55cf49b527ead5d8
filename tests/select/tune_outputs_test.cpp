// Every file `tune` writes and every key of its certificate is listed in docs/tune.md's output
// table (between the output-keys markers), with what it depends on: a key added without saying
// what it reveals fails here.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>

#include "../support/test_support.hpp"

namespace fs = std::filesystem;
using dpareto::test::run_cli;

namespace {

const dpareto::test::TempRoot tune_outputs_root("dpareto_tune_outputs_test_");

// The keys named in the first column of the table: `a.b`, `c[].d`; `x.*` stands for any child of x;
// with each key's "depends on" cell (the third column).
std::map<std::string, std::string> documented_dependence() {
  const std::string doc = dpareto::test::read_text(fs::path(DPARETO_DOCS_DIR) / "tune.md");
  const auto begin = doc.find("<!-- output-keys -->"), end = doc.find("<!-- /output-keys -->");
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  std::map<std::string, std::string> keys;
  std::istringstream table(doc.substr(begin, end - begin));
  const std::regex key("`([A-Za-z0-9_.\\[\\]*]+)`");
  for (std::string line; std::getline(table, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    const auto bar1 = line.find('|', 1), bar2 = line.find('|', bar1 + 1), bar3 = line.find('|', bar2 + 1);
    const std::string first = line.substr(1, bar1 - 1);
    const std::string depends = line.substr(bar2 + 2, bar3 - bar2 - 3);
    for (std::sregex_iterator it(first.begin(), first.end(), key), stop; it != stop; ++it) keys[(*it)[1]] = depends;
  }
  return keys;
}

std::set<std::string> documented_keys() {
  std::set<std::string> keys;
  for (const auto& [k, v] : documented_dependence()) keys.insert(k);
  return keys;
}

bool listed(const std::set<std::string>& keys, const std::string& path) {
  if (keys.count(path)) return true;
  const auto dot = path.rfind('.');
  return dot != std::string::npos && keys.count(path.substr(0, dot) + ".*");
}

// Object keys as dotted paths; array elements that are objects add "[]".
void walk(const nlohmann::json& j, const std::string& prefix, std::set<std::string>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      const std::string path = prefix.empty() ? k : prefix + "." + k;
      out.insert(path);
      walk(v, path, out);
    }
  } else if (j.is_array()) {
    for (const auto& v : j)
      if (v.is_object()) walk(v, prefix + "[]", out);
  }
}

}  // namespace

TEST_CASE("tune writes only documented files and certificate keys") {
  const auto keys = documented_keys();
  CHECK(keys.size() > 60);
  const auto dir = tune_outputs_root.dir("runs");
  std::ofstream(dir / "c.json") << R"({"problem": "synthetic-logreg-sgd", "candidates": [
      {"epochs": 2, "lot_size": 64, "learning_rate": 0.05, "clip_norm": 1},
      {"epochs": 1, "lot_size": 32, "learning_rate": 0.02, "clip_norm": 1}]})";
  const std::string common =
      "tune --problem synthetic-logreg-sgd --set train_subset=1500 --set threads=2 --max-epochs 4 "
      "--candidates " +
      (dir / "c.json").string() + " --delta 1e-5 --seed 2";
  const std::pair<const char*, const char*> runs[] = {
      {"rs", "--method random-stopping --target-epsilon 2"},
      {"tnb", "--method random-stopping --distribution tnb --eta 1 --gamma 0.3 --target-epsilon 3"},
      {"grid", "--method grid --target-epsilon 2"},
      {"sub", "--set sampling=poisson --method subsampled --variant 2 --target-epsilon 3"},
      {"pt", "--method propose-test --partitions 4 --granularity 0.1 --utility-floor 0.5 --target-epsilon 2"},
      {"hype", "--method dp-hype --client-split label-skew --target-epsilon 2"},
      {"private-test", "--method random-stopping --target-epsilon 2 --test-split private"}};
  for (const auto& [name, flags] : runs) {
    CAPTURE(name);
    const auto out = dir / name;
    const auto r = run_cli(common + " " + flags + " --out " + out.string());
    REQUIRE_MESSAGE(r.status == 0, r.output);
    for (const auto& entry : fs::directory_iterator(out)) {
      const std::string file = entry.path().filename().string();
      CHECK_MESSAGE((file == "certificate.json" || file == "model.bin"), "unlisted file ", file);
    }
    std::set<std::string> paths;
    const auto certificate = nlohmann::json::parse(dpareto::test::read_text(out / "certificate.json"));
    walk(certificate, "", paths);
    for (const auto& path : paths) CHECK_MESSAGE(listed(keys, path), "certificate key not in docs/tune.md: ", path);
    // The certificate states what each of its values depends on, as the docs table does.
    const auto dependence = documented_dependence();
    REQUIRE(certificate.contains("depends_on"));
    for (const auto& [key, value] : certificate.items()) {
      CAPTURE(key);
      REQUIRE(certificate["depends_on"].contains(key));
      CHECK(certificate["depends_on"][key].get<std::string>() == dependence.at(key));
    }
  }
}
