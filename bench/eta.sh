#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# How honest the progress bar's time left is (src/cli/cli_progress.c, issue 30 item 4): runs each shipped scenario
# (or those given) on a pseudo-terminal, so that simrun draws its bar, with the cache off and -j 2, stamps every bar
# line when it arrives, and compares the time left the bar said with the time the run then took: at the first line
# after 10% of the run ("error") and the worst of the later lines with at least 1 s (a tenth of the run on the slot
# clock) left ("worst"). Twice: on the wall clock, and on a slot clock kept from /proc (the CPU the simulation
# processes use over how many run at once: the wall clock of an idle machine, slowed as other jobs take the cores),
# where the bar's share of the schedule left (time left said over time since its first line) is set against the
# share of the slot clock the run then took. The last column says whether the slot clock's error and worst are both
# within the 30% issue 30 item 4 asks for. A benchmark, not a test.
# Usage: bench/eta.sh [path/to/simrun] [SCENARIO...]   (default: build/simrun, every scenarios/*.xml)
#        bench/eta.sh --costs [path/to/simrun]: the CPU seconds (user + sys, one job) of one simulation of bcast-t800's
#        Gauss-Jordan at p = 2 (the mean of 10 runs) and p = 128 for two broadcasts with the same operation counts
#        (1,284 and 98,556: app_gj.c's gj_work), each run less the run of its p = 1 point alone; from them the cost of
#        an operation and a simulation's fixed cost in operations (STU_TASK_FIXED_WORK, docs/sweeps.md).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --costs ]; then
  simrun=${2:-build/simrun}
  # the CPU seconds of `simrun ... bcast-t800.xml` with the given options, averaged over $1 runs
  cpu() {
    local runs=$1 total=0
    shift
    for _ in $(seq "$runs"); do
      total=$(/usr/bin/time -f '%U %S' "$simrun" --no-cache -q -j 1 "$@" scenarios/bcast-t800.xml 2>&1 >/dev/null |
        tail -1 | awk -v t="$total" '{print t + $1 + $2}')
    done
    awk -v t="$total" -v n="$runs" 'BEGIN { print t / n }'
  }
  printf '%-12s %10s %10s %12s %14s\n' broadcast p2_cpu_s p128_cpu_s us_per_op fixed_in_ops
  for b in one-to-all neighbour; do
    alone=$(cpu 10 --set p=1 --set broadcast=$b)
    two=$(cpu 10 --set "p=1 2" --set broadcast=$b)
    big=$(cpu 1 --set "p=1 128" --set broadcast=$b)
    # one simulation costs F + ops x c: p = 2 is 1,284 operations, p = 128 98,556 (app_gj.c's gj_work)
    awk -v b=$b -v a="$alone" -v s="$two" -v l="$big" 'BEGIN {
      c = (l - s) / (98556 - 1284); printf "%-12s %10.4f %10.4f %12.2f %14.0f\n", b, s - a, l - a, 1e6 * c, (s - a) / c - 1284 }'
  done
  exit 0
fi
simrun=${1:-build/simrun}
shift || true
[ -x "$simrun" ] || { echo "bench/eta.sh: $simrun not built; run scripts/setup first" >&2; exit 2; }
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(scenarios/*.xml)
printf '%-20s %6s %6s %9s %9s %7s %7s %9s %7s %7s  %s\n' scenario run_s at_s said_left took_left error worst \
  cpu_clock c_error c_worst "within 30%?"
for s in "${scenarios[@]}"; do
  python3 - "$simrun" "$s" <<'PY'
import os, pty, re, select, subprocess, sys, time
simrun, scenario = sys.argv[1], sys.argv[2]
TICK = os.sysconf("SC_CLK_TCK")

def stat(pid):
    """(ppid, CPU seconds of the process, its own to the nanosecond, its reaped children's to the tick), or None once
    it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/schedstat") as f:
            own = int(f.read().split()[0]) * 1e-9
    except (OSError, ValueError, IndexError):
        return None
    return int(fields[1]), own + (int(fields[13]) + int(fields[14])) / TICK

class SlotClock:
    """Time as if each job ran on a core of its own: the CPU the simulation processes used since the last sample,
    over how many run at once (simrun's own when none does), so that it runs as wall time on an idle machine and
    slows as other jobs take the cores."""
    def __init__(self, pid):
        self.pid, self.seen, self.own, self.ticks = pid, {}, 0, 0.0
    def sample(self):
        procs = {}
        for name in os.listdir("/proc"):
            if name.isdigit():
                st = stat(int(name))
                if st:
                    procs[int(name)] = st
        root = procs.get(self.pid)
        if not root:
            return self.ticks
        children = [p for p, (ppid, _) in procs.items() if ppid == self.pid]
        gone = sum(v for p, v in self.seen.items() if p not in procs)  # reaped: now in simrun's own count
        used = sum(procs[p][1] - self.seen.get(p, 0) for p in children) + max(root[1] - self.own - gone, 0)
        self.ticks += used / max(len(children), len(self.seen), 1)
        self.seen, self.own = {p: procs[p][1] for p in children}, root[1]
        return self.ticks

master, slave = pty.openpty()
start = time.monotonic()
child = subprocess.Popen([simrun, "--no-cache", "-j", "2", scenario], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=slave)
os.close(slave)
clock = SlotClock(child.pid)
lines, buf = [], b""
while True:
    ready, _, _ = select.select([master], [], [], 0.01)
    cpu = clock.sample()
    if not ready:
        continue
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    now = time.monotonic() - start
    buf += chunk
    *done, buf = re.split(rb"[\r\n]", buf)
    if len(buf) >= 80:  # the bar pads each line to 80 and flushes it whole: complete before the next \r comes
        done, buf = done + [buf], b""
    lines += [(now, cpu, d.decode(errors="replace")) for d in done if d.strip()]
status = child.wait()
end = time.monotonic() - start
cpu_end = clock.ticks
def seconds(text):
    m = re.search(r"(?:(\d+)h(\d+)m|(\d+)m(\d+)s|([\d.]+)s) left", text)
    if not m:
        return None
    h, hm, m_, ms, s = m.groups()
    return int(h) * 3600 + int(hm) * 60 if h else int(m_) * 60 + int(ms) if m_ else float(s)
name = os.path.basename(scenario)[:-4]
if status != 0 or not lines:
    print(f"{name:<20} {end:6.1f}  - (exit {status})")
    sys.exit(0)
t0, c0 = lines[0][0], lines[0][1]  # the bar's first line: the simulations start
said = [(t, c, seconds(l)) for t, c, l in lines if seconds(l) is not None]
def errors(after, pick, min_left):
    """The error of the first estimate of `after` and the worst of those with at least `min_left` left."""
    after = [x for x in after if pick(x)[1] > 0]
    if not after:
        return None
    errs = [(pick(x)[0] - pick(x)[1]) / pick(x)[1] for x in after]
    late = [abs(e) for x, e in zip(after, errs) if pick(x)[1] >= min_left]
    return errs[0], max(late, default=abs(errs[0]))
# wall: what the bar said against the wall time the run then took, from the first line after 10% of the wall time
wall = errors([x for x in said if x[0] >= 0.1 * end and x[0] > t0], lambda x: (x[2], end - x[0]), 1)
# the slot clock: the bar's share of the schedule left (said / time since the first line) applied to the slot clock
# since the first line, against the slot clock the run then took, from 10% of the slot clock on
clk = errors([x for x in said if x[1] - c0 >= 0.1 * (cpu_end - c0) and x[0] > t0],
             lambda x: (x[2] / (x[0] - t0) * (x[1] - c0), cpu_end - x[1]), 0.1 * (cpu_end - c0))
if not wall and not clk:
    print(f"{name:<20} {end:6.1f} {'-':>6} {'-':>9} {'-':>9} {'-':>7} {'-':>7} {cpu_end - c0:9.1f} {'-':>7} {'-':>7}  -"
          " (no estimate before the end: one simulation, or all predicted to end together)")
    sys.exit(0)
first = next((x for x in said if x[0] >= 0.1 * end and x[0] > t0), said[-1])
w = f"{100 * wall[0]:+6.0f}% {100 * wall[1]:6.0f}%" if wall else f"{'-':>7} {'-':>7}"
c = f"{100 * clk[0]:+6.0f}% {100 * clk[1]:6.0f}%" if clk else f"{'-':>7} {'-':>7}"
verdict = "yes" if clk and abs(clk[0]) <= 0.3 and clk[1] <= 0.3 else "no"
print(f"{name:<20} {end:6.1f} {first[0]:6.1f} {first[2]:9.1f} {end - first[0]:9.1f} {w} {cpu_end - c0:9.1f} {c}  {verdict}")
PY
done
