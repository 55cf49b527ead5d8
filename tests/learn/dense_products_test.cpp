#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <tuple>
#include <vector>

#include "dpareto/core/random.hpp"
#include "dpareto/learn/dense_products.hpp"

using namespace dpareto::learn;

namespace {

MatrixF random_matrix(int rows, int cols, dpareto::Rng& rng) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  MatrixF m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = normal(rng);
  return m;
}

// W (in × out) stored row-major, as a layer's weights are: W(i, j) = w[i·out + j].
std::vector<float> random_weights(int in, int out, dpareto::Rng& rng) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> w(static_cast<std::size_t>(in) * static_cast<std::size_t>(out));
  for (float& v : w) v = normal(rng);
  return w;
}

float weight(const std::vector<float>& w, int out, int i, int j) {
  return w[static_cast<std::size_t>(i) * static_cast<std::size_t>(out) + static_cast<std::size_t>(j)];
}

}  // namespace

TEST_CASE("the three layer products match naive triple loops, on shapes odd and even, one output included") {
  dpareto::Rng rng(5);
  for (const auto& [rows, in, out] :
       {std::tuple{1, 1, 1}, {7, 13, 5}, {64, 33, 17}, {130, 784, 10}, {256, 123, 1}, {9, 5, 1}}) {
    CAPTURE(rows);
    CAPTURE(in);
    CAPTURE(out);
    const MatrixF x = random_matrix(rows, in, rng);
    const MatrixF delta = random_matrix(rows, out, rng);
    const std::vector<float> w = random_weights(in, out, rng);

    MatrixF z;
    times_weights(x, w.data(), in, out, z);
    REQUIRE(z.rows() == rows);
    REQUIRE(z.cols() == out);
    MatrixF d;
    times_weights_transposed(delta, w.data(), in, out, d);
    REQUIRE(d.rows() == rows);
    REQUIRE(d.cols() == in);
    std::vector<float> g(w.size(), 99.0f);
    weight_gradient(x, delta, in, out, g.data());

    // Float sums of up to 784 terms of size ~1: a relative tolerance of 1e-4 of the terms' scale.
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < out; ++j) {
        double naive = 0;
        for (int k = 0; k < in; ++k) naive += static_cast<double>(x(i, k)) * weight(w, out, k, j);
        CHECK(z(i, j) == doctest::Approx(naive).epsilon(1e-4).scale(std::sqrt(in)));
      }
    for (int i = 0; i < rows; ++i)
      for (int k = 0; k < in; ++k) {
        double naive = 0;
        for (int j = 0; j < out; ++j) naive += static_cast<double>(delta(i, j)) * weight(w, out, k, j);
        CHECK(d(i, k) == doctest::Approx(naive).epsilon(1e-4).scale(std::sqrt(out)));
      }
    for (int k = 0; k < in; ++k)
      for (int j = 0; j < out; ++j) {
        double naive = 0;
        for (int i = 0; i < rows; ++i) naive += static_cast<double>(x(i, k)) * delta(i, j);
        CHECK(weight(g, out, k, j) == doctest::Approx(naive).epsilon(1e-4).scale(std::sqrt(rows)));
      }
  }
}

TEST_CASE("an empty lot slice: no rows in, a zero weight gradient out") {
  dpareto::Rng rng(6);
  const MatrixF x(0, 4), delta(0, 3);
  const std::vector<float> w = random_weights(4, 3, rng);
  MatrixF z, d;
  times_weights(x, w.data(), 4, 3, z);
  CHECK(z.rows() == 0);
  CHECK(z.cols() == 3);
  times_weights_transposed(delta, w.data(), 4, 3, d);
  CHECK(d.rows() == 0);
  CHECK(d.cols() == 4);
  std::vector<float> g(12, 99.0f);
  weight_gradient(x, delta, 4, 3, g.data());
  for (float v : g) CHECK(v == 0.0f);
}

TEST_CASE("compressed rows: the forward product and the weight gradient equal the dense rows' to rounding") {
  // MNIST-like rows: about 1 value in 5 non-zero, one row empty. Only the summation order differs
  // (the non-zeros alone), so a wrong row of W or a missed non-zero would be off by O(1).
  dpareto::Rng rng(7);
  std::bernoulli_distribution nonzero(0.2);
  for (const auto& [rows, in, out] : {std::tuple{1, 1, 2}, {37, 50, 9}, {128, 784, 128}}) {
    CAPTURE(rows);
    CAPTURE(in);
    CAPTURE(out);
    MatrixF x = random_matrix(rows, in, rng);
    for (int i = 0; i < rows; ++i)
      for (int k = 0; k < in; ++k)
        if (i == rows / 2 || !nonzero(rng)) x(i, k) = 0;
    const SparseRowsF xs = x.sparseView();
    const MatrixF delta = random_matrix(rows, out, rng);
    const std::vector<float> w = random_weights(in, out, rng);
    MatrixF z_dense, z_sparse;
    times_weights(x, w.data(), in, out, z_dense);
    times_weights(xs, w.data(), in, out, z_sparse);
    REQUIRE(z_sparse.rows() == rows);
    REQUIRE(z_sparse.cols() == out);
    CHECK((z_sparse - z_dense).cwiseAbs().maxCoeff() <= 1e-4f * std::sqrt(static_cast<float>(in)));
    std::vector<float> g_dense(w.size()), g_sparse(w.size(), 99.0f);
    weight_gradient(x, delta, in, out, g_dense.data());
    SparseColumnsF by_column;
    compress_by_column(xs, by_column);
    CHECK(by_column.isCompressed());
    CHECK(MatrixF(by_column) == x);
    weight_gradient(by_column, delta, in, out, g_sparse.data());
    for (std::size_t k = 0; k < w.size(); ++k)
      CHECK(g_sparse[k] == doctest::Approx(g_dense[k]).epsilon(1e-4).scale(std::sqrt(rows)));
  }
}
