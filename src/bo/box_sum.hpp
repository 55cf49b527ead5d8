#pragma once
// Σ_boxes Π_d [F_d(u_d) − F_d(l_d)] over the boxes of an improvement region (private to bo): the
// probability of improvement with F_d = Φ((t − μ_d)/s_d), EHVI with F_d = ψ_d (axis_law.hpp; DESIGN.md §3.2,
// §3.7). Two objectives take one product per box, the cells formula term for term.
#include <limits>
#include <vector>

#include "dpareto/pareto/boxes.hpp"

namespace dpareto::bo {

// f(d, t) = F_d(t), with F_d(−inf) = 0.
template <typename F>
double box_sum(const std::vector<pareto::Box>& boxes, F f) {
  double sum = 0;
  for (const auto& b : boxes) {
    if (b.lower.size() == 2 && b.lower[1] == -std::numeric_limits<double>::infinity()) {
      // A 2-D cell [a_i, a_{i+1}] × (−inf, b_i]: the expression of the cells formula itself, so that
      // the compiler contracts it exactly as before (HVPoI proposals stay bit-identical).
      sum += (f(0, b.upper[0]) - f(0, b.lower[0])) * f(1, b.upper[1]);
      continue;
    }
    double product = 1;
    for (std::size_t d = 0; d < b.lower.size(); ++d) product *= f(d, b.upper[d]) - f(d, b.lower[d]);
    sum += product;
  }
  return sum;
}

}  // namespace dpareto::bo
