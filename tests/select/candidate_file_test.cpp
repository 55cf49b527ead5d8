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
