#include "dpareto/learn/dense_products.hpp"

#include <cblas.h>

#include <algorithm>

namespace dpareto::learn {

// In CBLAS's row-major convention the weights are the out × in matrix Wᵀ with leading dimension in.

void times_weights(const MatrixF& x, const float* w, int in, int out, MatrixF& z) {
  const auto rows = static_cast<int>(x.rows());
  z.resize(rows, out);
  if (rows == 0) return;
  if (out == 1) {  // a linear model's layer: a matrix-vector product (see the header)
    z.col(0).noalias() = x * Eigen::Map<const Eigen::VectorXf>(w, in);
    return;
  }
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rows, out, in, 1.0f, x.data(), in, w, in, 0.0f, z.data(), out);
}

void times_weights_transposed(const MatrixF& delta, const float* w, int in, int out, MatrixF& d) {
  const auto rows = static_cast<int>(delta.rows());
  d.resize(rows, in);
  if (rows == 0) return;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, in, out, 1.0f, delta.data(), out, w, in, 0.0f, d.data(),
              in);
}

void weight_gradient(const MatrixF& x, const MatrixF& delta, int in, int out, float* g) {
  const auto rows = static_cast<int>(x.rows());
  if (rows == 0) {
    std::fill(g, g + static_cast<std::ptrdiff_t>(in) * out, 0.0f);
    return;
  }
  if (out == 1) {
    Eigen::Map<Eigen::RowVectorXf>(g, in).noalias() = delta.col(0).transpose() * x;
    return;
  }
  // Gᵀ = Δᵀ x is out × in row-major, which is G column-major.
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, out, in, rows, 1.0f, delta.data(), out, x.data(), in, 0.0f, g,
              in);
}

}  // namespace dpareto::learn
