#!/usr/bin/env bash
# DPareto Fig. 6 on Adult (issue 12 item 3): grid search with 3⁵ = 243 and 4⁵ = 1024 points against
# DPareto's BUDGET evaluations (the runs table2.sh makes, reused when there). The grids span the
# problem's domains on their scales (log for the learning rate, noise and clipping norm); the paper
# took Table 4's limits, whose learning rate reaches 1e-1, beyond Table 1's domain [5e-4, 5e-2].
# Writes OUT/MODEL/grid.csv (dpareto compare --csv), fig6_hypervolume.png, fig6_front.png and
# OUT/grid.md.
#
# usage: experiments/dpareto/grid.sh [MODEL...]     (default: adult-logreg-sgd)
#        knobs: GRID_SIZES (default "3 4") and those of common.sh
# Full budget per model: SEEDS × 256 + 243 + 1024 evaluations; the grids took 0.85 CPU-hours for
# LogReg+SGD (docs/reproductions.md).
source "$(dirname "$0")/common.sh"
all=(adult-logreg-sgd adult-logreg-adam adult-svm-sgd adult-svm-adam)
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(adult-logreg-sgd)
require_models "${all[@]}" -- "${models[@]}"
[ "${SMOKE:-0}" = 1 ] && GRID_SIZES="${GRID_SIZES:-2}"
sizes="${GRID_SIZES:-3 4}"
for g in $sizes; do whole_number GRID_SIZES "$g" 2; done
require_data adult
build_cli

for m in "${models[@]}"; do
  dir="$out_root/$m"
  explore_dpareto_seeds "$m" "$dir"
  grids=()
  for g in $sizes; do
    echo "$m: grid search, $g points per parameter ($((g ** 5)) evaluations)"
    explore_run "$dir/grid$g" --problem "$m" --method grid --grid-points "$g" --budget "$((g ** 5))" \
      --workers "$jobs" --threads 1 --seed 1
    grids+=("$dir/grid$g")
  done
  dp_runs=()
  for s in $(seq 1 "$seeds"); do dp_runs+=("$dir/dpareto-s$s"); done
  "$dpareto" compare "${dp_runs[@]}" --against "${grids[@]}" --reference 10,1 --hv-axis linear --csv \
    > "$dir/grid.csv" 2>/dev/null
  "$dpareto" plot hv "$dir/dpareto-s1" "${grids[@]}" --zoom --out "$dir/fig6_hypervolume.png" > /dev/null
  "$dpareto" plot front "$dir/dpareto-s1" "${grids[@]}" --accuracy --out "$dir/fig6_front.png" > /dev/null
  echo "  wrote $dir/grid.csv, $dir/fig6_hypervolume.png, $dir/fig6_front.png"
done

{
  echo "| model | DPareto, $budget evaluations: hypervolume, mean of $seeds seed(s) (min to max) | grid search: evaluations, hypervolume |"
  echo "|---|---|---|"
  for m in "${models[@]}"; do
    awk -F, -v model="$m" '
      $1 == "runs" { n++; sum += $5; if (n == 1 || $5 < min) min = $5; if (n == 1 || $5 > max) max = $5 }
      $1 == "against" { grids = grids sep $4 ": " sprintf("%.3f", $5); sep = "; " }
      END { printf "| %s | %.3f (%.3f to %.3f) | %s |\n", model, sum / n, min, max, grids }' "$out_root/$m/grid.csv"
  done
} > "$out_root/grid.md"
echo "wrote $out_root/grid.md"
cat "$out_root/grid.md"
