#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""docs/hostile-input.md's corpus by family is true to the tests: every test it names is registered in a tests/*.c
suite ({"test_name", function} in a CUnit table), each family's count is the length of its list, the total is their
sum, and every registered test_hostile_* test is listed in some family.

  tests/check_hostile_doc.py SOURCE_DIR      exit 0 when true, 1 with a line per mismatch, 2 on usage errors"""
import glob, os, re, sys

FAMILY = re.compile(r"^- \*\*(?P<name>[^*]+)\*\* \((?P<count>\d+); [^)]*\): (?P<tests>.*)$")
TOTAL = re.compile(r"^In all (?P<total>\d+) cases in (?P<families>\d+) families")

def registered(src):
    names = set()
    for path in glob.glob(os.path.join(src, "tests", "*.c")):
        with open(path, errors="replace") as f:
            names |= set(re.findall(r'\{"(test_[a-z0-9_]+)"', f.read()))
    return names

def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    src = argv[1]
    tests = registered(src)
    with open(os.path.join(src, "docs", "hostile-input.md")) as f:
        lines = f.read().splitlines()
    bad, listed, families, total = [], set(), 0, None
    for n, line in enumerate(lines, 1):
        m = FAMILY.match(line)
        if m:
            names = re.findall(r"`(test_[a-z0-9_]+)`", m["tests"])
            families += 1
            if int(m["count"]) != len(names):
                bad.append(f"docs/hostile-input.md:{n}: {m['name']} says {m['count']} cases and lists {len(names)}")
            bad += [f"docs/hostile-input.md:{n}: {t} is not a registered test" for t in names if t not in tests]
            listed |= set(names)
        m = TOTAL.match(line)
        if m:
            total = (n, int(m["total"]), int(m["families"]))
    if not families or total is None:
        bad.append("docs/hostile-input.md: no corpus by family, or no 'In all N cases in F families' line")
    elif (total[1], total[2]) != (len(listed), families):
        bad.append(f"docs/hostile-input.md:{total[0]}: says {total[1]} cases in {total[2]} families; the lists hold "
                   f"{len(listed)} in {families}")
    bad += [f"docs/hostile-input.md: {t} (tests/) is in no family" for t in sorted(tests - listed)
            if t.startswith("test_hostile_")]
    for line in bad:
        print(line)
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
