#!/usr/bin/env bash
# ε as an input (issue 18 item 3): DPareto over (epochs, lot size, learning rate, target ε, clip
# norm) with the noise multiplier calibrated to each target (`--set noise=calibrated`), against
# DPareto over the noise multiplier itself, at equal evaluations (INIT + BUDGET − INIT, SEEDS seeds
# each). Hypervolume on the linear ε axis with reference (10, 1), as Table 2. Writes, per model,
# OUT/MODEL/epsilon_input.txt (dpareto compare: calibrated minus parameter, per seed and Welch's
# over the seeds) and epsilon_input_hv.png, then OUT/epsilon_input.md.
#
# usage: experiments/dpareto/epsilon_input.sh [MODEL...]   (default adult-logreg-sgd)
#        knobs: those of common.sh; BUDGET defaults to 64 here
[ "${SMOKE:-0}" = 1 ] || : "${BUDGET:=64}"
source "$(dirname "$0")/common.sh"
all=(adult-logreg-sgd adult-logreg-adam adult-svm-sgd adult-svm-adam)
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(adult-logreg-sgd)
require_models "${all[@]}" -- "${models[@]}"
require_data adult
build_cli

mkdir -p "$out_root"
table="$out_root/epsilon_input.md"
{
  echo "| model | runs | calibrated minus parameter, HV at $budget evaluations: Welch over the seeds (95% CI), p |"
  echo "|---|---|---|"
} > "$table.tmp"
for m in "${models[@]}"; do
  dir="$out_root/$m"
  echo "$m: DPareto over the noise multiplier and over the target ε, $seeds seed(s) of $budget evaluations each"
  explore_dpareto_seeds "$m" "$dir/parameter"
  explore_dpareto_seeds "$m" "$dir/calibrated" --set noise=calibrated
  calibrated=() parameter=()
  for s in $(seq 1 "$seeds"); do
    calibrated+=("$dir/calibrated/dpareto-s$s")
    parameter+=("$dir/parameter/dpareto-s$s")
  done
  "$dpareto" compare "${calibrated[@]}" --against "${parameter[@]}" --evaluations "$budget" --reference 10,1 \
    --hv-axis linear > "$dir/epsilon_input.txt" 2>&1
  "$dpareto" plot hv "${calibrated[@]}" "${parameter[@]}" --max-evaluations "$budget" \
    --out "$dir/epsilon_input_hv.png" > /dev/null
  welch="$(grep -i '^welch' "$dir/epsilon_input.txt" | head -1)"
  echo "| $m | $seeds + $seeds | ${welch:-(one seed each: see epsilon_input.txt)} |" >> "$table.tmp"
  echo "  wrote $dir/epsilon_input.txt, $dir/epsilon_input_hv.png"
done
mv "$table.tmp" "$table"
echo "wrote $table"
