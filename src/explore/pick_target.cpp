#include "dpareto/core/json_number.hpp"
#include "dpareto/explore/pick.hpp"

namespace dpareto::explore {

bool Target::met_by(double epsilon, double utility) const {
  return kind == Kind::max_epsilon ? epsilon <= value : utility >= value;
}

std::string Target::describe() const {
  return (kind == Kind::max_epsilon ? "epsilon <= " : "utility >= ") + format_number(value);
}

}  // namespace dpareto::explore
