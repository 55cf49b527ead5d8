#include "dpareto/core/sodium.hpp"

#include <sodium.h>

#include "dpareto/core/error.hpp"

namespace dpareto {

void ensure_sodium() {
  static const bool ready = sodium_init() >= 0;  // returns 1 when already initialised
  if (!ready) throw DependencyError("libsodium could not be initialised (package libsodium23)");
}

}  // namespace dpareto
