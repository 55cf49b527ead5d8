#include "dpareto/learn/dataset.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "dpareto/core/error.hpp"
#include "dpareto/learn/dense_products.hpp"

namespace dpareto::learn {
namespace {

constexpr std::size_t sparse_prefetch_distance = 8;  // rows ahead
constexpr std::size_t bytes_prefetch_distance = 4;   // rows ahead

void check_labels(const std::vector<int>& labels, int num_classes) {
  if (num_classes < 2) throw InputError("dataset: need at least 2 classes, got " + std::to_string(num_classes));
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i] < 0 || labels[i] >= num_classes)
      throw InputError("dataset: label " + std::to_string(labels[i]) + " of row " + std::to_string(i) +
                       " outside [0, " + std::to_string(num_classes) + ")");
}

}  // namespace

Dataset Dataset::from_dense(MatrixF features, std::vector<int> labels, int num_classes) {
  if (features.rows() != static_cast<Eigen::Index>(labels.size()))
    throw InputError("dataset: " + std::to_string(features.rows()) + " feature rows but " +
                     std::to_string(labels.size()) + " labels");
  check_labels(labels, num_classes);
  if (!features.allFinite()) {
    for (Eigen::Index i = 0; i < features.rows(); ++i)
      for (Eigen::Index j = 0; j < features.cols(); ++j)
        if (!std::isfinite(features(i, j)))
          throw InputError("dataset: feature " + std::to_string(j + 1) + " of row " + std::to_string(i + 1) +
                           " is not finite");
  }
  Dataset d;
  d.dimension_ = static_cast<int>(features.cols());
  d.num_classes_ = num_classes;
  d.labels_ = std::move(labels);
  d.dense_ = std::move(features);
  d.summarize_rows();
  return d;
}

Dataset Dataset::from_bytes(std::vector<std::uint8_t> bytes, int dimension, std::vector<int> labels, int num_classes,
                            float scale) {
  if (dimension <= 0 || bytes.size() != labels.size() * static_cast<std::size_t>(dimension))
    throw InputError("dataset: " + std::to_string(bytes.size()) + " bytes do not hold " +
                     std::to_string(labels.size()) + " rows of " + std::to_string(dimension));
  check_labels(labels, num_classes);
  Dataset d;
  d.storage_ = Storage::bytes;
  d.dimension_ = dimension;
  d.num_classes_ = num_classes;
  d.row_scale_.assign(labels.size(), scale);
  d.labels_ = std::move(labels);
  d.bytes_.assign(bytes.begin(), bytes.end());
  d.summarize_rows();
  return d;
}

Dataset Dataset::from_sparse(std::vector<std::size_t> row_begin, std::vector<int> columns, std::vector<float> values,
                             int dimension, std::vector<int> labels, int num_classes) {
  if (dimension <= 0 || row_begin.size() != labels.size() + 1 || row_begin.front() != 0 ||
      row_begin.back() != columns.size() || columns.size() != values.size())
    throw InputError("dataset: compressed rows do not describe " + std::to_string(labels.size()) + " rows of " +
                     std::to_string(columns.size()) + " non-zeros in " + std::to_string(dimension) + " columns");
  check_labels(labels, num_classes);
  for (std::size_t i = 0; i + 1 < row_begin.size(); ++i)  // rising from 0 to the count: every row in bounds
    if (row_begin[i + 1] < row_begin[i])
      throw InputError("dataset: row " + std::to_string(i + 1) + " ends before it begins");
  for (std::size_t i = 0; i + 1 < row_begin.size(); ++i) {
    for (std::size_t k = row_begin[i]; k < row_begin[i + 1]; ++k) {
      const auto at = [&] {
        return "dataset: row " + std::to_string(i + 1) + ", column " + std::to_string(columns[k] + 1);
      };
      if (columns[k] < 0 || columns[k] >= dimension || (k > row_begin[i] && columns[k] <= columns[k - 1]))
        throw InputError(at() + ": columns must ascend within [1, " + std::to_string(dimension) + "]");
      if (!std::isfinite(values[k])) throw InputError(at() + ": the value is not finite");
    }
  }
  Dataset d;
  d.storage_ = Storage::sparse;
  d.dimension_ = dimension;
  d.num_classes_ = num_classes;
  d.labels_ = std::move(labels);
  d.row_begin_ = std::move(row_begin);
  d.columns_ = std::move(columns);
  d.values_ = std::move(values);
  d.summarize_rows();
  return d;
}

void Dataset::summarize_rows() {
  norms_sq_.resize(labels_.size());
  if (storage_ != Storage::sparse) {
    row_begin_.assign(1, 0);
    columns_.clear();
    values_.clear();
  }
  const auto keep = [&](int j, float v) {
    columns_.push_back(j);
    values_.push_back(v);
  };
  for (int i = 0; i < size(); ++i) {
    const auto row = static_cast<std::size_t>(i);
    double sq = 0;
    switch (storage_) {
      case Storage::dense:
        sq = dense_.row(i).cast<double>().squaredNorm();
        for (int j = 0; j < dimension_; ++j)
          if (const float v = dense_(i, j); v != 0) keep(j, v);
        break;
      case Storage::bytes: {
        const std::uint8_t* src = bytes_.data() + row * static_cast<std::size_t>(dimension_);
        const float scale = row_scale_[row];
        for (int j = 0; j < dimension_; ++j) {
          sq += static_cast<double>(src[j]) * src[j];
          if (src[j]) keep(j, static_cast<float>(src[j]) * scale);  // as gather() converts it
        }
        sq *= static_cast<double>(scale) * scale;
        break;
      }
      case Storage::sparse:
        for (std::size_t k = row_begin_[row]; k < row_begin_[row + 1]; ++k)
          sq += static_cast<double>(values_[k]) * values_[k];
        break;
    }
    norms_sq_[row] = sq;
    if (storage_ != Storage::sparse) row_begin_.push_back(columns_.size());
  }
  density_ = size() ? static_cast<double>(columns_.size()) / (static_cast<double>(size()) * dimension_) : 0.0;
}

void Dataset::copy_norms(std::span<const int> rows, Eigen::VectorXd* norms_sq) const {
  if (!norms_sq) return;
  norms_sq->resize(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t r = 0; r < rows.size(); ++r)
    (*norms_sq)[static_cast<Eigen::Index>(r)] = norms_sq_[static_cast<std::size_t>(rows[r])];
}

void Dataset::gather(std::span<const int> rows, MatrixF& out, Eigen::VectorXd* norms_sq) const {
  out.resize(static_cast<Eigen::Index>(rows.size()), dimension_);
  copy_norms(rows, norms_sq);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto i = static_cast<std::size_t>(rows[r]);
    float* dst = out.data() + r * static_cast<std::size_t>(dimension_);
    switch (storage_) {
      case Storage::dense:
        std::memcpy(dst, dense_.row(static_cast<Eigen::Index>(i)).data(),
                    sizeof(float) * static_cast<std::size_t>(dimension_));
        break;
      case Storage::bytes: {
        // As for sparse rows: fetch a later row's cache lines while this one is converted.
        if (r + bytes_prefetch_distance < rows.size()) {
          const std::uint8_t* ahead =
              bytes_.data() + static_cast<std::size_t>(rows[r + bytes_prefetch_distance]) * dimension_;
          for (int j = 0; j < dimension_; j += 64) __builtin_prefetch(ahead + j);
        }
        const std::uint8_t* src = bytes_.data() + i * static_cast<std::size_t>(dimension_);
        const float s = row_scale_[i];
        for (int j = 0; j < dimension_; ++j) dst[j] = static_cast<float>(src[j]) * s;
        break;
      }
      case Storage::sparse:
        // A lot's rows lie anywhere in memory: fetch a later row's non-zeros while this one is copied.
        if (r + sparse_prefetch_distance < rows.size()) {
          const std::size_t ahead = row_begin_[static_cast<std::size_t>(rows[r + sparse_prefetch_distance])];
          __builtin_prefetch(columns_.data() + ahead);
          __builtin_prefetch(values_.data() + ahead);
        }
        std::fill(dst, dst + dimension_, 0.0f);
        for (std::size_t k = row_begin_[i]; k < row_begin_[i + 1]; ++k) dst[columns_[k]] = values_[k];
        break;
    }
  }
}

void Dataset::gather(std::span<const int> rows, SparseRowsF& out, Eigen::VectorXd* norms_sq) const {
  copy_norms(rows, norms_sq);
  const std::vector<std::size_t>& begin = row_begin_;
  const int* columns = columns_.data();
  const float* values = values_.data();
  std::size_t nonzeros = 0;
  for (int i : rows) nonzeros += begin[static_cast<std::size_t>(i) + 1] - begin[static_cast<std::size_t>(i)];
  out.resize(static_cast<Eigen::Index>(rows.size()), dimension_);
  out.resizeNonZeros(static_cast<Eigen::Index>(nonzeros));
  int* outer = out.outerIndexPtr();
  std::size_t at = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (r + sparse_prefetch_distance < rows.size()) {  // a later row's non-zeros, as in gather() above
      const std::size_t ahead = begin[static_cast<std::size_t>(rows[r + sparse_prefetch_distance])];
      __builtin_prefetch(columns + ahead);
      __builtin_prefetch(values + ahead);
    }
    const auto i = static_cast<std::size_t>(rows[r]);
    const std::size_t first = begin[i], count = begin[i + 1] - first;
    outer[r] = static_cast<int>(at);
    if (count == 0) continue;  // (a lot of empty rows has no storage to copy into)
    std::memcpy(out.innerIndexPtr() + at, columns + first, count * sizeof(int));
    std::memcpy(out.valuePtr() + at, values + first, count * sizeof(float));
    at += count;
  }
  outer[rows.size()] = static_cast<int>(at);
}

void Dataset::gather_range(int begin, int end, MatrixF& out) const {
  std::vector<int> rows(static_cast<std::size_t>(end - begin));
  std::iota(rows.begin(), rows.end(), begin);
  gather(rows, out);
}

void Dataset::times_weights_range(int begin, int end, const float* w, int out, MatrixF& z, MatrixF& scratch,
                                  SparseRowsF& sparse_scratch) const {
  if (storage_ == Storage::sparse && out == 1) {
    z.resize(end - begin, 1);
    const float* value = values_.data();
    const int* column = columns_.data();
    for (int i = begin; i < end; ++i) {
      // One short chain of additions per row, in a register: the processor overlaps the rows'
      // chains (a SIMD reduction over ~14 non-zeros spent more on its horizontal sum than it saved).
      float sum = 0;
      for (std::size_t k = row_begin_[static_cast<std::size_t>(i)]; k < row_begin_[static_cast<std::size_t>(i) + 1]; ++k)
        sum += value[k] * w[column[k]];
      z(i - begin, 0) = sum;
    }
    return;
  }
  std::vector<int> rows(static_cast<std::size_t>(end - begin));
  std::iota(rows.begin(), rows.end(), begin);
  if (takes_compressed_rows(*this, out)) {
    gather(rows, sparse_scratch);
    times_weights(sparse_scratch, w, dimension_, out, z);
  } else {
    gather(rows, scratch);
    times_weights(scratch, w, dimension_, out, z);
  }
}

Dataset Dataset::subset(std::span<const int> rows) const {
  std::vector<int> labels;
  labels.reserve(rows.size());
  for (int i : rows) labels.push_back(labels_.at(static_cast<std::size_t>(i)));
  Dataset d;
  d.storage_ = storage_;
  d.dimension_ = dimension_;
  d.num_classes_ = num_classes_;
  d.labels_ = std::move(labels);
  switch (storage_) {
    case Storage::dense:
      gather(rows, d.dense_);
      break;
    case Storage::bytes:
      d.bytes_.reserve(rows.size() * static_cast<std::size_t>(dimension_));
      for (int i : rows) {
        const auto* src = bytes_.data() + static_cast<std::size_t>(i) * dimension_;
        d.bytes_.insert(d.bytes_.end(), src, src + dimension_);
        d.row_scale_.push_back(row_scale_[static_cast<std::size_t>(i)]);
      }
      break;
    case Storage::sparse:
      d.row_begin_.push_back(0);
      for (int i : rows) {
        const auto begin = static_cast<std::ptrdiff_t>(row_begin_[static_cast<std::size_t>(i)]);
        const auto end = static_cast<std::ptrdiff_t>(row_begin_[static_cast<std::size_t>(i) + 1]);
        d.columns_.insert(d.columns_.end(), columns_.begin() + begin, columns_.begin() + end);
        d.values_.insert(d.values_.end(), values_.begin() + begin, values_.begin() + end);
        d.row_begin_.push_back(d.columns_.size());
      }
      break;
  }
  d.summarize_rows();
  return d;
}

Dataset Dataset::with_constant_feature() const {
  MatrixF x;
  gather_range(0, size(), x);
  MatrixF y(x.rows(), x.cols() + 1);
  y.leftCols(x.cols()) = x;
  y.col(x.cols()).setOnes();
  return from_dense(std::move(y), labels_, num_classes_);
}

void Dataset::normalize_rows() {
  for (int i = 0; i < size(); ++i) {
    const auto row = static_cast<std::size_t>(i);
    switch (storage_) {
      case Storage::dense: {
        const float norm = dense_.row(i).norm();
        if (norm > 0) dense_.row(i) /= norm;
        break;
      }
      case Storage::bytes: {
        const std::uint8_t* src = bytes_.data() + row * static_cast<std::size_t>(dimension_);
        double sq = 0;
        for (int j = 0; j < dimension_; ++j) sq += static_cast<double>(src[j]) * src[j];
        if (sq > 0) row_scale_[row] = static_cast<float>(1.0 / std::sqrt(sq));
        break;
      }
      case Storage::sparse: {
        const double norm = std::sqrt(norms_sq_[row]);
        if (norm > 0)
          for (std::size_t k = row_begin_[row]; k < row_begin_[row + 1]; ++k)
            values_[k] = static_cast<float>(values_[k] / norm);
        break;
      }
    }
  }
  summarize_rows();
}

int Dataset::majority_class() const {
  std::vector<int> counts(static_cast<std::size_t>(num_classes_), 0);
  for (int y : labels_) ++counts[static_cast<std::size_t>(y)];
  return static_cast<int>(std::max_element(counts.begin(), counts.end()) - counts.begin());
}

double Dataset::label_fraction(int label) const {
  if (labels_.empty()) return 0;
  return static_cast<double>(std::count(labels_.begin(), labels_.end(), label)) / static_cast<double>(labels_.size());
}

}  // namespace dpareto::learn
