#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The tracer on the corpus of real MPI programs (tests/corpus, docs/tracer.md): each program built, traced and replayed
# by tests/corpus/run-one (which prints the trace's size and both simulators' times), then run RUNS times untraced and
# RUNS times traced, alternately, under mpirun; prints the median wall times (mpirun's start-up included: these
# programs run for well under a second, so the figure bounds the overhead a user sees on a short run) and their ratio
# beside issue 25's 1.2x. Usage: bench/corpus.sh [RUNS [NAME-REGEX]]   (default 5, every program; needs a normal build
# with Open MPI)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
runs=${1:-5}
only=${2:-.*}
export MPICC=${MPICC:-$(command -v mpicc.openmpi)} MPIRUN=${MPIRUN:-$(command -v mpirun.openmpi)}
export SMPIRUN=${SMPIRUN:-$(command -v smpirun)} TRACE_LIB=$PWD/build/libsimrun-trace.so SIMRUN=$PWD/build/simrun
[ -f "$TRACE_LIB" ] || { echo "bench/corpus.sh: $TRACE_LIB not built" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wall() { local s; s=$(date +%s.%N); "$@" </dev/null >/dev/null 2>&1 || true; echo "$(date +%s.%N) - $s" | bc; }
printf "%-15s %3s %8s %10s %10s %7s  %s\n" program p "trace KB" "untraced s" "traced s" ratio "target <= 1.2"
awk -v only="^($only)\$" '/^[a-z]/ && $1 ~ only' tests/corpus/programs.txt | while read -r name np _ _ rest; do
  tests/corpus/run-one "$name" "$work" </dev/null > "$work/$name.line" 2>&1 || { echo "$name: $(tail -1 "$work/$name.line")"; continue; }
  args=$(echo "$rest" | sed -n 's/.* -- //p')
  dir=$work/$name
  # the program run-one built, or the one a Debian package installed (its first word then)
  program=$dir/program
  [ -x "$program" ] || program=${rest%% *}
  mpirun=("$MPIRUN" --allow-run-as-root --oversubscribe -np "$np")
  : > "$dir/plain"; : > "$dir/traced"
  for ((i = 0; i < runs; i++)); do
    # shellcheck disable=SC2086 # the arguments are words
    (cd "$dir" && wall "${mpirun[@]}" "$program" $args) >> "$dir/plain"
    # shellcheck disable=SC2086
    (cd "$dir" && wall "${mpirun[@]}" -x "LD_PRELOAD=$TRACE_LIB" -x "SIMRUN_TRACE_DIR=$dir/t$i" "$program" $args) >> "$dir/traced"
  done
  plain=$(median < "$dir/plain")
  traced=$(median < "$dir/traced")
  kb=$(du -k -s "$dir/trace" | cut -f1)
  printf "%-15s %3s %8s %10.3f %10.3f %7.2f\n" "$name" "$np" "$kb" "$plain" "$traced" "$(echo "$traced / $plain" | bc -l)"
done
echo "machine load: $(cut -d' ' -f1-3 /proc/loadavg)"
