#pragma once
// A labelled classification dataset held in memory. Features are dense float32 rows, uint8 rows
// (MNIST pixels) or sparse rows (LIBSVM files: a9a has 14 non-zeros of 123), both of which stay so
// until a lot is formed: gather() converts only the requested rows to float, so a 60000 x 784 image
// set costs 47 MB rather than 188 MB, and a lot of a9a rows reads 112 bytes a row rather than 492.
// Every storage also keeps its rows' non-zeros compressed (for MNIST 72 MB more), from which a lot
// whose first layer takes compressed rows is gathered (dense_products.hpp).
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dpareto/core/huge_page_allocator.hpp"

namespace dpareto::learn {

// Rows are examples.
using MatrixF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
// Rows are examples, their non-zeros compressed (a lot of mostly-zero inputs: dense_products.hpp).
using SparseRowsF = Eigen::SparseMatrix<float, Eigen::RowMajor, int>;
// The same matrix compressed by column.
using SparseColumnsF = Eigen::SparseMatrix<float, Eigen::ColMajor, int>;

class Dataset {
 public:
  Dataset() = default;
  // Labels must lie in [0, num_classes); `features` has one row per label, every value finite.
  static Dataset from_dense(MatrixF features, std::vector<int> labels, int num_classes);
  // `bytes` holds rows of `dimension` values; feature = byte * scale (e.g. 1/255 for pixels).
  static Dataset from_bytes(std::vector<std::uint8_t> bytes, int dimension, std::vector<int> labels, int num_classes,
                            float scale);
  // Row i's non-zeros are columns[row_begin[i] .. row_begin[i+1]) (ascending, in [0, dimension))
  // with their values (finite); row_begin has one entry more than labels.
  static Dataset from_sparse(std::vector<std::size_t> row_begin, std::vector<int> columns, std::vector<float> values,
                             int dimension, std::vector<int> labels, int num_classes);

  int size() const { return static_cast<int>(labels_.size()); }
  int dimension() const { return dimension_; }
  int num_classes() const { return num_classes_; }
  const std::vector<int>& labels() const { return labels_; }

  // out = the listed rows as float32 (resized to rows.size() x dimension()); with `norms_sq`, also
  // their squared L2 norms in double (kept per row, so DP clipping need not recompute them every
  // step; double, since a float32 square of a large but finite feature overflows).
  void gather(std::span<const int> rows, MatrixF& out, Eigen::VectorXd* norms_sq = nullptr) const;
  // The same rows with their non-zeros compressed (ascending columns; zeros left out).
  void gather(std::span<const int> rows, SparseRowsF& out, Eigen::VectorXd* norms_sq = nullptr) const;
  // Fraction of the features that are non-zero, over all rows.
  double density() const { return density_; }
  // out = rows [begin, end).
  void gather_range(int begin, int end, MatrixF& out) const;
  // z = rows [begin, end) · W for a first layer's weights w (dimension() × out, row-major, as
  // dense_products stores them). Compressed rows with one output multiply their non-zeros only
  // (a9a: 14 of 123); otherwise the rows are gathered into `sparse_scratch` where
  // takes_compressed_rows(*this, out) (dense_products.hpp), else into `scratch`.
  void times_weights_range(int begin, int end, const float* w, int out, MatrixF& z, MatrixF& scratch,
                           SparseRowsF& sparse_scratch) const;
  // The listed rows, in that order, as a new dataset of the same storage kind.
  Dataset subset(std::span<const int> rows) const;
  // Appends a constant feature 1 (a bias folded into the weights), for models without a bias.
  Dataset with_constant_feature() const;
  // Scales every non-zero row to unit L2 norm (analyses that need ||x|| <= 1, e.g. Wu et al. 2017).
  void normalize_rows();
  // The most frequent label (smallest on ties): the accuracy floor of a diverged run.
  int majority_class() const;
  // Fraction of rows whose label is `label`.
  double label_fraction(int label) const;

 private:
  int dimension_ = 0;
  int num_classes_ = 0;
  std::vector<int> labels_;
  enum class Storage { dense, bytes, sparse };
  Storage storage_ = Storage::dense;
  MatrixF dense_;                       // Storage::dense
  // Storage::bytes: size() * dimension() values, row-major
  std::vector<std::uint8_t, HugePageAllocator<std::uint8_t>> bytes_;
  std::vector<float> row_scale_;        // Storage::bytes: per-row multiplier of bytes_
  // Row i's non-zeros, columns_ and values_ [row_begin_[i] .. row_begin_[i+1]): the rows themselves
  // for Storage::sparse; for dense and bytes a copy summarize_rows() makes, for compressed lots
  // (MNIST's 60000 rows: 9.0 M non-zeros, 72 MB beside its 47 MB of pixels).
  std::vector<std::size_t> row_begin_;
  std::vector<int> columns_;
  std::vector<float> values_;
  std::vector<double> norms_sq_;  // squared L2 norm of each row
  double density_ = 0;

  // norms_sq_, density_ and (dense and bytes) the non-zeros' copy, from the rows.
  void summarize_rows();
  // The listed rows' squared norms into *norms_sq, when given.
  void copy_norms(std::span<const int> rows, Eigen::VectorXd* norms_sq) const;
};

}  // namespace dpareto::learn
