#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Where the suite's CPU goes (docs/testing.md, "The suite"): runs every ctest test of BUILD one at a time, as ctest
would (its command, working folder and environment, from `ctest --show-only=json-v1`), and prints each test's CPU
seconds (its own and every process it waited for, from wait4's accounting), its wall seconds and its exit status,
then the totals and the 30 heaviest. The suite's goal is its verdict in 480 s from a fresh clone on 2 cores, and it is
bound by CPU: these totals, over 2, are the least wall time its phases can take. A test that passes on its output
(ctest's PASS_REGULAR_EXPRESSION: the layering probes and the checks shown to fail) exits non-zero by design: the
count of those that did is not a count of failures.

    bench/suite-cpu.py BUILD [REGEX]     (REGEX: only the tests whose names it matches)

Run it on an idle machine; a test that leans on the build folder's cache (SIMRUN_CACHE_DIR: the snapshot's points)
costs less when the cache is filled, so remove BUILD/tests/cache first for a fresh clone's figures."""
import json
import os
import re
import resource
import subprocess
import sys
import time


def test_environment(test):
    """The environment and working folder ctest gives `test`."""
    env, folder = dict(os.environ), None
    for prop in test.get("properties", []):
        if prop["name"] == "ENVIRONMENT":
            env.update(item.split("=", 1) for item in prop["value"])
        elif prop["name"] == "WORKING_DIRECTORY":
            folder = prop["value"]
    return env, folder


def run(test, build):
    """(CPU s, wall s, exit status) of one test."""
    env, folder = test_environment(test)
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
    status = subprocess.run(test["command"], cwd=folder or build, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, check=False).returncode
    wall, after = time.monotonic() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, wall, status


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: bench/suite-cpu.py BUILD [REGEX]")
    build, pattern = sys.argv[1], re.compile(sys.argv[2] if len(sys.argv) == 3 else "")
    listing = json.loads(subprocess.check_output(["ctest", "--test-dir", build, "--show-only=json-v1"]))
    rows = []
    for test in (t for t in listing["tests"] if pattern.search(t["name"])):
        cpu, wall, status = run(test, build)
        rows.append((cpu, wall, test["name"], status))
        print(f"{cpu:8.2f} {wall:8.2f} {test['name']} {status}", flush=True)
    print(f"total: {sum(r[0] for r in rows):.1f} CPU s, {sum(r[1] for r in rows):.1f} s of wall, "
          f"{sum(r[3] != 0 for r in rows)} exited non-zero, {len(rows)} tests")
    for cpu, wall, name, status in sorted(rows, reverse=True)[:30]:
        print(f"{cpu:8.2f} {wall:8.2f} {name} {status}")


if __name__ == "__main__":
    main()
