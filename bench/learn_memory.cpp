// Peak resident memory of MLP1 DP-SGD on MNIST with lot 4000 (issue 4 target: < 400 MiB). The
// pixels stay uint8 (47 MB for the training set) and become float32 only one lot at a time.
// Usage: bench_learn_memory [epochs] [threads] [data_dir]
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>

#include "dpareto/learn/dp_optimizer.hpp"
#include "dpareto/learn/loaders.hpp"

using namespace dpareto::learn;

namespace {
double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}
}  // namespace

int main(int argc, char** argv) {
  const int epochs = argc > 1 ? std::atoi(argv[1]) : 1;
  const int threads = argc > 2 ? std::atoi(argv[2]) : static_cast<int>(std::thread::hardware_concurrency());
  const std::string dir = argc > 3 ? argv[3] : "";
  try {
    const Split mnist = load_mnist(resolve_data_dir(dir));
    std::printf("after loading MNIST:            peak RSS %7.1f MiB\n", peak_rss_mib());
    const Network net(mlp1());
    TrainConfig cfg;
    cfg.epochs = epochs;
    cfg.lot_size = 4000;
    cfg.learning_rate = 0.1;
    cfg.noise_multiplier = 1.0;
    cfg.clip_norm = 4.0;
    cfg.threads = threads;
    const auto result = train(net, mnist.train, cfg, 1);
    const double acc = accuracy(net, result.params, mnist.test, threads);
    std::printf("after MLP1 DP-SGD, lot 4000:    peak RSS %7.1f MiB  (%lld steps, %d thread(s), test acc %.4f)\n",
                peak_rss_mib(), result.steps, threads, acc);
  } catch (const std::exception& e) {
    std::printf("skipped: %s\n", e.what());
  }
}
