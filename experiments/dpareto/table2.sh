#!/usr/bin/env bash
# DPareto Table 2 and Fig. 5 on Adult (issue 12 items 1 and 2): DPareto (INIT random + BUDGET − INIT
# BO evaluations, SEEDS seeds; the initial points drawn from the paper's Appx. C distributions, as
# random sampling's) against random sampling from those distributions (RANDOM_PARTS × BUDGET
# samples in one run, cut into parts of BUDGET as the paper cut 5000 into 19 parts of 256);
# hypervolume on the linear ε axis with reference (10, 1). Writes, per model, OUT/MODEL/table2.txt
# and .csv (dpareto compare), fig5_hypervolume.png (hypervolume against evaluations) and
# fig5_front.png (DPareto's points and front against random's, the paper's Fig. 5 bottom right);
# then OUT/fig8_adult_fronts.png (every model's DPareto front, Fig. 8 left) and OUT/table2.md.
#
# usage: experiments/dpareto/table2.sh [MODEL...]    (default: the four Adult models)
#        knobs: RANDOM_PARTS (default 19), EARLY (default 64: DPareto's first EARLY evaluations
#        against the random run cut into parts of EARLY, issue 13 item 4; skipped unless INIT < EARLY
#        < BUDGET) and those of common.sh (SEEDS, BUDGET, JOBS, SMOKE, ...)
# Full budget: 4 × (5 × 256 + 19 × 256) evaluations, about 20 CPU-hours (docs/reproductions.md).
source "$(dirname "$0")/common.sh"
all=(adult-logreg-sgd adult-logreg-adam adult-svm-sgd adult-svm-adam)
models=("$@")
[ ${#models[@]} -gt 0 ] || models=("${all[@]}")
require_models "${all[@]}" -- "${models[@]}"
[ "${SMOKE:-0}" = 1 ] && RANDOM_PARTS="${RANDOM_PARTS:-2}" EARLY="${EARLY:-6}"
parts="${RANDOM_PARTS:-19}"
whole_number RANDOM_PARTS "$parts" 2
early="${EARLY:-64}"
whole_number EARLY "$early"
require_data adult
build_cli
declare -A paper=([adult-logreg-sgd]="0.158 (0.053, 0.264)" [adult-logreg-adam]="0.439 (0.272, 0.607)"
                  [adult-svm-sgd]="0.282 (0.161, 0.402)" [adult-svm-adam]="(plotted in Fig. 5, not in Table 2)")

for m in "${models[@]}"; do
  dir="$out_root/$m"
  echo "$m: DPareto, $seeds seed(s) of $budget evaluations; random sampling, $((parts * budget)) evaluations"
  explore_dpareto_seeds "$m" "$dir"
  explore_run "$dir/random" --problem "$m" --method random --prior --budget "$((parts * budget))" --seed 1000 \
    --workers "$jobs" --threads 1
  dp_runs=()
  for s in $(seq 1 "$seeds"); do dp_runs+=("$dir/dpareto-s$s"); done
  compare=("$dpareto" compare "${dp_runs[@]}" --against "$dir/random" --split-against "$budget" --evaluations "$budget"
           --reference 10,1 --hv-axis linear)
  "${compare[@]}" > "$dir/table2.txt" 2>&1
  "${compare[@]}" --csv > "$dir/table2.csv" 2>/dev/null
  if [ "$early" -gt "$init" ] && [ "$early" -lt "$budget" ]; then
    "$dpareto" compare "${dp_runs[@]}" --against "$dir/random" --split-against "$early" --evaluations "$early" \
      --reference 10,1 --hv-axis linear --csv > "$dir/table2-at$early.csv" 2>/dev/null
  fi
  "$dpareto" plot hv "${dp_runs[@]}" "$dir/random" --max-evaluations "$budget" --zoom --out "$dir/fig5_hypervolume.png" > /dev/null
  "$dpareto" plot front "$dir/dpareto-s1" "$dir/random" --accuracy --out "$dir/fig5_front.png" > /dev/null
  echo "  wrote $dir/table2.txt, $dir/fig5_hypervolume.png, $dir/fig5_front.png"
done

fronts=()
for m in "${models[@]}"; do fronts+=("$m/dpareto-s1"); done
# Run names relative to OUT, so that the legend names each model rather than its absolute path.
dpareto_path="$(realpath "$dpareto")"
(cd "$out_root" && "$dpareto_path" plot front "${fronts[@]}" --accuracy --out fig8_adult_fronts.png > /dev/null 2>&1)
echo "wrote $out_root/fig8_adult_fronts.png"

# Table 2 beside the paper's: the paper's statistic on seed 1 (one DPareto run against the random
# parts, one-sample t), its range over the seeds, and Welch's t over all seeds.
{
  echo "| model | paper: mean difference (95% CI) | ours, seed 1: mean difference (95% CI), t | ours, over $seeds seeds: mean difference min to max; seeds whose CI excludes 0 | Welch over the seeds: difference (95% CI), p |"
  echo "|---|---|---|---|---|"
  for m in "${models[@]}"; do
    awk -F, -v model="$m" -v paper="${paper[$m]}" '
      function r(x) { return sprintf("%.3f", x) }
      $1 == "runs" { n++; d[n] = $6; lo[n] = $7; hi[n] = $8; t[n] = $9
                     if (n == 1 || $6 < min) min = $6; if (n == 1 || $6 > max) max = $6
                     if ($7 > 0 || $8 < 0) excl++ }
      $1 == "welch" && $6 != "" { welch = r($6) " (" r($7) ", " r($8) "), p " sprintf("%.2g", $11) }
      END { printf "| %s | %s | %s (%s, %s), t %.2f | %s to %s; %d of %d | %s |\n", model, paper, r(d[1]), r(lo[1]),
                   r(hi[1]), t[1], r(min), r(max), excl, n, (welch == "" ? "(one seed)" : welch) }' \
      "$out_root/$m/table2.csv"
  done
  if [ "$early" -gt "$init" ] && [ "$early" -lt "$budget" ]; then
    echo
    echo "At $early evaluations (DPareto's first $early against the random run in parts of $early):"
    echo
    echo "| model | DPareto HV, min to max over the seeds | random parts' HV, min to max | seeds above every random part | Welch: difference (95% CI) |"
    echo "|---|---|---|---|---|"
    for m in "${models[@]}"; do
      awk -F, -v model="$m" '
        function r(x) { return sprintf("%.4f", x) }
        $1 == "runs" { n++; hv[n] = $5; if (n == 1 || $5 < dmin) dmin = $5; if (n == 1 || $5 > dmax) dmax = $5 }
        $1 == "against" { k++; if (k == 1 || $5 < rmin) rmin = $5; if (k == 1 || $5 > rmax) rmax = $5 }
        $1 == "welch" && $6 != "" { welch = r($6) " (" r($7) ", " r($8) ")" }
        END { above = 0; for (i = 1; i <= n; i++) if (hv[i] > rmax) above++
              printf "| %s | %s to %s | %s to %s (%d parts) | %d of %d | %s |\n", model, r(dmin), r(dmax), r(rmin),
                     r(rmax), k, above, n, (welch == "" ? "(one seed)" : welch) }' \
        "$out_root/$m/table2-at$early.csv"
    done
  fi
} > "$out_root/table2.md"
echo "wrote $out_root/table2.md"
cat "$out_root/table2.md"
