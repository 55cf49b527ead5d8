// GCC 12 false positives inside AVX-512 intrinsics inlined from Eigen (GCC PR 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/core/random.hpp"
#include "dpareto/learn/dataset.hpp"
#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/learn/network.hpp"

using namespace dpareto::learn;

namespace {

// The same random matrix (about 1 value in 8 non-zero, some rows empty) as compressed rows and as
// a dense matrix, with labels from a linear rule.
struct SparseAndDense {
  std::vector<std::size_t> row_begin{0};
  std::vector<int> columns;
  std::vector<float> values;
  MatrixF dense;
  std::vector<int> labels;
};

SparseAndDense random_rows(int rows, int dimension, std::uint64_t seed) {
  dpareto::Rng rng(seed);
  std::bernoulli_distribution nonzero(0.125);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  SparseAndDense m;
  m.dense = MatrixF::Zero(rows, dimension);
  for (int i = 0; i < rows; ++i) {
    float score = 0;
    for (int j = 0; j < dimension; ++j)
      if (nonzero(rng)) {
        const float v = normal(rng);
        m.columns.push_back(j);
        m.values.push_back(v);
        m.dense(i, j) = v;
        score += (j % 2 ? 1.0f : -1.0f) * v;
      }
    m.row_begin.push_back(m.columns.size());
    m.labels.push_back(score > 0 ? 1 : 0);
  }
  return m;
}

Dataset sparse_of(const SparseAndDense& m) {
  return Dataset::from_sparse(m.row_begin, m.columns, m.values, static_cast<int>(m.dense.cols()), m.labels, 2);
}

std::string refusal(auto&& make) {
  try {
    make();
  } catch (const dpareto::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("sparse rows gather, subset and report norms exactly as the same dense rows") {
  const SparseAndDense m = random_rows(300, 40, 3);
  const Dataset sparse = sparse_of(m), dense = Dataset::from_dense(m.dense, m.labels, 2);
  REQUIRE(sparse.size() == 300);
  REQUIRE(sparse.dimension() == 40);
  // A lot longer than the prefetch distance, rows repeated and in no order.
  dpareto::Rng rng(4);
  std::uniform_int_distribution<int> row(0, 299);
  std::vector<int> lot(100);
  for (int& i : lot) i = row(rng);
  MatrixF xs, xd;
  Eigen::VectorXd ns, nd;
  sparse.gather(lot, xs, &ns);
  dense.gather(lot, xd, &nd);
  CHECK(xs == xd);
  CHECK(ns == nd);
  sparse.gather_range(0, 300, xs);
  CHECK(xs == m.dense);

  const Dataset part = sparse.subset(lot);
  CHECK(part.labels() == dense.subset(lot).labels());
  part.gather_range(0, part.size(), xs);
  dense.subset(lot).gather_range(0, part.size(), xd);
  CHECK(xs == xd);
}

TEST_CASE("a lot gathered compressed holds the same rows as gathered dense, from every storage") {
  const SparseAndDense m = random_rows(300, 40, 9);
  std::vector<std::uint8_t> bytes(300 * 40);
  for (int i = 0; i < 300; ++i)
    for (int j = 0; j < 40; ++j)
      bytes[static_cast<std::size_t>(i * 40 + j)] = m.dense(i, j) != 0 ? static_cast<std::uint8_t>(1 + (i + j) % 255) : 0;
  const Dataset stored[] = {sparse_of(m), Dataset::from_dense(m.dense, m.labels, 2),
                            Dataset::from_bytes(bytes, 40, m.labels, 2, 1.0f / 255)};
  const double nonzeros = static_cast<double>(m.columns.size());
  dpareto::Rng rng(10);
  std::uniform_int_distribution<int> row(0, 299);
  std::vector<int> lot(64);
  for (int& i : lot) i = row(rng);
  for (const Dataset& data : stored) {
    CHECK(data.density() == doctest::Approx(nonzeros / (300.0 * 40)));
    MatrixF dense;
    SparseRowsF compressed;
    Eigen::VectorXd dense_norms, compressed_norms;
    data.gather(lot, dense, &dense_norms);
    data.gather(lot, compressed, &compressed_norms);
    CHECK(compressed.isCompressed());
    CHECK(compressed.nonZeros() == (dense.array() != 0).count());  // the zeros are left out
    CHECK(MatrixF(compressed) == dense);
    CHECK(compressed_norms == dense_norms);
    data.gather(std::vector<int>{}, compressed);
    CHECK(compressed.rows() == 0);
  }
  {  // a lot of empty rows only: no non-zeros at all
    const Dataset empty = Dataset::from_dense(MatrixF::Zero(3, 5), {0, 1, 0}, 2);
    CHECK(empty.density() == 0);
    SparseRowsF compressed;
    empty.gather(std::vector<int>{2, 0}, compressed);
    CHECK(compressed.rows() == 2);
    CHECK(compressed.nonZeros() == 0);
  }
  MatrixF x;  // a subset's density is its own rows'
  stored[2].gather(lot, x);
  CHECK(stored[2].subset(lot).density() == doctest::Approx(static_cast<double>((x.array() != 0).count()) / (64.0 * 40)));
}

TEST_CASE("sparse rows normalized: unit norms, empty rows stay empty, values as the dense rows'") {
  const SparseAndDense m = random_rows(200, 30, 5);
  Dataset sparse = sparse_of(m), dense = Dataset::from_dense(m.dense, m.labels, 2);
  sparse.normalize_rows();
  dense.normalize_rows();
  MatrixF xs, xd;
  sparse.gather_range(0, 200, xs);
  dense.gather_range(0, 200, xd);
  int empty = 0;
  for (int i = 0; i < 200; ++i) {
    const double norm = xs.row(i).cast<double>().norm();
    if (m.row_begin[static_cast<std::size_t>(i)] == m.row_begin[static_cast<std::size_t>(i) + 1]) {
      ++empty;
      CHECK(norm == 0);
    } else {
      CHECK(norm == doctest::Approx(1.0).epsilon(1e-6));
    }
    for (int j = 0; j < 30; ++j) CHECK(xs(i, j) == doctest::Approx(xd(i, j)).epsilon(1e-6));
  }
  CHECK(empty > 0);  // the case the branch is for occurs (30 columns at 1/8: about 2% of rows)
}

TEST_CASE("training on sparse rows equals training on the same dense rows, bit for bit") {
  const SparseAndDense m = random_rows(2000, 50, 6);
  const Dataset sparse = sparse_of(m), dense = Dataset::from_dense(m.dense, m.labels, 2);
  const Network net(logistic_regression(50));
  TrainConfig cfg;
  cfg.sampling = dpareto::privacy::Sampling::poisson;
  cfg.epochs = 3;
  cfg.lot_size = 64;
  cfg.learning_rate = 0.1;
  cfg.noise_multiplier = 1.0;
  cfg.clip_norm = 1.0;
  const TrainResult a = train(net, sparse, cfg, 11), b = train(net, dense, cfg, 11);
  CHECK(a.params == b.params);
  CHECK(accuracy(net, a.params, sparse, 1) == accuracy(net, b.params, dense, 1));
  CHECK(accuracy(net, a.params, sparse, 1) > 0.8);  // it learned the linear rule despite the noise
}

TEST_CASE("logits read from compressed rows in place equal the dense rows' logits") {
  // Only the summation order differs (the non-zeros alone against all 50 columns), so the logits
  // agree to float rounding; a wrong weight index or a missed row would be off by O(1).
  const SparseAndDense m = random_rows(1500, 50, 8);
  const Dataset sparse = sparse_of(m), dense = Dataset::from_dense(m.dense, m.labels, 2);
  const Architecture softmax_mlp{"sparse-mlp", 50, {7}, 3, Loss::softmax_cross_entropy};
  for (const Architecture& arch : {logistic_regression(50), linear_svm(50), softmax_mlp}) {
    CAPTURE(arch.name);
    const Network net(arch);
    dpareto::Rng rng(21);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    Eigen::VectorXf w(static_cast<Eigen::Index>(net.num_parameters()));
    for (auto& v : w) v = normal(rng);
    Workspace ws_sparse, ws_dense;
    for (auto [begin, end] : {std::pair{0, 1024}, std::pair{1024, 1500}, std::pair{7, 8}}) {
      const MatrixF a = net.logits_of_rows(w, sparse, begin, end, ws_sparse);
      const MatrixF& b = net.logits_of_rows(w, dense, begin, end, ws_dense);
      REQUIRE(a.rows() == end - begin);
      REQUIRE(a.cols() == b.cols());
      CHECK((a - b).cwiseAbs().maxCoeff() <= 1e-5f * (1.0f + b.cwiseAbs().maxCoeff()));
    }
    const double acc_sparse = accuracy(net, w, sparse, 2), acc_dense = accuracy(net, w, dense, 2);
    CHECK(std::abs(acc_sparse - acc_dense) <= 2.0 / 1500);  // a margin within rounding of 0 may flip
  }
}

TEST_CASE("compressed rows that do not describe a matrix are refused with the row and column") {
  const std::vector<int> labels{0, 1};
  CHECK(refusal([&] {
          Dataset::from_sparse({0, 1, 2}, {0, 5}, {1.0f, 1.0f}, 5, labels, 2);
        }).find("row 2, column 6") != std::string::npos);
  CHECK(refusal([&] {
          Dataset::from_sparse({0, 2, 2}, {3, 1}, {1.0f, 1.0f}, 5, labels, 2);
        }).find("must ascend") != std::string::npos);
  CHECK(refusal([&] {
          Dataset::from_sparse({0, 1, 1}, {0}, {std::numeric_limits<float>::infinity()}, 5, labels, 2);
        }).find("not finite") != std::string::npos);
  CHECK(refusal([&] {
          Dataset::from_sparse({0, 1}, {0}, {1.0f}, 5, labels, 2);
        }).find("do not describe 2 rows") != std::string::npos);
  CHECK(refusal([&] {
          Dataset::from_sparse({0, 2, 1}, {0}, {1.0f}, 5, labels, 2);
        }).find("row 2 ends before it begins") != std::string::npos);
}
