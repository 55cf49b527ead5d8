#pragma once
// Progress of long work on standard error: on a terminal a one-line bar with ETA, redrawn in place;
// otherwise (a log file, a pipe, a batch job) one plain line per step, at most one every
// `log_interval_seconds` besides the last (the environment's DPARETO_LOG_INTERVAL, in seconds,
// overrides it: 0 logs every step).
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace dpareto::apps {

class ProgressBar {
 public:
  // `unit` names what is counted in log lines ("evaluations"); `done_before` is what was done when
  // the bar starts (a resumed study's evaluations): the ETA comes from the pace since, and is
  // unknown until something more is done.
  ProgressBar(std::string label, int total, std::string unit, double log_interval_seconds = 0, int done_before = 0);
  void update(int done, const std::string& note = "");
  void finish();

 private:
  std::string label_, unit_;
  int total_, done_before_;
  bool terminal_;
  double log_interval_;
  int last_logged_ = -1;
  double last_log_time_ = -1e300;
  std::chrono::steady_clock::time_point start_;
};

// Progress of work whose amount may not be shown (tune: the number of trainings a private selection
// runs is part of its randomness): the label and the elapsed time only, from a thread of its own —
// on a terminal redrawn every second, otherwise a line every `log_interval_seconds`. Stops (and
// ends its line) when destroyed.
class ElapsedNotice {
 public:
  ElapsedNotice(std::string label, double log_interval_seconds = 60);
  ~ElapsedNotice();
  ElapsedNotice(const ElapsedNotice&) = delete;
  ElapsedNotice& operator=(const ElapsedNotice&) = delete;

 private:
  std::string label_;
  bool terminal_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace dpareto::apps
