#pragma once
// The three matrix products of a dense layer, on OpenBLAS's SGEMM (issue 16: about 20% faster than
// Eigen's own float kernels on these shapes, and 1.6x on MLP2's 784x128 layer). A layer with one
// output (logistic regression, linear SVM) is a matrix-vector product in Eigen instead: SGEMM packs
// its operands at every call, which on a9a's 123 x 1 layer cost more than the product itself.
//
// A layer's weights W (in × out) are stored column-major at `w`, i.e. as the row-major out × in
// matrix Wᵀ. Each product runs on the calling thread when called inside an OpenMP region whose
// thread count was set to 1 (as training does per lot slice), so results are bit-reproducible for a
// fixed seed and thread count on a given CPU. OpenBLAS picks its kernel by CPU model at run time, so
// two different CPU models may round differently.
#include "dpareto/learn/dataset.hpp"

namespace dpareto::learn {

// z = x · W (rows × out).
void times_weights(const MatrixF& x, const float* w, int in, int out, MatrixF& z);

// d = Δ · Wᵀ (rows × in): the backward pass through the layer.
void times_weights_transposed(const MatrixF& delta, const float* w, int in, int out, MatrixF& d);

// G = xᵀ · Δ, written column-major (in × out) at g, as the weights are stored: the weight gradient
// summed over the rows.
void weight_gradient(const MatrixF& x, const MatrixF& delta, int in, int out, float* g);

}  // namespace dpareto::learn
