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
# With `placement` first (docs/history/validation.md, "Binding recorded"): bench/measured/collectives.c (4096 doubles and 200
# steps, its default, then 8192 and 400) at p = 4 on this machine's cores, unbound (Open MPI's default when oversubscribed) and bound to the cores in
# turn (--bind-to core:overload-allowed --map-by core), RUNS runs each under `perf sched record`: per run the span, the
# CPU time the ranks and the other tasks had over the 20 ms windows in which the ranks ran for more than 10 ms (the
# run, start and end left out), and per CPU the windows in which 1, 2, 3 or 4 distinct ranks ran (more than two: a
# rank moved between the CPUs). Then the span of collectives.c at its default size (4096 doubles), 200 and 800 steps,
# unbound and bound, the median (and range) of 5 runs each: whether what unbound costs grows with the run or stays a
# fixed time.
# With BIND=core, the ranks are bound to the cores in turn (--bind-to core:overload-allowed --map-by core).
# Usage: [BIND=core] bench/polling.sh [RUNS [P...]]   (default 5 runs, p = 2 4; needs Open MPI and perf, Debian
# linux-perf, with access to the syscalls:sys_enter_sched_yield tracepoint: root, or kernel.perf_event_paranoid <= 1)
#        bench/polling.sh placement [RUNS]   (default 2 runs; perf sched: root)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
mode=table
if [ "${1:-}" = placement ]; then
  mode=placement
  shift
fi
runs=${1:-5}
shift || true
ps=${*:-2 4}
command -v perf > /dev/null || { echo "bench/polling.sh: perf not found (Debian: linux-perf)" >&2; exit 2; }
mpi_ready bench/polling.sh
if [ "$mode" = placement ]; then
  mpicc -O2 bench/measured/collectives.c -o "$work/coll"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  for size in "4096 200" "8192 400"; do for _ in $(seq "$runs"); do
    for how in unbound bound; do
      bind=()
      [ "$how" = bound ] && bind=(--bind-to core:overload-allowed --map-by core)
      # shellcheck disable=SC2086 # size is two words
      span=$(perf sched record -q -o "$work/sched.data" -- mpirun --oversubscribe "${bind[@]}" -np 4 "$work/coll" $size \
        2> /dev/null | awk '/^elapsed/ { print $2 }')
      perf sched timehist -i "$work/sched.data" 2> /dev/null | awk -v how="$how ${size% *}" -v span="$span" '
        NR > 3 && NF >= 6 {
          w = int($1 * 50)
          if ($3 ~ /^coll\[[0-9]+\]$/) {
            ranks[w] += $NF
            if (!((w " " $2 " " $3) in seen)) { seen[w " " $2 " " $3] = 1; on[w " " $2]++ }
          } else if ($3 !~ /idle/) others[w] += $NF
        }
        END {
          for (w in ranks) if (ranks[w] > 10) { n++; mine += ranks[w]; rest += others[w] }
          printf "%-13s span %s s: %d windows of 20 ms, ranks %.0f ms of CPU, other tasks %.0f ms; ranks per CPU per window:", how, span, n, mine, rest
          for (k in on) { split(k, a, " "); if (ranks[a[1]] > 10) count[a[2] " " on[k]]++ }
          for (c in count) printf " %s:%d", c, count[c]
          printf "\n"
        }'
    done
  done; done
  for steps in 200 800; do
    for how in unbound bound; do
      bind=()
      [ "$how" = bound ] && bind=(--bind-to core:overload-allowed --map-by core)
      for _ in 1 2 3 4 5; do
        mpirun --oversubscribe "${bind[@]}" -np 4 "$work/coll" 4096 "$steps" 2> /dev/null | awk '/^elapsed/ { print $2 }'
      done | sort -g | awk -v how="$how" -v steps="$steps" '{ v[NR] = $1 } END { printf "%-8s 4096 doubles, %d steps: span %s s (median of 5; %s to %s)\n", how, steps, v[3], v[1], v[5] }'
    done
  done
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi
mpicc -O2 bench/measured/halo.c -o "$work/halo"
bind=()
[ "${BIND:-}" = core ] && bind=(--bind-to core:overload-allowed --map-by core)
# one P YIELD: one run's "wall cpu task_ms switches yields" (YIELD: default, 0 or 1)
one() {
  local p=$1 yield=$2 env=()
  [ "$yield" = default ] || env=(-x "OMPI_MCA_mpi_yield_when_idle=$yield")
  mpirun --oversubscribe "${bind[@]}" -np "$p" "${env[@]}" perf stat -x, -e task-clock,context-switches,syscalls:sys_enter_sched_yield \
    "$work/halo" 2>&1 |
    awk -F, '/^elapsed/ { split($0, f, " "); wall = f[2]; cpu = f[4] }
      $3 == "task-clock" && $1 > task { task = $1 }
      $3 == "context-switches" { switches += $1 }
      $3 == "syscalls:sys_enter_sched_yield" { yields += $1 }
      END { print wall, cpu, task, switches, yields }'
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%3s %-8s %10s %10s %12s %10s %8s\n' p yield "wall (s)" "cpu (s)" "task (ms)" switches yields
for p in $ps; do
  for yield in default $([ "$p" -gt "$(nproc)" ] && echo 0 || echo 1); do
    for _ in $(seq "$runs"); do one "$p" "$yield"; done > "$work/runs"
    printf '%3s %-8s %10s %10s %12s %10s %8s\n' "$p" "$yield" "$(median 1 < "$work/runs")" "$(median 2 < "$work/runs")" \
      "$(median 3 < "$work/runs")" "$(median 4 < "$work/runs")" "$(median 5 < "$work/runs")"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
