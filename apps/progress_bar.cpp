#include "progress_bar.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cli_options.hpp"
#include "dpareto/core/readable_number.hpp"

namespace dpareto::apps {
namespace {

// DPARETO_LOG_INTERVAL (seconds) overrides how often progress lines are written to a log.
double log_interval(double fallback) {
  const char* text = std::getenv("DPARETO_LOG_INTERVAL");
  if (text == nullptr) return fallback;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  return end != text && *end == '\0' && value >= 0 && value < 1e9 ? value : fallback;
}

}  // namespace

ProgressBar::ProgressBar(std::string label, int total, std::string unit, double log_interval_seconds, int done_before)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      done_before_(done_before),
      terminal_(stderr_is_terminal()),
      log_interval_(log_interval(log_interval_seconds)),
      start_(std::chrono::steady_clock::now()) {}

void ProgressBar::update(int done, const std::string& note) {
  if (total_ <= 0) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const bool paced = done > done_before_;  // something done since the start: a pace to go by
  const double eta = paced ? elapsed * (total_ - done) / (done - done_before_) : 0;
  if (terminal_) {
    const int width = 30, filled = static_cast<int>(static_cast<double>(done) / total_ * width);
    std::fprintf(stderr, "\r%s [%s%s] %d/%d  %.0fs elapsed, ETA %s  %s\033[K", label_.c_str(),
                 std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(), done, total_, elapsed,
                 paced ? (std::to_string(std::lround(eta)) + "s").c_str() : "?", note.c_str());
    std::fflush(stderr);
    return;
  }
  if (done == last_logged_ || (done < total_ && elapsed - last_log_time_ < log_interval_)) return;
  last_logged_ = done;
  last_log_time_ = elapsed;
  std::fprintf(stderr, "%s: %d/%d %s, %s elapsed%s%s%s\n", label_.c_str(), done, total_, unit_.c_str(),
               readable_duration(elapsed).c_str(),
               paced && done < total_ ? (", ETA " + readable_duration(eta)).c_str() : "", note.empty() ? "" : ", ",
               note.c_str());
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (terminal_) std::fprintf(stderr, "\n");
}

ElapsedNotice::ElapsedNotice(std::string label, double log_interval_seconds)
    : label_(std::move(label)), terminal_(stderr_is_terminal()) {
  const auto start = std::chrono::steady_clock::now();
  const auto interval = std::chrono::duration<double>(terminal_ ? 1.0 : log_interval(log_interval_seconds));
  thread_ = std::thread([this, start, interval] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, interval, [this] { return done_; })) {
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, terminal_ ? "\r%s, %s elapsed\033[K" : "%s, %s elapsed\n", label_.c_str(),
                   readable_duration(elapsed).c_str());
      std::fflush(stderr);
    }
  });
}

ElapsedNotice::~ElapsedNotice() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_one();
  thread_.join();
  if (terminal_) std::fprintf(stderr, "\r\033[K");
}

}  // namespace dpareto::apps
