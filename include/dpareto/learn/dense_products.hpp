#pragma once
// The three matrix products of a dense layer, on OpenBLAS's SGEMM (issue 16: about 20% faster than
// Eigen's own float kernels on these shapes, and 1.6x on MLP2's 784x128 layer). A layer with one
// output (logistic regression, linear SVM) is a matrix-vector product in Eigen instead: SGEMM packs
// its operands at every call, which on a9a's 123 x 1 layer cost more than the product itself. A
// first layer whose inputs are mostly zero (MNIST pixels: 81%) takes them compressed: its forward
// product and weight gradient then visit the non-zeros only, each selecting a row of W (or of Δ),
// summed in registers 128 outputs at a time (on MLP2's 784 x 128 layer and a slice of 128 MNIST-like
// rows, 2.8x and 1.6x faster than SGEMM; 1.2x and 1.4x on MLP1's 784 x 1000).
//
// A layer's weights W (in × out) are stored row-major at `w`: row k holds input k's weights, so a
// non-zero input selects one contiguous row. Each product runs on the calling thread when called
// inside an OpenMP region whose thread count was set to 1 (as training does per lot slice), so
// results are bit-reproducible for a fixed seed and thread count on a given CPU. OpenBLAS picks its
// kernel by CPU model at run time, so two different CPU models may round differently.
#include "dpareto/learn/dataset.hpp"

namespace dpareto::learn {

// Whether a first layer of `out` units takes `data`'s rows compressed: more than one output, and
// at most a quarter of the features non-zero (at MNIST's 19% the compressed kernels are 1.2-2.8x
// faster than SGEMM, above; one output is a matrix-vector product, already cheap).
bool takes_compressed_rows(const Dataset& data, int out);

// z = x · W (rows × out).
void times_weights(const MatrixF& x, const float* w, int in, int out, MatrixF& z);
void times_weights(const SparseRowsF& x, const float* w, int in, int out, MatrixF& z);

// d = Δ · Wᵀ (rows × in): the backward pass through the layer.
void times_weights_transposed(const MatrixF& delta, const float* w, int in, int out, MatrixF& d);

// G = xᵀ · Δ (in × out), written at g as the weights are stored: the weight gradient summed over
// the rows. Compressed inputs come by column (SparseColumnsF x = the lot's SparseRowsF).
void weight_gradient(const MatrixF& x, const MatrixF& delta, int in, int out, float* g);
void weight_gradient(const SparseColumnsF& x, const MatrixF& delta, int in, int out, float* g);

// out = x compressed by column, in out's own storage (no allocation once it is large enough).
void compress_by_column(const SparseRowsF& x, SparseColumnsF& out);

}  // namespace dpareto::learn
