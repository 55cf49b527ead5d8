#!/usr/bin/env bash
# Starts (or stops) dpareto workers over ssh on the hosts of a file: one `dpareto worker` per host,
# under nohup and detached from the ssh session, each joining a study stored in PostgreSQL
# (docs/study.md, "Many machines: PostgreSQL and workers"). Create the study first.
#
# usage: experiments/cluster/ssh-workers.sh HOSTS_FILE URI STUDY_NAME [WORKER_FLAGS...]
#        (an external-oracle study needs --trust-study-command among the WORKER_FLAGS)
#        experiments/cluster/ssh-workers.sh --stop HOSTS_FILE STUDY_NAME
#   HOSTS_FILE    one host a line (`host`, `user@host` or an ~/.ssh/config alias), optionally
#                 followed by the number of threads (default: the host's `nproc`); `#` comments.
#   URI           postgresql://USER@HOST:PORT/DB without a password (refused otherwise): each host
#                 authenticates with its own ~/.pgpass (mode 0600), or the PG* variables its login
#                 shell sets (PGPASSWORD, PGSSLMODE, ...): the workers start under `bash -l`.
#   WORKER_FLAGS  passed on, e.g. --heartbeat 30 --spool-dir /scratch/dpareto-spool
# Environment: DPARETO (the binary on the hosts: an absolute path or a name in their PATH; default
# dpareto), DPARETO_REMOTE_DIR (the workers' working directory; default the remote home).
# Each worker logs to DIR/dpareto-worker-STUDY-HOST.log on its host, its pid in the .pid file beside
# it; this script prints one line per host and exits 1 if any host failed. --stop sends SIGTERM to
# the recorded workers; what they were evaluating is re-run (same parameters and seed) by another
# worker after the grace period.
set -euo pipefail

die() {
  echo "ssh-workers: $*" >&2
  exit 2
}

if [ "${1:-}" = --stop ]; then
  [ $# -eq 3 ] || die "usage: $0 --stop HOSTS_FILE STUDY_NAME"
  mode=stop hosts_file=$2 name=$3
  set --
else
  [ $# -ge 3 ] || die "usage: $0 HOSTS_FILE URI STUDY_NAME [WORKER_FLAGS...]"
  mode=start hosts_file=$1 uri=$2 name=$3
  shift 3
  if [[ $uri =~ ^[A-Za-z]+://[^/@]*:[^/@]*@ || $uri == *password=* ]]; then
    die "the URI holds a password (it would show in every host's process list); use ~/.pgpass"
  fi
fi
[ -r "$hosts_file" ] || die "cannot read the hosts file $hosts_file"
# The log and pid file names hold the study name, anything but [A-Za-z0-9._-] replaced by _.
tag=$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_')

# Runs on each host under `bash -l`, arguments: MODE DIR TAG [THREADS DPARETO URI NAME FLAGS...].
# shellcheck disable=SC2016  # expanded on the host
remote='
set -eu
mode=$1 dir=$2 tag=$3
shift 3
[ -z "$dir" ] || cd "$dir"
h=$(hostname -s)
log=$PWD/dpareto-worker-$tag-$h.log
pidfile=$PWD/dpareto-worker-$tag-$h.pid
pid=$(cat "$pidfile" 2>/dev/null || true)
alive() { [ -n "$pid" ] && ps -o args= -p "$pid" 2>/dev/null | grep -q " worker "; }
if [ "$mode" = stop ]; then
  if alive; then kill -TERM "$pid"; echo "stopped worker $pid on $h"; else echo "no worker running on $h"; fi
  rm -f "$pidfile"
  exit 0
fi
if alive; then echo "a worker for this study runs on $h already (pid $pid)"; exit 1; fi
threads=${1:-$(nproc)} dpareto=$2 uri=$3 name=$4
shift 4
command -v "$dpareto" >/dev/null || { echo "$dpareto: not found on $h"; exit 1; }
setsid nohup "$dpareto" worker "$uri" --study-name "$name" --threads "$threads" "$@" \
  >>"$log" 2>&1 </dev/null &
pid=$!
echo "$pid" >"$pidfile"
sleep 2
if ! kill -0 "$pid" 2>/dev/null; then echo "the worker ended at once; $log says:"; tail -n 5 "$log"; exit 1; fi
echo "started worker $pid on $h ($threads threads), log $log"
'

hosts=() threads=()
while read -r host nthreads _ || [ -n "${host:-}" ]; do
  if [ -z "$host" ] || [ "${host:0:1}" = "#" ]; then continue; fi
  [ "${nthreads:0:1}" != "#" ] || nthreads=""
  [ -z "$nthreads" ] || [[ $nthreads =~ ^[1-9][0-9]*$ ]] ||
    die "$hosts_file: host $host: '$nthreads' threads is not a positive integer"
  hosts+=("$host") threads+=("$nthreads")
done <"$hosts_file"
[ ${#hosts[@]} -gt 0 ] || die "$hosts_file names no host"

failed=0
for i in "${!hosts[@]}"; do
  args=("$mode" "${DPARETO_REMOTE_DIR:-}" "$tag")
  [ "$mode" = stop ] || args+=("${threads[$i]}" "${DPARETO:-dpareto}" "$uri" "$name" "$@")
  # ssh joins its arguments into one command line for the remote shell: quote each word.
  if out=$(ssh -o BatchMode=yes -o ConnectTimeout=10 "${hosts[$i]}" \
    "bash -l -s -- $(printf '%q ' "${args[@]}")" <<<"$remote" 2>&1); then
    echo "${hosts[$i]}: $out"
  else
    echo "${hosts[$i]}: FAILED: $out" >&2
    failed=1
  fi
done
exit "$failed"
