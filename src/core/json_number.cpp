#include "dpareto/core/json_number.hpp"

#include <charconv>
#include <cmath>
#include <limits>

#include "dpareto/core/error.hpp"

namespace dpareto {

nlohmann::json json_number(double value) {
  if (std::isnan(value)) return nullptr;
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}

double number_from_json(const nlohmann::json& value, const std::string& what) {
  if (value.is_number()) return value.get<double>();
  if (value.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    if (s == "inf" || s == "+inf" || s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-inf" || s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  throw InputError(what + ": expected a number, got " + value.dump());
}

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), value);  // shortest round-trip form
  return std::string(buf, res.ptr);
}

}  // namespace dpareto
