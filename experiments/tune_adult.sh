#!/usr/bin/env bash
# Issue 7, end to end on Adult: the private tuning methods of `dpareto tune` (random-stopping, grid,
# subsampled variants 1 and 2, propose-test, dp-hype) against the oracle (the best candidate trained
# once at the total epsilon, tuning cost ignored). Builds bench_tune_adult_comparison, runs it and
# writes to OUT (default out/tune_adult): summary.csv (method, epsilon, mean accuracy, standard error,
# gap to the oracle in percentage points, runs with nothing released, ...), summary_runs.csv (one row
# per tuning run), summary_oracle.csv (every candidate at every epsilon), log.txt and
# tune_adult_accuracy.png (test accuracy vs total epsilon, error bars = standard error).
# Usage: experiments/tune_adult.sh [OUT] [RUNS] [EPSILONS]      (defaults: out/tune_adult 10 0.5,1,2,4)
#        BUILD_DIR selects the CMake build dir (default build); WORKERS the tuning runs going at once
#        (default 2, each on one thread); FLAGS overrides the bench's fixed method flags, e.g.
#        FLAGS="mu=20;score_epsilon=0.03" (see bench/tune_adult_comparison.cpp). About 10 minutes on
#        the 2-core machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
out="${1:-$root/out/tune_adult}"
runs="${2:-10}"
epsilons="${3:-0.5,1,2,4}"
command -v gnuplot >/dev/null || { echo "gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
if [ "${PLOT_ONLY:-0}" != 1 ]; then  # PLOT_ONLY=1 redraws the figure from OUT's CSV and log
  [ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake "$build" >/dev/null  # picks up bench/*.cpp files added since the last configure
  cmake --build "$build" --target bench_tune_adult_comparison -j2 >/dev/null
  mkdir -p "$out"
  "$build/bench_tune_adult_comparison" "$out/summary.csv" "$runs" "$epsilons" "${WORKERS:-2}" 1 "" "${FLAGS:-}" \
      | tee "$out/log.txt"
fi

# One data file per method (gnuplot breaks a line at filtered-out rows); rows where every run
# failed (the target is below the least epsilon the method can reach) are left out of the figure.
mkdir -p "$out/plot"
for m in oracle random-stopping grid subsampled-v1 subsampled-v2 propose-test dp-hype; do : > "$out/plot/$m.csv"; done
awk -F, -v dir="$out/plot" 'NR > 1 && $7 < $8 { print $2 "," $3 "," $4 > (dir "/" $1 ".csv") }' "$out/summary.csv"
unreachable=$(awk -F, 'NR > 1 && $7 == $8 { printf "%s%s at %s", sep, $1, $2; sep = ", " }' "$out/summary.csv")
majority=$(grep -o 'majority-class test accuracy [0-9.]*' "$out/log.txt" | awk '{print $4}')
flagline=$(grep -m1 '^flags:' "$out/log.txt" | sed -e 's/score_epsilon/score eps/' -e 's/validation_fraction/validation/' \
    -e 's/subsample_rate/q/' -e 's/tuning_share/tuning share/' -e 's/utility_floor/floor/' -e 's/top_k/top-k/' || true)
least=$(grep -o 'least epsilon reachable is [0-9.]*' "$out/log.txt" | awk '{printf "%s%.3g", sep, $5; sep = ", "}' || true)

# Methods are nudged apart on the log-epsilon axis so that their error bars do not overlap.
gnuplot <<GP
set terminal pngcairo size 1100,800 font ",12" noenhanced
set output "$out/tune_adult_accuracy.png"
set datafile separator ","
set title "Private tuning on Adult (logistic regression, DP-SGD, Poisson lots, 8 candidates, delta 1e-5): test accuracy of\nthe released model vs total epsilon (tuning + training), mean of $runs runs +- standard error. Oracle: the best\ncandidate trained once at epsilon, tuning cost ignored. Majority class: the accuracy counted when nothing is released."
set logscale x
set xrange [0.4:5]
set xtics ("0.5" 0.5, "1" 1, "2" 2, "4" 4)
set xlabel "total epsilon (tuning included)"
set ylabel "test accuracy"
set yrange [$majority - 0.026:0.855]
set ytics 0.01
set grid
set key inside bottom center horizontal maxrows 2 box opaque samplen 3 spacing 1.1
if (strlen("$unreachable") > 0) {
  set label 1 "target not reachable (least reachable epsilon: $least), left out: $unreachable" at graph 0.02, graph 0.2 left font ",10"
}
set label 2 "$flagline" at graph 0.02, graph 0.25 left font ",10"
methods = "random-stopping grid subsampled-v1 subsampled-v2 propose-test dp-hype"
colors = "#1b9e77 #377eb8 #ff7f00 #a65628 #984ea3 #e41a1c"
points = "7 5 9 11 13 15"
nudge(i) = 1.0 + 0.03 * (i - 3.5)
plot "$out/plot/oracle.csv" using 1:2:3 with yerrorlines lc rgb "black" lw 3 pt 5 ps 1.3 title "oracle", \
     for [i=1:words(methods)] "$out/plot/".word(methods, i).".csv" using (\$1 * nudge(i)):2:3 \
         with yerrorlines lw 2 lc rgb word(colors, i) pt int(word(points, i)) ps 1.3 title word(methods, i), \
     $majority with lines dt 2 lc rgb "gray40" lw 2 title "majority class"
GP
echo "wrote $out/tune_adult_accuracy.png"
