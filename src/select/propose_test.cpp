#include "dpareto/select/propose_test.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"

namespace dpareto::select {

namespace {

void check_floor_and_granularity(double utility_floor, double granularity) {
  if (!(granularity > 0 && granularity < 1)) {
    throw InputError("propose-test granularity g = " + format_number(granularity) + " must be in (0, 1)");
  }
  if (!(utility_floor >= 0 && utility_floor < 1)) {
    throw InputError("propose-test utility floor u0 = " + format_number(utility_floor) + " must be in [0, 1)");
  }
  if ((1 - utility_floor) / granularity > 1e9) {
    throw InputError("propose-test (1 - u0)/g = " + format_number((1 - utility_floor) / granularity) +
                     " exceeds 1e9 iterations' worth of granularity");
  }
}

void check_options(const ProposeTestOptions& options) {
  check_floor_and_granularity(options.utility_floor, options.granularity);
  if (options.partitions == 0) throw InputError("propose-test needs at least one partition (k = 0)");
  if (!(options.epsilon0 > 0) || !std::isfinite(options.epsilon0)) {
    throw InputError("propose-test epsilon0 = " + format_number(options.epsilon0) + " must be a finite number > 0");
  }
  if (options.grid_per_sensitivity == 0 || options.grid_per_sensitivity > (std::uint64_t(1) << 32)) {
    throw InputError("propose-test grid R = " + std::to_string(options.grid_per_sensitivity) + " must be in [1, 2^32]");
  }
}

}  // namespace

DoublingState::DoublingState(double utility_floor, double granularity)
    : utility_floor_(utility_floor), granularity_(granularity) {
  check_floor_and_granularity(utility_floor, granularity);
}

double DoublingState::utility() const {
  return utility_floor_ + double(units_) * granularity_;
}

double DoublingState::proposal() const {
  return utility_floor_ + double(units_ + step_) * granularity_;
}

void DoublingState::advance(bool accumulated) {
  if (done()) throw InputError("propose-test: advance() after the loop ended");
  if (accumulated) {
    units_ += step_;  // line 20: u ← u + step·g
    step_ *= 2;       // line 22: double-expand
  } else {
    step_ /= 2;  // line 27: ⌊step/2⌋
  }
}

std::uint64_t units_to_one(double utility_floor, double granularity) {
  check_floor_and_granularity(utility_floor, granularity);
  auto m = static_cast<std::uint64_t>(std::ceil((1 - utility_floor) / granularity));
  // Correct the rounding of the division so that M matches DoublingState's test u₀ + M·g >= 1.
  while (m > 1 && utility_floor + double(m - 1) * granularity >= 1) --m;
  while (utility_floor + double(m) * granularity < 1) ++m;
  return m;
}

std::uint64_t propose_test_iteration_bound(double utility_floor, double granularity) {
  return 2 * units_to_one(utility_floor, granularity) - 1;
}

ProposeTestResult propose_test_select(std::size_t candidates, const PartitionUtility& utility,
                                      const ProposeTestOptions& options, privacy::RandomSource& source) {
  check_options(options);
  if (candidates == 0) throw InputError("propose-test: no candidates");
  const std::size_t k = options.partitions;
  const auto r = static_cast<std::int64_t>(options.grid_per_sensitivity);

  // Lines 3–11: subsample-and-aggregate utilities, on the grid (R points per 1/k).
  std::vector<std::int64_t> grid_utility(candidates, 0);
  for (std::size_t s = 0; s < candidates; ++s) {
    for (std::size_t i = 0; i < k; ++i) {
      const double u = utility(s, i);
      if (!(u >= 0 && u <= 1)) {
        throw InputError("propose-test utility of candidate " + std::to_string(s) + " on partition " +
                         std::to_string(i) + " = " + format_number(u) + " is outside [0, 1]");
      }
      grid_utility[s] += static_cast<std::int64_t>(std::floor(double(r) * u));
    }
  }
  // Noise scales in grid points: 2/(kε₀)·kR = 2R/ε₀ and 4R/ε₀, exact rationals.
  const privacy::Rational eps0 = privacy::exact_rational(options.epsilon0, "propose-test epsilon0");
  const privacy::Rational threshold_scale{2 * r * eps0.den, eps0.num};
  const privacy::Rational candidate_scale{4 * r * eps0.den, eps0.num};
  const double grid_per_utility = double(r) * double(k);

  ProposeTestResult result;
  result.iteration_bound = propose_test_iteration_bound(options.utility_floor, options.granularity);
  DoublingState state(options.utility_floor, options.granularity);
  while (!state.done()) {
    ++result.iterations;
    const std::int64_t threshold = static_cast<std::int64_t>(std::floor(grid_per_utility * state.proposal())) +
                                   privacy::discrete_laplace(source, threshold_scale);
    bool accumulated = false;
    for (std::size_t s = 0; s < candidates; ++s) {
      if (grid_utility[s] + privacy::discrete_laplace(source, candidate_scale) >= threshold) {
        result.selected = s;
        accumulated = true;
        break;
      }
    }
    state.advance(accumulated);
    result.path.push_back({state.utility(), state.step()});
  }
  result.utility_reached = state.utility();
  return result;
}

double propose_test_epsilon(const ProposeTestOptions& options) {
  check_options(options);
  return double(propose_test_iteration_bound(options.utility_floor, options.granularity)) * options.epsilon0;
}

std::vector<double> propose_test_rdp(const ProposeTestOptions& options, const std::vector<double>& orders) {
  check_options(options);
  const double bound = double(propose_test_iteration_bound(options.utility_floor, options.granularity));
  const double e0 = options.epsilon0;
  std::vector<double> rdp;
  rdp.reserve(orders.size());
  for (double alpha : orders) {
    if (!(alpha > 1)) throw InputError("RDP order " + format_number(alpha) + " must be > 1");
    rdp.push_back(bound * std::min(e0, alpha * e0 * e0 / 2));
  }
  return rdp;
}

}  // namespace dpareto::select
