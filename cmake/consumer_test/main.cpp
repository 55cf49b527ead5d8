// Uses the installed library: Abadi et al.'s DP-SGD example (q = 0.01, σ = 4, 10⁴ steps,
// δ = 1e-5, integer orders 2..32, classic conversion) is ε ≈ 1.26.
#include <cmath>
#include <cstdio>
#include <vector>

#include <dpareto/privacy/dpsgd_accountant.hpp>

int main() {
  std::vector<double> orders;
  for (int a = 2; a <= 32; ++a) orders.push_back(a);
  const auto r = dpareto::privacy::dpsgd_epsilon(dpareto::privacy::Sampling::poisson, 0.01, 4, 10000, 1e-5, orders,
                                                 dpareto::privacy::Conversion::classic);
  std::printf("epsilon %.4f\n", r.epsilon);
  return std::abs(r.epsilon - 1.26) < 0.01 ? 0 : 1;
}
