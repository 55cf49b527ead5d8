#!/usr/bin/env bash
# Ding & Wu 2022, Fig. 1–2 (propose-test with doubling, simulated utilities):
# builds bench_ding_wu_simulation, writes CSVs and PNGs to OUT (default out/ding_wu).
# Usage: experiments/ding_wu.sh [OUT]     (BUILD_DIR selects the CMake build dir, default build)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
out="${1:-$root/out/ding_wu}"
command -v gnuplot >/dev/null || { echo "gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target bench_ding_wu_simulation -j2 >/dev/null
"$build/bench_ding_wu_simulation" "$out"

# gnuplot draws one polyline per blank-line-separated block: split paths.csv by seed.
awk -F, 'NR > 1 { if ($1 != last && NR > 2) print ""; print $1, $3, $4; last = $1 }' "$out/paths.csv" > "$out/paths.dat"

gnuplot <<GP
set terminal pngcairo size 1000,700 font ",12" noenhanced
set datafile separator whitespace
set output "$out/fig1_paths.png"
set title "Propose-test with doubling: (step, u) after each iteration, 1000 seeds\nk = 10, eps0 = 0.1, g = 0.01, 100 candidates ~ U(0,1) (Ding & Wu 2022, Fig. 1)"
set xlabel "step (units of g)"
set ylabel "accumulated utility u"
set logscale x 2
set xrange [0.7:256]
set yrange [0:1.35]
set key top left
plot "$out/paths.dat" using (\$1 >= 0 ? (\$3 > 0 ? \$3 : 0.75) : 1/0):2 with linespoints lc rgb "#802060a0" pt 7 ps 0.4 lw 0.5 title "observed (step 0 drawn at 0.75)", \
     "$out/paths.dat" using (\$1 < 0 ? (\$3 > 0 ? \$3 : 0.75) : 1/0):2 with linespoints lc rgb "red" lw 2 pt 7 ps 0.6 title "worst case True, False, ... (same length)"

set datafile separator ","
set output "$out/fig2_iterations.png"
set title "Iterations vs (u* - u0)/g, 1000 seeds each (Ding & Wu 2022, Fig. 2; g = 1/ratio)"
set xlabel "(u* - u0)/g"
set ylabel "iterations"
set logscale x 10
set logscale y 2
set xrange [4:1000]
set yrange [1:2048]
set key top left
plot "$out/iterations.csv" using (\$1 == 0.1 ? \$2 : 1/0):4 with linespoints lc rgb "#2060a0" pt 7 title "eps0 = 0.1: mean", \
     "$out/iterations.csv" using (\$1 == 0.1 ? \$2 : 1/0):6 with linespoints lc rgb "#2060a0" dt 2 pt 6 title "eps0 = 0.1: max", \
     "$out/iterations.csv" using (\$1 == 10 ? \$2 : 1/0):4 with linespoints lc rgb "#20a060" pt 7 title "eps0 = 10: mean", \
     "$out/iterations.csv" using (\$1 == 10 ? \$2 : 1/0):6 with linespoints lc rgb "#20a060" dt 2 pt 6 title "eps0 = 10: max", \
     "$out/iterations.csv" using (\$1 == 0.1 ? \$2 : 1/0):7 with lines lc rgb "red" lw 2 title "data-independent bound 2M - 1 (used for epsilon)", \
     "$out/iterations.csv" using (\$1 == 0.1 ? \$2 : 1/0):(log(\$2)/log(2) + 1) with lines lc rgb "gray" dt 3 title "log2(ratio) + 1"
GP
echo "wrote $out/fig1_paths.png and $out/fig2_iterations.png"
