#include "dpareto/study/storage.hpp"

#include "dpareto/core/error.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::study {

std::vector<EvaluationRecord> Storage::completed() const {
  std::size_t completions = 0;
  for (const auto& t : trials()) completions += t.record.id > 0;
  std::vector<EvaluationRecord> out(completions);
  for (const auto& t : trials())
    if (t.record.id > 0) out.at(static_cast<std::size_t>(t.record.id - 1)) = t.record;
  return out;
}

namespace {

// Settings that describe the host an evaluation runs on, not the problem: a study moves between
// hosts with other paths and cores (issue 21 item 3). The data directory may differ only where both
// sides record the data's checksum (data_id, compared like any setting).
bool host_setting(const std::string& key, const nlohmann::json& stored, const nlohmann::json& given) {
  if (key == "threads") return true;
  return key == "data_dir" && stored.contains("data_id") && given.contains("data_id");
}

std::string setting_text(const nlohmann::json& settings, const std::string& key) {
  if (!settings.contains(key)) return "(unset)";
  const auto& value = settings.at(key);
  return printable(value.is_string() ? value.get<std::string>() : value.dump());
}

// The first difference of two spaces (space.json form): a parameter's domain, or the parameters.
std::string space_difference(const nlohmann::json& stored, const nlohmann::json& given) {
  const auto& a = stored.value("parameters", nlohmann::json::array());
  const auto& b = given.value("parameters", nlohmann::json::array());
  if (a.is_array() && b.is_array() && a.size() == b.size())
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i] && a[i].value("name", "") == b[i].value("name", ""))
        return "its parameter " + printable(a[i].value("name", "")) + " is " + printable(a[i].dump()) + ", not " +
               printable(b[i].dump());
  return "its space is " + printable(stored.dump()) + ", not " + printable(given.dump());
}

// A problem option can choose the space (svt's bound_scale): the one the study was created with
// resumes it.
constexpr const char* kSpaceHint =
    " (a problem option may choose the space, as svt's --set bound_scale=linear: resume with the options the study "
    "was created with)";

}  // namespace

void Storage::check_identity(const StudyIdentity& given) const {
  const StudyIdentity& stored = identity();
  const std::string w = "study " + location() + ": refusing to continue: ";
  if (given.problem != stored.problem)
    throw InputError(w + "it was created for problem '" + printable(stored.problem) + "', not '" + given.problem + "'");
  // Every differing problem setting and parameter, one per line (a single one stays a one-line message).
  std::vector<std::string> differences;
  auto compare = [&](const std::string& key) {
    if (host_setting(key, stored.settings, given.settings) ||
        (stored.settings.contains(key) && given.settings.contains(key) &&
         stored.settings.at(key) == given.settings.at(key)))
      return;
    differences.push_back("its problem setting " + key + " is " + setting_text(stored.settings, key) + ", not " +
                          setting_text(given.settings, key));
  };
  for (const auto& [key, value] : stored.settings.items()) compare(key);
  for (const auto& [key, value] : given.settings.items())
    if (!stored.settings.contains(key)) compare(key);
  if (given.space != stored.space) differences.push_back(space_difference(stored.space, given.space) + kSpaceHint);
  if (differences.empty()) return;
  if (differences.size() == 1) throw InputError(w + differences.front());
  std::string message = w + std::to_string(differences.size()) + " problem settings differ:";
  for (const auto& d : differences) message += "\n  " + d;
  throw InputError(message);
}

}  // namespace dpareto::study
