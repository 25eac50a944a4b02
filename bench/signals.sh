#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# How soon simrun acts on SIGTERM (issue 33 item 2: within a second whatever the load), beside the target:
#   - a parent stuck at each phase (SIMRUN_TEST_PAUSE=STEP:stuck never looks at the flag: the watchdog must end it);
#   - a sweep of simulation processes (-j 2) stopped part-way.
# Usage: bench/signals.sh [SIMRUN] (default build/simrun). Run it on a loaded machine too (e.g. beside scripts/test).
set -euo pipefail
cd "$(dirname "$0")/.."
simrun=${1:-build/simrun}
[ -x "$simrun" ] || { echo "bench/signals.sh: $simrun is not an executable; build first" >&2; exit 2; }
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# stop ENV_PAUSE ARGS...: starts simrun in $work, waits for its pause line (or for it to run a while), sends SIGTERM
# and prints the seconds from the signal to its exit.
stop() {
  local pause=$1 pid sent
  shift
  rm -rf "$work"/out.* "$work"/err
  (cd "$work" && SIMRUN_TEST_PAUSE=$pause exec "$root/$simrun" "$@" >/dev/null 2>"$work/err") &
  pid=$!
  for _ in $(seq 400); do
    if [ -n "$pause" ]; then grep -q "paused at" "$work/err" 2>/dev/null && break; else [ -e "$work/err" ] && break; fi
    sleep 0.05
  done
  [ -n "$pause" ] || sleep 1
  sent=$(date +%s.%N)
  kill -TERM "$pid"
  wait "$pid" || true
  awk -v a="$(date +%s.%N)" -v b="$sent" 'BEGIN { print a - b }'
}

printf '%-34s %10s %8s\n' "moment of SIGTERM" "seconds" "target"
for step in before:stuck sweep:stuck after:stuck written:stuck; do
  s=$(stop "$step" --no-cache "$root/tests/data/cli/gj-small.xml" --csv out.csv)
  printf '%-34s %10.3f %8s\n' "parent stuck at $step" "$s" "< 1"
done
s=$(stop "" --no-cache -j 2 "$root/tests/data/cli/hostile/slow-sweep.xml" --csv out.csv)
printf '%-34s %10.3f %8s\n' "slow sweep, -j 2, after 1 s" "$s" "< 1"
