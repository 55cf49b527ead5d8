// The candidates file of a tuning run: parsing and one-line errors naming the file.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/select/candidate_file.hpp"

using namespace dpareto;

namespace {

space::Space test_space() {
  space::Parameter lr{"lr", space::Kind::continuous, space::Scale::log, 1e-4, 1, std::nullopt};
  space::Parameter epochs{"epochs", space::Kind::integer, space::Scale::linear, 1, 50, std::nullopt};
  return space::Space({lr, epochs});
}

std::string error_of(const std::string& text) {
  try {
    candidate_params(select::candidates_from_json(nlohmann::json::parse(text), "cands.json"), test_space());
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("candidates file: a valid file maps onto the space's order") {
  const auto path = std::filesystem::temp_directory_path() / "dpareto_select_candidates_test.json";
  std::ofstream(path)
      << R"({"problem": "adult-logreg", "candidates": [{"epochs": 5, "lr": 0.1}, {"lr": 0.01, "epochs": 20}]})";
  const auto file = select::read_candidate_file(path.string());
  CHECK(file.problem == "adult-logreg");
  const auto params = select::candidate_params(file, test_space());
  REQUIRE(params.size() == 2);
  CHECK(params[0] == space::Params{0.1, 5});
  CHECK(params[1] == space::Params{0.01, 20});
  std::filesystem::remove(path);
}

TEST_CASE("candidates file: keys are echoed on one line, control characters as '?'") {
  // Fuzz finding (fuzz/candidates.cpp): a JSON key holding "\r" reached the message raw.
  CHECK(error_of(R"({"problem": "p", "candidates": [{"lr": 0.1, "epochs": 1}], "lea\rning": 4})") ==
        "cands.json: unknown key \"lea?ning\"");
  CHECK(error_of(R"({"problem": "p", "candidates": [{"lr\n": "x"}]})") ==
        "cands.json: candidate 0: value of \"lr?\" is not a finite number");
  CHECK(error_of(R"({"problem": "p", "candidates": [{"lr": 1}], "measured_on": {"a\u0000b": 1}})") ==
        "cands.json: measured_on: unknown key \"a?b\"");
}

TEST_CASE("measured_on from a run's settings: a feature count beyond long long is refused, not converted") {
  // Fuzz finding (fuzz/run_directory.cpp, as pick reads summary.json's settings): 1e30 or nan was
  // cast to long long (undefined behaviour).
  for (const std::string features : {"1e30", "nan", "-inf", "2.5"}) {
    const nlohmann::json settings = {{"dataset", "d"}, {"features", features}};
    CHECK_THROWS_WITH_AS(
        select::measured_on_from_settings(settings, "run/summary.json: settings"),
        ("run/summary.json: settings: setting features '" + features + "' is not a whole number in [0, 1e8]").c_str(),
        InputError);
  }
  const auto measured =
      select::measured_on_from_settings({{"dataset", "d"}, {"features", "123"}}, "run/summary.json: settings");
  REQUIRE(measured);
  CHECK(measured->features == 123);
}

TEST_CASE("candidates file: bad input is one line naming the file and the candidate") {
  CHECK(error_of(R"([1, 2])").find("cands.json: expected a JSON object") == 0);
  CHECK(error_of(R"({"candidates": [{"lr": 0.1, "epochs": 1}]})").find("\"problem\"") != std::string::npos);
  CHECK(error_of(R"({"problem": "p", "candidates": []})").find("non-empty array") != std::string::npos);
  CHECK(error_of(R"({"problem": "p", "candidates": [{"lr": 0.1, "epochs": 1}], "x": 1})").find("unknown key \"x\"") !=
        std::string::npos);
  CHECK(error_of(R"({"problem": "p", "candidates": [{"lr": 0.1, "epochs": 1}, {"lr": "a", "epochs": 1}]})") ==
        "cands.json: candidate 1: value of \"lr\" is not a finite number");
  CHECK(error_of(R"({"problem": "p", "candidates": [{"lr": 0.1}]})") ==
        "cands.json: candidate 0: parameter \"epochs\" is missing");
  CHECK(error_of(R"({"problem": "p", "candidates": [{"lr": 0.1, "epochs": 2.5}]})").find("is an integer") !=
        std::string::npos);
  CHECK(error_of(R"({"problem": "p", "candidates": [{"lr": 3, "epochs": 2}]})").find("outside [1e-04, 1]") !=
        std::string::npos);
  CHECK(error_of(R"({"problem": "p", "candidates": [{"lr": 0.1, "epochs": 2, "mom": 1}]})")
            .find("cands.json: candidate 0: ") == 0);
  CHECK_THROWS_WITH_AS(select::read_candidate_file("/nonexistent/c.json"),
                       "/nonexistent/c.json: cannot open the candidates file", InputError);
}
