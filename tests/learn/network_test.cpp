// GCC 12 false positives inside AVX-512 intrinsics inlined from Eigen (GCC PR 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/learn/network.hpp"

using namespace dpareto::learn;

namespace {

struct Batch {
  MatrixF x;
  std::vector<int> y;
};

Batch random_batch(int m, int d, int classes, std::uint64_t seed) {
  dpareto::Rng rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  Batch b{MatrixF(m, d), std::vector<int>(static_cast<std::size_t>(m))};
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < d; ++j) b.x(i, j) = normal(rng);
    b.y[static_cast<std::size_t>(i)] = std::uniform_int_distribution<int>(0, classes - 1)(rng);
  }
  return b;
}

Eigen::VectorXf random_params(const Network& net, std::uint64_t seed, float scale) {
  dpareto::Rng rng(seed);
  std::normal_distribution<float> normal(0.0f, scale);
  Eigen::VectorXf p(static_cast<Eigen::Index>(net.num_parameters()));
  for (auto& v : p) v = normal(rng);
  return p;
}

std::vector<Architecture> small_architectures() {
  return {logistic_regression(6),
          linear_svm(6),
          {"mlp-a", 6, {5}, 3, Loss::softmax_cross_entropy},
          {"mlp-b", 6, {5, 4}, 3, Loss::softmax_cross_entropy}};
}

}  // namespace

TEST_CASE("per-example norms and the clipped sum match a naive per-example computation") {
  for (const auto& arch : small_architectures()) {
    CAPTURE(arch.name);
    const Network net(arch);
    const Batch b = random_batch(17, arch.inputs, std::max(2, arch.outputs), 3);
    const Eigen::VectorXf w = random_params(net, 4, 0.7f);
    const auto P = static_cast<Eigen::Index>(net.num_parameters());
    const float clip = 0.8f;
    // Naive: one explicit gradient vector per example, clipped, summed.
    Eigen::VectorXd naive_sum = Eigen::VectorXd::Zero(P);
    std::vector<double> naive_norms;
    Workspace ws;
    int clipped = 0;
    for (int i = 0; i < 17; ++i) {
      const MatrixF xi = b.x.row(i);
      Eigen::VectorXf gi(P);
      net.clipped_gradient_sum(w, xi, std::span(b.y).subspan(static_cast<std::size_t>(i), 1),
                               std::numeric_limits<float>::infinity(), ws, gi.data());
      const double norm = gi.cast<double>().norm();
      naive_norms.push_back(norm);
      clipped += norm > clip;
      naive_sum += gi.cast<double>() * std::min(1.0, clip / norm);
    }
    CHECK(clipped > 0);  // the test exercises clipping
    Eigen::VectorXf sum(P);
    net.clipped_gradient_sum(w, b.x, b.y, clip, ws, sum.data());
    for (int i = 0; i < 17; ++i)  // the clipping factors min(1, L/‖∇ℓ_i‖), from the per-example norms
      CHECK(ws.scale[i] == doctest::Approx(std::min(1.0, clip / naive_norms[static_cast<std::size_t>(i)])).epsilon(1e-4));
    CHECK((sum.cast<double>() - naive_sum).norm() <= 1e-4 * (1 + naive_sum.norm()));
  }
}

TEST_CASE("each model's gradient matches central finite differences") {
  for (const auto& arch : small_architectures()) {
    CAPTURE(arch.name);
    const Network net(arch);
    const Batch b = random_batch(9, arch.inputs, std::max(2, arch.outputs), 5);
    Eigen::VectorXf w = random_params(net, 6, 0.5f);
    const auto P = static_cast<Eigen::Index>(net.num_parameters());
    Workspace ws;
    Eigen::VectorXf g(P);
    net.clipped_gradient_sum(w, b.x, b.y, std::numeric_limits<float>::infinity(), ws, g.data());
    g /= 9.0f;  // mean_loss is the mean
    const float h = 2e-3f;
    int checked = 0;
    for (Eigen::Index k = 0; k < P; ++k) {
      const float keep = w[k];
      w[k] = keep + h;
      const double up = net.mean_loss(w, b.x, b.y, ws);
      w[k] = keep - h;
      const double down = net.mean_loss(w, b.x, b.y, ws);
      w[k] = keep;
      const double fd = (up - down) / (2 * h);
      // Hinge and ReLU kinks inside [w - h, w + h] break the difference; skip the coordinates whose
      // one-sided slopes differ by more than 1e-3 (a kink that bends them less moves the central
      // difference by less than that; smooth curvature bends them by h·f'' ≈ 2e-3·f'').
      const double mid = net.mean_loss(w, b.x, b.y, ws);
      if (std::abs(up + down - 2 * mid) / h > 1e-3) continue;
      CHECK(g[k] == doctest::Approx(fd).epsilon(2e-2).scale(0.05));
      ++checked;
    }
    CHECK(checked > P / 2);
  }
}

TEST_CASE("architectures of the paper") {
  CHECK(Network(mlp1()).num_parameters() == 784 * 1000 + 1000 + 1000 * 10 + 10);
  CHECK(Network(mlp2()).num_parameters() == 784 * 128 + 128 + 128 * 64 + 64 + 64 * 10 + 10);
  CHECK(Network(logistic_regression(123)).num_parameters() == 124);
  dpareto::Rng rng(1);
  CHECK(Network(logistic_regression(5)).initial_parameters(rng).isZero());  // Alg. 3: w = 0
  CHECK_THROWS(Network({"bad", 4, {}, 3, Loss::logistic}));
}

TEST_CASE("clipping bounds every example's contribution, whatever its feature values") {
  // One example with a huge but finite feature (a LIBSVM row "+1 3:1e30"): its float32 squared
  // norm overflows. The clipped sum with it must differ from the sum without it by at most L, and
  // stay finite, for every model and for weights at which its logits overflow too.
  const float clip = 1.5f;
  for (const auto& arch : small_architectures()) {
    CAPTURE(arch.name);
    const Network net(arch);
    const auto P = static_cast<Eigen::Index>(net.num_parameters());
    const Batch b = random_batch(8, arch.inputs, std::max(2, arch.outputs), 3);
    for (float huge : {1e30f, 3e38f, -1e20f}) {
      for (float scale : {0.0f, 0.5f, 1e10f}) {
        CAPTURE(huge);
        CAPTURE(scale);
        const Eigen::VectorXf w = random_params(net, 4, scale);
        MatrixF with = b.x;
        with(5, 2) = huge;
        Workspace ws;
        Eigen::VectorXf g_with(P), g_without(P);
        net.clipped_gradient_sum(w, with, b.y, clip, ws, g_with.data());
        // Row 5 removed: the sum over the other seven rows.
        MatrixF seven(7, arch.inputs);
        std::vector<int> y7;
        for (int i = 0, r = 0; i < 8; ++i)
          if (i != 5) {
            seven.row(r++) = b.x.row(i);
            y7.push_back(b.y[static_cast<std::size_t>(i)]);
          }
        net.clipped_gradient_sum(w, seven, y7, clip, ws, g_without.data());
        REQUIRE(g_with.allFinite());
        CHECK((g_with - g_without).cast<double>().norm() <= clip * (1 + 1e-5));
      }
    }
  }
}

TEST_CASE("an example with a non-finite gradient norm contributes exactly zero") {
  // Hidden activations of row 1 overflow to ∞ (3e38 · weights of ~1): its gradient norm is not
  // finite, so it is dropped and the sum equals the other row's clipped gradient alone.
  const Network net({"mlp-a", 6, {5}, 3, Loss::softmax_cross_entropy});
  const Batch b = random_batch(2, 6, 3, 8);
  MatrixF x = b.x;
  x.row(1).setConstant(3e38f);
  const Eigen::VectorXf w = random_params(net, 9, 1.0f);
  Workspace ws;
  const auto P = static_cast<Eigen::Index>(net.num_parameters());
  Eigen::VectorXf g(P), g_alone(P);
  net.clipped_gradient_sum(w, x, b.y, 1.0f, ws, g.data());
  CHECK(ws.dropped == std::vector<Eigen::Index>{1});
  MatrixF first = x.topRows(1);
  net.clipped_gradient_sum(w, first, std::span(b.y).first(1), 1.0f, ws, g_alone.data());
  CHECK(ws.dropped.empty());
  CHECK(g.allFinite());
  CHECK(g == g_alone);
}

TEST_CASE("compressed rows: the clipped gradient sum equals the dense rows', dropped examples included") {
  // Inputs mostly zero (as MNIST's): the sums differ in summation order only.
  std::vector<Architecture> archs = small_architectures();
  archs.push_back({"mlp-wide", 30, {16, 8}, 4, Loss::softmax_cross_entropy});
  for (const auto& arch : archs) {
    CAPTURE(arch.name);
    const Network net(arch);
    Batch b = random_batch(23, arch.inputs, std::max(2, arch.outputs), 12);
    dpareto::Rng rng(13);
    std::bernoulli_distribution keep(0.3);
    for (int i = 0; i < 23; ++i)
      for (int j = 0; j < arch.inputs; ++j)
        if (!keep(rng)) b.x(i, j) = 0;
    b.x.row(4).setZero();
    b.x.row(9).setConstant(3e38f);  // a non-finite gradient norm on the MLPs: dropped
    const SparseRowsF xs = b.x.sparseView();
    const Eigen::VectorXf w = random_params(net, 14, 0.7f);
    const auto P = static_cast<Eigen::Index>(net.num_parameters());
    for (float clip : {0.8f, std::numeric_limits<float>::infinity()}) {
      if (!std::isfinite(clip)) b.x.row(9).setZero();  // unclipped sums have no dropping
      const SparseRowsF xc = b.x.sparseView();
      Workspace ws_dense, ws_sparse;
      Eigen::VectorXf g_dense(P), g_sparse(P);
      net.clipped_gradient_sum(w, b.x, b.y, clip, ws_dense, g_dense.data());
      net.clipped_gradient_sum(w, std::isfinite(clip) ? xs : xc, b.y, clip, ws_sparse, g_sparse.data());
      CHECK(ws_sparse.dropped == ws_dense.dropped);
      REQUIRE(g_sparse.allFinite());
      CHECK((g_sparse - g_dense).cwiseAbs().maxCoeff() <= 1e-5f * (1 + g_dense.cwiseAbs().maxCoeff()));
    }
  }
}

TEST_CASE("out-major parameters (DPMODEL1 files) convert to this layout: the same logits") {
  const Network net({"mlp-b", 6, {5, 4}, 3, Loss::softmax_cross_entropy});
  const Eigen::VectorXf w = random_params(net, 15, 1.0f);
  // The same network written out-major: each layer's W (in × out) stored as Wᵀ row-major.
  Eigen::VectorXf out_major = w;
  std::size_t at = 0;
  for (auto [in, out] : {std::pair{6, 5}, {5, 4}, {4, 3}}) {
    for (int i = 0; i < in; ++i)
      for (int o = 0; o < out; ++o)
        out_major[static_cast<Eigen::Index>(at + static_cast<std::size_t>(o * in + i))] =
            w[static_cast<Eigen::Index>(at + static_cast<std::size_t>(i * out + o))];
    at += static_cast<std::size_t>(in * out + out);
  }
  REQUIRE(at == net.num_parameters());
  CHECK(out_major != w);
  CHECK(net.from_out_major_weights(out_major) == w);
  const Network logreg(logistic_regression(6));  // one output: the two layouts coincide
  const Eigen::VectorXf v = random_params(logreg, 16, 1.0f);
  CHECK(logreg.from_out_major_weights(v) == v);
  CHECK_THROWS_AS(net.from_out_major_weights(v), dpareto::InputError);
}
