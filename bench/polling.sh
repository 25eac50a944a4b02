#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What a waiting Open MPI rank does to its core (docs/validation.md, "A measured machine": the halo exchange at p = 2
# and 4): bench/measured/halo.c run under `perf stat` per rank, at each P, with Open MPI's default (a rank yields the
# core with sched_yield when a progress pass found nothing only when the node is oversubscribed:
# mpi_yield_when_idle, opal/runtime/opal_progress.c) and with the other setting forced (OMPI_MCA_mpi_yield_when_idle).
# Prints, per setting, the median over RUNS runs of: the program's wall span and its largest rank's CPU time
# (bench/measured/span.h), then over the ranks the largest task-clock (CPU ms of the whole process), and the sums of
# context switches and of sched_yield calls. CPU times and counts, not wall times, are what a loaded machine leaves
# readable: say the load with the figures (the script prints the load average before and after).
# Usage: bench/polling.sh [RUNS [P...]]   (default 5 runs, p = 2 4; needs Open MPI and perf, Debian linux-perf,
# with access to the syscalls:sys_enter_sched_yield tracepoint: root, or kernel.perf_event_paranoid <= 1)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shift || true
ps=${*:-2 4}
for tool in mpicc mpirun perf; do
  command -v "$tool" > /dev/null || { echo "bench/polling.sh: $tool not found (Debian: libopenmpi-dev, openmpi-bin, linux-perf)" >&2; exit 2; }
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 bench/measured/halo.c -o "$work/halo"
# one P YIELD: one run's "wall cpu task_ms switches yields" (YIELD: default, 0 or 1)
one() {
  local p=$1 yield=$2 env=()
  [ "$yield" = default ] || env=(-x "OMPI_MCA_mpi_yield_when_idle=$yield")
  mpirun --oversubscribe -np "$p" "${env[@]}" perf stat -x, -e task-clock,context-switches,syscalls:sys_enter_sched_yield \
    "$work/halo" 2>&1 |
    awk -F, '/^elapsed/ { split($0, f, " "); wall = f[2]; cpu = f[4] }
      $3 == "task-clock" && $1 > task { task = $1 }
      $3 == "context-switches" { switches += $1 }
      $3 == "syscalls:sys_enter_sched_yield" { yields += $1 }
      END { print wall, cpu, task, switches, yields }'
}
median() {
  sort -g -k "$1" | awk -v c="$1" '{ v[NR] = $c } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%3s %-8s %10s %10s %12s %10s %8s\n' p yield "wall (s)" "cpu (s)" "task (ms)" switches yields
for p in $ps; do
  for yield in default $([ "$p" -gt "$(nproc)" ] && echo 0 || echo 1); do
    for i in $(seq "$runs"); do one "$p" "$yield"; done > "$work/runs"
    printf '%3s %-8s %10s %10s %12s %10s %8s\n' "$p" "$yield" "$(median 1 < "$work/runs")" "$(median 2 < "$work/runs")" \
      "$(median 3 < "$work/runs")" "$(median 4 < "$work/runs")" "$(median 5 < "$work/runs")"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
