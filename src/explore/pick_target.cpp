#include "dpareto/core/json_number.hpp"
#include "dpareto/explore/pick.hpp"

namespace dpareto::explore {

bool Target::within_limits(const std::map<std::string, double>& further) const {
  for (const auto& limit : limits) {
    const auto it = further.find(limit.column);
    if (it == further.end() || !(it->second <= limit.max)) return false;
  }
  return true;
}

bool Target::met_by(double epsilon, double utility, const std::map<std::string, double>& further) const {
  return within_limits(further) && (kind == Kind::max_epsilon ? epsilon <= value : utility >= value);
}

std::string Target::describe() const {
  std::string text = (kind == Kind::max_epsilon ? "epsilon <= " : "utility >= ") + format_number(value);
  for (const auto& limit : limits) text += ", " + limit.column + " <= " + format_number(limit.max);
  return text;
}

}  // namespace dpareto::explore
