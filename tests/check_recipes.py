#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs every pandas recipe of docs/results.md (each ```python block, alone, in a fresh interpreter state) in a folder
where the documented simrun command has written out/, and checks what each prints against the block's own comments:
a line `print(x)  # -> 16` must print 16. Used by tests/test_rep_export.c with Debian's python3-pandas.

Usage: check_recipes.py DOC.md FOLDER   Prints one line per failed check and exits 1 when any failed."""
import contextlib
import io
import os
import re
import sys


def blocks(text):
    return re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)


def main():
    doc, folder = sys.argv[1], sys.argv[2]
    with open(doc) as f:
        recipes = blocks(f.read())
    os.chdir(folder)
    failures = [] if recipes else [f"{doc}: no ```python recipe"]
    for n, code in enumerate(recipes, 1):
        expected = re.findall(r"#\s*->\s*(\S+)", code)
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(code, f"{doc} recipe {n}", "exec"), {})
        except Exception as e:  # a recipe that fails is a failed check, not a crash of the checker
            failures.append(f"recipe {n}: {type(e).__name__}: {e}")
            continue
        printed = [line.split()[0] if line.split() else "" for line in out.getvalue().splitlines()]
        if not expected or printed != expected:
            failures.append(f"recipe {n}: printed {printed}, the comments say {expected}")
    for failure in failures:
        print(failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
