#!/usr/bin/env bash
# DPareto Fig. 7 on Adult (issue 12 item 4): the fronts of the mean, the best and the worst of each
# evaluated setting's R repeats (REPEATS, default the problem's 10), for each model's DPareto run
# (seed 1; the run table2.sh makes, reused when there). Writes OUT/fig7_variability.png and
# OUT/variability.md (per model: the front's points and the widest min-to-max spread on it).
#
# usage: experiments/dpareto/variability.sh [MODEL...]   (default: the four Adult models)
# Full budget: 4 × 256 evaluations (fewer when table2.sh ran first), about 0.4 CPU-hours.
[ "${SMOKE:-0}" = 1 ] && REPEATS="${REPEATS:-2}"
source "$(dirname "$0")/common.sh"
all=(adult-logreg-sgd adult-logreg-adam adult-svm-sgd adult-svm-adam)
models=("$@")
[ ${#models[@]} -gt 0 ] || models=("${all[@]}")
require_models "${all[@]}" -- "${models[@]}"
[ -z "${REPEATS:-}" ] || [ "$REPEATS" -ge 2 ] || die "REPEATS=$REPEATS: the variability of a front needs at least 2 repeats"
require_data adult
build_cli

runs=()
for m in "${models[@]}"; do
  dir="$out_root/$m"
  echo "$m: DPareto seed 1, $budget evaluations"
  seeds=1 explore_dpareto_seeds "$m" "$dir"
  runs+=("$dir/dpareto-s1")
done
"$dpareto" plot variability "${runs[@]}" --accuracy --out "$out_root/fig7_variability.png" > /dev/null
echo "wrote $out_root/fig7_variability.png"
{
  echo "| model | front points | widest min-to-max test accuracy on the front (at epsilon) | front's mean spread |"
  echo "|---|---|---|---|"
  for m in "${models[@]}"; do
    # front.csv: id,phase,status,<5 params>,epsilon,delta,utility,utility_min,utility_max,...
    awk -F, -v model="$m" '
      NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
      { n++; w = $col["utility_max"] - $col["utility_min"]; sum += w
        if (w >= widest) { widest = w; at = $col["epsilon"] } }
      END { printf "| %s | %d | %.4f (%.3g) | %.4f |\n", model, n, widest, at, sum / n }' \
      "$out_root/$m/dpareto-s1/front.csv"
  done
} > "$out_root/variability.md"
echo "wrote $out_root/variability.md"
cat "$out_root/variability.md"
