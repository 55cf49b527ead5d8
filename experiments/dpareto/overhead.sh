#!/usr/bin/env bash
# DPareto's own time (issue 12 item 6; the paper's Sec. 4 "Computational Overhead": about 45 s for
# 16 + 256 on Adult and on MNIST, under 0.1% / 0.01% of the front's time): for every DPareto run
# that table2.sh and mnist.sh made under OUT, the time inside the explorer (GP fits plus acquisition
# maximisation, as `explore` prints it, summed over the sessions of a resumed run) beside the run's training time (its evaluations' seconds,
# summed). Runs nothing; writes OUT/overhead.md.
#
# usage: experiments/dpareto/overhead.sh     (after table2.sh and/or mnist.sh; BUDGET=272 there gives
#        the paper's 16 + 256 exactly)
source "$(dirname "$0")/common.sh"
shopt -s nullglob
logs=("$out_root"/*/dpareto-s*.log)
[ ${#logs[@]} -gt 0 ] || die "no DPareto runs under $out_root: run experiments/dpareto/table2.sh or mnist.sh first (same OUT)"
{
  echo "| run | evaluations | explorer: GP fit + acquisition (s) | training (s, summed) | explorer share |"
  echo "|---|---|---|---|---|"
  for log in "${logs[@]}"; do
    run="${log%.log}"
    grep -q '^ask() time:' "$log" || continue  # unfinished
    # Every session of a resumed run appended its own line.
    explorer=$(awk '/^ask\(\) time:/ { gsub(/,/, ""); s += $5 + $8 } END { print s }' "$log")
    awk -F, -v run="${run#"$out_root"/}" -v explorer="$explorer" '
      $1 == "id" { for (i = 1; i <= NF; i++) if ($i == "seconds") c = i; next }
      { n++; s += $c }
      END { printf "| %s | %d | %.1f | %.0f | %.2g%% |\n", run, n, explorer, s, 100 * explorer / (explorer + s) }' \
      "$run/evaluations.csv"
  done
} > "$out_root/overhead.md"
echo "wrote $out_root/overhead.md"
cat "$out_root/overhead.md"
