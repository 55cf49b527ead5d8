#pragma once
// R independent runs (a problem's repeats) on T threads, each run with OpenMP threads of its own.

#include <functional>
#include <vector>

namespace dpareto {

// The threads of each of `runs` runs on `threads` threads (issue 16 item 2): whole waves of
// `threads` single-thread runs, then the m = runs mod threads runs left (all of them when
// runs < threads) together, sharing all the threads: threads / m each and one more for the first
// threads mod m. No thread idles while a run is left to start, and a run's threads depend only on
// (threads, runs, its index), so its result does too.
std::vector<int> threads_of_runs(int threads, int runs);

// Calls run(r, threads_of_runs(threads, runs)[r]) for every r in [0, runs), at most `threads`
// threads busy at a time: a wave's runs on std::threads of their own, so that a run's OpenMP team
// is a first-level one (OpenMP would serialize a nested team), with OpenMP's default team size set
// to 1 there (a BLAS call outside the run's own parallel regions stays on its thread). A single
// run, or a single thread, runs on the calling thread. After all runs end, the exception of the
// lowest-numbered run that threw is rethrown.
void run_in_parallel(int threads, int runs, const std::function<void(int run, int run_threads)>& run);

}  // namespace dpareto
