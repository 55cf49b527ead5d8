#!/usr/bin/env bash
# CTest `experiments_dpareto` (issue 12: "a smoke mode of each is in CI, so they cannot rot"): every
# reproduction with SMOKE=1 (a tiny budget on a slice of the data) into a scratch directory, its
# tables and figures checked; then the bad-input cases: one line, exit 2.
# usage: experiments/dpareto/smoke.sh BUILD_DIR     (the build holding the dpareto CLI)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
[ $# -eq 1 ] && [ -x "$1/dpareto" ] || { echo "usage: smoke.sh BUILD_DIR (with BUILD_DIR/dpareto built)" >&2; exit 2; }
export BUILD_DIR="$1" REBUILD=0 SMOKE=1 JOBS=2
scratch="$(mktemp -d /tmp/dpareto-repro-smoke.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
need() { for f in "$@"; do [ -s "$f" ] || fail "$f was not written"; done; }

OUT="$scratch/adult" bash "$here/table2.sh" adult-logreg-sgd adult-svm-adam > "$scratch/table2.out"
need "$scratch"/adult/table2.md "$scratch"/adult/fig8_adult_fronts.png \
  "$scratch"/adult/adult-{logreg-sgd,svm-adam}/{table2.txt,table2.csv,fig5_hypervolume.png,fig5_front.png}
# One row per model, each with the paper's figure beside ours (a number, its interval and t).
[ "$(sed '/^At /q' "$scratch/adult/table2.md" | grep -c '^| adult-')" = 2 ] || fail "table2.md: expected 2 model rows"
grep -q '^| adult-logreg-sgd | 0.158 (0.053, 0.264) | -\?[0-9.]* (-\?[0-9.]*, -\?[0-9.]*), t ' "$scratch/adult/table2.md" ||
  fail "table2.md: the logreg-sgd row lacks the paper's figure or ours: $(grep logreg-sgd "$scratch/adult/table2.md")"
# 2 DPareto seeds against 2 random parts: a t test per seed and Welch's.
[ "$(grep -c '^runs,.*,[0-9.e-]*,[0-9.e-]*$' "$scratch/adult/adult-logreg-sgd/table2.csv")" = 2 ] ||
  fail "table2.csv: expected a test on each of the 2 DPareto runs"
# DPareto's first EARLY evaluations (smoke: 6) against the random run in parts of 6: a row per model.
need "$scratch"/adult/adult-{logreg-sgd,svm-adam}/table2-at6.csv
[ "$(grep -c '^| adult-.* (2 parts) | [0-2] of 2 |' "$scratch/adult/table2.md")" = 2 ] ||
  fail "table2.md: expected both models at 6 evaluations: $(cat "$scratch/adult/table2.md")"
# A second run resumes everything and redoes nothing: the evaluations stay as they were.
before=$(cat "$scratch"/adult/adult-logreg-sgd/*/evaluations.csv | md5sum)
OUT="$scratch/adult" bash "$here/table2.sh" adult-logreg-sgd > /dev/null
[ "$before" = "$(cat "$scratch"/adult/adult-logreg-sgd/*/evaluations.csv | md5sum)" ] || fail "a rerun changed finished runs"

# Rescored under the paper's accounting: ε changes (up, at these settings), utilities do not, and
# the copies compare.
bash "$here/rescore.sh" "$scratch"/adult/adult-logreg-sgd/{dpareto-s1,random} > /dev/null
awk -F, 'NR > 1 { print $9 > "/dev/stderr" }' "$scratch/adult/adult-logreg-sgd/dpareto-s1/evaluations.csv" 2> "$scratch/ours"
awk -F, 'NR > 1 { print $9 > "/dev/stderr" }' "$scratch/adult/adult-logreg-sgd/dpareto-s1-paper-epsilon/evaluations.csv" 2> "$scratch/paper"
paste -d' ' "$scratch/ours" "$scratch/paper" | awk '!($2 > $1) { bad++ } END { exit bad > 0 }' ||
  fail "rescore: the paper's accounting gave an ε not above ours"
[ "$(cut -d, -f11 "$scratch/adult/adult-logreg-sgd/dpareto-s1/evaluations.csv")" = \
  "$(cut -d, -f11 "$scratch/adult/adult-logreg-sgd/dpareto-s1-paper-epsilon/evaluations.csv")" ] || fail "rescore changed utilities"
"$BUILD_DIR/dpareto" compare "$scratch"/adult/adult-logreg-sgd/dpareto-s1-paper-epsilon \
  --against "$scratch"/adult/adult-logreg-sgd/random-paper-epsilon --split-against 8 > /dev/null
# A hostile run directory: a number that is not one never reaches the command line.
cp -r "$scratch/adult/adult-logreg-sgd/dpareto-s2" "$scratch/hostile"
sed -i '2s/^\(\([^,]*,\)\{6\}\)[^,]*/\11$(touch '"${scratch//\//\\/}"'\/pwned)/' "$scratch/hostile/evaluations.csv"
grep -q 'pwned' "$scratch/hostile/evaluations.csv" || fail "the hostile row was not written"
expect_refusal_early() { local rc=0; bash "$here/rescore.sh" "$scratch/hostile" > /dev/null 2>&1 || rc=$?; [ "$rc" = 2 ]; }
expect_refusal_early || fail "rescore accepted a row whose noise multiplier is not a number"
[ ! -e "$scratch/pwned" ] || fail "rescore ran a command from a run directory"

OUT="$scratch/adult" bash "$here/grid.sh" adult-logreg-sgd > /dev/null
need "$scratch"/adult/grid.md "$scratch"/adult/adult-logreg-sgd/{grid.csv,fig6_hypervolume.png,fig6_front.png}
[ "$(wc -l < "$scratch/adult/adult-logreg-sgd/grid2/evaluations.csv")" = 33 ] || fail "grid2: expected 2^5 = 32 evaluations"

OUT="$scratch/variability" bash "$here/variability.sh" adult-logreg-sgd > /dev/null
need "$scratch"/variability/{fig7_variability.png,variability.md}

OUT="$scratch/mnist" bash "$here/mnist.sh" mnist-mlp2-sgd > /dev/null
need "$scratch"/mnist/{mnist.md,fig8_mnist_fronts.png} "$scratch"/mnist/mnist-mlp2-sgd/{mnist.txt,fig5_front.png}

OUT="$scratch/three" bash "$here/three_objectives.sh" > /dev/null
need "$scratch"/three/three_objectives.md \
  "$scratch"/three/adult-logreg-sgd/three_objectives/{three_objectives.txt,three_objectives_front.png}
grep -q '^| adult-logreg-sgd | 2 + 2 | .* | [0-9] of 2 |$' "$scratch/three/three_objectives.md" ||
  fail "three_objectives.md: $(tail -1 "$scratch/three/three_objectives.md")"

OUT="$scratch/eps" bash "$here/epsilon_input.sh" > /dev/null
need "$scratch"/eps/epsilon_input.md "$scratch"/eps/adult-logreg-sgd/{epsilon_input-linear.txt,epsilon_input_hv.png}
grep -q '^| adult-logreg-sgd | 2 + 2 | Welch' "$scratch/eps/epsilon_input.md" || fail "epsilon_input.md: no Welch row"
# The calibrated runs explore target_epsilon, and every ε they report is at most its target.
head -1 "$scratch/eps/adult-logreg-sgd/calibrated/dpareto-s1/evaluations.csv" | grep -q target_epsilon ||
  fail "the calibrated run does not explore target_epsilon"
awk -F, 'NR > 1 && $3 == "ok" && !($9 <= $7) { bad++ } END { exit bad > 0 }' \
  "$scratch/eps/adult-logreg-sgd/calibrated/dpareto-s1/evaluations.csv" || fail "a calibrated point's ε exceeds its target"

OUT="$scratch/known" bash "$here/known_epsilon.sh" > /dev/null
need "$scratch"/known/known_epsilon.md "$scratch"/known/adult-logreg-sgd/{known_epsilon-linear.txt,known_epsilon-log.txt,known_epsilon_hv.png}
grep -q '^| adult-logreg-sgd | 2 + 2 | Welch' "$scratch/known/known_epsilon.md" || fail "known_epsilon.md: no Welch row"
# Known ε proposes nothing beyond the ε reference 10, initial points included.
awk -F, 'NR > 1 && $3 == "ok" && !($9 <= 10) { bad++ } END { exit bad > 0 }' \
  "$scratch/known/adult-logreg-sgd/known/dpareto-s1/evaluations.csv" || fail "a known-ε run went beyond the reference"

OUT="$scratch/ehvi" bash "$here/ehvi.sh" > /dev/null
need "$scratch"/ehvi/ehvi.md "$scratch"/ehvi/adult-logreg-sgd/{ehvi-linear.txt,ehvi-log.txt,ehvi_hv.png}
grep -q '^| adult-logreg-sgd | 2 + 2 | Welch' "$scratch/ehvi/ehvi.md" || fail "ehvi.md: no Welch row"
grep -q '"acquisition": "ehvi"' "$scratch/ehvi/adult-logreg-sgd/ehvi/dpareto-s1/summary.json" || fail "the EHVI arm did not run EHVI"

OUT="$scratch/front" bash "$here/improvement_front.sh" > /dev/null
need "$scratch"/front/improvement_front.md "$scratch"/front/adult-logreg-sgd/{improvement_front-linear.txt,improvement_front-log.txt,improvement_front_hv.png}
grep -q '^| adult-logreg-sgd | 2 + 2 | Welch' "$scratch/front/improvement_front.md" || fail "improvement_front.md: no Welch row"
grep -q '"improvement_front": "observed"' "$scratch/front/adult-logreg-sgd/observed/dpareto-s1/summary.json" ||
  fail "the observed arm did not cut its cells from the observed front"

OUT="$scratch/epochs" EVERY_ACQUISITION=ehvi bash "$here/every_epoch.sh" > /dev/null
need "$scratch"/epochs/every_epoch.md "$scratch"/epochs/adult-logreg-sgd/{every_epoch-time.txt,every_epoch-time-log.txt,every_epoch-linear.txt,every_epoch_hv.png}
grep -q '^| adult-logreg-sgd | 2 + 2 | ' "$scratch/epochs/every_epoch.md" || fail "every_epoch.md: no row"
# The every-epoch runs hold intermediate results (phase epoch), the final-epoch runs none.
grep -q '^[0-9]*,epoch,ok,' "$scratch/epochs/adult-logreg-sgd/every/dpareto-s1/evaluations.csv" ||
  fail "an every-epoch run recorded no intermediate result"
! grep -q '^[0-9]*,epoch,' "$scratch/epochs/adult-logreg-sgd/final/dpareto-s1/evaluations.csv" ||
  fail "a final-epoch run recorded intermediate results"
grep -q '"acquisition": "ehvi"' "$scratch/epochs/adult-logreg-sgd/every/dpareto-s1/summary.json" ||
  fail "EVERY_ACQUISITION=ehvi: the every-epoch arm did not run EHVI"
grep -q '"acquisition": "hvpoi"' "$scratch/epochs/adult-logreg-sgd/final/dpareto-s1/summary.json" ||
  fail "EVERY_ACQUISITION=ehvi: the final-epoch arm did not keep HVPoI"

OUT="$scratch/adult" bash "$here/overhead.sh" > /dev/null
need "$scratch/adult/overhead.md"
[ "$(grep -c '^| adult-logreg-sgd/dpareto-s' "$scratch/adult/overhead.md")" = 2 ] || fail "overhead.md: expected 2 DPareto runs"

# Bad input: one line naming what is wrong, exit 2, nothing run.
expect_refusal() {  # PATTERN COMMAND...
  local pattern="$1" out rc=0
  shift
  out=$("$@" 2>&1 >/dev/null) || rc=$?
  [ "$rc" = 2 ] || fail "$*: exit $rc, expected 2"
  [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "$*: expected one line, got: $out"
  [[ "$out" == *$pattern* ]] || fail "$*: '$out' does not say '$pattern'"
}
OUT="$scratch/bad" expect_refusal "unknown model 'adult-logreg-sdg'" bash "$here/table2.sh" adult-logreg-sdg
OUT="$scratch/bad" BUDGET=10 INIT=16 expect_refusal "BUDGET=10 is not above INIT=16" bash "$here/grid.sh"
OUT="$scratch/bad" DPARETO_DATA="$scratch/nowhere" expect_refusal "mnist data missing: $scratch/nowhere/mnist/" \
  bash "$here/mnist.sh"
OUT="$scratch/bad" DPARETO_DATA="$scratch/nowhere" expect_refusal "adult data missing" bash "$here/variability.sh"
OUT="$scratch/bad" REPEATS=1 SMOKE=0 expect_refusal "needs at least 2 repeats" bash "$here/variability.sh"
OUT="$scratch/bad" ACCOUNTING=moments expect_refusal "ACCOUNTING=moments: expected ours or paper" bash "$here/table2.sh"
OUT="$scratch/bad" EVERY_ACQUISITION=ucb expect_refusal "EVERY_ACQUISITION=ucb: expected hvpoi or ehvi" \
  bash "$here/every_epoch.sh"
OUT="$scratch/bad" SEEDS=x expect_refusal "SEEDS=x: expected a whole number" bash "$here/table2.sh"
OUT="$scratch/bad" STUDY_URI=/tmp/x.db expect_refusal "STUDY_URI=/tmp/x.db: expected a postgresql:// URI" bash "$here/mnist.sh"
OUT="$scratch/empty" expect_refusal "no DPareto runs under $scratch/empty" bash "$here/overhead.sh"
[ ! -e "$scratch/bad" ] || fail "a refused reproduction wrote $scratch/bad"
echo "experiments/dpareto: every reproduction ran in smoke mode; bad input refused"
