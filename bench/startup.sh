#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Short runs predicted (docs/tracer-extras.md, "Start-up and communicator set-up"): MUMPS' dsimpletest (Debian's
# mumps-test: a 5 x 5 system solved in 1-3 ms, read from its input on standard input, after the solver's set-up of its
# communicators), at each p first run RUNS times untraced under libsimrun-span.so (the span a trace's T_par covers,
# and the ranks' involuntary context switches: it prints no time of its own), then traced RUNS times with SIMRUN_TRACE_FLOPS at
# the probed flop rate, each run's `simrun analyse --replay-on` of the probed platform printed: predicted against the
# traced run's measured time, whether the run was disturbed (then measured is its busiest core's CPU time), and the
# prediction against the untraced runs' median and against the median of those that no other process preempted
# (no involuntary switch: the quiet machine a prediction stands for). TRACE_LIB=FILE traces with another build of
# libsimrun-trace.so (an older one, to compare). Ranks beyond the cores share them (--oversubscribe): say so with the
# figures, and the load average, printed before and after.
# PLATFORM=FILE replays on that probed platform instead of probing anew.
# Usage: [TRACE_LIB=FILE] [PLATFORM=FILE] bench/startup.sh [RUNS [P...]]   (default 3 runs, p = 1 2 4; needs build/simrun,
# build/libsimrun-trace.so, build/libsimrun-span.so, Open MPI and mumps-test)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
runs=${1:-3}
shift || true
ps=${*:-1 2 4}
lib=${TRACE_LIB:-$PWD/build/libsimrun-trace.so}
program=/usr/lib/mumps/dsimpletest
input=/usr/lib/mumps/input_simpletest_real
[ -x "$program" ] || { echo "bench/startup.sh: $program is not installed: apt-get install mumps-test" >&2; exit 2; }
mpi_ready bench/startup.sh
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
platform=${PLATFORM:-$work/probed.xml}
# the probe refuses a fit the load made too noisy: tried three times
for _ in 1 2 3; do
  [ -n "${PLATFORM:-}" ] || [ -f "$platform" ] || build/simrun machine probe "$platform" >/dev/null 2>&1 || true
done
[ -f "$platform" ] || { echo "bench/startup.sh: simrun machine probe failed three times: give PLATFORM=FILE" >&2; exit 1; }
flops=$(sed -n 's/.*SIMRUN_TRACE_FLOPS=\([0-9.e+]*\).*/\1/p' "$platform" | head -1)
# versus PREDICTED REFERENCE: the difference in %, or "-"
versus() { awk -v p="$1" -v r="$2" 'BEGIN { if (r == "-") print "-"; else printf "%+.1f%%", 100 * (p - r) / r }'; }
for p in $ps; do
  : > "$work/spans"
  for ((run = 1; run <= runs; run++)); do
    mpirun --oversubscribe -np "$p" -x "LD_PRELOAD=$PWD/build/libsimrun-span.so" "$program" <"$input" 2>&1 >/dev/null |
      sed -n 's/^simrun-span: \([0-9.]*\) s .*, \([0-9]*\) involuntary .*/\1 \2/p' >> "$work/spans"
  done
  [ -s "$work/spans" ] || { echo "bench/startup.sh: no span printed by the untraced runs at p = $p" >&2; exit 1; }
  all=$(cut -d' ' -f1 "$work/spans" | lower_median)
  quiet=$(awk '$2 == 0 { print $1 }' "$work/spans" | lower_median)
  echo "p = $p untraced (span s, involuntary switches): $(sort -g "$work/spans" | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
  echo "   median $all s; median of the runs with no switch $quiet s"
  echo "   p  run   measured (s)               predicted (s)  difference  disturbed        vs untraced  vs quiet"
  for ((run = 1; run <= runs; run++)); do
    trace=$work/trace-$p-$run
    mpirun --oversubscribe -np "$p" -x "LD_PRELOAD=$lib" -x "SIMRUN_TRACE_DIR=$trace" -x "SIMRUN_TRACE_FLOPS=$flops" \
      "$program" <"$input" >"$trace.out" 2>&1 || { echo "dsimpletest failed at p = $p: $(tail -2 "$trace.out")" >&2; exit 1; }
    row=$(build/simrun analyse "$trace" --replay-on "$platform" | grep -A1 'measured (s)' | tail -1)
    predicted=$(echo "$row" | awk '{ for (i = 3; i <= NF; i++) if ($i ~ /^[0-9.]+$/) { print $i; exit } }')
    printf '%4d %4d %-62s %11s %9s\n' "$p" "$run" "${row#*"$p "}" "$(versus "$predicted" "$all")" \
      "$(versus "$predicted" "$quiet")"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
