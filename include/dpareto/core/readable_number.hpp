#pragma once
// Numbers for people: stdout, progress lines, report.md, figure titles. Four significant digits,
// whole numbers below 1e15 as integers, "inf"/"-inf"/"nan". What is read back (CSV, JSON, oracle
// placeholders, a value echoed in an error) keeps format_number's round-trip text (json_number.hpp).
#include <nlohmann/json.hpp>
#include <string>

namespace dpareto {

// Nearest: 0.8470001 -> "0.847", 6.526105559478178 -> "6.526", 1200 -> "1200", 1.5e-07 -> "1.5e-07".
std::string readable_number(double value);

// Rounded up at the fourth significant digit, for a privacy cost (ε, δ) or a noise multiplier shown
// to a person: the text never reads below the value (1.00049 -> "1.001", never "1"), so a value
// copied from it is never less private.
std::string readable_rounded_up(double value);

// A duration for people: "45 s", "12 min", "3.5 h".
std::string readable_duration(double seconds);

// A JSON value for people: numbers as above (rounded up with `rounded_up`), strings bare, arrays as
// "[a, b]", objects as "key=value, key=value"; null as "none".
std::string readable_json(const nlohmann::json& value, bool rounded_up = false);

}  // namespace dpareto
