#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The replay (ti-replay, docs/ti-replay.md) of a sender that runs ahead of its receiver, for each N: rank 0 computes
# 10^11 flops and then receives N messages of 8 bytes from rank 1, which sends them at once (an MPI_Isend and its
# MPI_Wait each, eager: over for the sender at once), so that all N wait for their receives. A real program does
# this: Murasaki's hashing ranks (murasaki-mpi at p = 2, 275,562 such messages each way of two tags). Waiting as
# SimGrid sends, they made the replay quadratic in N: SimGrid 3.32 walks the sender's whole list of activities at each
# end of its messages (ActorImpl::activities_) and a mailbox's whole queue at each message posted on it
# (MailboxImpl::find_matching_comm). They wait outside SimGrid instead (sim_replay_msg.c's hold, posted_box). The
# figure beside each size is its time over the last one's: 2 for time linear in N (the target), 4 for N^2.
# Usage: bench/eager-backlog.sh [N...]   (default 40000 80000 160000 320000; needs build/simrun)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sizes=("$@")
[ $# -gt 0 ] || sizes=(40000 80000 160000 320000)
last=
for n in "${sizes[@]}"; do
  awk -v n="$n" 'BEGIN { print "0 init"; print "0 compute 1e11"; for (i = 0; i < n; i++) print "0 recv 1 0 8"
                         print "0 finalize" }' > "$work/rank-0.txt"
  awk -v n="$n" 'BEGIN { print "1 init"; for (i = 0; i < n; i++) { print "1 isend 0 0 8"; print "1 wait 1 0 0" }
                         print "1 finalize" }' > "$work/rank-1.txt"
  printf '%s\n' "$work/rank-0.txt" "$work/rank-1.txt" > "$work/index.txt"
  printf '<scenario name="eager-backlog"><platform file="%s"/><program skeleton="ti-replay">%s%s</program></scenario>\n' \
    "$PWD/platforms/icluster-fe-32.xml" "<param name=\"trace\" value=\"$work/index.txt\"/>" \
    '<param name="p" value="2"/>' > "$work/replay.xml"
  /usr/bin/time -f '%e %M' -o "$work/time" build/simrun "$work/replay.xml" --quiet > "$work/out"
  read -r seconds kb < "$work/time"
  growth=${last:+$(echo "$seconds / $last" | bc -l | xargs printf '%.2f')}
  printf 'N = %d: replay %.2f s, peak RSS %.1f MiB%s\n' "$n" "$seconds" "$(echo "$kb / 1024" | bc -l)" \
    "${growth:+, ${growth}x the time of the size before (2 when linear in N)}"
  last=$seconds
done
