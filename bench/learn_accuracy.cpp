// Test accuracy of the learners against the issue-4 targets: non-private logistic regression on
// a9a >= 84%; MLP2 on MNIST >= 97% within 5 epochs; DP-SGD logistic regression on a9a at ε <= 1
// (δ = 1e-5) >= 80%; MLP2 DP-SGD on MNIST at ε <= 2 >= 90%. For the private rows σ is the smallest
// noise multiplier meeting the ε target (privacy::calibrate_sigma, fixed-size lots).
// Usage: bench_learn_accuracy [threads] [data_dir]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <string>
#include <thread>

#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/learn/loaders.hpp"
#include "dpareto/privacy/calibration.hpp"

using namespace dpareto::learn;

namespace {

void run(const char* what, const Network& net, const Split& data, TrainConfig cfg, double target_epsilon) {
  const double delta = 1e-5;
  if (target_epsilon > 0) {
    const double q = static_cast<double>(cfg.lot_size) / data.train.size();
    cfg.noise_multiplier = dpareto::privacy::calibrate_sigma(cfg.sampling, q, training_steps(cfg, data.train.size()),
                                                             target_epsilon, delta);
  }
  const double eps = training_epsilon(cfg, data.train.size(), delta).epsilon;
  const auto start = std::chrono::steady_clock::now();
  const auto result = train(net, data.train, cfg, 2024);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double acc = result.diverged ? 0.0 : accuracy(net, result.params, data.test, cfg.threads);
  std::printf("%-34s %-4s %-7s epochs=%-3d lot=%-5d lr=%-6g sigma=%-7.4g L=%-4g eps=%-8.4g test acc=%.4f  (%.1f s)\n",
              what, cfg.optimizer == Optimizer::adam ? "adam" : "sgd", dpareto::privacy::to_string(cfg.sampling),
              cfg.epochs, cfg.lot_size, cfg.learning_rate, cfg.noise_multiplier, cfg.clip_norm, eps, acc, seconds);
}

TrainConfig make(Optimizer opt, int epochs, int lot, double lr, double clip, int threads,
                 dpareto::privacy::Sampling sampling = dpareto::privacy::Sampling::fixed_size) {
  TrainConfig c;
  c.sampling = sampling;
  c.optimizer = opt;
  c.epochs = epochs;
  c.lot_size = lot;
  c.learning_rate = lr;
  c.clip_norm = clip;
  c.threads = threads;
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : static_cast<int>(std::thread::hardware_concurrency());
  const std::string dir = argc > 2 ? argv[2] : "";
  const double inf = std::numeric_limits<double>::infinity();
  try {
    const auto root = resolve_data_dir(dir);
    const Split adult = load_adult(root);
    const Network logreg(logistic_regression(123));
    std::printf("a9a: majority-class test accuracy %.4f\n", adult.test.label_fraction(0));
    run("a9a logreg, non-private (>= 0.84)", logreg, adult, make(Optimizer::sgd, 10, 64, 0.5, inf, threads), 0);
    run("a9a logreg, non-private (>= 0.84)", logreg, adult, make(Optimizer::adam, 10, 64, 0.01, inf, threads), 0);
    run("a9a logreg, DP eps<=1 (>= 0.80)", logreg, adult, make(Optimizer::sgd, 16, 256, 0.05, 4.0, threads), 1.0);
    run("a9a logreg, DP eps<=1 (>= 0.80)", logreg, adult, make(Optimizer::adam, 4, 256, 0.01, 1.0, threads), 1.0);
    const Split mnist = load_mnist(root);
    const Network m2(mlp2());
    run("mnist mlp2, non-private (>= 0.97)", m2, mnist, make(Optimizer::sgd, 5, 32, 0.1, inf, threads), 0);
    run("mnist mlp2, DP eps<=2 (>= 0.90)", m2, mnist, make(Optimizer::sgd, 15, 1000, 0.5, 1.0, threads), 2.0);
    run("mnist mlp2, DP eps<=2 (>= 0.90)", m2, mnist,
        make(Optimizer::sgd, 15, 1000, 0.5, 1.0, threads, dpareto::privacy::Sampling::poisson), 2.0);
  } catch (const std::exception& e) {
    std::printf("skipped: %s\n", e.what());
  }
}
