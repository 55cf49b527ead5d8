#include "dpareto/learn/dense_products.hpp"

#include <cblas.h>

#include <algorithm>

namespace dpareto::learn {
namespace {

// Outputs per register block of the compressed-row kernels: 8 AVX-512 (16 AVX2) accumulators.
constexpr int kTile = 128;

// out[t, t+N) = Σ_k value[k] · rows[index[k]·stride + t, +N) for k in [begin, end): N outputs
// summed in registers over one compressed row (or column), stored once.
template <int N>
void sum_of_scaled_rows(const int* index, const float* value, int begin, int end, const float* rows,
                        std::ptrdiff_t stride, int t, float* out) {
  using Block = Eigen::Array<float, N, 1>;
  Block sum = Block::Zero();
  for (int k = begin; k < end; ++k) sum += value[k] * Eigen::Map<const Block>(rows + index[k] * stride + t);
  Eigen::Map<Block>(out + t) = sum;
}

// For each compressed vector j of `outer` ones (begin[j] .. begin[j+1] into index, value):
// out row j = Σ_k value[k] · rows row index[k]. Output tiles outermost, so that one tile of `rows`
// (784 inputs × 128 floats: 400 KB) stays in L2 across the vectors.
void sums_of_scaled_rows(int outer, const int* begin, const int* index, const float* value, const float* rows,
                         int width, float* out) {
  const std::ptrdiff_t stride = width;
  int t = 0;
  for (; t + kTile <= width; t += kTile)
    for (int j = 0; j < outer; ++j)
      sum_of_scaled_rows<kTile>(index, value, begin[j], begin[j + 1], rows, stride, t, out + j * stride);
  for (; t + 16 <= width; t += 16)
    for (int j = 0; j < outer; ++j)
      sum_of_scaled_rows<16>(index, value, begin[j], begin[j + 1], rows, stride, t, out + j * stride);
  for (; t < width; ++t)
    for (int j = 0; j < outer; ++j)
      sum_of_scaled_rows<1>(index, value, begin[j], begin[j + 1], rows, stride, t, out + j * stride);
}

}  // namespace

bool takes_compressed_rows(const Dataset& data, int out) { return out > 1 && data.density() <= 0.25; }

void times_weights(const MatrixF& x, const float* w, int in, int out, MatrixF& z) {
  const auto rows = static_cast<int>(x.rows());
  z.resize(rows, out);
  if (rows == 0) return;
  if (out == 1) {  // a linear model's layer: a matrix-vector product (see the header)
    z.col(0).noalias() = x * Eigen::Map<const Eigen::VectorXf>(w, in);
    return;
  }
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, out, in, 1.0f, x.data(), in, w, out, 0.0f, z.data(),
              out);
}

void times_weights(const SparseRowsF& x, const float* w, int, int out, MatrixF& z) {
  // Row i of z sums the rows of W that row i's non-zeros select.
  z.resize(x.rows(), out);
  sums_of_scaled_rows(static_cast<int>(x.rows()), x.outerIndexPtr(), x.innerIndexPtr(), x.valuePtr(), w, out,
                      z.data());
}

void times_weights_transposed(const MatrixF& delta, const float* w, int in, int out, MatrixF& d) {
  const auto rows = static_cast<int>(delta.rows());
  d.resize(rows, in);
  if (rows == 0) return;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rows, in, out, 1.0f, delta.data(), out, w, out, 0.0f, d.data(),
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
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, in, out, rows, 1.0f, x.data(), in, delta.data(), out, 0.0f, g,
              out);
}

void compress_by_column(const SparseRowsF& x, SparseColumnsF& out) {
  // A counting sort of the non-zeros by column; rows stay ascending within each column. Into
  // out's own storage, which keeps its capacity from lot to lot (Eigen's conversion allocates).
  const auto rows = static_cast<int>(x.rows()), columns = static_cast<int>(x.cols());
  const int* row_begin = x.outerIndexPtr();
  const int* column = x.innerIndexPtr();
  const float* value = x.valuePtr();
  out.resize(rows, columns);
  out.resizeNonZeros(row_begin[rows]);
  int* begin = out.outerIndexPtr();  // zeroed by resize
  for (int k = 0; k < row_begin[rows]; ++k) ++begin[column[k] + 1];
  for (int c = 0; c < columns; ++c) begin[c + 1] += begin[c];
  int* row_of = out.innerIndexPtr();
  float* value_of = out.valuePtr();
  for (int i = 0; i < rows; ++i)
    for (int k = row_begin[i]; k < row_begin[i + 1]; ++k) {
      const int at = begin[column[k]]++;  // begin[c] advances to the end of column c ...
      row_of[at] = i;
      value_of[at] = value[k];
    }
  for (int c = columns; c > 0; --c) begin[c] = begin[c - 1];  // ... and is shifted back
  begin[0] = 0;
}

void weight_gradient(const SparseColumnsF& x, const MatrixF& delta, int in, int out, float* g) {
  // Row k of G = Σ_i x_ik δ_i over column k's non-zeros: rows of Δ summed as above.
  sums_of_scaled_rows(in, x.outerIndexPtr(), x.innerIndexPtr(), x.valuePtr(), delta.data(), out, g);
}

}  // namespace dpareto::learn
