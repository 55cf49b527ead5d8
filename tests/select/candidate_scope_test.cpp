// Data roles and the certificate's scope (issue 17): the proxy and private splits are disjoint
// and data-independent; pick records where a front was measured; tune states what its certificate
// covers, accepts a proxy front for the private split, refuses an overlapping proxy, different
// features or a private front without acknowledgement (one line, exit 2, nothing written), and
// releases a private test split's accuracy only when told to, named as unaccounted.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "../support/test_support.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/problems/data_roles.hpp"
#include "dpareto/problems/dp_training_problem.hpp"
#include "dpareto/select/candidate_file.hpp"

namespace fs = std::filesystem;
using dpareto::test::run_cli;
using namespace dpareto::problems;

namespace {

const dpareto::test::TempRoot candidate_scope_root("dpareto_candidate_scope_test_");

const std::string kProblem =
    "--problem synthetic-logreg-sgd --set train_subset=1500 --set threads=2 --max-epochs 3 --repeats 2";

// Explores on `split` (budget 6) and picks 3 candidates; returns the candidate file.
fs::path explore_and_pick(const std::string& name, const std::string& split) {
  const auto dir = candidate_scope_root.dir(name);
  const auto r = run_cli("explore " + kProblem + " --set split=" + split + " --budget 6 --init 4 --seed 3 --out " +
                         (dir / "run").string());
  REQUIRE_MESSAGE(r.status == 0, r.output);
  CHECK(r.output.find("data roles: training rows: 1500 of synthetic") != std::string::npos);
  const auto p = run_cli("pick " + (dir / "run").string() + " --max-epsilon 10 --candidates 3 --out " +
                         (dir / "cands.json").string());
  REQUIRE_MESSAGE(p.status == 0, p.output);
  return dir / "cands.json";
}

nlohmann::json read_json(const fs::path& p) {
  return nlohmann::json::parse(dpareto::test::read_text(p));
}

dpareto::test::CliRun tune(const fs::path& candidates, const std::string& split, const std::string& extra,
                           const fs::path& out) {
  return run_cli("tune " + kProblem + " --set split=" + split + " --candidates " + candidates.string() +
                 " --method random-stopping --mu 2 --target-epsilon 2 --delta 1e-5 --seed 4 " + extra + " --out " +
                 out.string());
}

void check_refused(const dpareto::test::CliRun& r, const std::string& needle, const fs::path& out) {
  CHECK(r.status == 2);
  CHECK_MESSAGE(r.output.find(needle) != std::string::npos, r.output);
  CHECK_MESSAGE(std::count(r.output.begin(), r.output.end(), '\n') == 1, r.output);
  CHECK(!fs::exists(out));
}

}  // namespace

TEST_CASE("proxy and private splits: disjoint, complete, data-independent, of the declared size") {
  const int n = 20000;
  DataRoles proxy, priv;
  proxy.split = TrainingSplit::proxy;
  priv.split = TrainingSplit::private_rows;
  proxy.proxy_fraction = priv.proxy_fraction = 0.3;
  const auto a = kept_rows(n, proxy), b = kept_rows(n, priv);
  CHECK(a.size() + b.size() == std::size_t(n));
  std::vector<int> both;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  CHECK(both.empty());
  // Binomial(n, 0.3): within 5 standard deviations.
  CHECK(std::abs(double(a.size()) - 0.3 * n) < 5 * std::sqrt(n * 0.3 * 0.7));
  // By index only: a prefix of a longer data set splits the same way.
  const auto longer = kept_rows(2 * n, proxy);
  CHECK(std::vector<int>(longer.begin(), longer.begin() + long(a.size())) == a);
  CHECK(kept_rows(n, DataRoles{}).size() == std::size_t(n));
  CHECK(proxy.training_role() == std::string("public"));
  CHECK(priv.training_role() == std::string("private"));
}

TEST_CASE("data-role options: recorded in the settings, contradictions refused") {
  const DpTrainingProblem p({"synthetic-logreg-sgd", DataSource::synthetic, dpareto::learn::logistic_regression(20)},
                            {{"split", "private"}, {"proxy_fraction", "0.25"}});
  const auto s = p.settings();
  CHECK(s.at("split") == "private");
  CHECK(s.at("proxy_fraction") == "0.25");
  CHECK(s.at("data_role") == "private");
  CHECK(s.at("features") == "20");
  CHECK(s.at("data_id").size() == 64);
  CHECK(s.at("data_roles").find("the private split (proxy_fraction 0.25), private") != std::string::npos);
  const std::pair<ProblemOptions, std::string> bad[] = {
      {{{"split", "half"}}, "option split=half"},
      {{{"split", "proxy"}, {"proxy_fraction", "1"}}, "option proxy_fraction=1"},
      {{{"proxy_fraction", "0.5"}}, "needs split=proxy or split=private"},
      {{{"split", "proxy"}, {"data_role", "public"}}, "data_role=public needs split=all"},
      {{{"data_role", "secret"}}, "option data_role=secret"}};
  for (const auto& [options, needle] : bad) {
    CAPTURE(needle);
    CHECK_THROWS_WITH_AS(
        DpTrainingProblem({"synthetic-logreg-sgd", DataSource::synthetic, dpareto::learn::logistic_regression(20)},
                          options),
        doctest::Contains(needle.c_str()), dpareto::InputError);
  }
}

TEST_CASE("proxy front: pick records it, tune on the private split covers everything; overlap refused") {
  const auto cands = explore_and_pick("proxy", "proxy");
  const auto file = read_json(cands);
  REQUIRE(file.contains("measured_on"));
  CHECK(file["measured_on"]["split"] == "proxy");
  CHECK(file["measured_on"]["data_role"] == "public");
  CHECK(file["measured_on"]["proxy_fraction"] == 0.5);
  CHECK(file["measured_on"]["features"] == 20);

  const auto out = cands.parent_path() / "release";
  const auto ok = tune(cands, "private", "", out);
  REQUIRE_MESSAGE(ok.status == 0, ok.output);
  CHECK(ok.output.find("candidates: proxy front; covered: everything released") != std::string::npos);
  const auto c = read_json(out / "certificate.json");
  CHECK(c["candidates_source"] == "proxy front");
  CHECK(c["candidates_measured_on"] == file["measured_on"]);
  CHECK(c["data_roles"].get<std::string>().find("the private split") != std::string::npos);

  const auto calibrated = cands.parent_path() / "calibrated";  // issue 18: ε as an input is explore's option
  check_refused(tune(cands, "private", "--set noise=calibrated", calibrated), "tune sets the noise itself", calibrated);

  const auto overlap = cands.parent_path() / "overlap";
  check_refused(tune(cands, "all", "", overlap), "which overlaps the rows --problem synthetic-logreg-sgd trains on",
                overlap);
  check_refused(run_cli("tune " + kProblem + " --set split=private --set proxy_fraction=0.4 --candidates " +
                        cands.string() + " --method grid --target-epsilon 2 --delta 1e-5 --out " + overlap.string()),
                "proxy_fraction 0.5", overlap);
}

TEST_CASE("private front: refused unless acknowledged, then the certificate says the choice is not covered") {
  const auto cands = explore_and_pick("private", "all");
  CHECK(read_json(cands)["measured_on"]["data_role"] == "private");
  const auto refused = cands.parent_path() / "refused";
  check_refused(tune(cands, "all", "", refused), "the candidates come from a front measured on the same private data",
                refused);
  const auto out = cands.parent_path() / "acknowledged";
  const auto r = tune(cands, "all", "--candidates-from-private-front", out);
  REQUIRE_MESSAGE(r.status == 0, r.output);
  const auto c = read_json(out / "certificate.json");
  CHECK(c["candidates_source"] == "private front");
  CHECK(c["covers"].get<std::string>().find("NOT the choice of the candidate list") != std::string::npos);
}

TEST_CASE("hand-written lists, other features, bad measured_on and the private test split") {
  const auto dir = candidate_scope_root.dir("hand");
  const std::string list = R"("problem": "synthetic-logreg-sgd", "candidates": [
      {"epochs": 2, "lot_size": 64, "learning_rate": 0.05, "clip_norm": 1}])";
  std::ofstream(dir / "hand.json") << "{" << list << "}";
  const auto out = dir / "out";
  const auto r = tune(dir / "hand.json", "all", "--test-split private", out);
  REQUIRE_MESSAGE(r.status == 0, r.output);
  auto c = read_json(out / "certificate.json");
  CHECK(c["candidates_source"] == "data-independent list");
  CHECK(c["candidates_measured_on"].is_null());
  if (!c["selected"].is_null()) CHECK(c["test_utility"].is_null());
  const auto released = dir / "released";
  const auto r2 = tune(dir / "hand.json", "all", "--test-split private --release-test-utility", released);
  REQUIRE_MESSAGE(r2.status == 0, r2.output);
  c = read_json(released / "certificate.json");
  if (!c["selected"].is_null()) {
    CHECK(c["test_utility"].is_number());
    CHECK(c["test_utility_note"].get<std::string>().find("UNACCOUNTED RELEASE") == 0);
  }
  const auto refused = dir / "refused";
  check_refused(tune(dir / "hand.json", "all", "--release-test-utility", refused),
                "--release-test-utility needs --test-split private", refused);
  std::ofstream(dir / "wide.json")
      << "{" << list << R"(, "measured_on": {"data_role": "public", "split": "all", "data_id": "x", "features": 123}})";
  check_refused(tune(dir / "wide.json", "all", "", refused), "measured_on.features 123 differ from the 20 features",
                refused);
  const std::pair<std::string, std::string> bad[] = {
      {R"({"data_role": "public", "split": "proxy", "data_id": "x", "features": 20})", "needs \"proxy_fraction\""},
      {R"({"data_role": "shared", "split": "all", "data_id": "x", "features": 20})", "data_role 'shared'"},
      {R"({"data_role": "public", "split": "all", "data_id": "x", "features": 20, "run": "/tmp"})",
       "unknown key \"run\""},
      {R"([1, 2])", "measured_on must be an object"}};
  for (const auto& [measured, needle] : bad) {
    CAPTURE(measured);
    std::ofstream(dir / "bad.json") << "{" << list << R"(, "measured_on": )" << measured << "}";
    CHECK_THROWS_WITH_AS(dpareto::select::read_candidate_file((dir / "bad.json").string()),
                         doctest::Contains(needle.c_str()), dpareto::InputError);
    check_refused(tune(dir / "bad.json", "all", "", refused), needle, refused);
  }
}
