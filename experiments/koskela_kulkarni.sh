#!/usr/bin/env bash
# Koskela & Kulkarni 2023, Fig. 1 (epsilon of subsampled tuning vs the tuning-set rate q; DP-SGD
# gamma = 0.01, sigma = 2, 50 epochs, delta = 1e-5, K ~ Poisson(mu), mu in {15, 45}):
# builds bench_koskela_kulkarni_figure1, writes figure1.csv and fig1_epsilon_vs_q.png to OUT
# (default out/koskela_kulkarni).
# Usage: experiments/koskela_kulkarni.sh [OUT]     (BUILD_DIR selects the CMake build dir, default build)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
out="${1:-$root/out/koskela_kulkarni}"
command -v gnuplot >/dev/null || { echo "gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target bench_koskela_kulkarni_figure1 -j2 >/dev/null
"$build/bench_koskela_kulkarni_figure1" "$out"

gnuplot <<GP
set terminal pngcairo size 1400,600 font ",11" noenhanced
set output "$out/fig1_epsilon_vs_q.png"
set datafile separator ","
set multiplot layout 1,2 title "Subsampled tuning (Koskela & Kulkarni 2023, Fig. 1): epsilon at delta = 1e-5 vs tuning-set rate q\nDP-SGD: Poisson lots gamma = 0.01, sigma = 2, 50 epochs (T = 5000); K ~ Poisson(mu); RDP at integer orders 2..256"
set xlabel "q (Poisson rate of the tuning set X1)"
set ylabel "epsilon (delta = 1e-5)"
set xrange [0:1]
set key top left Left reverse box opaque
set grid
do for [m in "15 45"] {
  set title sprintf("mu = %s expected candidate runs", m)
  set yrange [0:(m eq "15" ? 7.5 : 13.5)]   # headroom for the key
  plot "$out/figure1.csv" using ((\$1 == real(m)) ? \$2 : 1/0):3 with linespoints lc rgb "#1f5fa0" lw 2 pt 7 ps 0.6 title "variant 1: tune on X1, train on X \\\\ X1 (Thm 1)", \
       "$out/figure1.csv" using ((\$1 == real(m)) ? \$2 : 1/0):4 with linespoints lc rgb "#d06010" lw 2 pt 5 ps 0.6 title "variant 2: tune on X1, train on X (Thm 4 + composition)", \
       "$out/figure1.csv" using ((\$1 == real(m)) ? \$2 : 1/0):5 with lines lc rgb "#208040" lw 2 dt 2 title "baseline: random stopping on X (Thm 5)", \
       "$out/figure1.csv" using ((\$1 == real(m)) ? \$2 : 1/0):9 with lines lc rgb "#404040" lw 2 dt 4 title "one DP-SGD run, no tuning (the q -> 0 limit)"
}
unset multiplot
GP
echo "wrote $out/figure1.csv and $out/fig1_epsilon_vs_q.png"
