#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The inter-node path of `simrun machine probe --hostfile` tried on one machine (docs/history/validation.md, "Two nodes
# on one machine"): Open MPI merges two names of one machine into one node, so the probe's own inter-node ping-pong
# refuses to run here; instead two ranks are kept off shared memory (--mca btl tcp,self: Open MPI's TCP transport, the
# one it takes between nodes, here over the kernel's loopback interface). The on-node ping-pong (shared memory) and the
# TCP one, labelled 2 hops, are given with a hostfile of two one-core nodes (--samples): the probe fits each transport
# alone, shared memory as the model inside a node (simrun:comm-*) and TCP as the one between nodes (simrun:internode-*),
# and refuses a fit it cannot trust; the TCP ping-pong is also fitted alone as a one-node platform (its links TCP's).
# bench/measured/pingpong.c (messages of 1 KiB to 1 MiB, no computation) is timed untraced over TCP (the median of RUNS
# runs of its own span), traced once over TCP, and its trace replayed on each platform written: the two nodes' (its
# messages cross them: the model between nodes), TCP's, and, as the ablation, the on-node fit's (shared memory).
# Usage: bench/internode.sh [RUNS]   (default 5; needs build/simrun, build/simrun-pingpong, build/libsimrun-trace.so
# and Open MPI). Say the machine's load with the figures: the script prints the load average before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
runs=${1:-5}
mpi_ready bench/internode.sh
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2054 # tcp,self is one argument: the list of transports
tcp=(--mca btl tcp,self)
mpicc -O2 bench/measured/pingpong.c -o "$work/pingpong"
mpirun -np 2 build/simrun-pingpong 1 > "$work/on-node.csv"
cp "$work/on-node.csv" "$work/samples.csv"
mpirun "${tcp[@]}" -np 2 build/simrun-pingpong 1 > "$work/tcp.csv"
sed -n 's/^\([0-9]*\),1,/\1,2,/p' "$work/tcp.csv" >> "$work/samples.csv"
printf 'node0 slots=1\nnode1 slots=1\n' > "$work/two-nodes.txt"
platforms=(tcp one-node)
if build/simrun machine probe "$work/two-nodes.xml" --hostfile "$work/two-nodes.txt" --samples "$work/samples.csv"; then
  platforms=(two-nodes "${platforms[@]}")
fi
build/simrun machine probe "$work/tcp.xml" --samples "$work/tcp.csv"
build/simrun machine probe "$work/one-node.xml" --samples "$work/on-node.csv"
flops=$(sed -n 's/.*SIMRUN_TRACE_FLOPS=\([0-9.e+]*\).*/\1/p' "$work/tcp.xml" | head -1)
for _ in $(seq "$runs"); do mpirun "${tcp[@]}" -np 2 "$work/pingpong" | awk '/^elapsed/ { print $2 }'; done |
  sort -g > "$work/times"
median=$(awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }' "$work/times")
echo "untraced over TCP, $runs runs (s): $(tr '\n' ' ' < "$work/times")"
mpirun "${tcp[@]}" -np 2 -x LD_PRELOAD="$PWD/build/libsimrun-trace.so" -x SIMRUN_TRACE_DIR="$work/trace" \
  -x SIMRUN_TRACE_FLOPS="$flops" "$work/pingpong" > /dev/null 2>&1
for platform in "${platforms[@]}"; do
  build/simrun analyse "$work/trace" --replay-on "$work/$platform.xml" --untraced "2=$median" |
    sed -n '/^Replayed on/,$p' | sed "s|$work/||"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
