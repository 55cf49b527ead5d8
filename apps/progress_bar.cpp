#include "progress_bar.hpp"

#include <cstdio>

#include "cli_options.hpp"

namespace dpareto::apps {

ProgressBar::ProgressBar(std::string label, int total)
    : label_(std::move(label)),
      total_(total),
      enabled_(stderr_is_terminal()),
      start_(std::chrono::steady_clock::now()) {}

void ProgressBar::update(int done, const std::string& note) {
  if (!enabled_ || total_ <= 0) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double fraction = static_cast<double>(done) / total_;
  const int width = 30, filled = static_cast<int>(fraction * width);
  const double eta = done > 0 ? elapsed * (total_ - done) / done : 0;
  std::fprintf(stderr, "\r%s [%s%s] %d/%d  %.0fs elapsed, ETA %.0fs  %s\033[K", label_.c_str(),
               std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(), done, total_, elapsed, eta,
               note.c_str());
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (enabled_) std::fprintf(stderr, "\n");
}

}  // namespace dpareto::apps
