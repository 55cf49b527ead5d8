# Sourced by the DPareto reproductions (experiments/dpareto/*.sh, docs/reproductions.md): where things
# are, the budget knobs, checks of the data and the settings, and one exploration that resumes.
#
# Knobs (environment): OUT (default out/dpareto, out/dpareto-paper with ACCOUNTING=paper), BUILD_DIR (default build), DPARETO_DATA (default
# ../shared/data), JOBS (explorations or evaluations at once, default: the cores), SEEDS (DPareto
# runs per model, default 5), INIT (16), BUDGET (256), REPEATS (utility repeats, default: the
# problem's), MAX_EPOCHS, TRAIN_SUBSET (none by default). SMOKE=1: a tiny budget on a slice of the
# data, to check that a reproduction still runs end to end (the CTest test experiments_smoke).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${BUILD_DIR:-$root/build}"
dpareto="$build/dpareto"
data_dir="${DPARETO_DATA:-$root/../shared/data}"
out_root="${OUT:-$root/out/dpareto${ACCOUNTING:+-$ACCOUNTING}}"
jobs="${JOBS:-$(nproc)}"
me="$(basename "$0")"

die() {  # one line, exit 2 (issue 12: "what is missing and how to get it")
  echo "$me: $*" >&2
  exit 2
}

if [ "${SMOKE:-0}" = 1 ]; then
  SEEDS="${SEEDS:-2}" INIT="${INIT:-4}" BUDGET="${BUDGET:-8}" REPEATS="${REPEATS:-1}"
  MAX_EPOCHS="${MAX_EPOCHS:-2}" TRAIN_SUBSET="${TRAIN_SUBSET:-400}"
fi
seeds="${SEEDS:-5}" init="${INIT:-16}" budget="${BUDGET:-256}"

whole_number() {  # NAME VALUE [MIN]
  [[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -ge "${3:-1}" ] || die "$1=$2: expected a whole number >= ${3:-1}"
}
whole_number SEEDS "$seeds"
whole_number INIT "$init"
whole_number BUDGET "$budget"
whole_number JOBS "$jobs"
[ "$budget" -gt "$init" ] || die "BUDGET=$budget is not above INIT=$init: DPareto needs evaluations beyond its initial points"

# Problem options shared by every exploration of a reproduction. ACCOUNTING=paper accounts as the
# paper did (fixed-size lots drawn without replacement, Wang–Balle–Kasiviswanathan's general RDP
# bound; ε about 2× ours at the same setting), default ours (Poisson lots, PLD accountant).
problem_flags=()
case "${ACCOUNTING:-ours}" in
  ours) ;;
  paper) problem_flags+=(--set sampling=fixed-general --set accountant=rdp) ;;
  *) die "ACCOUNTING=${ACCOUNTING}: expected ours or paper" ;;
esac
[ -z "${REPEATS:-}" ] || { whole_number REPEATS "$REPEATS"; problem_flags+=(--repeats "$REPEATS"); }
[ -z "${MAX_EPOCHS:-}" ] || { whole_number MAX_EPOCHS "$MAX_EPOCHS"; problem_flags+=(--max-epochs "$MAX_EPOCHS"); }
[ -z "${TRAIN_SUBSET:-}" ] || { whole_number TRAIN_SUBSET "$TRAIN_SUBSET"; problem_flags+=(--train-subset "$TRAIN_SUBSET"); }
problem_flags+=(--data-dir "$data_dir")

require_data() {  # adult | mnist
  local files
  case "$1" in
    adult) files="adult/a9a adult/a9a.t" ;;
    mnist) files="mnist/train-images-idx3-ubyte.gz mnist/train-labels-idx1-ubyte.gz mnist/t10k-images-idx3-ubyte.gz mnist/t10k-labels-idx1-ubyte.gz" ;;
  esac
  for f in $files; do
    [ -f "$data_dir/$f" ] ||
      die "$1 data missing: $data_dir/$f not found (put ../shared/data beside the checkout, or set DPARETO_DATA to a copy; docs/reproductions.md says where to get it)"
  done
}

# The models a reproduction takes, checked against the ones it knows: require_models KNOWN... -- GIVEN...
require_models() {
  local known=() given=() seen_separator=0
  for a in "$@"; do
    if [ "$a" = -- ]; then seen_separator=1; elif [ $seen_separator = 0 ]; then known+=("$a"); else given+=("$a"); fi
  done
  for g in "${given[@]}"; do
    [[ " ${known[*]} " == *" $g "* ]] || die "unknown model '$g' (known: ${known[*]})"
  done
}

# The Adult models a two-arm comparison runs (compare_arms), from its arguments (default
# adult-logreg-sgd) into array `models`; checks them and the data, and builds the CLI.
adult_models_from() {
  local all=(adult-logreg-sgd adult-logreg-adam adult-svm-sgd adult-svm-adam)
  models=("$@")
  [ ${#models[@]} -gt 0 ] || models=(adult-logreg-sgd)
  require_models "${all[@]}" -- "${models[@]}"
  require_data adult
  build_cli
}

# Builds the CLI and the further targets named (REBUILD=0: uses what BUILD_DIR holds, and builds
# only the targets named that it lacks).
build_cli() {  # [TARGET...]
  if [ "${REBUILD:-1}" = 0 ]; then
    local target missing=()
    [ -x "$dpareto" ] || missing+=(dpareto)
    for target in "$@"; do [ -x "$build/$target" ] || missing+=("$target"); done
    [ "${#missing[@]}" -eq 0 ] && return
  fi
  [ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DDPARETO_NATIVE=ON >/dev/null
  cmake --build "$build" --target dpareto "$@" -j"$jobs" >/dev/null
}

# One exploration into DIR, resumable: its study (DIR.db) carries the finished evaluations over a
# kill, and a finished run is not redone; each session's output is appended to DIR.log.
# explore_run DIR EXPLORE_FLAGS...
explore_run() {
  local dir="$1"
  shift
  mkdir -p "$(dirname "$dir")"
  echo "  ${dir#"$out_root"/}: running (one progress line per evaluation in $dir.log)"
  "$dpareto" explore --study "$dir.db" --out "$dir" "${problem_flags[@]}" "$@" >> "$dir.log" 2>&1 ||
    { echo "$me: exploration failed, see $dir.log:" >&2; tail -3 "$dir.log" >&2; return 1; }
  echo "  ${dir#"$out_root"/}: $(grep '^explored ' "$dir.log" | tail -1)"
}

# DPareto on MODEL with seeds 1..SEEDS into DIR/dpareto-sS, JOBS at once, one thread each; the
# initial points come from the paper's Appx. C distributions (--prior), as random sampling's do.
explore_dpareto_seeds() {  # MODEL DIR [EXPLORE_FLAGS...]
  local model="$1" dir="$2"
  shift 2
  for s in $(seq 1 "$seeds"); do
    parallel explore_run "$dir/dpareto-s$s" --problem "$model" --method dpareto --prior --init "$init" \
      --budget "$budget" --seed "$s" --threads 1 "$@"
  done
  parallel_wait
}

# Commands JOBS at a time in the background: parallel COMMAND... queues one, parallel_wait waits for
# all and fails when one failed.
running=0 parallel_failed=0
parallel() {
  if [ "$running" -ge "$jobs" ]; then
    wait -n || parallel_failed=1
    running=$((running - 1))
  fi
  "$@" &
  running=$((running + 1))
}
parallel_wait() {
  while [ "$running" -gt 0 ]; do
    wait -n || parallel_failed=1
    running=$((running - 1))
  done
  [ "$parallel_failed" = 0 ] || die "an exploration failed (its .log says why); rerun to resume"
}

# Two DPareto variants on MODEL at equal evaluations (issue 18): SEEDS seeds of each into
# DIR/NAME_A/dpareto-sS and DIR/NAME_B/dpareto-sS, the first with the flags in array arm_a_flags, the
# second with arm_b_flags; then `dpareto compare` (A minus B, per seed and Welch's over the seeds) at
# BUDGET evaluations on the ε AXIS (linear or log, reference 10,1) into DIR/TITLE-AXIS.txt, and the
# hypervolume curves into DIR/TITLE_hv.png. welch_line FILE: the Welch line of such a file.
# compare_arms MODEL DIR TITLE NAME_A NAME_B AXIS...
compare_arms() {
  local model="$1" dir="$2" title="$3" a="$4" b="$5"
  shift 5
  explore_dpareto_seeds "$model" "$dir/$a" "${arm_a_flags[@]}"
  explore_dpareto_seeds "$model" "$dir/$b" "${arm_b_flags[@]}"
  local runs_a=() runs_b=()
  for s in $(seq 1 "$seeds"); do
    runs_a+=("$dir/$a/dpareto-s$s")
    runs_b+=("$dir/$b/dpareto-s$s")
  done
  for axis in "$@"; do
    "$dpareto" compare "${runs_a[@]}" --against "${runs_b[@]}" --evaluations "$budget" --reference 10,1 \
      --hv-axis "$axis" > "$dir/$title-$axis.txt" 2>&1
  done
  "$dpareto" plot hv "${runs_a[@]}" "${runs_b[@]}" --max-evaluations "$budget" --zoom --out "$dir/${title}_hv.png" > /dev/null
}
welch_line() { grep -i '^welch' "$1" | head -1 || true; }

# compare_arms for every model in array `models`, and their table OUT/TITLE.md: one row per model,
# one column per ε AXIS with DIFFERENCE's Welch line ("EHVI minus HVPoI"); WHAT says in the
# progress line what the arms are.
# compare_arms_table TITLE NAME_A NAME_B DIFFERENCE WHAT AXIS...
compare_arms_table() {
  local title="$1" a="$2" b="$3" difference="$4" what="$5"
  shift 5
  local table="$out_root/$title.md" header="| model | runs |" rule="|---|---|" m dir axis welch row files
  for axis in "$@"; do
    header+=" $difference, HV at $budget evaluations ($axis ε axis): Welch (95% CI), p |"
    rule+="---|"
  done
  mkdir -p "$out_root"
  printf '%s\n%s\n' "$header" "$rule" > "$table.tmp"
  for m in "${models[@]}"; do
    dir="$out_root/$m"
    echo "$m: $what, $seeds seed(s) of $budget evaluations each"
    compare_arms "$m" "$dir" "$title" "$a" "$b" "$@"
    row="| $m | $seeds + $seeds |" files=""
    for axis in "$@"; do
      welch="$(welch_line "$dir/$title-$axis.txt")"
      row+=" ${welch:-(one seed each: see $title-$axis.txt)} |"
      files+=" $dir/$title-$axis.txt"
    done
    echo "$row" >> "$table.tmp"
    echo "  wrote$files, $dir/${title}_hv.png"
  done
  mv "$table.tmp" "$table"
  echo "wrote $table"
}
