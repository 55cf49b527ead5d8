// GCC 12 reports false -W(maybe-)uninitialized inside its own AVX-512 intrinsics when Eigen's
// float kernels are inlined (GCC PR 105593); the pragmas must precede the first include.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include "dpareto/learn/prediction.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>

namespace dpareto::learn {

Predictions predict(const Network& net, const Eigen::VectorXf& params, const Dataset& data, int threads) {
  constexpr int chunk = 1024;  // as accuracy(): the same rows meet in the same products
  const Architecture& arch = net.architecture();
  const bool margin = arch.loss == Loss::hinge;
  const int columns = margin ? 1 : std::max(2, arch.outputs);
  const int n = data.size();
  const int chunks = (n + chunk - 1) / chunk;
  Predictions p;
  p.classes.resize(static_cast<std::size_t>(n));
  p.scores.resize(n, columns);
  if (margin) {
    p.score_names = {"margin"};
  } else {
    for (int k = 0; k < columns; ++k) p.score_names.push_back("p" + std::to_string(k));
  }
  net.check_inputs(data);
  long long correct = 0;
#pragma omp parallel num_threads(std::max(1, std::min(threads, chunks))) reduction(+ : correct)
  {
    omp_set_num_threads(1);  // keep Eigen's own GEMM threads out of this team
    Workspace ws;
#pragma omp for schedule(static)
    for (int c = 0; c < chunks; ++c) {
      const int begin = c * chunk, end = std::min(n, begin + chunk);
      const MatrixF& z = net.logits_of_rows(params, data, begin, end, ws);
      for (int i = begin; i < end; ++i) {
        const Eigen::Index r = i - begin;
        const int predicted = net.predicted_class(z, r);
        p.classes[static_cast<std::size_t>(i)] = predicted;
        correct += predicted == data.labels()[static_cast<std::size_t>(i)];
        if (margin) {
          p.scores(i, 0) = z(r, 0);
        } else if (arch.outputs == 1) {
          p.scores(i, 0) = 1.0f / (1.0f + std::exp(z(r, 0)));   // σ(−z), accurate when tiny
          p.scores(i, 1) = 1.0f / (1.0f + std::exp(-z(r, 0)));  // σ(z)
        } else {
          const Eigen::Array<float, 1, Eigen::Dynamic> e = (z.row(r).array() - z.row(r).maxCoeff()).exp();
          p.scores.row(i) = e / e.sum();
        }
      }
    }
  }
  p.correct = correct;
  return p;
}

}  // namespace dpareto::learn
