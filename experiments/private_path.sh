#!/usr/bin/env bash
# Issue 17: what the honest path costs. Two workflows on Adult (logistic regression, DP-SGD, Poisson
# lots), each: explore -> pick 5 candidates -> tune (random stopping) at total epsilon E, RUNS seeds:
#   honest:      explore on the public proxy split (split=proxy), tune and train on the disjoint
#                private split (split=private): every release is covered by the certificate;
#   private-front: explore on all training rows, tune on all rows with --candidates-from-private-front
#                (the candidate choice is NOT covered: what users did before data roles existed).
# Prints and writes OUT/summary.csv: workflow, epsilon, mean test accuracy of the released model,
# standard error, runs released; OUT/runs.csv: one row per tuning run.
# Usage: experiments/private_path.sh [OUT] [RUNS] [EPSILONS] [BUDGET]
#        (defaults: out/private_path 10 "0.5 1 2" 48; about 10 minutes on the 2-core machine)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
out="${1:-$root/out/private_path}"
runs="${2:-10}"
epsilons="${3:-0.5 1 2}"
budget="${4:-48}"
[ -x "$build/dpareto" ] || { echo "build dpareto first (bash scripts/build)" >&2; exit 1; }
dp="$build/dpareto"
problem=(--problem adult-logreg-sgd --repeats 3 --threads 2)
mkdir -p "$out"
explore_and_pick() {  # NAME SPLIT
  "$dp" explore "${problem[@]}" --set split="$2" --budget "$budget" --init 16 --seed 7 --out "$out/$1-run" >/dev/null
  "$dp" pick "$out/$1-run" --max-epsilon 2 --candidates 5 --out "$out/$1-cands.json" >/dev/null
}
explore_and_pick honest proxy
explore_and_pick private-front all
echo "workflow,epsilon,seed,released,test_accuracy,candidates_source" > "$out/runs.csv"
for eps in $epsilons; do
  for seed in $(seq 1 "$runs"); do
    for workflow in honest private-front; do
      if [ "$workflow" = honest ]; then split=private; extra=(); else split=all; extra=(--candidates-from-private-front); fi
      "$dp" tune "${problem[@]}" --set split="$split" --candidates "$out/$workflow-cands.json" "${extra[@]}" \
        --method random-stopping --target-epsilon "$eps" --delta 1e-5 --seed "$seed" \
        --ledger "$out/ledger-$workflow.json" --exceed-cap --out "$out/tune-$workflow-$eps-$seed" >/dev/null
      python3 - "$out/tune-$workflow-$eps-$seed/certificate.json" "$workflow" "$eps" "$seed" >>"$out/runs.csv" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
acc = c["test_utility"]
print(f'{sys.argv[2]},{sys.argv[3]},{sys.argv[4]},{int(acc is not None)},{"" if acc is None else acc},{c["candidates_source"]}')
PY
    done
  done
done
python3 - "$out/runs.csv" "$out/summary.csv" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
out = open(sys.argv[2], "w")
out.write("workflow,epsilon,mean_test_accuracy,standard_error,released,runs\n")
for w in ("honest", "private-front"):
    for e in sorted({r["epsilon"] for r in rows}, key=float):
        acc = [float(r["test_accuracy"]) for r in rows if r["workflow"] == w and r["epsilon"] == e and r["released"] == "1"]
        n = len([r for r in rows if r["workflow"] == w and r["epsilon"] == e])
        mean = sum(acc) / len(acc) if acc else float("nan")
        se = math.sqrt(sum((a - mean) ** 2 for a in acc) / (len(acc) - 1) / len(acc)) if len(acc) > 1 else float("nan")
        out.write(f"{w},{e},{mean:.4f},{se:.4f},{len(acc)},{n}\n")
out.close()
print(open(sys.argv[2]).read(), end="")
PY
echo "wrote $out/summary.csv and $out/runs.csv"
