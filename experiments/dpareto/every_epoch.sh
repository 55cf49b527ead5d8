#!/usr/bin/env bash
# Every epoch as an observation (issue 18 item 2): DPareto whose DP-training evaluations also report
# the test accuracy after each earlier epoch (`--set observe=every-epoch`: each is an observation of
# the setting with that many epochs, with its own ε) against DPareto observing the final epoch only,
# SEEDS seeds of INIT + BUDGET − INIT evaluations each. Writes, per model, into OUT/MODEL/:
# every_epoch-time.txt (bench_hv_by_training_time: the training seconds and evaluations the
# every-epoch run needs to reach the hypervolume the final-epoch run reached with all its
# evaluations, per seed and on average, and both arms' hypervolume against training time; linear ε
# axis), every_epoch-time-log.txt (the same on the log ε axis), every_epoch-{linear,log}.txt
# (dpareto compare at equal evaluations) and every_epoch_hv.png; then OUT/every_epoch.md. One thread
# per exploration, JOBS at once, so that an evaluation's seconds are its CPU-seconds.
#
# usage: experiments/dpareto/every_epoch.sh [MODEL...]   (default adult-logreg-sgd)
#        knobs: those of common.sh; BUDGET defaults to 64 and SEEDS to 10 here
[ "${SMOKE:-0}" = 1 ] || : "${BUDGET:=64}" "${SEEDS:=10}"
source "$(dirname "$0")/common.sh"
# JOBS explorations at once, one core each: the GP fits' OpenMP threads (about 0.5 s a proposal with
# 512 observations) would otherwise take the other exploration's core and inflate its training seconds.
export OMP_NUM_THREADS=1
adult_models_from "$@"
build_cli bench_hv_by_training_time

mkdir -p "$out_root"
table="$out_root/every_epoch.md"
{
  echo "| model | runs | every-epoch run's training seconds (and evaluations) to reach the final-epoch run's HV at $budget evaluations, mean ratio | every-epoch minus final-epoch HV at $budget evaluations (linear ε axis): Welch (95% CI), p |"
  echo "|---|---|---|---|"
} > "$table.tmp"
for m in "${models[@]}"; do
  dir="$out_root/$m"
  echo "$m: DPareto observing every epoch and observing the final one, $seeds seed(s) of $budget evaluations each"
  arm_a_flags=(--set observe=every-epoch) arm_b_flags=()
  compare_arms "$m" "$dir" every_epoch every final linear log
  finals=() everys=()
  for s in $(seq 1 "$seeds"); do
    finals+=("$dir/final/dpareto-s$s")
    everys+=("$dir/every/dpareto-s$s")
  done
  "$build/bench_hv_by_training_time" "${finals[@]}" -- "${everys[@]}" > "$dir/every_epoch-time.txt"
  "$build/bench_hv_by_training_time" --hv-axis log "${finals[@]}" -- "${everys[@]}" > "$dir/every_epoch-time-log.txt"
  ratio="$(grep '^mean over' "$dir/every_epoch-time.txt" | sed 's/^mean over the //')"
  linear="$(welch_line "$dir/every_epoch-linear.txt")"
  echo "| $m | $seeds + $seeds | $ratio | ${linear:-(one seed each: see every_epoch-linear.txt)} |" >> "$table.tmp"
  echo "  wrote $dir/every_epoch-{time,time-log,linear,log}.txt, $dir/every_epoch_hv.png"
done
mv "$table.tmp" "$table"
echo "wrote $table"
