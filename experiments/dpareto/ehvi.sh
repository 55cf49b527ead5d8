#!/usr/bin/env bash
# EHVI against HVPoI on the Adult problems (issue 13 item 1: "if one of them is better on some
# problems, say which and when"): DPareto with --acquisition ehvi (whose noisy GPs learn an input
# warping) against DPareto with the default HVPoI, at equal evaluations (INIT + BUDGET − INIT, SEEDS
# seeds each). Hypervolume with reference (10, 1) on the linear ε axis (Table 2's) and on the log
# axis. Writes, per model, OUT/MODEL/ehvi-{linear,log}.txt (dpareto compare: EHVI minus HVPoI, per
# seed and Welch's over the seeds) and ehvi_hv.png, then OUT/ehvi.md.
#
# usage: experiments/dpareto/ehvi.sh [MODEL...]   (default adult-logreg-sgd)
#        knobs: those of common.sh; BUDGET defaults to 64 and SEEDS to 10 here
[ "${SMOKE:-0}" = 1 ] || : "${BUDGET:=64}" "${SEEDS:=10}"
source "$(dirname "$0")/common.sh"
adult_models_from "$@"

mkdir -p "$out_root"
table="$out_root/ehvi.md"
{
  echo "| model | runs | EHVI minus HVPoI, HV at $budget evaluations (linear ε axis): Welch (95% CI), p | the same on the log ε axis |"
  echo "|---|---|---|---|"
} > "$table.tmp"
for m in "${models[@]}"; do
  dir="$out_root/$m"
  echo "$m: DPareto with EHVI and with HVPoI, $seeds seed(s) of $budget evaluations each"
  arm_a_flags=(--acquisition ehvi) arm_b_flags=()
  compare_arms "$m" "$dir" ehvi ehvi hvpoi linear log
  linear="$(welch_line "$dir/ehvi-linear.txt")" log="$(welch_line "$dir/ehvi-log.txt")"
  echo "| $m | $seeds + $seeds | ${linear:-(one seed each: see ehvi-linear.txt)} | ${log:-(see ehvi-log.txt)} |" >> "$table.tmp"
  echo "  wrote $dir/ehvi-{linear,log}.txt, $dir/ehvi_hv.png"
done
mv "$table.tmp" "$table"
echo "wrote $table"
