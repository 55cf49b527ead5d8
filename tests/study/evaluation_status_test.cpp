#include <doctest/doctest.h>

#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/study/evaluation_status.hpp"

using namespace dpareto;
using study::EvaluationStatus;

TEST_CASE("evaluation status: each status reads back from the text files hold") {
  for (const auto status : {EvaluationStatus::ok, EvaluationStatus::failed, EvaluationStatus::running})
    CHECK(study::parse_evaluation_status(study::to_string(status), "test") == status);
  // The text is the files' format: existing evaluations.csv and study rows must keep reading.
  CHECK(std::string(study::to_string(EvaluationStatus::ok)) == "ok");
  CHECK(std::string(study::to_string(EvaluationStatus::failed)) == "failed");
  CHECK(std::string(study::to_string(EvaluationStatus::running)) == "running");
}

TEST_CASE("evaluation status: an unknown one is an InputError of one line naming the value and its source") {
  CHECK_THROWS_WITH_AS(study::parse_evaluation_status("bogus", "study.db row 7"),
                       "study.db row 7: status 'bogus' is not ok, failed or running", InputError);
  CHECK_THROWS_WITH_AS(study::parse_evaluation_status("", "runs/a/evaluations.csv:3"),
                       "runs/a/evaluations.csv:3: status '' is not ok, failed or running", InputError);
  // Case and padding matter: files hold exactly the lower-case word.
  CHECK_THROWS_AS(study::parse_evaluation_status("OK", "x"), InputError);
  CHECK_THROWS_AS(study::parse_evaluation_status("ok ", "x"), InputError);
  // A hostile value cannot split the message over lines.
  CHECK_THROWS_WITH_AS(study::parse_evaluation_status("ok\nfake: line", "x"),
                       "x: status 'ok?fake: line' is not ok, failed or running", InputError);
}
