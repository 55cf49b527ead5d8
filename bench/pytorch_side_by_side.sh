#!/usr/bin/env bash
# dpareto's training epoch beside PyTorch's on CPU (issue 16 item 3): one epoch over the full
# training set, lot 256, float32, on THREADS threads, non-private and DP-SGD (σ = 1, L = 1; PyTorch
# with ghost-norm clipping, bench/pytorch_epochs.py). The two run in alternation for ROUNDS rounds
# on the same machine and each figure is the best of all its runs, so that a busy moment of the
# machine costs both sides alike. Prints both times and the ratios the issue sets targets for.
#
# Needs the benchmarks built (bash scripts/build) and Debian's PyTorch: bash scripts/setup python3-torch
# Usage: bench/pytorch_side_by_side.sh   (knobs: THREADS=2 ROUNDS=3 BUILD_DIR=build DATA_DIR=../shared/data
#        PYTHON=/usr/bin/python3, the interpreter that has PyTorch)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
threads="${THREADS:-2}"
rounds="${ROUNDS:-3}"
build="${BUILD_DIR:-$root/build}"
data="${DATA_DIR:-$root/../shared/data}"
python="${PYTHON:-/usr/bin/python3}"  # default: Debian's interpreter, where python3-torch installs

fail() { echo "pytorch_side_by_side: $*" >&2; exit 2; }
[[ "$threads" =~ ^[1-9][0-9]*$ ]] || fail "THREADS='$threads': expected a positive integer"
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || fail "ROUNDS='$rounds': expected a positive integer"
[ -x "$build/bench_learners" ] || fail "$build/bench_learners not found: build it with bash scripts/build (or set BUILD_DIR)"
"$python" -c "import torch" 2>/dev/null || fail "PyTorch not found for $python: install it with bash scripts/setup python3-torch"
[ -d "$data/mnist" ] && [ -d "$data/adult" ] || fail "no MNIST and Adult under $data: set DATA_DIR"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
torch_version="$("$python" -c 'import torch; print(torch.__version__)')"
echo "one epoch, lot 256, float32, $threads thread(s), $rounds round(s); PyTorch $torch_version on $(nproc) core(s)"
for ((r = 1; r <= rounds; ++r)); do
  echo "round $r/$rounds ..." >&2
  # bench_learners' rows: model opt n= plain_wall s ... dp_wall (field 11).
  "$build/bench_learners" "$threads" "$data" | awk '$2 == "sgd" && $4 ~ /^[0-9.]+$/ {print $1, $4, $11}' >> "$work/ours"
  "$python" "$here/pytorch_epochs.py" "$threads" "$data" >> "$work/torch"
done

awk '
  FNR == 1 { file++ }
  { k = file SUBSEP $1
    if (!(k in plain) || $2 < plain[k]) plain[k] = $2
    if (!(k in dp) || $3 < dp[k]) dp[k] = $3 }
  END {
    printf "%-11s %-25s %-25s %-22s %s\n", "model", "non-private: ours torch", "DP-SGD: ours torch", "ours/torch plain DP", "ours DP/plain"
    split("a9a-logreg mnist-mlp2 mnist-mlp1", models, " ")
    for (i = 1; i <= 3; ++i) {
      m = models[i]
      a = 1 SUBSEP m; b = 2 SUBSEP m
      if (!(a in plain) || !(b in plain)) { printf "%-11s missing\n", m; continue }
      printf "%-11s %9.5f s %9.5f s  %9.5f s %9.5f s  %9.3fx %9.3fx  %9.3fx\n", m, plain[a], plain[b],
             dp[a], dp[b], plain[a] / plain[b], dp[a] / dp[b], dp[a] / plain[a]
    }
    print "targets (issue 16, 2 cores): plain <= 0.9x torch (MLPs); DP <= 0.6x torch (MLP1), <= 0.5x (MLP2); DP/plain <= 1.10x"
  }' "$work/ours" "$work/torch"
