#!/usr/bin/env bash
# Many-machines benchmark on localhost (issue 11, "Must reach"): one PostgreSQL study, worker
# processes, an external oracle that sleeps. Prints its figures; exits non-zero when a check fails.
#   chaos    8 processes (explore + 7 workers), oracle sleeping 0.2-2 s, budget 200; SIGKILL a
#            random worker 15 times (restarting it) and restart the server twice (immediate
#            shutdown) mid-run. Checks: 200 completed, each trial number once, completions 1..200,
#            no running row, and the front explore wrote as results arrived equals the front
#            exported from the rows.
#   speedup  oracle sleeping 1 s, budget 64: one worker vs 8 workers (wall time ratio).
#   overhead oracle sleeping 1 s, budget 256, 8 workers: proposal-lock wait and time in the
#            database per recorded evaluation (the workers' own accounts).
#   svt      SVT, 10 seeds, 64 evaluations: hypervolume with 1 vs 8 evaluations at once on one study.
# usage: experiments/pg_workers.sh [chaos|speedup|overhead|svt|all] (default all); needs build/dpareto
# (or DPARETO_CLI).
# Uses $DPARETO_TEST_PG when set, else starts a throwaway server (scripts/pg-test-cluster).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cli=${DPARETO_CLI:-$root/build/dpareto}  # the CLI to measure
what=${1:-all}
[ -x "$cli" ] || { echo "$cli is missing: run scripts/build" >&2; exit 2; }

pg_dir=""
work=$(mktemp -d /tmp/dpareto-pg-bench.XXXXXX)
cleanup() {
  jobs -p | xargs -r kill -9 2>/dev/null || true
  [ -n "$pg_dir" ] && bash "$root/scripts/pg-test-cluster" stop "$pg_dir" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
if [ -z "${DPARETO_TEST_PG:-}" ]; then
  eval "$(bash scripts/pg-test-cluster start)"
  pg_dir=$DPARETO_TEST_PG_DIR
fi
uri=$DPARETO_TEST_PG
cd "$work"
echo '{"parameters": [{"name": "x", "kind": "continuous", "low": 0.1, "high": 10},
                      {"name": "y", "kind": "continuous", "low": 0, "high": 1}]}' >space.json
# The oracle: sleeps (fixed, or drawn from its seed in [lo, hi]), appends to finished.log, prints
# (epsilon, utility) from the setting.
cat >oracle.sh <<'EOF'
lo=$1; hi=$2; x=$3; y=$4; seed=$5
sleep "$(awk -v s="$seed" -v lo="$lo" -v hi="$hi" 'BEGIN { srand(s % 2147483647); printf "%.3f", lo + (hi - lo) * rand() }')"
echo "$x $y" >>finished.log
awk -v x="$x" -v y="$y" 'BEGIN { printf "{\"epsilon\": %s, \"utility\": %.6f}\n", x, 0.9 - 0.5 * exp(-x) - 0.1 * y }'
EOF

now() { date +%s.%N; }
psql_value() { psql -qAt "$uri" -c "$1"; }
rows_of() { # name -> "count distinct min max running failed"
  psql_value "select count(*), count(distinct trial), min(completion), max(completion), sum((status = 'running')::int),
              sum((status = 'failed')::int)
              from dpareto_trials t join dpareto_studies s on s.id = t.study_id where s.name = '$1'"
}
oracle() { echo "sh $work/oracle.sh $1 $2 {x} {y} {seed}"; }
wait_for_study() { # name: until explore has created it
  until "$cli" status "$uri" --study-name "$1" >/dev/null 2>&1; do sleep 0.05; done
}
worker() { # name log (exec: the background job's pid is the worker's)
  exec "$cli" worker "$uri" --study-name "$1" --heartbeat 1 --quiet --trust-study-command >>"$2" 2>&1
}

chaos() {
  local name=chaos-$$ budget=200
  rm -f finished.log
  local start; start=$(now)
  "$cli" explore --oracle-cmd "$(oracle 0.2 2)" --space space.json --budget $budget --seed 11 --study "$uri" \
    --study-name $name --out chaos-run --heartbeat 1 >explore.log 2>&1 &
  local explore_pid=$!
  wait_for_study $name
  local pids=()
  for i in 1 2 3 4 5 6 7; do worker $name "w$i.log" & pids+=($!); done
  local kills=0 restarts=0
  while [ $kills -lt 15 ] && kill -0 $explore_pid 2>/dev/null; do
    sleep 1
    local i=$((RANDOM % 7))
    kill -9 "${pids[$i]}" 2>/dev/null && kills=$((kills + 1))
    worker $name "w$((i + 1)).log" & pids[$i]=$!
    if [ $kills -eq 5 ] || [ $kills -eq 10 ]; then
      if [ -n "$pg_dir" ]; then bash "$root/scripts/pg-test-cluster" restart-immediate "$pg_dir" >/dev/null 2>&1; else
        echo "chaos: DPARETO_TEST_PG given, the server is not restarted" >&2; fi
      restarts=$((restarts + 1))
    fi
  done
  wait $explore_pid || { echo "chaos: explore failed:"; tail -3 explore.log; return 1; }
  for p in "${pids[@]}"; do wait "$p" || true; done
  local seconds; seconds=$(echo "$(now) - $start" | bc)
  read -r count distinct first last running failed <<<"$(rows_of $name | tr '|' ' ')"
  "$cli" export "$uri" --study-name $name --out chaos-export >/dev/null
  local same_front=no
  cmp -s <(cut -d, -f1-9 chaos-run/front.csv) <(cut -d, -f1-9 chaos-export/front.csv) && same_front=yes
  echo "chaos: $kills SIGKILLs, $restarts server restarts, ${seconds%.*} s: $count trials ($distinct distinct), completions $first..$last ($failed failed: lost with their worker twice), $running running, $(wc -l <finished.log) oracle runs finished (killed workers' oracles included), front from explore = front from rows: $same_front"
  [ "$count" = $budget ] && [ "$distinct" = $budget ] && [ "$first" = 1 ] && [ "$last" = $budget ] &&
    [ "$running" = 0 ] && [ $same_front = yes ]
}

timed_run() { # name budget workers lo hi -> seconds
  local name=$1 budget=$2 n=$3
  local start; start=$(now)
  "$cli" explore --oracle-cmd "$(oracle "$4" "$5")" --space space.json --budget "$budget" --seed 12 --study "$uri" \
    --study-name "$name" --out "$name-run" >"$name-explore.log" 2>&1 &
  local pids=($!)
  wait_for_study "$name"
  for ((i = 1; i < n; i++)); do worker "$name" "$name-w$i.log" & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p" || { echo "$name: a process failed" >&2; cat "$name"-*.log >&2; return 1; }; done
  echo "$(now) - $start" | bc
}

speedup() {
  local one eight
  one=$(timed_run speed1-$$ 64 1 1 1)
  eight=$(timed_run speed8-$$ 64 8 1 1)
  echo "speedup: 64 evaluations of a 1 s oracle: 1 worker ${one%.*} s, 8 workers ${eight%.*} s: $(echo "scale=1; 100 * $eight / $one" | bc) % of one worker's time"
}

overhead() {
  local seconds
  seconds=$(timed_run over-$$ 256 8 1 1)
  cat over-$$-w*.log | awk -v s="${seconds%.*}" '
    /worker leaves/ { for (i = 1; i <= NF; i++) { if ($i == "recorded") n += $(i + 1); if ($i == "waited") w += $(i + 1); if ($i == "spent") d += $(i + 1); if ($i == "asked") a += $(i + 2); if ($i == "repeated)") r += substr($(i - 2), 2) } }
    END { printf "overhead: 256 evaluations, 8 processes, %s s: 7 workers recorded %d; per evaluation %.1f ms waiting for the proposal lock  + %.1f ms in the database; their asks took %.1f ms per evaluation (outside the lock; %d repeated because another worker proposed meanwhile)\n", s, n, 1000 * w / n, 1000 * d / n, 1000 * a / n, r }'
}

# SVT, 10 seeds, 64 evaluations: hypervolume of one evaluation at a time vs 8 at once on one
# PostgreSQL study. SVT evaluates in microseconds, so separate worker processes would rarely overlap;
# one process with --workers 8 runs the same shared-store loop (every running row of the study is a
# pending point) with 8 evaluations really in flight.
svt_hv() {
  local seq=0 par=0
  for seed in 1 2 3 4 5 6 7 8 9 10; do
    local a b
    for w in 1 8; do
      "$cli" explore --problem svt --budget 64 --seed "$seed" --workers $w --study "$uri" \
        --study-name "svt$w-$$-$seed" --out "svt$w-$seed" >/dev/null 2>&1
    done
    a=$("$cli" status "$uri" --study-name "svt1-$$-$seed" --json | sed 's/.*"hypervolume":\([0-9.e+-]*\).*/\1/')
    b=$("$cli" status "$uri" --study-name "svt8-$$-$seed" --json | sed 's/.*"hypervolume":\([0-9.e+-]*\).*/\1/')
    echo "svt seed $seed: 1 at a time $a, 8 at once $b"
    seq=$(echo "$seq + $a" | bc -l)
    par=$(echo "$par + $b" | bc -l)
  done
  echo "svt: mean hypervolume at 64 evaluations, 1 at a time $(echo "scale=4; $seq / 10" | bc -l), 8 at once $(echo "scale=4; $par / 10" | bc -l): $(echo "scale=2; 100 * ($par - $seq) / $seq" | bc -l) %"
}

status=0
case $what in
  chaos) chaos || status=1 ;;
  speedup) speedup ;;
  overhead) overhead ;;
  svt) svt_hv ;;
  all) chaos || status=1; speedup; overhead; svt_hv ;;
  *) echo "usage: experiments/pg_workers.sh [chaos|speedup|overhead|svt|all]" >&2; exit 2 ;;
esac
exit $status
