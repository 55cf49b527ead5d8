// Propose-test with doubling (Ding & Wu 2022, Alg. 1): the data-independent iteration bound is
// exact over all outcome sequences and never exceeded in simulation.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/privacy/secure_noise.hpp"
#include "dpareto/select/propose_test.hpp"

using namespace dpareto::select;
using dpareto::privacy::ChaChaRandomSource;

namespace {

// Longest run of the doubling loop over every sequence of outcomes (depth-first search).
std::uint64_t longest_run(const DoublingState& state) {
  if (state.done()) return 0;
  std::uint64_t best = 0;
  for (bool accumulated : {true, false}) {
    DoublingState next = state;
    next.advance(accumulated);
    best = std::max(best, 1 + longest_run(next));
  }
  return best;
}

}  // namespace

TEST_CASE("propose-test: M is the least integer with u0 + M g >= 1") {
  for (double u0 : {0.0, 0.3, 0.55, 0.9}) {
    for (double g : {0.01, 0.1, 0.07, 0.3, 0.5}) {
      const std::uint64_t m = units_to_one(u0, g);
      CHECK(u0 + double(m) * g >= 1);
      CHECK(u0 + double(m - 1) * g < 1);
    }
  }
  CHECK(units_to_one(0, 0.01) == 100);
  CHECK(propose_test_iteration_bound(0, 0.01) == 199);
  CHECK_THROWS_AS(units_to_one(1.0, 0.1), dpareto::InputError);
  CHECK_THROWS_AS(units_to_one(0.0, 0.0), dpareto::InputError);
}

TEST_CASE("propose-test: 2M - 1 is the longest run over all outcome sequences") {
  // Exhaustive: every True/False sequence the noise could produce, for M = 1..13.
  REQUIRE(units_to_one(0.6, 0.5) == 1);
  CHECK(longest_run(DoublingState(0.6, 0.5)) == 1);
  for (std::uint64_t m = 2; m <= 13; ++m) {
    const double g = 1.0 / double(m) + 1e-12;  // u0 + M·g >= 1 first at M
    REQUIRE(units_to_one(0, g) == m);
    CHECK(longest_run(DoublingState(0, g)) == 2 * m - 1);
  }
  // The zig-zag True, False, True, ... attains it.
  DoublingState zigzag(0.2, 0.1);
  std::uint64_t count = 0;
  for (bool accumulated = true; !zigzag.done(); accumulated = !accumulated, ++count) zigzag.advance(accumulated);
  CHECK(count == propose_test_iteration_bound(0.2, 0.1));
}

TEST_CASE("propose-test: the observed count never exceeds the bound over random instances") {
  ChaChaRandomSource source(31);
  dpareto::Rng rng(32);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int instance = 0; instance < 300; ++instance) {
    ProposeTestOptions options;
    options.partitions = 1 + rng() % 20;
    options.epsilon0 = std::exp(std::log(0.01) + unit(rng) * std::log(1e4));  // 0.01 .. 100
    options.granularity = 0.005 + 0.3 * unit(rng);
    options.utility_floor = 0.9 * unit(rng);
    const std::size_t candidates = 1 + rng() % 20;
    std::vector<std::vector<double>> u(candidates, std::vector<double>(options.partitions));
    const int kind = instance % 3;  // uniform, all ones, all zeros
    for (auto& row : u) {
      for (auto& x : row) x = kind == 0 ? unit(rng) : kind == 1 ? 1.0 : 0.0;
    }
    const auto result = propose_test_select(
        candidates, [&](std::size_t s, std::size_t i) { return u[s][i]; }, options, source);
    REQUIRE(result.iterations <= result.iteration_bound);
    REQUIRE(result.path.size() == result.iterations);
    REQUIRE(result.iteration_bound == propose_test_iteration_bound(options.utility_floor, options.granularity));
  }
}

TEST_CASE("propose-test: with little noise it climbs to the best utility and selects it") {
  ChaChaRandomSource source(33);
  ProposeTestOptions options;
  options.epsilon0 = 1e4;  // Laplace scales 2e-5 and 4e-5 in utility units, far below g
  const std::vector<double> u{0.2, 0.55, 0.9, 0.4};
  const auto result = propose_test_select(
      u.size(), [&](std::size_t s, std::size_t) { return u[s]; }, options, source);
  REQUIRE(result.selected.has_value());
  CHECK(*result.selected == 2);
  CHECK(result.utility_reached <= 0.9 + 1e-9);
  CHECK(result.utility_reached > 0.9 - options.granularity - 1e-9);
  CHECK(result.iterations < 30);  // doubling: logarithmic, far below the bound of 199
  CHECK(result.path.back().step == 0);
}

TEST_CASE("propose-test: invalid input is named") {
  ChaChaRandomSource source(34);
  ProposeTestOptions options;
  auto bad = [](std::size_t s, std::size_t i) { return s == 1 && i == 3 ? 1.5 : 0.5; };
  try {
    propose_test_select(3, bad, options, source);
    FAIL("no exception");
  } catch (const dpareto::InputError& e) {
    CHECK(std::string(e.what()).find("candidate 1 on partition 3") != std::string::npos);
  }
  auto ok = [](std::size_t, std::size_t) { return 0.5; };
  CHECK_THROWS_AS(propose_test_select(0, ok, options, source), dpareto::InputError);
  options.epsilon0 = 0;
  CHECK_THROWS_AS(propose_test_select(3, ok, options, source), dpareto::InputError);
}

TEST_CASE("propose-test: privacy uses the bound, never the observed count") {
  ProposeTestOptions options;
  options.epsilon0 = 0.1;
  options.granularity = 0.01;
  options.utility_floor = 0.5;
  CHECK(propose_test_epsilon(options) == doctest::Approx(99 * 0.1));
  const auto rdp = propose_test_rdp(options, {1.5, 10, 100, 1000});
  CHECK(rdp[0] == doctest::Approx(99 * 1.5 * 0.01 / 2));
  CHECK(rdp[1] == doctest::Approx(99 * 10 * 0.01 / 2));
  CHECK(rdp[2] == doctest::Approx(99 * 0.1));
  CHECK(rdp[3] == doctest::Approx(99 * 0.1));
}
