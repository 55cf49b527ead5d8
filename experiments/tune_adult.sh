#!/usr/bin/env bash
# Issue 7, end to end on Adult: the private tuning methods of `dpareto tune` (random-stopping, grid,
# subsampled variants 1 and 2, propose-test, dp-hype) against the oracle (the best candidate trained
# once at the total epsilon, tuning cost ignored). Builds bench_tune_adult_comparison, runs it and
# writes to OUT (default out/tune_adult): summary.csv (method, epsilon, mean accuracy, standard error,
# gap to the oracle in percentage points, runs with nothing released, ...), summary_runs.csv (one row
# per tuning run), summary_oracle.csv (every candidate at every epsilon), log.txt and
# tune_adult_accuracy.png (test accuracy vs total epsilon, error bars = standard error).
# Usage: experiments/tune_adult.sh [OUT] [RUNS] [EPSILONS]      (defaults: out/tune_adult 10 0.5,1,2,4)
#        BUILD_DIR selects the CMake build dir (default build); THREADS the threads per run (2).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
out="${1:-$root/out/tune_adult}"
runs="${2:-10}"
epsilons="${3:-0.5,1,2,4}"
command -v gnuplot >/dev/null || { echo "gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake "$build" >/dev/null  # pick up new bench/*.cpp files
cmake --build "$build" --target bench_tune_adult_comparison -j2 >/dev/null
mkdir -p "$out"
"$build/bench_tune_adult_comparison" "$out/summary.csv" "$runs" "$epsilons" "${THREADS:-2}" | tee "$out/log.txt"

# One line per method, the oracle in black; methods are nudged apart on the log-epsilon axis so
# their error bars do not overlap.
gnuplot <<GP
set terminal pngcairo size 1100,700 font ",12" noenhanced
set output "$out/tune_adult_accuracy.png"
set datafile separator ","
set title "Adult logistic regression, DP-SGD (Poisson lots), 8 candidates: test accuracy of the released model\nvs total epsilon (tuning + training, delta 1e-5); mean of $runs runs, error bars = standard error"
set logscale x
set xrange [0.38:5.3]
set xtics ("0.5" 0.5, "1" 1, "2" 2, "4" 4)
set xlabel "total epsilon (tuning included)"
set ylabel "test accuracy"
set key outside right center box
set grid
majority = real(system("grep -o 'majority-class test accuracy [0-9.]*' '$out/log.txt' | awk '{print \$4}'"))
set yrange [majority - 0.01:0.86]
methods = "random-stopping grid subsampled-v1 subsampled-v2 propose-test dp-hype"
nudge(i) = 1.0 + 0.025 * (i - 3.5)
plot "$out/summary.csv" using ((strcol(1) eq "oracle") ? \$2 : 1/0):3:4 with yerrorlines lc rgb "black" lw 3 pt 5 ps 1.2 title "oracle (best candidate, once at epsilon)", \
     for [i=1:words(methods)] "$out/summary.csv" using ((strcol(1) eq word(methods, i)) ? \$2 * nudge(i) : 1/0):3:4 \
         with yerrorlines lw 2 pt 7 ps 1 title word(methods, i), \
     majority with lines dt 2 lc rgb "gray40" lw 2 title "majority class (nothing released)"
GP
echo "wrote $out/tune_adult_accuracy.png"
