#include "dpareto/gp/gaussian_process.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <iostream>
#include <limits>
#include <nlopt.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "dpareto/core/error.hpp"
#include "dpareto/gp/input_warping.hpp"
#include "dpareto/gp/matern52.hpp"

namespace dpareto::gp {

namespace {

constexpr double kLog2Pi = 1.8378770664093454836;
// L-BFGS budget per start: the likelihood surface is smooth and low-dimensional, and more
// evaluations rarely move the optimum by more than the tolerance below.
constexpr int kMaxEvaluationsPerStart = 150;
constexpr double kRelativeTolerance = 1e-6;

std::string format(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

void report(const GpOptions& options, const std::string& line) {
  if (options.log)
    options.log(line);
  else
    std::cerr << line << '\n';
}

// Hyperparameters decoded from θ = (log ℓ_1..d, log s², log σ_n²[, log a_1..d, log b_1..d]).
struct Hyper {
  Eigen::ArrayXd lengthscales;
  double signal;
  double noise;
  bool noise_is_free;                   // σ_n² is learned and above its floor, so ∂K/∂log σ_n² = σ_n² I
  std::optional<KumaraswamyWarp> warp;  // with input warping
};

Hyper decode(const Eigen::VectorXd& theta, const GpOptions& options, Eigen::Index d) {
  Hyper h{theta.head(d).array().exp(), std::exp(theta(d)), options.nugget, false, std::nullopt};
  if (options.learn_noise) {
    const double noise = std::exp(theta(d + 1));
    h.noise_is_free = noise >= options.nugget;
    h.noise = std::max(noise, options.nugget);
  }
  if (options.input_warping)
    h.warp = KumaraswamyWarp{theta.segment(d + 2, d).array().exp(), theta.tail(d).array().exp()};
  return h;
}

// The kernel's view of inputs X: X itself, or X warped.
Eigen::MatrixXd kernel_inputs(const Eigen::MatrixXd& X, const Hyper& h) {
  return h.warp ? h.warp->apply(X) : X;
}

// The input pairs a > b in column-major lower-triangle order (column b holds a = b+1..n−1, so a
// column of a lower triangle is a contiguous segment) with their squared coordinate differences,
// one column per dimension: without input warping, the part of the likelihood that does not depend
// on θ. With it, the pairs of the warped inputs, and per pair and dimension Δ·∂Δ/∂log a and
// Δ·∂Δ/∂log b (Δ the warped difference), which the warp parameters' gradient needs.
struct Pairs {
  Eigen::Index n;
  Eigen::MatrixXd squared_differences;                     // n(n−1)/2 × d
  Eigen::MatrixXd difference_d_log_a, difference_d_log_b;  // with warping only

  explicit Pairs(const Eigen::MatrixXd& X) : n(X.rows()), squared_differences(n * (n - 1) / 2, X.cols()) {
    for_each_column(X.cols(), [&](Eigen::Index j, Eigen::Index b, Eigen::Index offset, Eigen::Index len) {
      squared_differences.col(j).segment(offset, len) = (X.col(j).tail(len).array() - X(b, j)).square().matrix();
    });
  }

  Pairs(const Eigen::MatrixXd& X, const KumaraswamyWarp& warp, bool with_derivatives)
      : n(X.rows()), squared_differences(n * (n - 1) / 2, X.cols()) {
    Eigen::MatrixXd W, Wa, Wb;
    warp.apply_with_derivatives(X, W, Wa, Wb);
    if (with_derivatives) {
      difference_d_log_a.resize(squared_differences.rows(), X.cols());
      difference_d_log_b.resize(squared_differences.rows(), X.cols());
    }
    for_each_column(X.cols(), [&](Eigen::Index j, Eigen::Index b, Eigen::Index offset, Eigen::Index len) {
      const Eigen::ArrayXd delta = W.col(j).tail(len).array() - W(b, j);
      squared_differences.col(j).segment(offset, len) = delta.square().matrix();
      if (!with_derivatives) return;
      difference_d_log_a.col(j).segment(offset, len) = (delta * (Wa.col(j).tail(len).array() - Wa(b, j))).matrix();
      difference_d_log_b.col(j).segment(offset, len) = (delta * (Wb.col(j).tail(len).array() - Wb(b, j))).matrix();
    });
  }

 private:
  // body(dimension j, column b of the lower triangle, its offset among the pairs, its length).
  template <typename Body>
  void for_each_column(Eigen::Index d, Body body) const {
    Eigen::Index offset = 0;
    for (Eigen::Index b = 0; b < n; ++b) {
      const Eigen::Index len = n - 1 - b;
      for (Eigen::Index j = 0; j < d; ++j) body(j, b, offset, len);
      offset += len;
    }
  }
};

// Buffers reused across likelihood evaluations of one optimization run.
struct Workspace {
  Eigen::ArrayXd r2, r, e, kf, g, w;  // per pair
  Eigen::MatrixXd K, Kinv;
  Eigen::LLT<Eigen::MatrixXd> llt;
  Eigen::VectorXd alpha;
};

// Cholesky of the lower triangle of K; on failure adds jitter 1e-8·mean(diag K)·10^k,
// k = 0..max_jitter_retries−1, reporting each retry when `report_retries`. Returns the number of
// retries used; throws NumericalError if none succeeds.
int robust_cholesky(const Eigen::MatrixXd& K, Eigen::LLT<Eigen::MatrixXd>& llt, const GpOptions& options,
                    bool report_retries) {
  llt.compute(K);
  if (llt.info() == Eigen::Success) return 0;
  const Eigen::Index n = K.rows();
  const std::string size = std::to_string(n) + "x" + std::to_string(n);
  double jitter = 1e-8 * K.diagonal().mean();
  for (int k = 0; k < options.max_jitter_retries; ++k, jitter *= 10) {
    if (report_retries)
      report(options, "gp: " + size + " covariance not positive definite; retrying Cholesky with jitter " +
                          format(jitter) + " (retry " + std::to_string(k + 1) + " of " +
                          std::to_string(options.max_jitter_retries) + ")");
    Eigen::MatrixXd jittered = K;
    jittered.diagonal().array() += jitter;
    llt.compute(jittered);
    if (llt.info() == Eigen::Success) return k + 1;
  }
  throw NumericalError("gp: Cholesky of the " + size + " covariance failed even with jitter " + format(jitter / 10) +
                       " on the diagonal (" + std::to_string(options.max_jitter_retries) +
                       " retries); duplicate inputs with a tiny noise variance?");
}

// Below this size the recursive triangular routines use Eigen's dense kernels directly.
constexpr Eigen::Index kRecursionBase = 32;

// L ← L⁻¹ for lower-triangular L, in place, by halving: [[A, 0], [B, C]]⁻¹ =
// [[A⁻¹, 0], [−C⁻¹ B A⁻¹, C⁻¹]] (n³/3 flops, as LAPACK trtri; a triangular solve against the
// identity would spend n³). Only the lower triangle is read and written.
void invert_lower(Eigen::Ref<Eigen::MatrixXd> L) {
  const Eigen::Index n = L.rows();
  if (n <= kRecursionBase) {
    Eigen::MatrixXd inverse = Eigen::MatrixXd::Identity(n, n);
    L.triangularView<Eigen::Lower>().solveInPlace(inverse);
    L.triangularView<Eigen::Lower>() = inverse;
    return;
  }
  const Eigen::Index h = n / 2;
  invert_lower(L.topLeftCorner(h, h));
  invert_lower(L.bottomRightCorner(n - h, n - h));
  auto B = L.bottomLeftCorner(n - h, h);
  B = -(L.bottomRightCorner(n - h, n - h).triangularView<Eigen::Lower>() *
        (B * L.topLeftCorner(h, h).triangularView<Eigen::Lower>()));
}

// M ← MᵀM for lower-triangular M, lower triangle of the result in place (as LAPACK lauum):
// [[P, 0], [Q, R]]ᵀ[[P, 0], [Q, R]] = [[PᵀP + QᵀQ, ·], [RᵀQ, RᵀR]].
void lower_gram(Eigen::Ref<Eigen::MatrixXd> M) {
  const Eigen::Index n = M.rows();
  if (n <= kRecursionBase) {
    const Eigen::MatrixXd lower = M.triangularView<Eigen::Lower>();
    M.triangularView<Eigen::Lower>() = lower.transpose() * lower;
    return;
  }
  const Eigen::Index h = n / 2;
  auto P = M.topLeftCorner(h, h);
  auto Q = M.bottomLeftCorner(n - h, h);
  auto R = M.bottomRightCorner(n - h, n - h);
  lower_gram(P);
  P.selfadjointView<Eigen::Lower>().rankUpdate(Q.transpose());
  Q = R.triangularView<Eigen::Lower>().transpose() * Q;
  lower_gram(R);
}

// Log marginal likelihood of standardized targets z and, if requested, its gradient
// ½ tr((ααᵀ − K⁻¹) ∂K/∂θ) (Rasmussen & Williams eq. 5.9). K⁻¹ is formed once from the Cholesky
// factor; each ∂K/∂θ_j is contracted over the pairs in O(n²) without building it:
// ∂k/∂log ℓ_j = (5/3) s² (1 + √5 r) exp(−√5 r) Δ_j²/ℓ_j², ∂K/∂log s² = Kf, ∂K/∂log σ_n² = σ_n² I,
// and with input warping ∂k/∂log a_j = −(5/3) s² (1 + √5 r) exp(−√5 r) Δ_j ∂Δ_j/∂log a_j / ℓ_j²
// (likewise b_j), from ∂k/∂r² = −(5/6) s² (1 + √5 r) exp(−√5 r).
// `fixed_pairs`: the pairs of X when they do not depend on θ (no warping).
double log_likelihood(const Eigen::MatrixXd& X, const Pairs* fixed_pairs, const Eigen::VectorXd& z,
                      const Eigen::VectorXd& theta, Eigen::VectorXd* gradient, const GpOptions& options,
                      bool report_retries, int* retries, Workspace& ws) {
  const Eigen::Index n = X.rows(), d = X.cols();
  const Hyper h = decode(theta, options, d);
  std::optional<Pairs> warped_pairs;
  if (h.warp) warped_pairs.emplace(X, *h.warp, gradient != nullptr);
  const Pairs& pairs = h.warp ? *warped_pairs : *fixed_pairs;
  const Eigen::VectorXd inv_l2 = h.lengthscales.square().inverse().matrix();
  ws.r2 = (pairs.squared_differences * inv_l2).array();
  ws.r = ws.r2.sqrt();
  ws.e = h.signal * (-kSqrt5 * ws.r).exp();
  ws.kf = (1 + kSqrt5 * ws.r + 5.0 / 3.0 * ws.r2) * ws.e;
  ws.K.resize(n, n);
  for (Eigen::Index b = 0, offset = 0; b < n; offset += n - 1 - b, ++b) {
    ws.K(b, b) = h.signal + h.noise;
    ws.K.col(b).tail(n - 1 - b) = ws.kf.segment(offset, n - 1 - b).matrix();
  }
  const int used = robust_cholesky(ws.K, ws.llt, options, report_retries);
  if (retries) *retries += used;
  ws.alpha = ws.llt.solve(z);
  const double value = -0.5 * z.dot(ws.alpha) - ws.llt.matrixLLT().diagonal().array().log().sum() -
                       0.5 * static_cast<double>(n) * kLog2Pi;
  if (!gradient) return value;

  ws.Kinv = ws.llt.matrixLLT();  // lower triangle: L
  invert_lower(ws.Kinv);
  lower_gram(ws.Kinv);  // lower triangle: K⁻¹ = L⁻ᵀL⁻¹
  // W = ααᵀ − K⁻¹ on the pairs (each stands for (a,b) and (b,a)) and on the diagonal.
  ws.w.resize(ws.r.size());
  double trace_w = 0;
  for (Eigen::Index b = 0, offset = 0; b < n; offset += n - 1 - b, ++b) {
    trace_w += ws.alpha(b) * ws.alpha(b) - ws.Kinv(b, b);
    ws.w.segment(offset, n - 1 - b) =
        2 * (ws.alpha(b) * ws.alpha.tail(n - 1 - b) - ws.Kinv.col(b).tail(n - 1 - b)).array();
  }
  ws.g = 5.0 / 3.0 * (1 + kSqrt5 * ws.r) * ws.e * ws.w;
  gradient->resize(theta.size());
  gradient->head(d) = 0.5 * (pairs.squared_differences.transpose() * ws.g.matrix()).cwiseProduct(inv_l2);
  (*gradient)(d) = 0.5 * ((ws.w * ws.kf).sum() + h.signal * trace_w);
  (*gradient)(d + 1) = h.noise_is_free ? 0.5 * h.noise * trace_w : 0.0;
  if (h.warp) {
    gradient->segment(d + 2, d) = -0.5 * (pairs.difference_d_log_a.transpose() * ws.g.matrix()).cwiseProduct(inv_l2);
    gradient->tail(d) = -0.5 * (pairs.difference_d_log_b.transpose() * ws.g.matrix()).cwiseProduct(inv_l2);
  }
  return value;
}

// The entries of θ that a fit optimizes, in order: all but log σ_n² when the noise is not learned.
std::vector<Eigen::Index> optimized_entries(Eigen::Index theta_size, Eigen::Index d, const GpOptions& options) {
  std::vector<Eigen::Index> entries;
  for (Eigen::Index i = 0; i < theta_size; ++i)
    if (i != d + 1 || options.learn_noise) entries.push_back(i);
  return entries;
}

// One L-BFGS run; keeps the best point evaluated whatever NLopt's return status.
struct StartRun {
  const Eigen::MatrixXd& X;
  const Pairs* fixed_pairs;
  const Eigen::VectorXd& z;
  const GpOptions& options;
  const std::vector<Eigen::Index>& entries;  // θ's entry of each optimized coordinate
  Eigen::Index theta_size;
  Eigen::VectorXd best_theta;
  double best_value = -std::numeric_limits<double>::infinity();
  int retries = 0;
  Workspace workspace;

  Eigen::VectorXd full_theta(const std::vector<double>& x) const {
    Eigen::VectorXd theta(theta_size);
    theta(X.cols() + 1) = std::log(options.nugget);  // overwritten where the noise is learned
    for (std::size_t k = 0; k < x.size(); ++k) theta(entries[k]) = x[k];
    return theta;
  }

  static double objective(const std::vector<double>& x, std::vector<double>& grad, void* data) {
    auto* run = static_cast<StartRun*>(data);
    const Eigen::VectorXd theta = run->full_theta(x);
    Eigen::VectorXd g;
    double value;
    try {
      value = log_likelihood(run->X, run->fixed_pairs, run->z, theta, grad.empty() ? nullptr : &g, run->options, false,
                             &run->retries, run->workspace);
    } catch (const NumericalError&) {
      std::fill(grad.begin(), grad.end(), 0.0);
      return -1e300;  // not positive definite even with jitter: an infeasible point
    }
    if (!std::isfinite(value)) {
      std::fill(grad.begin(), grad.end(), 0.0);
      return -1e300;
    }
    for (std::size_t k = 0; k < grad.size(); ++k) grad[k] = g(run->entries[k]);
    if (value > run->best_value) {
      run->best_value = value;
      run->best_theta = theta;
    }
    return value;
  }

  void run(std::vector<double> x, const std::vector<double>& low, const std::vector<double>& high) {
    nlopt::opt opt(nlopt::LD_LBFGS, static_cast<unsigned>(x.size()));
    opt.set_lower_bounds(low);
    opt.set_upper_bounds(high);
    opt.set_max_objective(&StartRun::objective, this);
    opt.set_maxeval(kMaxEvaluationsPerStart);
    opt.set_ftol_rel(kRelativeTolerance);
    opt.set_xtol_rel(kRelativeTolerance);
    double value = 0;
    try {
      opt.optimize(x, value);
    } catch (const std::exception&) {
      // Round-off or line-search failures: the best point seen so far stands.
    }
  }
};

// Output standardization: z = (y − mean)/scale, scale = the (population) standard deviation, or 1
// for constant targets rather than dividing by ~0.
struct Standardization {
  double mean, scale;
};

Standardization standardization(const Eigen::VectorXd& y) {
  const double mean = y.mean();
  const double sd = std::sqrt((y.array() - mean).square().mean());
  return {mean, sd > 1e-12 * std::max(1.0, std::abs(mean)) ? sd : 1.0};
}

void check_options(const GpOptions& o) {
  if (!(o.nugget > 0)) throw InputError("GpOptions.nugget must be > 0, got " + format(o.nugget));
  if (!(o.log_lengthscale_low < o.log_lengthscale_high))
    throw InputError("GpOptions: log_lengthscale_low must be < log_lengthscale_high");
  if (!(o.log_signal_low < o.log_signal_high)) throw InputError("GpOptions: log_signal_low must be < log_signal_high");
  if (o.learn_noise && !(std::max(o.log_noise_low, std::log(o.nugget)) < o.log_noise_high))
    throw InputError("GpOptions: log_noise_high must exceed max(log_noise_low, log nugget)");
  if (o.random_restarts < 0) throw InputError("GpOptions.random_restarts must be >= 0");
  if (o.max_jitter_retries < 0) throw InputError("GpOptions.max_jitter_retries must be >= 0");
}

void check_data(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, const char* who) {
  const std::string w(who);
  if (X.rows() == 0 || X.cols() == 0) throw InputError(w + ": needs at least one input of dimension >= 1");
  if (X.rows() != y.size())
    throw InputError(w + ": " + std::to_string(X.rows()) + " inputs but " + std::to_string(y.size()) + " targets");
  if (!X.allFinite()) throw InputError(w + ": inputs contain a non-finite value");
  if (!y.allFinite()) throw InputError(w + ": targets contain a non-finite value");
}

}  // namespace

GaussianProcess::GaussianProcess(GpOptions options) : options_(std::move(options)) {
  check_options(options_);
}

bool GaussianProcess::fitted() const {
  return factorized_;
}

void GaussianProcess::set_theta(const Eigen::VectorXd& theta) {
  if (theta.size() < theta_size(1) || (options_.input_warping && (theta.size() - 2) % 3 != 0))
    throw InputError("GaussianProcess::set_theta: theta has " + std::to_string(theta.size()) + " entries, expected " +
                     (options_.input_warping ? "3d + 2 >= 5 (input warping)" : "d + 2 >= 3"));
  if (X_.cols() > 0 && theta.size() != theta_size(X_.cols()))
    throw InputError("GaussianProcess::set_theta: theta has " + std::to_string(theta.size()) +
                     " entries, the data need " + std::to_string(theta_size(X_.cols())));
  if (!theta.allFinite()) throw InputError("GaussianProcess::set_theta: theta has a non-finite entry");
  theta_ = theta;
  if (!options_.learn_noise) theta_(noise_index()) = std::log(options_.nugget);
  if (X_.rows() > 0) factorize();
}

void GaussianProcess::condition(const Eigen::MatrixXd& X, const Eigen::VectorXd& y) {
  check_data(X, y, "GaussianProcess::condition");
  if (theta_.size() != theta_size(X.cols()))
    throw InputError("GaussianProcess::condition: no hyperparameters for " + std::to_string(X.cols()) +
                     "-dimensional inputs (fit or set_theta first)");
  X_ = X;
  y_ = y;
  factorize();
}

void GaussianProcess::factorize() {
  factorized_ = false;
  const Standardization st = standardization(y_);
  y_mean_ = st.mean;
  y_scale_ = st.scale;
  const Eigen::VectorXd z = (y_.array() - y_mean_) / y_scale_;
  const Hyper h = decode(theta_, options_, X_.cols());
  kernel_X_ = kernel_inputs(X_, h);
  Eigen::MatrixXd K = Matern52{h.lengthscales.matrix(), h.signal}.matrix(kernel_X_, kernel_X_);
  K.diagonal().array() += h.noise;
  robust_cholesky(K, chol_, options_, true);
  alpha_ = chol_.solve(z);
  factorized_ = true;
}

void GaussianProcess::fit(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, Rng& rng) {
  check_data(X, y, "GaussianProcess::fit");
  const Eigen::Index d = X.cols();
  X_ = X;
  y_ = y;
  factorized_ = false;
  const Standardization st = standardization(y_);
  const Eigen::VectorXd z = (y_.array() - st.mean) / st.scale;

  // Box bounds of the optimized coordinates (θ's entries but log σ_n² when it is not learned); the
  // noise floor is the nugget.
  const Eigen::Index size = theta_size(d);
  const std::vector<Eigen::Index> entries = optimized_entries(size, d, options_);
  const std::size_t p = entries.size();
  std::vector<double> low(p), high(p), initial(p);
  for (std::size_t k = 0; k < p; ++k) {
    const Eigen::Index i = entries[k];
    if (i < d) {
      low[k] = options_.log_lengthscale_low, high[k] = options_.log_lengthscale_high, initial[k] = std::log(0.5);
    } else if (i == d) {
      low[k] = options_.log_signal_low, high[k] = options_.log_signal_high, initial[k] = 0.0;
    } else if (i == d + 1) {
      low[k] = std::max(options_.log_noise_low, std::log(options_.nugget)), high[k] = options_.log_noise_high;
      initial[k] = std::log(1e-2);
    } else {
      low[k] = options_.log_warp_low, high[k] = options_.log_warp_high, initial[k] = 0.0;  // a = b = 1: no warp
    }
  }

  // Starts: the previous θ when the dimension matches (else ℓ = 0.5, s² = 1, σ_n² = 0.01, no warp),
  // then uniform random points of the box. All drawn here, so the run is reproducible.
  std::vector<std::vector<double>> starts;
  std::vector<double> warm(p);
  for (std::size_t k = 0; k < p; ++k)
    warm[k] = std::clamp(theta_.size() == size ? theta_(entries[k]) : initial[k], low[k], high[k]);
  starts.push_back(warm);
  for (int r = 0; r < options_.random_restarts; ++r) {
    std::vector<double> s(p);
    for (std::size_t i = 0; i < p; ++i) s[i] = std::uniform_real_distribution<double>(low[i], high[i])(rng);
    starts.push_back(s);
  }

  // Independent starts run in parallel; the best (first on ties) wins.
  std::optional<Pairs> fixed_pairs;
  if (!options_.input_warping) fixed_pairs.emplace(X_);
  std::vector<StartRun> runs;
  runs.reserve(starts.size());
  for (std::size_t s = 0; s < starts.size(); ++s)
    runs.push_back(StartRun{X_,
                            fixed_pairs ? &*fixed_pairs : nullptr,
                            z,
                            options_,
                            entries,
                            size,
                            {},
                            -std::numeric_limits<double>::infinity(),
                            0,
                            {}});
#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t s = 0; s < starts.size(); ++s) runs[s].run(starts[s], low, high);

  const StartRun* best = nullptr;
  int retries = 0;
  for (const StartRun& run : runs) {
    retries += run.retries;
    if (run.best_value > -1e300 && (!best || run.best_value > best->best_value)) best = &run;
  }
  if (!best)
    throw NumericalError("GaussianProcess::fit: the log marginal likelihood could not be evaluated at any of " +
                         std::to_string(starts.size()) + " starts (covariance never positive definite)");
  if (retries > 0)
    report(options_,
           "gp: fit needed " + std::to_string(retries) + " Cholesky jitter retries during hyperparameter optimization");
  theta_ = best->best_theta;
  factorize();
}

double GaussianProcess::log_marginal_likelihood(const Eigen::VectorXd& theta, Eigen::VectorXd* gradient) const {
  if (X_.rows() == 0) throw InputError("GaussianProcess::log_marginal_likelihood: no data (fit or condition first)");
  if (theta.size() != theta_size(X_.cols()))
    throw InputError("GaussianProcess::log_marginal_likelihood: theta has " + std::to_string(theta.size()) +
                     " entries, the data need " + std::to_string(theta_size(X_.cols())));
  const Standardization st = standardization(y_);
  const Eigen::VectorXd z = (y_.array() - st.mean) / st.scale;
  Workspace workspace;
  std::optional<Pairs> fixed_pairs;
  if (!options_.input_warping) fixed_pairs.emplace(X_);
  return log_likelihood(X_, fixed_pairs ? &*fixed_pairs : nullptr, z, theta, gradient, options_, true, nullptr,
                        workspace);
}

Prediction GaussianProcess::predict(const Eigen::VectorXd& x) const {
  Eigen::MatrixXd V = cross_covariance(x.transpose());
  const double mean = mean_from_cross(V)(0);
  return {mean, variance_from_cross(std::move(V))(0)};
}

Eigen::VectorXd GaussianProcess::predict_mean_batch(const Eigen::MatrixXd& X) const {
  return mean_from_cross(cross_covariance(X));
}

void GaussianProcess::predict_batch(const Eigen::MatrixXd& X, Eigen::VectorXd& mean, Eigen::VectorXd& variance) const {
  Eigen::MatrixXd V = cross_covariance(X);
  mean = mean_from_cross(V);
  variance = variance_from_cross(std::move(V));
}

Eigen::MatrixXd GaussianProcess::cross_covariance(const Eigen::MatrixXd& X) const {
  if (!factorized_) throw InputError("GaussianProcess::predict: the GP has no data (fit or condition first)");
  if (X.cols() != X_.cols())
    throw InputError("GaussianProcess::predict: inputs have " + std::to_string(X.cols()) +
                     " dimensions, the GP was fitted on " + std::to_string(X_.cols()));
  const Hyper h = decode(theta_, options_, X_.cols());
  return Matern52{h.lengthscales.matrix(), h.signal}.matrix(kernel_X_, kernel_inputs(X, h));
}

Eigen::VectorXd GaussianProcess::mean_from_cross(const Eigen::MatrixXd& V) const {
  return (V.transpose() * alpha_).array() * y_scale_ + y_mean_;
}

Eigen::VectorXd GaussianProcess::variance_from_cross(Eigen::MatrixXd V) const {
  chol_.matrixL().solveInPlace(V);  // one triangular solve for the whole batch
  const double signal_variance = std::exp(theta_(X_.cols()));
  return ((signal_variance - V.colwise().squaredNorm().array()).max(0.0) * y_scale_ * y_scale_).matrix();
}

}  // namespace dpareto::gp
