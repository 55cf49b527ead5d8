#!/usr/bin/env bash
# Three objectives (issue 13 item 2): (ε, error, training seconds) on an Adult model, DPareto (3-D
# HVPoI on 3 GPs) against random search from the same Appx. C distributions, SEEDS seeds of BUDGET
# evaluations each; `dpareto compare` of their 3-D hypervolumes (DPareto minus random, per seed and
# Welch's over the seeds) with reference (10, 1, SECONDS_REF) on the linear ε axis. Writes
# OUT/MODEL/three_objectives.txt, the front of seed 1 coloured by seconds
# (three_objectives_front.png), then OUT/three_objectives.md.
#
# usage: experiments/dpareto/three_objectives.sh [MODEL...]   (default adult-logreg-sgd)
#        knobs: those of common.sh; BUDGET defaults to 64 and SEEDS to 10 here; SECONDS_REF (the
#        reference's training seconds, default 10)
[ "${SMOKE:-0}" = 1 ] || : "${BUDGET:=64}" "${SEEDS:=10}"
source "$(dirname "$0")/common.sh"
adult_models_from "$@"
seconds_ref="${SECONDS_REF:-10}"
[[ "$seconds_ref" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "SECONDS_REF=$seconds_ref: expected a positive number of seconds"
reference="10,1,$seconds_ref"
objective_flags=(--objective train_seconds --reference "$reference" --threads 1)

mkdir -p "$out_root"
table="$out_root/three_objectives.md"
{
  echo "| model | runs | DPareto minus random, 3-D HV at $budget evaluations, reference ($reference): Welch (95% CI), p | seeds DPareto ahead |"
  echo "|---|---|---|---|"
} > "$table.tmp"
for m in "${models[@]}"; do
  dir="$out_root/$m/three_objectives"
  echo "$m: (epsilon, error, train_seconds), DPareto and random, $seeds seed(s) of $budget evaluations each"
  # Seed s of each method side by side, so that both measure their training seconds under the same load.
  for s in $(seq 1 "$seeds"); do
    parallel explore_run "$dir/dpareto/dpareto-s$s" --problem "$m" --method dpareto --prior --init "$init" \
      --budget "$budget" --seed "$s" "${objective_flags[@]}"
    parallel explore_run "$dir/random/random-s$s" --problem "$m" --method random --prior --budget "$budget" \
      --seed "$s" "${objective_flags[@]}"
  done
  parallel_wait
  runs_a=() runs_b=()
  for s in $(seq 1 "$seeds"); do
    runs_a+=("$dir/dpareto/dpareto-s$s")
    runs_b+=("$dir/random/random-s$s")
  done
  "$dpareto" compare "${runs_a[@]}" --against "${runs_b[@]}" --evaluations "$budget" --reference "$reference" \
    --hv-axis linear > "$dir/three_objectives.txt" 2>&1
  "$dpareto" plot front "$dir/dpareto/dpareto-s1" --out "$dir/three_objectives_front.png" > /dev/null
  # Seed s of DPareto against seed s of random: the per-run hypervolumes, in the order listed.
  ahead=$(awk '/\(dpareto, [0-9]+ evaluations\): / { d[++nd] = $NF } /\(random, [0-9]+ evaluations\): / { r[++nr] = $NF }
               END { k = 0; for (i = 1; i <= nd; i++) k += d[i] > r[i]; print k " of " nd }' "$dir/three_objectives.txt")
  echo "| $m | $seeds + $seeds | $(welch_line "$dir/three_objectives.txt") | $ahead |" >> "$table.tmp"
  echo "  wrote $dir/three_objectives.txt, $dir/three_objectives_front.png"
done
mv "$table.tmp" "$table"
echo "wrote $table"
