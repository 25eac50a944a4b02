#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Short runs predicted (docs/tracer.md, "Start-up and communicator set-up"): MUMPS' dsimpletest (Debian's mumps-test:
# a 5 x 5 system solved in 1-3 ms, read from its input on standard input, after the solver's set-up of its
# communicators) traced RUNS times at each p with SIMRUN_TRACE_FLOPS at the probed flop rate, each run's
# `simrun analyse --replay-on` of the probed platform printed: predicted against measured, and whether the run was
# disturbed (then measured is its busiest core's CPU time). TRACE_LIB=FILE traces with another build of
# libsimrun-trace.so (an older one, to compare). Ranks beyond the cores share them (--oversubscribe): say so with the
# figures, and the load average, printed before and after.
# PLATFORM=FILE replays on that probed platform instead of probing anew.
# Usage: [TRACE_LIB=FILE] [PLATFORM=FILE] bench/startup.sh [RUNS [P...]]   (default 3 runs, p = 1 2 4; needs build/simrun,
# build/libsimrun-trace.so, Open MPI and mumps-test)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift || true
ps=${*:-1 2 4}
lib=${TRACE_LIB:-$PWD/build/libsimrun-trace.so}
program=/usr/lib/mumps/dsimpletest
input=/usr/lib/mumps/input_simpletest_real
[ -x "$program" ] || { echo "bench/startup.sh: $program is not installed: apt-get install mumps-test" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
platform=${PLATFORM:-$work/probed.xml}
# the probe refuses a fit the load made too noisy: tried three times
for try in 1 2 3; do
  [ -n "${PLATFORM:-}" ] || [ -f "$platform" ] || build/simrun machine probe "$platform" >/dev/null 2>&1 || true
done
[ -f "$platform" ] || { echo "bench/startup.sh: simrun machine probe failed three times: give PLATFORM=FILE" >&2; exit 1; }
flops=$(sed -n 's/.*SIMRUN_TRACE_FLOPS=\([0-9.e+]*\).*/\1/p' "$platform" | head -1)
echo "   p  run   measured (s)               predicted (s)  difference  disturbed"
for p in $ps; do
  for ((run = 1; run <= runs; run++)); do
    trace=$work/trace-$p-$run
    mpirun --oversubscribe -np "$p" -x "LD_PRELOAD=$lib" -x "SIMRUN_TRACE_DIR=$trace" -x "SIMRUN_TRACE_FLOPS=$flops" \
      "$program" <"$input" >"$trace.out" 2>&1 || { echo "dsimpletest failed at p = $p: $(tail -2 "$trace.out")" >&2; exit 1; }
    row=$(build/simrun analyse "$trace" --replay-on "$platform" | grep -A1 'measured (s)' | tail -1)
    printf '%4d %4d %s\n' "$p" "$run" "${row#*"$p "}"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
