#!/usr/bin/env bash
# How much of a Table 2 difference is the accountant's? Copies each DP-SGD run directory to
# RUN-paper-epsilon with every ok evaluation's ε recomputed as the paper accounted (fixed-size lots
# drawn without replacement, Wang–Balle–Kasiviswanathan's general RDP bound: `dpareto account dpsgd
# --sampling fixed-general --accountant rdp`, q = lot/n, T = epochs · round(n/lot)), utilities as
# measured. `dpareto compare` on the copies then approximates Table 2 under the paper's accounting
# without training anything (approximate: the settings were chosen, and trained, under ours).
#
# usage: experiments/dpareto/rescore.sh RUN_DIR...
source "$(dirname "$0")/common.sh"
[ $# -gt 0 ] || die "usage: rescore.sh RUN_DIR... (DP-SGD runs made by table2.sh or mnist.sh)"
for run in "$@"; do
  [ -f "$run/evaluations.csv" ] && [ -f "$run/summary.json" ] || die "$run: not a run directory (no evaluations.csv or summary.json)"
  n=$(grep -o '"train_size": *"[0-9]*"' "$run/summary.json" | grep -o '[0-9]*' | head -1)
  delta=$(grep -o '"delta": *[0-9.e-]*' "$run/summary.json" | head -1 | sed 's/.*: *//')
  [ -n "$n" ] && [ -n "$delta" ] || die "$run: summary.json names no train_size or delta (not a DP-training run?)"
  out="$run-paper-epsilon"
  rm -rf "$out"
  cp -r "$run" "$out"
  awk -F, -v OFS=, -v n="$n" -v delta="$delta" -v dpareto="$dpareto" '
    BEGIN { need[1] = "epochs"; need[2] = "lot_size"; need[3] = "noise_multiplier" }
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
              if (!("lot_size" in col) || !("noise_multiplier" in col)) { print "not a DP-SGD run" > "/dev/stderr"; exit 2 }
              print; next }
    $col["status"] != "ok" { print; next }
    { # Only numbers reach the command line (a run directory may come from someone else).
      for (k in need) if ($col[need[k]] !~ /^[0-9][0-9.eE+-]*$/ || $col[need[k]] + 0 <= 0) {
        printf "%s row %d: %s is %s, not a positive number\n", FILENAME, NR, need[k], $col[need[k]] > "/dev/stderr"; exit 2 }
      lot = $col["lot_size"] + 0; steps = ($col["epochs"] + 0) * int(n / lot + 0.5)
      cmd = sprintf("\"%s\" account dpsgd --sampling fixed-general --accountant rdp --q %.17g --sigma %.17g --steps %d --delta %.17g --json",
                    dpareto, lot / n, $col["noise_multiplier"] + 0, steps, delta + 0)
      cmd | getline json; close(cmd)
      if (!match(json, /"epsilon":[0-9.e+-]+/)) { print "no epsilon from: " cmd > "/dev/stderr"; exit 1 }
      $col["epsilon"] = substr(json, RSTART + 10, RLENGTH - 10); print }' "$run/evaluations.csv" > "$out/evaluations.csv" ||
    { rm -rf "$out"; die "$run: cannot rescore (see above)"; }
  echo "wrote $out"
done
