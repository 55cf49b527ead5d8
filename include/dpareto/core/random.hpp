#pragma once
// Randomness conventions (DESIGN.md §2 "Randomness"): every stochastic component takes an
// explicit generator. A seeded run is bit-for-bit reproducible; an unseeded one draws its seed
// from the OS CSPRNG (getrandom).
#include <cstdint>
#include <optional>
#include <random>

namespace dpareto {

using Rng = std::mt19937_64;

// 64 bits from the kernel CSPRNG (getrandom(2)); throws dpareto::Error if it is unavailable.
std::uint64_t os_random_u64();

// A generator seeded by `seed`, or by the OS CSPRNG when no seed is given.
Rng make_rng(std::optional<std::uint64_t> seed);

// A statistically independent child seed for stream `stream` of `base` (SplitMix64 finalizer),
// used to give each evaluation / repeat / worker its own reproducible stream.
std::uint64_t derive_seed(std::uint64_t base, std::uint64_t stream);

}  // namespace dpareto
