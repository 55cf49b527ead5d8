#!/usr/bin/env bash
# DP-HYPE (Liebenow et al. 2025), Fig. 2a (simulated local losses): builds bench_dp_hype_simulation,
# writes accuracy.csv and fig2a_accuracy.png to OUT (default out/dp_hype).
# Usage: experiments/dp_hype.sh [OUT]     (BUILD_DIR selects the CMake build dir, default build)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
out="${1:-$root/out/dp_hype}"
command -v gnuplot >/dev/null || { echo "gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target bench_dp_hype_simulation -j2 >/dev/null
"$build/bench_dp_hype_simulation" "$out"

gnuplot <<GP
set terminal pngcairo size 1500,520 font ",11" noenhanced
set output "$out/fig2a_accuracy.png"
set datafile separator ","
set multiplot layout 1,3 title "DP-HYPE, simulated losses: P(selected hyperparameter is good) vs epsilon (delta 1e-5, n = 250, 10 of 100 good)"
set logscale x
set xrange [0.08:10]
set yrange [0:1.02]
set xlabel "epsilon"
set ylabel "accuracy"
set key bottom right
set grid
do for [s in "0.5 1 2"] {
  set title sprintf("loss spread s = %s", s)
  plot for [k in "1 2 3 5 10 20"] "$out/accuracy.csv" using ((\$1 == real(s) && \$2 == int(k)) ? \$3 : 1/0):5 \
       with linespoints pt 7 ps 0.6 title sprintf("k = %s", k)
}
unset multiplot
GP
echo "wrote $out/fig2a_accuracy.png"
