// Storage::check_identity (issue 21 item 3): a study resumes on another host (other data directory
// holding the same files, other thread count), and a refusal names every difference, one per line.
#include <doctest/doctest.h>

#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/study/study_database.hpp"
#include "toy_study.hpp"

using namespace dpareto;
using namespace dpareto::study;

namespace {

StudyIdentity recorded_identity() {
  StudyIdentity identity;
  identity.problem = "adult-logreg-sgd";
  identity.settings = {{"data_dir", "/home/a/data"}, {"data_id", "2683ef"}, {"threads", "1"}, {"repeats", "10"}};
  identity.space = {{"parameters", {{{"name", "epochs"}, {"kind", "integer"}, {"low", 1}, {"high", 64}}}}};
  return identity;
}

std::string refusal(const StudyDatabase& db, const StudyIdentity& given) {
  try {
    db.check_identity(given);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("another data directory with the same files and another thread count resume the study") {
  const auto db = StudyDatabase::in_memory(recorded_identity(), test::one_parameter(), nlohmann::json::object());
  auto given = recorded_identity();
  given.settings["data_dir"] = "/mnt/cluster/data";
  given.settings["threads"] = "16";
  CHECK(refusal(db, given).empty());
}

TEST_CASE("other data (another checksum) is refused, naming the setting and both values") {
  const auto db = StudyDatabase::in_memory(recorded_identity(), test::one_parameter(), nlohmann::json::object());
  auto given = recorded_identity();
  given.settings["data_id"] = "99aa00";
  const auto message = refusal(db, given);
  CHECK(message == "study :memory:: refusing to continue: its problem setting data_id is 2683ef, not 99aa00");
}

TEST_CASE("without a data checksum on both sides, another data directory is a difference") {
  auto recorded = recorded_identity();
  recorded.settings.erase("data_id");
  const auto db = StudyDatabase::in_memory(recorded, test::one_parameter(), nlohmann::json::object());
  auto given = recorded;
  given.settings["data_dir"] = "/elsewhere";
  CHECK(refusal(db, given).find("its problem setting data_dir is /home/a/data, not /elsewhere") != std::string::npos);
}

TEST_CASE("several differences are listed one per line: settings, a missing one, and a parameter's domain") {
  const auto db = StudyDatabase::in_memory(recorded_identity(), test::one_parameter(), nlohmann::json::object());
  auto given = recorded_identity();
  given.settings["repeats"] = "2";
  given.settings["sampling"] = "fixed";
  given.space["parameters"][0]["high"] = 3;
  const auto message = refusal(db, given);
  CHECK(message.find("refusing to continue: 3 problem settings differ:\n") != std::string::npos);
  CHECK(message.find("\n  its problem setting repeats is 10, not 2") != std::string::npos);
  CHECK(message.find("\n  its problem setting sampling is (unset), not fixed") != std::string::npos);
  CHECK(message.find("\n  its parameter epochs is ") != std::string::npos);
  CHECK(message.find("\"high\":64") != std::string::npos);
  CHECK(message.find("\"high\":3") != std::string::npos);
}

TEST_CASE("another problem is refused before anything else") {
  const auto db = StudyDatabase::in_memory(recorded_identity(), test::one_parameter(), nlohmann::json::object());
  auto given = recorded_identity();
  given.problem = "svt";
  CHECK(refusal(db, given) ==
        "study :memory:: refusing to continue: it was created for problem 'adult-logreg-sgd', not 'svt'");
}
