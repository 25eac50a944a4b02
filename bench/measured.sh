#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The second validation (docs/validation.md, "A measured machine"): trace a program here, probe this machine, replay
# the trace on the probed platform and compare with the untraced time. For each program (the ring multiply of
# examples/ring-matmul, compute-bound; bench/measured/halo.c, halo exchange; bench/measured/collectives.c,
# collective-heavy) and each p: RUNS untraced runs (the program's own time over the span a replay predicts), each
# followed by a run traced with SIMRUN_TRACE_FLOPS at the probed flop rate (the platform of a host per core), so that
# both sample the same minutes of the machine (on this shared machine a program's time moves by up to 30% between
# minutes at a load under 1: docs/validation.md); every trace is replayed, a line gives the untraced times' and the
# predictions' range, and the table compares the untraced median with the trace whose prediction is the median (the
# lower middle for an even count): `simrun analyse --replay-on` with --untraced, which places the replay's ranks by
# the binding the trace recorded
# (index.txt: a bound run on its cores, an unbound oversubscribed one two to a core in turn, and says so); then the
# ablation: the same traces replayed on the probed platform without its message model (simrun:comm-* removed: the
# placeholder links of 1 ns and 1 TB/s are left), then without Open MPI's eager limit (simrun:eager-bytes removed),
# then without the page faults' cost (simrun:page-fault-us removed: the faults the traced calls took cost nothing).
# With BIND=core, every run binds its ranks to cores in turn (mpirun --bind-to core:overload-allowed --map-by core:
# rank i on core i mod the cores, two per core at p = 4); without, Open MPI's default (a core each up to the cores,
# unbound beyond). The load average is printed before and after: time it at priority (docs/validation.md).
# Usage: [BIND=core] bench/measured.sh [RUNS [P...]]   (default 5 runs, p = 1 2; needs build/simrun,
# build/simrun-pingpong, build/libsimrun-trace.so and Open MPI). Ranks beyond the cores share them (--oversubscribe):
# say so with the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
runs=${1:-5}
shift || true
ps=${*:-1 2}
mpi_ready bench/measured.sh
mpicc -O2 -I src/tracer examples/ring-matmul/ring_matmul.c -o "$work/ring_matmul"
mpicc -O2 bench/measured/halo.c -o "$work/halo"
mpicc -O2 bench/measured/collectives.c -o "$work/collectives"
bind=() # Open MPI's default: a core each up to the cores, unbound beyond
if [ "${BIND:-}" = core ]; then
  bind=(--bind-to core:overload-allowed --map-by core)
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
build/simrun machine probe "$work/probed.xml"
sed '/simrun:comm-/d' "$work/probed.xml" > "$work/no-message-model.xml"
sed '/simrun:eager-bytes/d' "$work/probed.xml" > "$work/no-eager-limit.xml"
sed '/simrun:page-fault-us/d' "$work/probed.xml" > "$work/no-page-faults.xml"
flops=$(sed -n 's/.*SIMRUN_TRACE_FLOPS=\([0-9.e+]*\).*/\1/p' "$work/probed.xml" | head -1)
# elapsed PROGRAM P [mpirun options]: the program's own seconds, then the largest rank's CPU seconds over the same
# span (bench/measured/span.h; "-" from the ring multiply, which prints none). A p = 1 run's CPU time is its idle
# wall time, which other jobs do not stretch: the bench also compares the prediction at p = 1 with it.
elapsed() {
  local prog=$1 p=$2
  shift 2
  mpirun --oversubscribe "${bind[@]}" -np "$p" "$@" "$work/$prog" 2> /dev/null |
    awk '/ring_matmul:/ { print $(NF - 3), "-" } /^elapsed/ { print $2, $4 }'
}
# predicted DIR: the T_par that the trace in DIR replays to on the probed platform: the first number after the measured
# time's parenthesis in the first row under "Replayed on" (the header line wraps with a long path, the measured time
# is a range LEAST-MOST for a disturbed run, and its label is one or two words)
predicted() {
  build/simrun analyse "$1" --replay-on "$work/probed.xml" |
    awk '/^Replayed on/ { on = 1 } on && /^ +[0-9]+ +[0-9.]+(-[0-9.]+)? \(/ { sub(/^.*\) +/, ""); print $1; exit }'
}
for prog in ring_matmul halo collectives; do
  dirs=()
  untraced=()
  cpu=()
  spreads=()
  for p in $ps; do
    : > "$work/times"
    : > "$work/predictions"
    for i in $(seq "$runs"); do
      elapsed "$prog" "$p" >> "$work/times"
      elapsed "$prog" "$p" -x LD_PRELOAD="$PWD/build/libsimrun-trace.so" -x SIMRUN_TRACE_DIR="$work/$prog-$p-$i" \
        -x SIMRUN_TRACE_FLOPS="$flops" > /dev/null
      echo "$(predicted "$work/$prog-$p-$i") $i" >> "$work/predictions"
    done
    untraced+=(--untraced "$p=$(median 1 < "$work/times")")
    if [ "$prog" != ring_matmul ] && [ "$p" = 1 ]; then cpu=(--untraced "1=$(median 2 < "$work/times")"); fi
    dirs+=("$work/$prog-$p-$(sort -g "$work/predictions" | awk -v m=$(((runs + 1) / 2)) 'NR == m { print $2 }')")
    if [ "$p" = 1 ]; then one=${dirs[-1]}; fi
    spreads+=("$(printf 'p = %s: untraced %s s, predicted from each trace %s s' "$p" "$(range 1 < "$work/times")" \
      "$(range 1 < "$work/predictions")")")
  done
  echo "== $prog (untraced: median of $runs runs; each run followed by a traced one)"
  printf '%s\n' "${spreads[@]}"
  for platform in probed no-message-model no-eager-limit no-page-faults; do
    build/simrun analyse "${dirs[@]}" --replay-on "$work/$platform.xml" "${untraced[@]}" | sed -n '/^Replayed on/,$p' |
      sed "s|$work/||"
  done
  if [ ${#cpu[@]} -gt 0 ]; then # at p = 1 only: beyond, a waiting rank polls longer the more its partner is held up
    echo "== $prog at p = 1 against its CPU time (median of $runs runs), which other jobs do not stretch"
    build/simrun analyse "$one" --replay-on "$work/probed.xml" "${cpu[@]}" | sed -n '/^Replayed on/,$p' |
      sed "s|$work/||"
  fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
