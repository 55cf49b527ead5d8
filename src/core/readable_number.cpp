#include "dpareto/core/readable_number.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

namespace dpareto {
namespace {

constexpr int kSignificant = 4;

std::string special(double value) {
  if (std::isnan(value)) return "nan";
  return value > 0 ? "inf" : "-inf";
}

}  // namespace

std::string readable_number(double value) {
  if (!std::isfinite(value)) return special(value);
  if (value == std::floor(value) && std::abs(value) < 1e15) return fmt::format("{:.0f}", value);
  return fmt::format("{:.{}g}", value, kSignificant);
}

std::string readable_rounded_up(double value) {
  if (!std::isfinite(value)) return special(value);
  std::string text = readable_number(value);
  if (std::strtod(text.c_str(), nullptr) >= value) return text;
  // Rounded down: one unit of the last shown digit up (4 significant digits of the text's scale).
  const double unit = std::pow(10.0, std::floor(std::log10(std::abs(value))) - (kSignificant - 1));
  text = fmt::format("{:.{}g}", std::strtod(text.c_str(), nullptr) + unit, kSignificant);
  return text;
}

std::string readable_duration(double seconds) {
  if (!std::isfinite(seconds)) return "unknown time";
  if (seconds < 120) return readable_number(std::round(seconds)) + " s";
  if (seconds < 7200) return readable_number(std::round(seconds / 60)) + " min";
  return readable_number(std::round(seconds / 360) / 10) + " h";
}

std::string readable_json(const nlohmann::json& value, bool rounded_up) {
  if (value.is_number()) {
    const double v = value.get<double>();
    return rounded_up ? readable_rounded_up(v) : readable_number(v);
  }
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "none";
  std::string text;
  if (value.is_array()) {
    for (const auto& item : value) text += (text.empty() ? "" : ", ") + readable_json(item, rounded_up);
    return "[" + text + "]";
  }
  if (value.is_object()) {
    for (const auto& [key, item] : value.items())
      text += (text.empty() ? "" : ", ") + key + "=" + readable_json(item, rounded_up);
    return text;
  }
  return value.dump();  // booleans
}

}  // namespace dpareto
