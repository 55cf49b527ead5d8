// GCC 12 reports false -W(maybe-)uninitialized inside its own AVX-512 intrinsics when Eigen's
// float kernels are inlined (GCC PR 105593); the pragmas must precede the first include.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include "dpareto/learn/network.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "dpareto/core/error.hpp"
#include "dpareto/learn/dense_products.hpp"

namespace dpareto::learn {

Architecture logistic_regression(int inputs) {
  return {"logreg", inputs, {}, 1, Loss::logistic};
}
Architecture linear_svm(int inputs) {
  return {"svm", inputs, {}, 1, Loss::hinge};
}
Architecture mlp1() {
  return {"mlp1", 784, {1000}, 10, Loss::softmax_cross_entropy};
}
Architecture mlp2() {
  return {"mlp2", 784, {128, 64}, 10, Loss::softmax_cross_entropy};
}

Network::Network(Architecture architecture) : arch_(std::move(architecture)) {
  const bool binary = arch_.loss != Loss::softmax_cross_entropy;
  if (arch_.inputs < 1 || arch_.outputs < 1 || (binary && arch_.outputs != 1) || (!binary && arch_.outputs < 2))
    throw InputError("network " + arch_.name + ": binary losses need 1 output, softmax at least 2");
  int in = arch_.inputs;
  std::vector<int> widths = arch_.hidden;
  widths.push_back(arch_.outputs);
  for (int out : widths) {
    if (out < 1) throw InputError("network " + arch_.name + ": layer widths must be positive");
    const std::size_t w = size_;
    size_ += static_cast<std::size_t>(in) * static_cast<std::size_t>(out);
    offsets_.push_back({w, size_, in, out});
    size_ += static_cast<std::size_t>(out);
    in = out;
  }
}

void Network::check_inputs(const Dataset& data) const {
  if (data.dimension() != arch_.inputs)
    throw InputError("network " + arch_.name + " expects " + std::to_string(arch_.inputs) +
                     " features per example, the data has " + std::to_string(data.dimension()));
}

Eigen::VectorXf Network::initial_parameters(Rng& rng) const {
  Eigen::VectorXf p = Eigen::VectorXf::Zero(static_cast<Eigen::Index>(size_));
  if (arch_.hidden.empty()) return p;
  for (const Offset& o : offsets_) {
    const float bound = std::sqrt(6.0f / static_cast<float>(o.in));
    std::uniform_real_distribution<float> u(-bound, bound);
    for (std::size_t i = o.weights; i < o.bias; ++i) p[static_cast<Eigen::Index>(i)] = u(rng);
  }
  return p;
}

Eigen::VectorXf Network::from_out_major_weights(const Eigen::VectorXf& params) const {
  if (static_cast<std::size_t>(params.size()) != size_)
    throw InputError("network " + arch_.name + ": " + std::to_string(params.size()) + " parameters, expected " +
                     std::to_string(size_));
  Eigen::VectorXf p = params;
  for (const Offset& o : offsets_)
    Eigen::Map<MatrixF>(p.data() + o.weights, o.in, o.out) =
        Eigen::Map<const MatrixF>(params.data() + o.weights, o.out, o.in).transpose();
  return p;
}

namespace {

// ‖row i‖² of every row. A one-column matrix (a linear model's deltas) is one contiguous vector:
// Eigen's row-wise reduction would visit its rows one scalar at a time.
Eigen::ArrayXf row_squared_norms(const MatrixF& m) {
  if (m.cols() == 1) return Eigen::Map<const Eigen::ArrayXf>(m.data(), m.rows()).square();
  return m.rowwise().squaredNorm().array();
}

Eigen::ArrayXf row_squared_norms(const SparseRowsF& m) {
  Eigen::ArrayXf sq(m.rows());
  for (Eigen::Index i = 0; i < m.rows(); ++i) sq[i] = m.row(i).squaredNorm();
  return sq;
}

double row_squared_norm_in_double(const MatrixF& m, Eigen::Index i) { return m.row(i).cast<double>().squaredNorm(); }
double row_squared_norm_in_double(const SparseRowsF& m, Eigen::Index i) {
  double sq = 0;
  for (SparseRowsF::InnerIterator it(m, i); it; ++it) sq += static_cast<double>(it.value()) * it.value();
  return sq;
}

// x with the listed rows zeroed, copied into the workspace.
const MatrixF& without_rows(const MatrixF& x, std::span<const Eigen::Index> rows, Workspace& ws) {
  ws.input = x;
  for (Eigen::Index i : rows) ws.input.row(i).setZero();
  return ws.input;
}
const SparseRowsF& without_rows(const SparseRowsF& x, std::span<const Eigen::Index> rows, Workspace& ws) {
  ws.sparse_input = x;
  for (Eigen::Index i : rows)
    for (SparseRowsF::InnerIterator it(ws.sparse_input, i); it; ++it) it.valueRef() = 0;
  return ws.sparse_input;
}

// The first layer's weight gradient xᵀ·Δ_0; compressed rows go by column (dense_products.hpp).
void first_layer_gradient(const MatrixF& x, Workspace& ws, int in, int out, float* g) {
  weight_gradient(x, ws.deltas[0], in, out, g);
}
void first_layer_gradient(const SparseRowsF& x, Workspace& ws, int in, int out, float* g) {
  compress_by_column(x, ws.input_by_column);
  weight_gradient(ws.input_by_column, ws.deltas[0], in, out, g);
}

// Row i of m times factor[i], with the same contiguous shortcut for one column.
void scale_rows(MatrixF& m, const Eigen::ArrayXf& factor) {
  if (m.cols() == 1)
    Eigen::Map<Eigen::ArrayXf>(m.data(), m.rows()) *= factor;
  else
    m.array().colwise() *= factor;
}

}  // namespace

template <class Input>
const MatrixF& Network::forward(const Eigen::VectorXf& params, const Input& x, Workspace& ws) const {
  if (x.cols() != arch_.inputs)
    throw InputError("network " + arch_.name + ": input has " + std::to_string(x.cols()) + " features, expected " +
                     std::to_string(arch_.inputs));
  ws.activations.resize(offsets_.size());
  ws.deltas.resize(offsets_.size());
  times_weights(x, params.data() + offsets_[0].weights, offsets_[0].in, offsets_[0].out, ws.activations[0]);
  return forward_from_first_product(params, ws);
}

const MatrixF& Network::logits_of_rows(const Eigen::VectorXf& params, const Dataset& data, int begin, int end,
                                       Workspace& ws) const {
  ws.activations.resize(offsets_.size());
  ws.deltas.resize(offsets_.size());
  data.times_weights_range(begin, end, params.data() + offsets_[0].weights, offsets_[0].out, ws.activations[0],
                           ws.input, ws.sparse_input);
  return forward_from_first_product(params, ws);
}

const MatrixF& Network::forward_from_first_product(const Eigen::VectorXf& params, Workspace& ws) const {
  for (std::size_t l = 0; l < offsets_.size(); ++l) {
    const Offset& o = offsets_[l];
    MatrixF& z = ws.activations[l];
    if (l > 0) times_weights(ws.activations[l - 1], params.data() + o.weights, o.in, o.out, z);
    z.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(params.data() + o.bias, o.out);
    if (l + 1 < offsets_.size()) z = z.cwiseMax(0.0f);
  }
  return ws.activations.back();
}

double Network::loss_head(const MatrixF& logits, std::span<const int> labels, MatrixF& delta, bool with_loss) const {
  const Eigen::Index m = logits.rows();
  delta.resize(m, logits.cols());
  double total = 0;
  switch (arch_.loss) {
    case Loss::logistic:
      for (Eigen::Index i = 0; i < m; ++i) {
        const float s = labels[static_cast<std::size_t>(i)] ? 1.0f : -1.0f;
        const float margin = s * logits(i, 0);
        // log(1 + e^{-margin}) and its derivative -s·σ(-margin), both stable for large |margin|.
        if (with_loss) total += margin > 0 ? std::log1p(std::exp(-margin)) : -margin + std::log1p(std::exp(margin));
        delta(i, 0) = -s / (1.0f + std::exp(margin));
      }
      break;
    case Loss::hinge:
      for (Eigen::Index i = 0; i < m; ++i) {
        const float s = labels[static_cast<std::size_t>(i)] ? 1.0f : -1.0f;
        const float margin = s * logits(i, 0);
        if (with_loss) total += std::max(0.0f, 1.0f - margin);
        delta(i, 0) = margin < 1.0f ? -s : 0.0f;
      }
      break;
    case Loss::softmax_cross_entropy:
      for (Eigen::Index i = 0; i < m; ++i) {
        const auto z = logits.row(i).array();
        const float top = z.maxCoeff();
        auto e = delta.row(i).array();
        e = (z - top).exp();
        const float sum = e.sum();
        const int y = labels[static_cast<std::size_t>(i)];
        if (with_loss) total += std::log(sum) - (z(y) - top);
        e /= sum;
        e(y) -= 1.0f;
      }
      break;
  }
  return total;
}

void Network::clipped_gradient_sum(const Eigen::VectorXf& params, const MatrixF& x, std::span<const int> labels,
                                   float clip, Workspace& ws, float* grad, const Eigen::VectorXd* x_norms_sq) const {
  clipped_gradient_sum_of(params, x, labels, clip, ws, grad, x_norms_sq);
}

void Network::clipped_gradient_sum(const Eigen::VectorXf& params, const SparseRowsF& x, std::span<const int> labels,
                                   float clip, Workspace& ws, float* grad, const Eigen::VectorXd* x_norms_sq) const {
  clipped_gradient_sum_of(params, x, labels, clip, ws, grad, x_norms_sq);
}

template <class Input>
void Network::clipped_gradient_sum_of(const Eigen::VectorXf& params, const Input& x, std::span<const int> labels,
                                      float clip, Workspace& ws, float* grad, const Eigen::VectorXd* x_norms_sq) const {
  forward(params, x, ws);
  const std::size_t last = offsets_.size() - 1;
  loss_head(ws.activations[last], labels, ws.deltas[last], false);
  // Backpropagate Δ_{l-1} = (Δ_l W_lᵀ) ⊙ 1[a_{l-1} > 0] (ReLU outputs are > 0 exactly where active).
  for (std::size_t l = last; l > 0; --l) {
    const Offset& o = offsets_[l];
    MatrixF& d = ws.deltas[l - 1];
    times_weights_transposed(ws.deltas[l], params.data() + o.weights, o.in, o.out, d);
    d.array() *= (ws.activations[l - 1].array() > 0.0f).cast<float>();
  }
  const Input* first_input = &x;
  ws.dropped.clear();
  if (std::isfinite(clip)) {
    // ‖∇ℓ_i‖² = Σ_l (‖a_{l,i}‖² + 1)‖δ_{l,i}‖², vectorized in float (in ws.scale, before it holds the
    // clipping factors); a row whose float sum is not finite (a large but finite value squared
    // overflows float) is summed again in double below.
    const Eigen::Index rows = x.rows();
    Eigen::ArrayXf& sq = ws.scale;
    if (x_norms_sq)
      sq = x_norms_sq->cast<float>().array();
    else
      sq = row_squared_norms(x);
    sq = (sq + 1.0f) * row_squared_norms(ws.deltas[0]);
    for (std::size_t l = 1; l <= last; ++l)
      sq += (row_squared_norms(ws.activations[l - 1]) + 1.0f) * row_squared_norms(ws.deltas[l]);
    // Rows whose float sum is not finite are rare; note them before sq becomes the clipping factors.
    std::vector<Eigen::Index>& overflowed = ws.dropped;
    if (!sq.isFinite().all())
      for (Eigen::Index i = 0; i < rows; ++i)
        if (!std::isfinite(sq[i])) overflowed.push_back(i);
    // c_i = min(1, L/‖∇ℓ_i‖), vectorized in float.
    sq = (clip / sq.sqrt()).min(1.0f);
    // An overflowed row gets its norm in double; a norm that is not finite even there (NaN or ∞)
    // gets c_i = 0 and its rows are zeroed below, so that ∞·0 cannot turn into NaN in the products.
    std::size_t kept = 0;
    for (Eigen::Index i : overflowed) {
      const auto row_sq = [](const auto& m, Eigen::Index r) { return row_squared_norm_in_double(m, r); };
      double exact = ((x_norms_sq ? (*x_norms_sq)[i] : row_sq(x, i)) + 1) * row_sq(ws.deltas[0], i);
      for (std::size_t l = 1; l <= last; ++l) exact += (row_sq(ws.activations[l - 1], i) + 1) * row_sq(ws.deltas[l], i);
      if (std::isfinite(exact)) {
        sq[i] = static_cast<float>(std::min(1.0, static_cast<double>(clip) / std::sqrt(exact)));
      } else {
        sq[i] = 0;
        overflowed[kept++] = i;  // ws.dropped keeps only these
      }
    }
    overflowed.resize(kept);
    for (auto& d : ws.deltas) scale_rows(d, ws.scale);
    if (!ws.dropped.empty()) {
      for (Eigen::Index i : ws.dropped) {
        for (std::size_t l = 0; l < last; ++l) ws.activations[l].row(i).setZero();
        for (auto& d : ws.deltas) d.row(i).setZero();
      }
      first_input = &without_rows(x, ws.dropped, ws);
    }
  }
  for (std::size_t l = 0; l <= last; ++l) {
    const Offset& o = offsets_[l];
    Eigen::Map<Eigen::RowVectorXf> gb(grad + o.bias, o.out);
    if (l > 0)
      weight_gradient(ws.activations[l - 1], ws.deltas[l], o.in, o.out, grad + o.weights);
    else
      first_layer_gradient(*first_input, ws, o.in, o.out, grad + o.weights);
    gb = ws.deltas[l].colwise().sum();
  }
}

double Network::mean_loss(const Eigen::VectorXf& params, const MatrixF& x, std::span<const int> labels,
                          Workspace& ws) const {
  const MatrixF& logits = forward(params, x, ws);
  MatrixF scratch;
  return loss_head(logits, labels, scratch) / static_cast<double>(x.rows());
}

namespace {

// The class that `outputs` logits at z predict: 1 iff z > 0 (one output), else the first argmax.
int predicted_class_of(const float* z, int outputs) {
  if (outputs == 1) return z[0] > 0 ? 1 : 0;
  return static_cast<int>(std::max_element(z, z + outputs) - z);
}

}  // namespace

int Network::predicted_class(const MatrixF& logits, Eigen::Index i) const {
  return predicted_class_of(logits.row(i).data(), arch_.outputs);
}

double accuracy(const Network& net, const Eigen::VectorXf& params, const Dataset& data, int threads) {
  net.check_inputs(data);
  constexpr int chunk = 1024;
  const int n = data.size();
  const int chunks = (n + chunk - 1) / chunk;
  long long correct = 0;
#pragma omp parallel num_threads(std::max(1, std::min(threads, chunks))) reduction(+ : correct)
  {
    omp_set_num_threads(1);  // keep Eigen's own GEMM threads out of this team
    Workspace ws;
#pragma omp for schedule(static)
    for (int c = 0; c < chunks; ++c) {
      const int begin = c * chunk, end = std::min(n, begin + chunk);
      const MatrixF& z = net.logits_of_rows(params, data, begin, end, ws);
      for (int i = begin; i < end; ++i)
        correct += net.predicted_class(z, i - begin) == data.labels()[static_cast<std::size_t>(i)];
    }
  }
  return n ? static_cast<double>(correct) / n : 0.0;
}

std::vector<double> accuracies(const Network& net, std::span<const Eigen::VectorXf> params, const Dataset& data,
                               int threads) {
  for (const Eigen::VectorXf& p : params)
    if (static_cast<std::size_t>(p.size()) != net.num_parameters())
      throw InputError("accuracies: " + std::to_string(p.size()) + " parameters, network " +
                       net.architecture().name + " has " + std::to_string(net.num_parameters()));
  std::vector<double> result;
  if (net.num_layers() > 1 || params.size() < 2) {
    for (const Eigen::VectorXf& p : params) result.push_back(accuracy(net, p, data, threads));
    return result;
  }
  net.check_inputs(data);
  // Vector k's weights are columns [k·out, (k+1)·out) of one layer, its bias the same part of `bias`;
  // zero columns pad the width to a multiple of 16, which the compressed-row product sums in
  // registers 16 at a time (it would take a remainder one column at a time).
  const Network::Offset& layer = net.offsets_.front();
  const int k_count = static_cast<int>(params.size()), out = layer.out, width = (k_count * out + 15) / 16 * 16;
  MatrixF weights = MatrixF::Zero(layer.in, width);
  Eigen::RowVectorXf bias = Eigen::RowVectorXf::Zero(width);
  for (int k = 0; k < k_count; ++k) {
    const float* p = params[static_cast<std::size_t>(k)].data();
    weights.middleCols(k * out, out) = Eigen::Map<const MatrixF>(p + layer.weights, layer.in, out);
    bias.segment(k * out, out) = Eigen::Map<const Eigen::RowVectorXf>(p + layer.bias, out);
  }
  constexpr int chunk = 1024;
  const int n = data.size();
  const int chunks = (n + chunk - 1) / chunk;
  std::vector<long long> correct(static_cast<std::size_t>(k_count), 0);
#pragma omp parallel num_threads(std::max(1, std::min(threads, chunks)))
  {
    omp_set_num_threads(1);  // keep Eigen's own GEMM threads out of this team
    std::vector<long long> own(static_cast<std::size_t>(k_count), 0);
    MatrixF z, scratch;
    SparseRowsF sparse_scratch;
#pragma omp for schedule(static)
    for (int c = 0; c < chunks; ++c) {
      const int begin = c * chunk, end = std::min(n, begin + chunk);
      data.times_weights_range(begin, end, weights.data(), width, z, scratch, sparse_scratch);
      z.rowwise() += bias;
      for (int i = begin; i < end; ++i) {
        const int label = data.labels()[static_cast<std::size_t>(i)];
        for (int k = 0; k < k_count; ++k)
          own[static_cast<std::size_t>(k)] += predicted_class_of(z.row(i - begin).data() + k * out, out) == label;
      }
    }
#pragma omp critical
    for (int k = 0; k < k_count; ++k) correct[static_cast<std::size_t>(k)] += own[static_cast<std::size_t>(k)];
  }
  for (const long long c : correct) result.push_back(n ? static_cast<double>(c) / n : 0.0);
  return result;
}

}  // namespace dpareto::learn
