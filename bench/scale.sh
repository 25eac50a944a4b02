#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Prints CPU time, peak memory and simulated messages per second for Gauss-Jordan with the neighbour broadcast at
# 1024, 2048 and 4096 ranks on T800 meshes that the ranks fill (32 x 32, 32 x 64, 64 x 64; generated with --routing
# native, whose routes are arithmetic: src/sim/sim_grid.h), N = p: every rank holds
# one row, the least that keeps every rank busy (the skeleton refuses N < p). About p^2 messages: (p - 1) per step.
# The p = 1 run every point needs for T_seq is included. Beside simrun's figures, the same for SimGrid alone running
# the same simulation (bench/sg_floor.c: the same messages, computations and dates on the same mesh and mapping, with
# the platform's message model, the same SimGrid calls per message and none of simrun's skeleton, replay layer,
# recorder, metrics or report; built against simrun's build tree), and whether it ended at simrun's T_par (it must:
# otherwise the floor did another simulation and the ratio means nothing). The last column says whether simrun met
# issue 20's target: 1024 ranks in at most 2 s; 4096 ranks in at most
# 60 s and 1 GiB, judged on CPU seconds (user + system; a simulation is one thread, so they are its wall time on an
# idle machine, and steadier than wall time on a shared one). A benchmark, not a test.
# Issue 31's target for the default network: simrun / SimGrid alone at most 1.10 (simrun's own cost under 10% of
# SimGrid's), printed beside the ratio.
# Usage: bench/scale.sh [path/to/simrun] [RANKS...]   (default: build/simrun 1024 2048 4096; 256 and 512 too)
#        SCALE_COUNT=1 bench/scale.sh ...            (each row also counted by callgrind: counted_row below)
#        bench/scale.sh analytic [path/to/simrun]     (the analytic network at scale: see analytic() below)
#        bench/scale.sh memory [path/to/simrun]       (memory against messages, every skeleton: see memory() below)
#        bench/scale.sh collectives [path/to/simrun]  (the collective-heavy trace, both networks: see collectives())
#        bench/scale.sh tests [path/to/simrun]        (a trace of many tests that find their message over: tests())
# SCALE_ROUTING=explicit generates the meshes with every route listed (SimGrid's DijkstraCache), as before issue 20.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=simgrid
if [ "${1:-}" = analytic ] || [ "${1:-}" = memory ] || [ "${1:-}" = collectives ] || [ "${1:-}" = tests ]; then
  mode=$1
  shift
fi
simrun=${1:-build/simrun}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1024 2048 4096)
[ -x "$simrun" ] || { echo "bench/scale.sh: $simrun not built; run scripts/setup first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs the command after the first argument under /usr/bin/time, its output into $1, and sets wall, cpu (user + system
# seconds of the command and its children: steadier than wall time on a shared machine) and rss (MiB). A failing
# command stops the script (set -e).
timed() {
  local out=$1 user sys
  shift
  /usr/bin/time -f '%e %M %U %S' -o "$work/time" "$@" > "$out"
  read -r _ rss user sys < "$work/time"
  rss=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
}

# The target of issue 20 for p ranks at `cpu` seconds and `rss` MiB: "-" where there is none.
target() {
  case $1 in
    1024) awk -v c="$2" 'BEGIN { printf "<= 2 s: %s", c <= 2 ? "met" : "missed" }' ;;
    4096) awk -v c="$2" -v r="$3" 'BEGIN { printf "<= 60 s, 1 GiB: %s", c <= 60 && r <= 1024 ? "met" : "missed" }' ;;
    *) printf -- - ;;
  esac
}

# A mesh of rows x cols hosts with the t800-flat preset in $work/mesh.xml: `simrun platform` writes native meshes of up
# to 1048576 hosts (explicit ones, SCALE_ROUTING=explicit, of up to 4096).
mesh() {
  "$simrun" platform mesh "$1x$2" --preset t800-flat --routing "${SCALE_ROUTING:-native}" -o "$work/mesh.xml"
}

# Gauss-Jordan, neighbour broadcast, N = p, on $work/mesh.xml, with network $2, into $work/scenario.xml.
gj_scenario() {
  cat > "$work/scenario.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<scenario name="scale-$1">
  <platform file="mesh.xml"/>
  <program skeleton="gauss-jordan"><param name="n" value="$1"/><param name="network" value="$2"/></program>
  <sweep>
    <param name="broadcast" values="neighbour"/>
    <param name="p" values="$1"/>
  </sweep>
</scenario>
XML
}

# The CSV column `messages` (or $2) of the first point in $1.
messages_of() {
  awk -F, -v name="${2:-messages}" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) col = i } NR == 2 { print $col }' "$1"
}

# The analytic network (docs/scale.md): Gauss-Jordan with the neighbour broadcast at SCALE_GJ_RANKS ranks (default
# 1024 4096 65536, evaluated in closed form by src/apps/app_gj_closed.c: about 26 CPU s, nearly all at 65536, issue 31's
# target, 60 s and 2 GiB, printed beside it) and the
# ping-ring of 1000 bytes at SCALE_RING_RANKS ranks (default 65536 262144, about 2.6 GiB at the larger; the target,
# 1048576 ranks, takes SimGrid's platform of a million hosts: see docs/scale.md). CPU seconds include the p = 1 run of
# each Gauss-Jordan point.
analytic() {
  printf '%-12s %8s %10s %12s %8s %10s %12s | %s\n' program ranks mesh messages "cpu (s)" "RSS (MiB)" messages/s target
  for p in ${SCALE_GJ_RANKS:-1024 4096 65536}; do
    side=$(awk -v p="$p" 'BEGIN { r = int(sqrt(p)); while (p % r) r--; print r }')
    mesh "$side" $((p / side))
    gj_scenario "$p" analytic
    timed /dev/null "$simrun" -q --no-cache --csv "$work/out.csv" "$work/scenario.xml"
    report gauss-jordan "$p" "${side}x$((p / side))" "$(messages_of "$work/out.csv")" \
      "$(awk -v p="$p" -v c="$cpu" -v r="$rss" 'BEGIN { if (p != 65536) { printf "-"; exit }
         printf "<= 60 s, 2 GiB: %s", c <= 60 && r <= 2048 ? "met" : "missed" }')"
  done
  for p in ${SCALE_RING_RANKS:-65536 262144}; do
    side=$(awk -v p="$p" 'BEGIN { r = int(sqrt(p)); while (p % r) r--; print r }')
    mesh "$side" $((p / side))
    cat > "$work/scenario.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<scenario name="ring-$p">
  <platform file="mesh.xml"/>
  <program skeleton="ping-ring"><param name="bytes" value="1000"/><param name="network" value="analytic"/></program>
  <sweep><param name="p" values="$p"/></sweep>
</scenario>
XML
    timed /dev/null "$simrun" -q --no-cache --csv "$work/out.csv" "$work/scenario.xml"
    report ping-ring "$p" "${side}x$((p / side))" "$(messages_of "$work/out.csv")" \
      "$([ "$p" = 1048576 ] && echo "1,048,576 ranks complete: met" || echo -)"
  done
}

# One line of analytic(): program, ranks, mesh, messages, target (with cpu and rss of the last timed run).
report() {
  awk -v g="$1" -v p="$2" -v m="$3" -v n="$4" -v c="$cpu" -v r="$rss" -v t="$5" \
    'BEGIN { printf "%-12s %8d %10s %12.0f %8.2f %10.1f %12.0f | %s\n", g, p, m, n, c, r, (c > 0 ? n / c : 0), t }'
}

# A scenario of one point in $work/scenario.xml: name, platform (a path, or a file of platforms/), skeleton, p, then
# name=value parameters of the program. No per-process view, picture or export is asked for.
one_point() {
  local name=$1 platform=$2 skeleton=$3 p=$4 params="" kv
  shift 4
  for kv in "$@"; do params="$params<param name=\"${kv%%=*}\" value=\"${kv#*=}\"/>"; done
  case $platform in /*) ;; */*) platform=$PWD/$platform ;; *) platform=$PWD/platforms/$platform ;; esac
  cat > "$work/scenario.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<scenario name="$name">
  <platform file="$platform"/>
  <program skeleton="$skeleton">$params</program>
  <sweep><param name="p" values="$p"/></sweep>
</scenario>
XML
}

# The requests of the last DSM run: the wait map's counts summed (-waits.csv: every request, the PPs' and the CPs').
run_requests() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "requests") col = i }
           NR > 1 { n += $col } END { print n + 0 }' "$work/out-waits.csv"
}

# One row of memory(): the program of $work/scenario.xml run twice, first with the parameters $2 (several, blank
# separated) and then with $3, which send about 8 times as many messages; the row gives both runs' messages and peak
# RSS and the bytes of peak memory each added message cost. Under 16 bytes a message (about 2 MiB over the 8x run's
# added messages, well under one stored interval of 96 bytes per message end) the trace grows with ranks, not messages.
# $4: simrun options of both runs.
mem_row() {
  local label=$1 small=$2 large=$3 opts=${4:-} set m1 r1 c1
  set=()
  for kv in $small; do set+=(--set "$kv"); done
  # shellcheck disable=SC2086
  timed /dev/null "$simrun" -q --no-cache $opts "${set[@]}" --csv "$work/out.csv" "$work/scenario.xml"
  m1=$(messages_of "$work/out.csv") r1=$rss c1=$cpu
  set=()
  for kv in $large; do set+=(--set "$kv"); done
  # shellcheck disable=SC2086
  timed /dev/null "$simrun" -q --no-cache $opts "${set[@]}" --csv "$work/out.csv" "$work/scenario.xml"
  awk -v l="$label" -v m1="$m1" -v r1="$r1" -v c1="$c1" -v m2="$(messages_of "$work/out.csv")" -v r2="$rss" -v c2="$cpu" 'BEGIN {
    per = m2 > m1 ? (r2 - r1) * 1048576 / (m2 - m1) : 0
    printf "%-34s %9d %7.2f %7.1f | %9d %7.2f %7.1f | %8.1f | %s\n", l, m1, c1, r1, m2, c2, r2, per,
           per < 16 ? "ranks, not messages" : "grows with messages" }'
}

# Issue 31 item 5: peak memory against the number of messages at a fixed number of ranks, for every skeleton whose
# message count a parameter sets and for ti-replay, with no per-process view asked for (the run records into an
# aggregate trace: met_trace_new_aggregate), and once with the per-process view (its intervals spilled to a file, its
# pixels kept: met_trace_new_spilled, met_pixels.h); then the DSM skeletons against their requests (dsm_memory). About 45 CPU s.
memory() {
  printf '%-34s %-25s | %-25s | %8s | %s\n' "" "run 1" "run 2 (about 8x the messages)" "" ""
  printf '%-34s %9s %7s %7s | %9s %7s %7s | %8s | %s\n' program messages "cpu (s)" "RSS" messages "cpu (s)" \
    "RSS" "B / msg" "peak memory grows with"
  one_point gj t800-mesh-128.xml gauss-jordan 16 broadcast=neighbour
  mem_row "gauss-jordan p=16 n" "n=1024" "n=8192"
  mem_row "  same, --per-process 16" "n=1024" "n=8192" "--per-process 16"
  one_point ring t800-mesh-128.xml ping-ring 64 bytes=1000
  mem_row "ping-ring p=64 laps" "laps=500" "laps=4000"
  one_point pdgemm icluster-fe-32.xml pdgemm 16 m=256 n=256 block=16 grid-rows=4 broadcast=binomial
  mem_row "pdgemm p=16 k (block 16)" "k=2048" "k=16384"
  one_point pdtrsm icluster-fe-32.xml pdtrsm 16 m=256 block=16 grid-rows=4 broadcast=neighbour
  mem_row "pdtrsm p=16 n (block 16)" "n=512" "n=4096"
  local laps
  for laps in 500 4000; do
    one_point ring t800-mesh-128.xml ping-ring 64 bytes=1000 laps=$laps
    "$simrun" -q --no-cache --per-process 64 --ti "$work/ti-$laps" "$work/scenario.xml" > /dev/null
  done
  one_point ti tests/data/ti/cluster.xml ti-replay 64
  mem_row "ti-replay p=64 (ping-ring laps)" "trace=$work/ti-500/point-0/index.txt" \
    "trace=$work/ti-4000/point-0/index.txt"
  echo "ping-pong and ring-matmul: their messages are set by p and the message sizes alone (not measured)"
  echo
  dsm_memory
}

# One program of dsm_memory(): $1 its label, then one_point's arguments (name, platform, skeleton, p, parameters),
# then "--", the parameter that sets the size, its values (growing), and optionally "--" and simrun options. One row
# per size: requests, CPU s, peak RSS, what the peak gained over the first size's, what the requests added since
# would have cost kept whole (630 bytes each, below), and the verdict: bounded by the nodes when the gain stays under
# 1 MiB (this machine's run-to-run noise of peak RSS is about 0.5 MiB).
dsm_rows() {
  local label=$1 point=() param values=() opts=() v r0="" m0="" n
  shift
  while [ "$1" != -- ]; do point+=("$1"); shift; done
  shift
  param=$1
  shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do values+=("$1"); shift; done
  [ $# -gt 0 ] && shift && opts=("$@")
  one_point "${point[@]}"
  for v in "${values[@]}"; do
    timed /dev/null "$simrun" -q --no-cache "${opts[@]}" --set "$param=$v" --csv "$work/out.csv" "$work/scenario.xml"
    n=$(run_requests)
    [ -n "$r0" ] || { r0=$rss m0=$n; }
    awk -v l="$label $param=$v" -v n="$n" -v m0="$m0" -v c="$cpu" -v r="$rss" -v r0="$r0" -v asked="${#opts[@]}" '
      BEGIN {
        gain = r - r0; kept = (n - m0) * 630 / 1048576
        verdict = gain < 1 ? "met: bounded by the nodes" : (asked ? "grows (every request listed, as asked)" : "missed")
        if (n == m0) verdict = "(the reference)"
        printf "%-40s %9d %8.2f %7.1f %+8.1f %9.1f | %s\n", l, n, c, r, gain, kept, verdict }'
  done
}

# Issue 31 item 5 for the DSM skeletons (TreadMarks on the 8 NCP2 nodes, controller = yes, one point, no per-process
# view): peak RSS against requests at growing problem sizes. Target: memory bounded by the nodes, the peak within
# 1 MiB of the smallest size's, where a request kept whole cost about 630 bytes (its record, 5.6 spans of 32 bytes and
# 2 PP intervals of 88, in doubled arrays, and the analysis's copy: the "if kept" column). The last program runs again
# with --requests, which lists every request and so keeps them: that one grows, as asked. About 25 CPU s.
dsm_memory() {
  printf '%-40s %9s %8s %7s %8s %9s | %s\n' "DSM program (8 nodes)" requests "cpu (s)" "RSS" "gain" "if kept" \
    "target: bounded by the nodes (RSS within 1 MiB of the first size's)"
  dsm_rows "dsm-gauss-jordan" dsmgj ncp2-myrinet-8.xml dsm-gauss-jordan 8 controller=yes -- n 128 256 512
  dsm_rows "dsm-matmul" dsmmm ncp2-myrinet-8.xml dsm-matmul 8 controller=yes -- n 64 256 512
  dsm_rows "dsm-false-sharing" dsmfs ncp2-myrinet-8.xml dsm-false-sharing 8 elements=8192 layout=interleaved \
    controller=yes -- iterations 20 80 320
  dsm_rows "  same, --requests" dsmfs ncp2-myrinet-8.xml dsm-false-sharing 8 elements=8192 layout=interleaved \
    controller=yes -- iterations 20 80 -- --requests
}

# bench/coll-heavy.c's trace at p ranks and `steps` steps into $work/coll-p/ (index.txt, rank-I.txt), as simrun's
# tracer writes it (sizes in bytes): each step a computation of 1e6 to 4e6 flops by rank, an allreduce of 2048
# doubles, an alltoall of 64, a broadcast of 2048 from rank step mod p, an allgather of 32, a reduce of 2048 to rank
# 0 and a barrier. Written rather than traced: tracing the program with 256 processes takes minutes of this machine.
coll_trace() {
  local p=$1 steps=$2 dir=$work/coll-$1
  mkdir -p "$dir"
  awk -v p="$p" -v s="$steps" -v dir="$dir" 'BEGIN {
    for (r = 0; r < p; r++) {
      f = sprintf("%s/rank-%d.txt", dir, r)
      print dir "/rank-" r ".txt" > (dir "/index.txt")
      print r " init" > f
      for (i = 0; i < s; i++) {
        printf "%d compute %d\n%d allreduce 16384 0\n%d alltoall 512 512\n%d bcast 16384 %d\n", r, 1e6 * (1 + r % 4),
          r, r, r, i % p > f
        printf "%d allgather 256 256\n%d reduce 16384 0 0\n%d barrier\n", r, r, r > f
      }
      print r " finalize" > f
      close(f)
    } }'
}

# The collective-heavy trace (coll_trace) at SCALE_COLL_RANKS ranks (default 64 128 256), SCALE_COLL_STEPS steps
# (default 20), replayed by ti-replay on tests/data/ti/cluster.xml widened to 1024 hosts under SimGrid's network
# (`network = platform`) and the analytic one: CPU seconds, peak RSS and T_par of each.
collectives() {
  sed 's/radical="0-127"/radical="0-1023"/' tests/data/ti/cluster.xml > "$work/cluster.xml"
  printf '%6s %6s | %8s %10s %12s | %8s %10s %12s\n' ranks steps "cpu (s)" "RSS (MiB)" "T_par (s)" "cpu (s)" \
    "RSS (MiB)" "T_par (s)"
  for p in ${SCALE_COLL_RANKS:-64 128 256}; do
    coll_trace "$p" "${SCALE_COLL_STEPS:-20}"
    local row="" network
    for network in platform analytic; do
      one_point coll "$work/cluster.xml" ti-replay "$p" "trace=$work/coll-$p/index.txt" "network=$network"
      timed /dev/null "$simrun" -q --no-cache --csv "$work/out.csv" "$work/scenario.xml"
      row="$row$(printf ' | %8.2f %10.1f %12.6f' "$cpu" "$rss" "$(messages_of "$work/out.csv" t_par_s)")"
    done
    printf '%6d %6d%s\n' "$p" "${SCALE_COLL_STEPS:-20}" "$row"
  done
}

# A TI trace of 2 ranks and $1 steps in $work/tests.txt, replayed under SimGrid's network: each step rank 0 posts two
# receives, computes, tests the first (over by then: a test that finds its message over), waits for both and sends
# rank 1 a word that keeps it in step; CPU seconds and peak RSS at 2,000, 16,000 and 64,000 steps (SCALE_TEST_STEPS).
# A cost per step that grows with the steps is a list walked whole at each end (SimGrid 3.32's test leaves a finished
# communication in its actor's list: sim_replay_comm.cpp); memory that grows with them was the trace file read whole
# when it was opened (sim_ti_open now reads its first line only).
tests() {
  local r0=""
  printf '%8s %8s %10s %14s | %s\n' steps "cpu (s)" "RSS (MiB)" "us / step" \
    "target: memory flat in steps (RSS within 1 MiB of the first)"
  for n in ${SCALE_TEST_STEPS:-2000 16000 64000}; do
    awk -v n="$n" 'BEGIN { print "0 init"; print "1 init"
      for (i = 0; i < n; i++) {
        print "0 irecv 1 0 1000"; print "0 irecv 1 1 1000"; print "1 send 0 0 1000"; print "1 send 0 1 1000"
        print "0 compute 1e7"; print "0 test 1 0 0"; print "0 wait 1 0 0"; print "0 wait 1 0 1"
        print "0 send 1 2 10"; print "1 recv 0 2 10" }
      print "0 finalize"; print "1 finalize" }' > "$work/tests.txt"
    one_point tests tests/data/ti/cluster.xml ti-replay 2 "trace=$work/tests.txt"
    timed /dev/null "$simrun" -q --no-cache --csv "$work/out.csv" "$work/scenario.xml"
    [ -n "$r0" ] || r0=$rss
    awk -v n="$n" -v c="$cpu" -v r="$rss" -v r0="$r0" 'BEGIN {
      printf "%8d %8.2f %10.1f %14.1f | %s\n", n, c, r, c * 1e6 / n, r - r0 < 1 ? "met" : "missed" }'
  done
}

if [ "$mode" = analytic ]; then
  analytic
  exit 0
fi
if [ "$mode" = collectives ]; then
  collectives
  exit 0
fi
if [ "$mode" = tests ]; then
  tests
  exit 0
fi
if [ "$mode" = memory ]; then
  memory
  exit 0
fi

# Instructions and misses of a 2 MiB last-level cache (this machine's L2 per core; the L3 is shared with other jobs)
# of the command after the first argument and every process it forks, each counted once (callgrind
# --dump-before=fork), summed into $1: "instructions misses instructions-of-the-largest-process" (simrun's largest is
# its simulation child). Independent of the machine's load, unlike CPU seconds.
counted() {
  local out=$1
  shift
  rm -f "$work"/cg.*
  valgrind --tool=callgrind --cache-sim=yes --LL=2097152,16,64 --trace-children=yes --dump-before=fork \
    --callgrind-out-file="$work/cg.%p" "$@" > /dev/null 2> "$work/cg.err"
  awk '/^summary:/ { ir += $2; ll += $8 + $9 + $10; if ($2 > big) big = $2 }
       END { printf "%.0f %.0f %.0f\n", ir, ll, big }' "$work"/cg.* > "$out"
  rm -f "$work"/cg.*
}

# With SCALE_COUNT set, the run of p ranks above counted by callgrind for both (about 100 times slower than the run:
# minutes at 256 ranks, an hour at 1024 on a loaded machine): instructions, last-level cache misses and their
# ratios, issue 31's target judged on the instructions, which the load does not change.
counted_row() {
  counted "$work/count.sim" "$simrun" -q --no-cache --csv "$work/out.csv" "$work/scenario.xml"
  counted "$work/count.floor" "$work/sg_floor" "$work/mesh.xml" "$1"
  read -r si sl sc < "$work/count.sim"
  read -r floor_i floor_l _ < "$work/count.floor"
  awk -v p="$1" -v si="$si" -v sl="$sl" -v sc="$sc" -v fi="$floor_i" -v fl="$floor_l" 'BEGIN {
    printf "%6d counted | simrun %.3f G instructions, %.1f M misses | alone %.3f G, %.1f M | instructions %.3f, " \
           "misses %.3f | %s\n", p, si / 1e9, sl / 1e6, fi / 1e9, fl / 1e6, si / fi, sl / fl,
           si / fi <= 1.10 ? "met (instructions)" : "missed (instructions)"
    printf "%6d counted | simulation child %.3f G instructions, %.3f of SimGrid alone; the other processes %.3f G\n",
           p, sc / 1e9, sc / fi, (si - sc) / 1e9 }'
}

build=$(dirname "$simrun")
read -ra sg_flags <<< "$(pkg-config --cflags --libs simgrid libxml-2.0)"
cc -O2 -Isrc/apps -Isrc/scenario -Isrc/sim -Isrc/metrics bench/sg_floor.c "$build/src/apps/libsimrun_apps.a" \
  "$build/src/sim/libsimrun_sim.a" "$build/src/metrics/libsimrun_metrics.a" -o "$work/sg_floor" \
  "${sg_flags[@]}" -lstdc++ -lm

printf '%6s %8s | %-38s | %-47s | %-14s | %s\n' "" "" "simrun" "SimGrid alone, same simulation" "simrun / alone" ""
printf '%6s %8s | %8s %8s %9s %10s | %8s %8s %9s %10s %8s | %6s %7s | %s\n' ranks mesh "cpu (s)" "RSS (MiB)" \
  messages "messages/s" "cpu (s)" "RSS (MiB)" messages "messages/s" "T_par" ratio target "target (simrun cpu, RSS)"
for p in "${sizes[@]}"; do
  case $p in
    256) rows=16 cols=16 ;;
    512) rows=16 cols=32 ;;
    1024) rows=32 cols=32 ;;
    2048) rows=32 cols=64 ;;
    4096) rows=64 cols=64 ;;
    *) echo "bench/scale.sh: $p ranks: use 256, 512, 1024, 2048 or 4096" >&2; exit 2 ;;
  esac
  mesh "$rows" "$cols"
  gj_scenario "$p" simgrid
  timed /dev/null "$simrun" -q --no-cache --csv "$work/out.csv" "$work/scenario.xml"
  sim_cpu=$cpu sim_rss=$rss
  messages=$(messages_of "$work/out.csv")
  timed "$work/floor.out" "$work/sg_floor" "$work/mesh.xml" "$p"
  read -r floor_messages floor_t < "$work/floor.out"
  awk -v p="$p" -v m="${rows}x${cols}" -v c="$sim_cpu" -v r="$sim_rss" -v n="$messages" -v fc="$cpu" -v fr="$rss" \
    -v fn="$floor_messages" -v ft="$floor_t" -v st="$(messages_of "$work/out.csv" t_par_s)" \
    -v t="$(target "$p" "$sim_cpu" "$sim_rss")" \
    'BEGIN { ratio = fc > 0 ? c / fc : 0; same = (ft - st) / st; same = same < 1e-8 && same > -1e-8 ? "same" : "OTHER"
             printf "%6d %8s | %8.2f %8.1f %9d %10.0f | %8.2f %8.1f %9d %10.0f %8s | %6.2f %7s | %s\n", p, m, c, r, n,
             (c > 0 ? n / c : 0), fc, fr, fn, (fc > 0 ? fn / fc : 0), same, ratio, ratio <= 1.10 ? "met" : "missed",
             t }'
  [ -n "${SCALE_COUNT:-}" ] && counted_row "$p"
done
