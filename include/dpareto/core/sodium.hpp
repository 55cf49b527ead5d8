#pragma once
// libsodium (Debian's libsodium-dev) is the project's source of operating-system randomness, of the
// ChaCha20 keystream and of SHA-256. sodium_init() must have run before any of its calls.
namespace dpareto {

// Initializes libsodium once (thread-safe, idempotent); DependencyError if it cannot.
void ensure_sodium();

}  // namespace dpareto
