#include "dpareto/privacy/dpsgd_accountant.hpp"

#include <algorithm>
#include <cmath>

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/privacy/sampled_gaussian_rdp.hpp"

namespace dpareto::privacy {

namespace {
constexpr double kMaxOrder = 1e5;  // the integer sums have α terms; larger orders never help
}

std::vector<double> default_orders() {
  // Every order of the earlier grid is kept, so the minimum over orders can only go down (each
  // order's bound is valid on its own: a denser grid never under-reports).
  std::vector<double> orders{1.01, 1.02, 1.03, 1.05, 1.075, 1.1, 1.15, 1.2};  // tiny ε lives here
  for (int i = 5; i <= 40; ++i) orders.push_back(0.25 * i);                   // 1.25, 1.5, ..., 10
  for (int a = 11; a <= 256; ++a) orders.push_back(a);                        // every integer to 256
  for (int i = 1; i <= 16; ++i)                                               // 256 .. 10^4, log-spaced
    orders.push_back(std::round(256 * std::pow(1e4 / 256, i / 16.0)));
  orders.push_back(512);  // of the earlier grid
  std::sort(orders.begin(), orders.end());
  return orders;
}

long long dpsgd_steps(long long examples, long long lot, long long epochs) {
  return std::max(1LL, std::llround(static_cast<double>(examples) / static_cast<double>(lot))) * epochs;
}

std::vector<double> search_orders() {
  // A subset of the default grid, so that its minimum over orders is never below the default's.
  std::vector<double> orders;
  for (double a : default_orders())
    if (a <= 128 || (a <= 256 && std::fmod(a, 8) == 0) || (a > 256 && a <= 2600)) orders.push_back(a);
  return orders;
}

std::vector<double> dpsgd_rdp(Sampling sampling, double q, double sigma, long long steps,
                              const std::vector<double>& orders) {
  const char* rate = sampling == Sampling::poisson ? "sampling rate q = " : "sampling ratio gamma = ";
  if (!(q >= 0 && q <= 1)) throw InputError(rate + format_number(q) + " must be in [0, 1]");
  if (!(sigma > 0) || !std::isfinite(sigma))
    throw InputError("noise multiplier sigma = " + format_number(sigma) + " must be a finite number > 0");
  if (steps < 0) throw InputError("steps = " + std::to_string(steps) + " must be >= 0");
  if (orders.empty()) throw InputError("the list of RDP orders is empty");
  std::vector<double> rdp;
  rdp.reserve(orders.size());
  for (double alpha : orders) {
    if (!(alpha > 1) || !(alpha <= kMaxOrder))
      throw InputError("RDP order " + format_number(alpha) + " must be in (1, 1e5]");
    double per_step = 0;
    switch (sampling) {
      case Sampling::poisson:
        per_step = poisson_gaussian_rdp(q, sigma, alpha);
        break;
      case Sampling::fixed_size:
        per_step = fixed_size_gaussian_rdp(q, sigma, alpha);
        break;
      case Sampling::fixed_size_general:
        per_step = fixed_size_general_rdp(q, sigma, alpha);
        break;
    }
    rdp.push_back(steps == 0 ? 0.0 : static_cast<double>(steps) * per_step);  // Mironov 2017, Prop. 1
  }
  return rdp;
}

EpsilonResult dpsgd_epsilon(Sampling sampling, double q, double sigma, long long steps, double delta,
                            const std::vector<double>& orders, Conversion conversion) {
  if (!(delta > 0 && delta < 1)) throw InputError("delta = " + format_number(delta) + " must be in (0, 1)");
  return rdp_to_epsilon(orders, dpsgd_rdp(sampling, q, sigma, steps, orders), delta, conversion);
}

const char* to_string(Sampling sampling) {
  switch (sampling) {
    case Sampling::poisson:
      return "poisson";
    case Sampling::fixed_size:
      return "fixed";
    case Sampling::fixed_size_general:
      return "fixed-general";
  }
  return "unknown";
}

Sampling parse_sampling(const std::string& text, const std::string& source) {
  if (text == "poisson") return Sampling::poisson;
  if (text == "fixed" || text == "fixed_size") return Sampling::fixed_size;
  if (text == "fixed-general" || text == "fixed_size_general") return Sampling::fixed_size_general;
  throw InputError(source + ": '" + text + "' is not a sampling scheme (poisson, fixed or fixed-general)");
}

}  // namespace dpareto::privacy
