#pragma once
// Checks of arguments that several of the privacy module's accountants share (private to privacy).
#include <cmath>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"

namespace dpareto::privacy::detail {

// A δ of an (ε, δ) guarantee that the accountants can convert: strictly inside (0, 1).
inline void check_delta_open(double delta) {
  if (!(delta > 0 && delta < 1)) throw InputError("delta = " + format_number(delta) + " must be in (0, 1)");
}

// A mechanism's scale or sensitivity: a finite number > 0; `name` is the argument's.
inline void check_positive_finite(double value, const char* name) {
  if (!(value > 0) || std::isinf(value))
    throw InputError(std::string(name) + " = " + format_number(value) + " must be a finite number > 0");
}

}  // namespace dpareto::privacy::detail
