#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The platform corpus (tests/data/platforms, issue 46 item 2): platforms the project wrote, one or a few of SimGrid's
constructs each, run as a user would run them.

README.md in that folder has two tables this script reads. "Platforms": each platform, the network model it sets and
its outcome, `runs` or `refused: TEXT`. "Message times by hand": rows of platform, p, bytes, hops and the least and
greatest time (us) of the ping-pong's messages of that size and distance, worked out by hand from the XML and the
network model.

A platform that runs: its ping-pong (pingpong.xml) gives every hand row's least and greatest time to the printed
nanosecond; Gauss-Jordan with both broadcasts (gj.xml), pdgemm on every grid (pdgemm.xml) and a trace replay
(replay.xml) run; the report names the table's network model; every analytic model printed (eq. 11, FAST) is within
10% of the simulated T_par, or the point's model is empty and the report says why (Model "-" where ...); the
point-to-point line's Hockney and LogP times are within 10% of the ping-pong's message of that size between ranks 0
and 1, or "-" with a reason. A refused platform: each of the four runs exits 2 with one line,
`simrun: error: FILE[:LINE]: ...; fix`, holding TEXT (`runs; gj, pdgemm refused: TEXT`: those programs only).

Usage: check_platforms.py SOURCE_DIR SIMRUN
Prints one line per failure and exits 1 when any; else one line saying what was checked."""
import csv
import os
import re
import subprocess
import sys
import tempfile

TOLERANCE = 0.10  # a model within 10% of the simulation (issue 46 item 2)
HAND_US = 0.0006  # the hand figures have 3 decimals of a microsecond, as the report prints them
PROGRAMS = ["pingpong", "gj", "pdgemm", "replay"]

failures = []
checked = {"hand": 0, "models": 0, "dash": 0, "p2p": 0, "refused": 0}


def fail(what):
    failures.append(what)


def table(text, first_header):
    """The rows (lists of cells) of the markdown table of `text` whose header's first cell is `first_header`."""
    rows = []
    inside = False
    for line in text.splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cells is None:
            inside = False
        elif cells[0] == first_header:
            inside = True
        elif inside and not set(cells[0]) <= set("-: "):
            rows.append(cells)
    return rows


SWEPT_P = {"pingpong": [2, 4, 8], "gj": [1, 2, 4, 8], "pdgemm": [1, 2, 4, 8], "replay": [4]}


def run(simrun, corpus, program, platform, hosts, work):
    """simrun on the corpus scenario `program` with `platform`, p up to its hosts: exit status, output (report and
    errors), CSV rows."""
    csv_path = os.path.join(work, f"{platform}-{program}.csv")
    swept = " ".join(str(p) for p in SWEPT_P[program] if p <= hosts)
    grids = ["--set", "grid-rows=" + swept] if program == "pdgemm" else []
    cmd = [simrun, os.path.join(corpus, program + ".xml"), "--set", "platform=" + os.path.join(corpus, platform),
           "--set", "p=" + swept, *grids, "--no-cache", "-q", "--full", "--width", "1000", "--csv", csv_path]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=work, timeout=600)
    rows = {}
    for suffix in ["", "-messages"]:
        path = csv_path[:-4] + suffix + ".csv"
        if os.path.exists(path):
            with open(path, newline="") as f:
                rows[suffix] = list(csv.DictReader(f))
    return done.returncode, done.stdout, done.stderr, rows


def check_refused(name, program, rc, err, text):
    lines = err.strip().splitlines()
    ok = rc == 2 and len(lines) == 1 and bool(re.match(r"simrun: error: .*\.xml(:\d+)?: .*; ", lines[0]))
    if not ok or text not in lines[0]:
        fail(f"{name} x {program}: expected exit 2 and one line 'simrun: error: FILE: ...; fix' holding '{text}'; "
             f"got exit {rc} and {len(lines)} line(s): {err.strip()[:300]}")
    checked["refused"] += ok and text in lines[0]


def check_hand(name, rows, messages):
    """The hand rows of this platform against the ping-pong's messages (p, bytes, hops)."""
    for p, size, hops, least, most, _ in rows:
        found = [m for m in messages if (m["p"], m["bytes"], m["hops"]) == (p, size, hops)]
        if len(found) != 1:
            fail(f"{name}: no ping-pong row for p = {p}, {size} bytes, {hops} hops (a hand figure in README.md)")
            continue
        got = (float(found[0]["min_s"]) * 1e6, float(found[0]["max_s"]) * 1e6)
        if abs(got[0] - float(least)) > HAND_US or abs(got[1] - float(most)) > HAND_US:
            fail(f"{name}: p = {p}, {size} bytes, {hops} hops: simulated {got[0]:.3f} .. {got[1]:.3f} us, "
                 f"by hand {least} .. {most} us")
        else:
            checked["hand"] += 1


def check_p2p(name, program, out, messages):
    """The point-to-point line against the ping-pong's message of its size between ranks 0 and 1 (p = 2)."""
    line = next((l for l in out.splitlines() if l.startswith("Point-to-point models")), None)
    if line is None:
        return
    if re.search(r"Hockney -, LogP -: \S", line):
        checked["dash"] += 1
        return
    m = re.search(r"; (\d+) bytes: Hockney ([\d.e+-]+) us, LogP ([\d.e+-]+) us", line)
    if not m:
        fail(f"{name} x {program}: unreadable point-to-point line: {line[:200]}")
        return
    alone = [x for x in messages if x["p"] == "2" and x["bytes"] == m.group(1)]
    if len(alone) != 1:
        fail(f"{name} x {program}: no ping-pong message of {m.group(1)} bytes at p = 2 to hold Hockney and LogP to")
        return
    sim = float(alone[0]["mean_s"]) * 1e6
    for model, value in (("Hockney", float(m.group(2))), ("LogP", float(m.group(3)))):
        if abs(value - sim) > TOLERANCE * sim:
            fail(f"{name} x {program}: {model} gives {value:.6g} us for {m.group(1)} bytes between ranks 0 and 1, "
                 f"the simulation {sim:.6g} us: more than 10% apart, and no '-'")
        else:
            checked["p2p"] += 1


def check_models(name, program, out, points):
    """Every point's analytic model within 10% of T_par, or none with the report's reason."""
    dashes = re.findall(r'^Model "-" where (.+)\.$', out, re.M)
    for point in points:
        if "t_model_s" not in point or point["p"] == "1":
            continue
        where = ", ".join(f"{k} = {point[k]}" for k in ("broadcast", "grid-rows", "p") if k in point)
        if point["t_model_s"] == "":
            if not dashes:
                fail(f"{name} x {program}: {where}: no model and no 'Model \"-\" where ...' line saying why")
            checked["dash"] += 1
        elif abs(float(point["model_diff"])) > TOLERANCE:
            fail(f"{name} x {program}: {where}: the model is {float(point['model_diff']) * 100:+.1f}% off the "
                 "simulation (more than 10%), and not '-' with a reason")
        else:
            checked["models"] += 1


def refusals(outcome):
    """The programs an outcome cell says are refused, and the text of the refusal: `runs`, `refused: TEXT` (all of
    them) or `runs; gj, pdgemm refused: TEXT` (those listed)."""
    if outcome == "runs":
        return [], ""
    m = re.fullmatch(r"(?:runs; ([a-z, ]+) )?refused: (.+)", outcome)
    if not m:
        fail(f"README.md: outcome '{outcome}' is neither 'runs', 'refused: TEXT' nor 'runs; PROGRAMS refused: TEXT'")
        return [], ""
    return (m.group(1).split(", ") if m.group(1) else PROGRAMS), m.group(2)


def check_platform(simrun, corpus, work, row, hand_rows):
    name, hosts, _, model, outcome = row
    results = {program: run(simrun, corpus, program, name, int(hosts), work) for program in PROGRAMS}
    refused, text = refusals(outcome)
    messages = results["pingpong"][3].get("-messages", [])
    if "pingpong" not in refused:
        check_hand(name, hand_rows, messages)
    for program, (rc, out, err, rows) in results.items():
        if program in refused:
            check_refused(name, program, rc, err, text)
            continue
        if rc != 0:
            fail(f"{name} x {program}: exit {rc}: {err.strip()[:300]}")
            continue
        named = re.search(r"^Network model \(.*?\): (\S+):", out, re.M)
        if not named or named.group(1) != model:
            fail(f"{name} x {program}: the report names the network model "
                 f"{named.group(1) if named else 'nowhere'}, README.md {model}")
        check_p2p(name, program, out, messages)
        check_models(name, program, out, rows.get("", []))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_platforms.py SOURCE_DIR SIMRUN")
    corpus = os.path.join(os.path.abspath(sys.argv[1]), "tests", "data", "platforms")
    simrun = os.path.abspath(sys.argv[2])
    with open(os.path.join(corpus, "README.md")) as f:
        readme = f.read()
    platforms = table(readme, "platform")
    hand = table(readme, "messages of")
    for row in hand:
        if row[0] not in [p[0] for p in platforms]:
            fail(f"README.md: a hand figure for {row[0]}, which the table of platforms does not list")
    with tempfile.TemporaryDirectory() as work:
        for row in platforms:
            rows = [r for r in hand if r[0] == row[0]]
            if not row[4].startswith("refused") and len(rows) < 5:
                fail(f"{row[0]}: {len(rows)} message times by hand in README.md; give at least 5")
            check_platform(simrun, corpus, work, row, [r[1:] for r in rows])
    for f in failures:
        print(f)
    if failures:
        sys.exit(1)
    print(f"check_platforms: {len(platforms)} platforms x {len(PROGRAMS)} programs: {checked['hand']} message "
          f"times as by hand, {checked['models']} models within 10%, {checked['p2p']} Hockney/LogP times within "
          f"10%, {checked['dash']} '-' with a reason, {checked['refused']} refusals in one line")


main()
