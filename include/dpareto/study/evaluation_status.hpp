#pragma once
// The status of one evaluation. Files hold it as text (the status column of evaluations.csv and of
// a study's rows: ok | failed | running); it is parsed where a file is read and is an enum inside.
#include <string>

namespace dpareto::study {

enum class EvaluationStatus {
  ok,       // measured: the objective columns hold its values
  failed,   // no measurement; the record's message says why
  running,  // started but not finished (a study's rows; evaluations.csv reads it too)
};

// The status as files hold it: "ok", "failed" or "running".
const char* to_string(EvaluationStatus status);
// The status `text` names; otherwise InputError
// "<source>: status '<text>' is not ok, failed or running".
EvaluationStatus parse_evaluation_status(const std::string& text, const std::string& source);

}  // namespace dpareto::study
