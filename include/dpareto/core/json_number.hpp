#pragma once
// JSON has no infinity; dpareto writes +inf as the string "inf" (DESIGN.md §2: ε may be +inf and
// is printed as inf) and NaN as null. These helpers are the one place that convention lives.
#include <nlohmann/json.hpp>
#include <string>

namespace dpareto {

nlohmann::json json_number(double value);

// Reads a number written by json_number (or any JSON number); `what` names the field in errors.
double number_from_json(const nlohmann::json& value, const std::string& what);

// Shortest round-trip text of a double for CSV/terminal output: "inf", "-inf", "nan" or %.17g trimmed.
std::string format_number(double value);

}  // namespace dpareto
