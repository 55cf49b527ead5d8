#pragma once
// Feed-forward classifiers as one family: dense layers with ReLU between them and a loss head.
// Logistic regression and the linear SVM are the zero-hidden-layer cases; MLP1 (784-1000-10) and
// MLP2 (784-128-64-10) are DPareto Sec. 4.1's MNIST models. float32 throughout.
//
// Per-example clipping never forms a per-example gradient (DESIGN.md §3.4): for a dense layer
// Y = AW + b the gradient of example i is a_i δ_iᵀ (and δ_i), so its squared norm is
// (‖a_i‖² + 1)‖δ_i‖²; summed over layers this is ‖∇ℓ_i‖². The clipped sum of layer l is then
// Aᵀ diag(c) Δ, one matrix product, with c_i = min(1, L/‖∇ℓ_i‖). The norms are summed in double
// (a float32 square of a large but finite value overflows), and an example whose norm is not finite
// (an overflowing activation, a NaN loss derivative) contributes exactly zero: every example's
// contribution is bounded by L whatever its values, as the DP-SGD sensitivity requires.
#include <Eigen/Core>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "dpareto/core/random.hpp"
#include "dpareto/learn/dataset.hpp"

namespace dpareto::learn {

// logistic: log(1 + e^{-s z}); hinge: max(0, 1 - s z) (s = ±1 for classes 1/0, one output z);
// softmax_cross_entropy: -log softmax(z)_y over `outputs` classes.
enum class Loss { logistic, hinge, softmax_cross_entropy };

struct Architecture {
  std::string name;
  int inputs = 0;
  std::vector<int> hidden;  // ReLU layer widths
  int outputs = 1;          // 1 for the binary losses
  Loss loss = Loss::logistic;
};

Architecture logistic_regression(int inputs);
Architecture linear_svm(int inputs);
Architecture mlp1();  // 784-1000-10
Architecture mlp2();  // 784-128-64-10

// Scratch matrices of one forward/backward pass, reused across steps (one per thread).
struct Workspace {
  std::vector<MatrixF> activations;   // post-ReLU outputs of the hidden layers, then the logits
  std::vector<MatrixF> deltas;        // ∂ℓ_i/∂(pre-activation) per layer, rows = examples
  Eigen::ArrayXf scale;               // per-example clipping factor min(1, L/‖∇ℓ_i‖)
  std::vector<Eigen::Index> dropped;  // examples whose gradient norm was not finite (contribute 0)
  MatrixF input;                      // the input with the dropped examples' rows zeroed
  SparseRowsF sparse_input;           // the same for compressed inputs
  SparseColumnsF input_by_column;     // a compressed input by column, for its weight gradient
};

class Network {
 public:
  explicit Network(Architecture architecture);

  const Architecture& architecture() const { return arch_; }
  std::size_t num_parameters() const { return size_; }
  int num_layers() const { return static_cast<int>(offsets_.size()); }
  int first_layer_outputs() const { return offsets_.front().out; }

  // InputError unless every example of `data` has architecture().inputs features. Called before
  // any OpenMP region that runs the network: no exception may cross such a region (it would end
  // the process with std::terminate).
  void check_inputs(const Dataset& data) const;

  // Parameters whose layers hold W out-major (Wᵀ row-major: DPMODEL1 model files) in this
  // network's layout, W row-major (dense_products.hpp). Linear models are the same in both.
  Eigen::VectorXf from_out_major_weights(const Eigen::VectorXf& params) const;

  // Linear models start at w = 0 (DPareto Alg. 3-4); MLP weights are He-uniform (zero would never
  // break the symmetry of the hidden units), biases 0.
  Eigen::VectorXf initial_parameters(Rng& rng) const;

  // Sum over the rows of x of the per-example gradients, each clipped to L2 norm `clip` (+inf: no
  // clipping, and the norms are not computed), written to grad[0, num_parameters()). With a finite
  // clip, an example whose gradient norm is not finite contributes zero (listed in ws.dropped).
  // Afterwards ws.norms_sq holds the unclipped squared norms when clip is finite. `x_norms_sq`,
  // when given, are the squared norms of the rows of x (Dataset::gather keeps them). The loss is
  // not computed: training never branches on a noise-free quantity of the private data.
  void clipped_gradient_sum(const Eigen::VectorXf& params, const MatrixF& x, std::span<const int> labels, float clip,
                            Workspace& ws, float* grad, const Eigen::VectorXd* x_norms_sq = nullptr) const;
  // The same for compressed rows (a lot gathered where takes_compressed_rows, dense_products.hpp).
  void clipped_gradient_sum(const Eigen::VectorXf& params, const SparseRowsF& x, std::span<const int> labels,
                            float clip, Workspace& ws, float* grad, const Eigen::VectorXd* x_norms_sq = nullptr) const;

  // Mean loss over the rows (for finite-difference checks and monitoring).
  double mean_loss(const Eigen::VectorXf& params, const MatrixF& x, std::span<const int> labels, Workspace& ws) const;
  // The network's outputs (logits) for rows [begin, end) of `data` (check_inputs(data) first), one
  // row each: one column for the binary losses, one per class for softmax. The rows are read in
  // place where the storage allows (Dataset::times_weights_range; ws.input or ws.sparse_input is
  // the scratch otherwise). The reference stays valid until `ws` is used again.
  const MatrixF& logits_of_rows(const Eigen::VectorXf& params, const Dataset& data, int begin, int end,
                                Workspace& ws) const;
  // The predicted class of row i of logits_of_rows(): 1 iff z > 0 (binary), else the first argmax.
  int predicted_class(const MatrixF& logits, Eigen::Index i) const;

 private:
  struct Offset {
    std::size_t weights, bias;
    int in, out;
  };
  template <class Input>
  const MatrixF& forward(const Eigen::VectorXf& params, const Input& x, Workspace& ws) const;
  template <class Input>
  void clipped_gradient_sum_of(const Eigen::VectorXf& params, const Input& x, std::span<const int> labels, float clip,
                               Workspace& ws, float* grad, const Eigen::VectorXd* x_norms_sq) const;
  // The forward pass from the first layer's product, which ws.activations[0] holds: its bias and
  // ReLU, then the further layers.
  const MatrixF& forward_from_first_product(const Eigen::VectorXf& params, Workspace& ws) const;
  // Fills delta with ∂ℓ_i/∂z_i; returns the summed loss when `with_loss`, else 0.
  double loss_head(const MatrixF& logits, std::span<const int> labels, MatrixF& delta, bool with_loss = true) const;

  Architecture arch_;
  std::vector<Offset> offsets_;
  std::size_t size_ = 0;

  friend std::vector<double> accuracies(const Network& net, std::span<const Eigen::VectorXf> params,
                                        const Dataset& data, int threads);
};

// Test accuracy in [0, 1], evaluated in chunks of rows over `threads` threads.
double accuracy(const Network& net, const Eigen::VectorXf& params, const Dataset& data, int threads);

// accuracy() of each parameter vector. A network without hidden layers scores them all in one pass
// over the rows, its layer's weights side by side in one product (each of a9a's 14 non-zeros a row
// then selects a row of all of them at once: bench_epoch_scoring scores a 64-epoch training's 63
// intermediate vectors of a9a's logistic regression 4-6x faster than 63 passes); a deeper network
// scores them one after another. InputError unless each vector has num_parameters() values.
std::vector<double> accuracies(const Network& net, std::span<const Eigen::VectorXf> params, const Dataset& data,
                               int threads);

}  // namespace dpareto::learn
