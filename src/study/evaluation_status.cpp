#include "dpareto/study/evaluation_status.hpp"

#include <utility>

#include "dpareto/core/error.hpp"
#include "dpareto/core/printable.hpp"

namespace dpareto::study {
namespace {

constexpr std::pair<EvaluationStatus, const char*> kStatusNames[] = {
    {EvaluationStatus::ok, "ok"}, {EvaluationStatus::failed, "failed"}, {EvaluationStatus::running, "running"}};

}  // namespace

const char* to_string(EvaluationStatus status) {
  for (const auto& [s, name] : kStatusNames)
    if (s == status) return name;
  return "?";
}

EvaluationStatus parse_evaluation_status(const std::string& text, const std::string& source) {
  for (const auto& [status, name] : kStatusNames)
    if (text == name) return status;
  throw InputError(source + ": status '" + printable(text) + "' is not ok, failed or running");
}

}  // namespace dpareto::study
