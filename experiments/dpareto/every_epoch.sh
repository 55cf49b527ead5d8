#!/usr/bin/env bash
# Every epoch as an observation (issue 18 item 2): DPareto whose DP-training evaluations also report
# the test accuracy after each earlier epoch (`--set observe=every-epoch`: each is an observation of
# the setting with that many epochs, with its own ε) against DPareto observing the final epoch only,
# SEEDS seeds each: the final-epoch arm INIT + BUDGET − INIT evaluations, the every-epoch arm
# EVERY_BUDGET (at most BUDGET). Writes, per model, into OUT/MODEL/: every_epoch-time.txt
# (bench_hv_by_training_time: the training seconds and evaluations the every-epoch run needs to reach
# the hypervolume the final-epoch run reached with all its evaluations, per seed and on average, and
# both arms' hypervolume against training time; linear ε axis), every_epoch-time-log.txt (the same on
# the log ε axis), every_epoch-{linear,log}.txt (dpareto compare at EVERY_BUDGET evaluations each)
# and every_epoch_hv.png; then OUT/every_epoch.md. One thread per exploration, JOBS at once, so that
# an evaluation's seconds are its CPU-seconds.
#
# EVERY_KNOWN=1: the every-epoch arm also computes ε exactly inside the acquisition (--known-epsilon),
# and both arms account with RDP, which --known-epsilon needs. EVERY_COST=1: the every-epoch arm
# ranks its proposals by acquisition per predicted training second (--cost-aware). EVERY_STOP=1: the
# every-epoch arm stops trainings whose next epochs cannot improve the front (--early-stop).
# EVERY_ACQUISITION=ehvi: the every-epoch arm proposes by EHVI instead of HVPoI. RESCORE=1: also
# every_epoch-rescored.txt (bench_rescored_fronts: the final-epoch run's front and the every-epoch
# run's front at 1/3 of its training seconds, each point trained again with a fresh seed, both axes;
# ~1 s a front point, 2 threads); finished explorations are not run again.
#
# usage: experiments/dpareto/every_epoch.sh [MODEL...]   (default adult-logreg-sgd)
#        knobs: those of common.sh, EVERY_KNOWN, EVERY_COST, EVERY_STOP, EVERY_ACQUISITION and
#        RESCORE; BUDGET defaults to 256, EVERY_BUDGET to 128 and SEEDS to 10 here
[ "${SMOKE:-0}" = 1 ] || : "${BUDGET:=256}" "${EVERY_BUDGET:=128}" "${SEEDS:=10}"
source "$(dirname "$0")/common.sh"
every_budget="${EVERY_BUDGET:-$budget}"
whole_number EVERY_BUDGET "$every_budget"
[ "$every_budget" -gt "$init" ] && [ "$every_budget" -le "$budget" ] ||
  die "EVERY_BUDGET=$every_budget: expected more than INIT=$init and at most BUDGET=$budget"
# JOBS explorations at once, one core each: the GP fits' OpenMP threads (about 0.5 s a proposal with
# 512 observations) would otherwise take the other exploration's core and inflate its training seconds.
export OMP_NUM_THREADS=1
every_flags=(--set observe=every-epoch)
case "${EVERY_KNOWN:-0}" in
  0) ;;
  1) problem_flags+=(--set accountant=rdp) every_flags+=(--known-epsilon) ;;
  *) die "EVERY_KNOWN=${EVERY_KNOWN}: expected 0 or 1" ;;
esac
case "${EVERY_COST:-0}" in
  0) ;;
  1) every_flags+=(--cost-aware) ;;
  *) die "EVERY_COST=${EVERY_COST}: expected 0 or 1" ;;
esac
case "${EVERY_STOP:-0}" in
  0) ;;
  1) every_flags+=(--early-stop) ;;
  *) die "EVERY_STOP=${EVERY_STOP}: expected 0 or 1" ;;
esac
case "${EVERY_ACQUISITION:-hvpoi}" in
  hvpoi) ;;
  ehvi) every_flags+=(--acquisition ehvi) ;;
  *) die "EVERY_ACQUISITION=${EVERY_ACQUISITION}: expected hvpoi or ehvi" ;;
esac
case "${RESCORE:-0}" in
  0 | 1) ;;
  *) die "RESCORE=${RESCORE}: expected 0 or 1" ;;
esac
adult_models_from "$@"
build_cli bench_hv_by_training_time bench_rescored_fronts

mkdir -p "$out_root"
table="$out_root/every_epoch.md"
{
  echo "| model | runs | every-epoch run's training seconds (and evaluations) to reach the final-epoch run's HV at $budget evaluations, mean ratio (linear ε axis) | the same on the log ε axis | every-epoch minus final-epoch HV at $every_budget evaluations each (linear ε axis): Welch (95% CI), p |"
  echo "|---|---|---|---|---|"
} > "$table.tmp"
for m in "${models[@]}"; do
  dir="$out_root/$m"
  echo "$m: DPareto observing the final epoch ($budget evaluations) and every epoch ($every_budget), $seeds seed(s) each"
  explore_dpareto_seeds "$m" "$dir/final"
  budget="$every_budget" explore_dpareto_seeds "$m" "$dir/every" "${every_flags[@]}"
  finals=() everys=()
  for s in $(seq 1 "$seeds"); do
    finals+=("$dir/final/dpareto-s$s")
    everys+=("$dir/every/dpareto-s$s")
  done
  for axis in linear log; do
    "$dpareto" compare "${everys[@]}" --against "${finals[@]}" --evaluations "$every_budget" --reference 10,1 \
      --hv-axis "$axis" > "$dir/every_epoch-$axis.txt" 2>&1
  done
  "$dpareto" plot hv "${everys[@]}" "${finals[@]}" --max-evaluations "$budget" --zoom --out "$dir/every_epoch_hv.png" > /dev/null
  "$build/bench_hv_by_training_time" "${finals[@]}" -- "${everys[@]}" > "$dir/every_epoch-time.txt"
  "$build/bench_hv_by_training_time" --hv-axis log "${finals[@]}" -- "${everys[@]}" > "$dir/every_epoch-time-log.txt"
  if [ "${RESCORE:-0}" = 1 ]; then
    "$build/bench_rescored_fronts" --threads "$jobs" "${finals[@]}" -- "${everys[@]}" > "$dir/every_epoch-rescored.txt"
    echo "  wrote $dir/every_epoch-rescored.txt"
  fi
  ratio="$(grep '^mean over' "$dir/every_epoch-time.txt" | sed 's/^mean over the //')"
  ratio_log="$(grep '^mean over' "$dir/every_epoch-time-log.txt" | sed 's/^mean over the //')"
  linear="$(welch_line "$dir/every_epoch-linear.txt")"
  echo "| $m | $seeds + $seeds | $ratio | $ratio_log | ${linear:-(one seed each: see every_epoch-linear.txt)} |" >> "$table.tmp"
  echo "  wrote $dir/every_epoch-{time,time-log,linear,log}.txt, $dir/every_epoch_hv.png"
done
mv "$table.tmp" "$table"
echo "wrote $table"
