#pragma once
// A one-line progress bar with ETA on standard error, drawn only when stderr is a terminal.
#include <chrono>
#include <string>

namespace dpareto::apps {

class ProgressBar {
 public:
  ProgressBar(std::string label, int total);
  void update(int done, const std::string& note = "");
  void finish();

 private:
  std::string label_;
  int total_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace dpareto::apps
