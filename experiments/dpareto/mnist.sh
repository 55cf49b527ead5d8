#!/usr/bin/env bash
# DPareto on MNIST (issue 12 item 5; Fig. 5 top right and bottom left, Fig. 8 right): MLP1 and MLP2
# by DPareto (SEEDS, default 1) and by random sampling from the paper's Table 3 distributions
# (RANDOM_PARTS × BUDGET samples, default 1 × BUDGET), hypervolume on the linear ε axis with
# reference (10, 1). Writes OUT/MODEL/mnist.txt and .csv (dpareto compare), fig5_hypervolume.png,
# fig5_front.png (DPareto's front against random's), OUT/fig8_mnist_fronts.png and OUT/mnist.md.
#
# usage: experiments/dpareto/mnist.sh [MODEL...]     (default: mnist-mlp1-sgd mnist-mlp2-sgd)
#   REDUCED=1   one 2-core machine, about an hour (estimated): BUDGET 128 (16 initial), epochs capped at 10
#               (MAX_EPOCHS), one repeat (REPEATS); the paper's budget is 16 + 256 with up to 400 epochs
#   STUDY_URI=postgresql://...   the full budget on a cluster: every exploration is a study on that
#               server (named mnist-MODEL-dpareto-sS, mnist-MODEL-random); the script prints the
#               `dpareto worker` command to start on each other host, and JOBS evaluations run here.
# Full budget: 2 × (256 + 256) evaluations of up to 400 epochs, on the order of 100 CPU-hours
# (estimated; docs/reproductions.md).
if [ "${REDUCED:-0}" = 1 ]; then
  BUDGET="${BUDGET:-128}" MAX_EPOCHS="${MAX_EPOCHS:-10}" REPEATS="${REPEATS:-1}"
fi
[ "${SMOKE:-0}" = 1 ] && TRAIN_SUBSET="${TRAIN_SUBSET:-200}"
SEEDS="${SEEDS:-1}"
REPEATS="${REPEATS:-1}"  # the paper's MNIST utility: one training per setting
source "$(dirname "$0")/common.sh"
all=(mnist-mlp1-sgd mnist-mlp2-sgd)
models=("$@")
[ ${#models[@]} -gt 0 ] || models=("${all[@]}")
require_models "${all[@]}" -- "${models[@]}"
parts="${RANDOM_PARTS:-1}"
whole_number RANDOM_PARTS "$parts"
require_data mnist
build_cli
if [ -n "${STUDY_URI:-}" ]; then
  [[ "$STUDY_URI" == postgresql://* ]] || die "STUDY_URI=$STUDY_URI: expected a postgresql:// URI (docs/study.md)"
  # The explorations below become studies on the server; workers on other hosts join them by name.
  explore_run() {
    local dir="$1" name
    shift
    name="mnist-$(basename "$(dirname "$dir")")-$(basename "$dir")"
    echo "  study $name: on each other host, run: dpareto worker \"\$STUDY_URI\" --study-name $name --workers N"
    mkdir -p "$(dirname "$dir")"
    "$dpareto" explore --study "$STUDY_URI" --study-name "$name" --out "$dir" \
      "${problem_flags[@]}" "$@" >> "$dir.log" 2>&1 ||
      { echo "$me: exploration failed, see $dir.log:" >&2; tail -3 "$dir.log" >&2; return 1; }
    echo "  ${dir#"$out_root"/}: $(grep '^explored ' "$dir.log" | tail -1)"
  }
  jobs_at_once=1  # one study at a time: the cluster's workers follow it
else
  jobs_at_once="$jobs"
fi

for m in "${models[@]}"; do
  dir="$out_root/$m"
  echo "$m: DPareto, $seeds seed(s) of $budget evaluations; random sampling, $((parts * budget)) evaluations"
  jobs="$jobs_at_once" explore_dpareto_seeds "$m" "$dir"
  explore_run "$dir/random" --problem "$m" --method random --prior --budget "$((parts * budget))" --seed 1000 \
    --workers "$jobs" --threads 1
  dp_runs=()
  for s in $(seq 1 "$seeds"); do dp_runs+=("$dir/dpareto-s$s"); done
  compare=("$dpareto" compare "${dp_runs[@]}" --against "$dir/random" --split-against "$budget" --evaluations "$budget"
           --reference 10,1 --hv-axis linear)
  "${compare[@]}" > "$dir/mnist.txt" 2>&1
  "${compare[@]}" --csv > "$dir/mnist.csv" 2>/dev/null
  "$dpareto" plot hv "${dp_runs[@]}" "$dir/random" --max-evaluations "$budget" --zoom --out "$dir/fig5_hypervolume.png" > /dev/null
  "$dpareto" plot front "$dir/dpareto-s1" "$dir/random" --accuracy --out "$dir/fig5_front.png" > /dev/null
  echo "  wrote $dir/mnist.txt, $dir/fig5_hypervolume.png, $dir/fig5_front.png"
done
fronts=()
for m in "${models[@]}"; do fronts+=("$out_root/$m/dpareto-s1"); done
"$dpareto" plot front "${fronts[@]}" --accuracy --out "$out_root/fig8_mnist_fronts.png" > /dev/null 2>&1
echo "wrote $out_root/fig8_mnist_fronts.png"

# Hypervolumes and the training time they cost (the evaluations' own seconds, summed).
{
  echo "| model | DPareto hypervolume ($budget evaluations) | random sampling hypervolume ($budget evaluations; parts: $parts) | CPU-hours (DPareto + random, training) |"
  echo "|---|---|---|---|"
  for m in "${models[@]}"; do
    hours=$(cat "$out_root/$m"/dpareto-s*/evaluations.csv "$out_root/$m/random/evaluations.csv" |
      awk -F, '$1 == "id" { for (i = 1; i <= NF; i++) if ($i == "seconds") c = i; next } { s += $c } END { printf "%.2f", s / 3600 }')
    awk -F, -v model="$m" -v hours="$hours" '
      $1 == "runs" { n++; dp = dp sep sprintf("%.3f", $5); sep = ", " }
      $1 == "against" { m++; r += $5 }
      END { printf "| %s | %s | %.3f | %s |\n", model, dp, r / m, hours }' "$out_root/$m/mnist.csv"
  done
} > "$out_root/mnist.md"
echo "wrote $out_root/mnist.md"
cat "$out_root/mnist.md"
