#!/usr/bin/env bash
# Repeats in parallel across core counts (issue 16 item 2): for each N in CORES, runs
# bench_parallel_repeats on N threads pinned to N physical cores (taskset), one evaluation of R repeats
# against the same R trainings one after another, and prints the evaluation throughput
# (evaluations per hour) with its speed-up over the smallest core count and the scaling efficiency
# (speed-up / (N / N_min)); near-linear means an efficiency near 1.
#
# Needs the benchmarks built (bash scripts/build) and a machine with the cores asked for.
# Usage: bench/repeats_scaling.sh   (knobs: CORES="2 4 8 16" (default: 1, 2, 4, ... up to nproc),
#        REPEATS=10, BUILD_DIR=build, DATA_DIR=../shared/data)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
build="${BUILD_DIR:-$root/build}"
data="${DATA_DIR:-$root/../shared/data}"
repeats="${REPEATS:-10}"
available="$(nproc)"
if [ -z "${CORES:-}" ]; then
  CORES=""
  for ((n = 1; n <= available; n *= 2)); do CORES="$CORES $n"; done
fi

fail() { echo "repeats_scaling: $*" >&2; exit 2; }
[[ "$repeats" =~ ^[1-9][0-9]*$ ]] || fail "REPEATS='$repeats': expected a positive integer"
for n in $CORES; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || fail "CORES has '$n': expected positive integers"
  ((n <= available)) || fail "CORES has $n: this machine has $available core(s)"
done
[ -x "$build/bench_parallel_repeats" ] || fail "$build/bench_parallel_repeats not found: build it with bash scripts/build (or set BUILD_DIR)"
command -v taskset > /dev/null || fail "taskset not found (util-linux)"

# The first N cores: one logical CPU per physical core before any core's second hyperthread.
cpus_for() {
  lscpu -p=CPU,CORE | grep -v '^#' | sort -t, -k2,2n -k1,1n | awk -F, '!seen[$2]++ {print $1; next} {rest[++n] = $1}
    END {for (i = 1; i <= n; ++i) print rest[i]}' | head -n "$1" | paste -sd,
}

rows="$(mktemp)"
trap 'rm -f "$rows"' EXIT
echo "R = $repeats repeats, one evaluation in parallel against R trainings in sequence; $available core(s) here"
for n in $CORES; do
  # bench_parallel_repeats' rows: problem threads sequential s parallel s ratio evals/hour.
  out="$(taskset -c "$(cpus_for "$n")" "$build/bench_parallel_repeats" "$n" "$repeats" "$data")"
  grep -q '^skipped' <<< "$out" && fail "$(grep '^skipped' <<< "$out")"
  awk '$2 ~ /^[0-9]+$/ && $4 == "s" {print $1, $2, $3, $5, $7, $8}' <<< "$out" | tee -a "$rows"
done

awk '
  { if (!($1 in base)) { base[$1] = $6; base_cores[$1] = $2 }
    printf "%-17s %5d cores  parallel/sequential %6.3f  %9.0f evaluations/hour  speed-up %5.2fx  efficiency %4.2f\n",
           $1, $2, $5, $6, $6 / base[$1], ($6 / base[$1]) / ($2 / base_cores[$1]) }
' "$rows"
