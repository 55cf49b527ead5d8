// ε after every epoch of one run at once (pld_subsampled_gaussian_epsilons, dpsgd_epsilons): each
// answer is an upper bound on the exact ε — at or above the separate accounting's certified lower
// bound, at most its RDP cap — equal to the separate accounting for the largest step count and
// within the discretization's slack of it for the others; RDP and fixed-size lots exactly as
// dpsgd_epsilon; bad input named.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/privacy/accountant.hpp"
#include "dpareto/privacy/pld_accountant.hpp"
#include "poisson_bracket.hpp"

using namespace dpareto::privacy;

namespace {

std::vector<long long> epochs_of(long long steps_per_epoch, int epochs) {
  std::vector<long long> steps;
  for (int e = 1; e <= epochs; ++e) steps.push_back(steps_per_epoch * e);
  return steps;
}

}  // namespace

TEST_CASE("PLD epsilons at once: certified bounds, the largest count exact, the others within 1e-3") {
  struct Case {
    double q, sigma;
    std::vector<long long> steps;
  };
  const double adult = 30956;
  const std::vector<Case> cases{
      {256 / adult, 1.0, epochs_of(121, 16)},  // Adult, lot 256: h = 1e-4 for every count
      {32 / adult, 1.0, epochs_of(967, 6)},    // lot 32: a finer grid (h = one step's spread / 32)
      {0.5, 0.8, {1, 2, 5, 20, 40}},           // the largest count's grid is coarser than 1e-4
  };
  for (const Case& c : cases) {
    CAPTURE(c.q);
    CAPTURE(c.sigma);
    const double delta = 1e-5;
    const auto at_once = pld_subsampled_gaussian_epsilons(c.q, c.sigma, c.steps, delta);
    REQUIRE(at_once.size() == c.steps.size());
    double previous = 0;
    for (std::size_t j = 0; j < c.steps.size(); ++j) {
      CAPTURE(c.steps[j]);
      const PldEpsilon alone = poisson_bracket(c.q, c.sigma, c.steps[j], delta);
      CHECK(at_once[j].delta == delta);
      CHECK(at_once[j].epsilon >= alone.optimistic);  // never below the exact ε
      CHECK(at_once[j].epsilon <= alone.rdp);
      CHECK(at_once[j].epsilon == doctest::Approx(alone.epsilon).epsilon(1e-3));
      CHECK(at_once[j].epsilon > previous);
      previous = at_once[j].epsilon;
    }
    // The largest count is accounted on its own grid and array: the separate answer itself.
    CHECK(at_once.back().epsilon == poisson_bracket(c.q, c.sigma, c.steps.back(), delta).epsilon);
  }
}

TEST_CASE("dpsgd_epsilons: RDP, fixed-size lots and full batches are dpsgd_epsilon's answers exactly") {
  const std::vector<long long> steps{10, 20, 30};
  for (AccountantKind kind : {AccountantKind::rdp, AccountantKind::pld})
    for (Sampling sampling : {Sampling::poisson, Sampling::fixed_size, Sampling::fixed_size_general})
      for (double q : {0.01, 1.0}) {
        if (kind == AccountantKind::pld && sampling == Sampling::poisson && q < 1) continue;  // above
        CAPTURE(to_string(kind));
        CAPTURE(to_string(sampling));
        CAPTURE(q);
        const auto at_once = dpsgd_epsilons(kind, sampling, q, 1.3, steps, 1e-6);
        REQUIRE(at_once.size() == steps.size());
        for (std::size_t j = 0; j < steps.size(); ++j)
          CHECK(at_once[j].epsilon == dpsgd_epsilon(kind, sampling, q, 1.3, steps[j], 1e-6).epsilon);
      }
  CHECK(dpsgd_epsilons(AccountantKind::pld, Sampling::poisson, 0.01, 1.3, {}, 1e-6).empty());
}

TEST_CASE("PLD epsilons at once: bad input is an InputError naming the value") {
  using dpareto::InputError;
  CHECK_THROWS_WITH_AS(pld_subsampled_gaussian_epsilons(0.01, 0, {10}, 1e-5),
                       doctest::Contains("noise multiplier sigma = 0"), InputError);
  CHECK_THROWS_WITH_AS(pld_subsampled_gaussian_epsilons(0, 1, {10}, 1e-5), doctest::Contains("sampling rate q = 0"),
                       InputError);
  CHECK_THROWS_WITH_AS(pld_subsampled_gaussian_epsilons(1.5, 1, {10}, 1e-5), doctest::Contains("sampling rate q = 1.5"),
                       InputError);
  CHECK_THROWS_WITH_AS(pld_subsampled_gaussian_epsilons(0.01, 1, {10}, 2), doctest::Contains("delta = 2"), InputError);
  CHECK_THROWS_WITH_AS(pld_subsampled_gaussian_epsilons(0.01, 1, {10, 0}, 1e-5), doctest::Contains("steps = 0"),
                       InputError);
}
