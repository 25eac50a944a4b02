#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Every figure of one study in every format it is written in, checked against each other: runs simrun on a scenario
with --csv, --json and --html, keeps its terminal report, then holds
  - every column of every CSV table to the JSON's value for the same point (a CSV column with no JSON counterpart
    fails, so that a new column is checked or the checker says why not),
  - every cell of every table of the HTML page (its <table> elements, found by their section) to the CSV's or the
    JSON's value for the same key (an unknown section or column fails),
  - the terminal report's tables to the CSV as tests/check_results.py does (lost cycles, DSM, messages).
A column written in the wrong place by any one writer (two swapped columns, a figure of the next point) fails.

Usage: check_formats.py SIMRUN SCENARIO.xml [SIMRUN OPTION...]   (ctest: formats_NAME, one per shipped scenario)
Prints one line per failed check and exits 1 when any failed, 2 when simrun itself failed."""
import csv
import html.parser
import json
import math
import os
import subprocess
import sys
import tempfile

import check_results as cr

check = cr.check

# the JSON's place of each main-table column that is not at the point's top level under its own name
COMPONENTS = ("processing", "memory", "communication", "io")
SUBS = ("cpu", "fpu", "intmem", "extmem", "link_init", "distribution", "broadcast", "collection", "other_comm", "input",
        "output")
DSM_PP = ("comp", "extra", "wait", "prste")
DSM_CP = ("cp_comp", "cp_wait", "cp_idle")


def json_of_main(column, point):
    """The JSON value the main table's `column` is written from, as (found, value)."""
    b = point.get("bottleneck") or {}
    if column in point and column not in ("params", "bottleneck"):
        return True, point[column]
    if cr.param_name(column) in point["params"]:
        return True, point["params"][cr.param_name(column)]
    if column.startswith("ovh_"):
        return "overhead_ratios" in point, (point.get("overhead_ratios") or {}).get(column[4:])
    if column.startswith("b_") and column[2:] in COMPONENTS:
        return bool(b), b.get("b_ratios", {}).get(column[2:])
    name = column[:-2] if column.endswith("_s") else None
    if name in COMPONENTS:
        return bool(b), b.get("components", {}).get(name)
    if name in SUBS:
        return bool(b), b.get("subcomponents", {}).get(name)
    if column in ("comm_comp_ratio", "mem_proc_ratio", "utilisation", "dominant", "bottleneck", "cause"):
        return bool(b), b.get(column)
    if name in DSM_PP + tuple(c.replace("_", "") for c in DSM_CP) and "nodes" in point:
        return True, dsm_total(point, name)
    return False, None


def dsm_total(point, name):
    """A DSM category summed over the JSON's nodes (the main table's is the "all" row of the profile: met_ce.h)."""
    part = "pp" if name in DSM_PP else "cp"
    key = name if part == "pp" else "cp_" + name[2:]
    values = [(node[part] or {}).get(key) for node in point["nodes"]]
    return None if any(v is None for v in values) else math.fsum(values)


def agree(text, value, what):
    """A CSV or HTML cell against the JSON value written from the same figure: the same number (%.9g both, or summed
    here), the same string, yes/no for a boolean; an empty cell is null."""
    if value == "" or value is None or text in ("", "inf"):  # JSON has no infinity: an infinite figure is null (docs/results.md)
        check(value in ("", None) and text in ("", "inf"), f"{what}: {text!r} against JSON {value!r}")
    elif isinstance(value, bool):
        check(text == ("yes" if value else "no") or text == str(value).lower(), f"{what}: {text!r} against {value}")
    elif isinstance(value, (int, float)):
        ok = text == "inf" and value == math.inf or cr.numeral(text) and math.isclose(float(text), value, rel_tol=1e-8)
        check(ok, f"{what}: {text!r} against JSON {value!r}")
    else:
        check(text == str(value), f"{what}: {text!r} against JSON {value!r}")


def check_main_json(folder, doc):
    """Every column of out.csv against the JSON, row by row (the rows are the JSON's points, in order)."""
    header, rows = cr.table(f"{folder}/out.csv")
    check(len(rows) == len(doc["points"]), f"{len(rows)} CSV rows for {len(doc['points'])} JSON points")
    for column in header:
        if column in ("scenario", "skeleton"):
            check(all(r[column] == doc[column] for r in rows), f"{column} of out.csv against the JSON's")
            continue
        for row, point in zip(rows, doc["points"]):
            found, value = json_of_main(column, point)
            # a figure the JSON leaves out is an empty CSV field (a benchmark's lost cycles)
            check(found or row[column] == "", f"out.csv column {column}: no counterpart in the JSON's points")
            agree(row[column], value if found else None, f"out.csv {column} at p = {row['p']}")


def check_fits_json(folder, doc):
    """The -fits table against the JSON's fits, in order; a, b, c are the coefficients."""
    path = f"{folder}/out-fits.csv"
    fits = doc.get("fits") or []
    check(os.path.exists(path) == bool(fits), f"a fits table for {len(fits)} JSON fits")
    if not fits:
        return
    header, rows = cr.table(path)
    check(len(rows) == len(fits), f"{len(rows)} fit rows for {len(fits)} JSON fits")
    for row, fit in zip(rows, fits):
        for column in header[1:]:
            if column in "abc":
                coefficients = fit["coefficients"] or []
                k = "abc".index(column)
                agree(row[column], coefficients[k] if k < len(coefficients) else None, f"fit {column}")
            else:
                agree(row[column], fit.get(column), f"fit {column}")


def check_wait_states_json(folder, doc):
    """The -wait-states table against the JSON's wait_states of its point (per rank, per pattern, total)."""
    path = f"{folder}/out-wait-states.csv"
    states = [(pt, pt["wait_states"]) for pt in doc["points"] if pt.get("wait_states")]
    check(os.path.exists(path) == bool(states), f"a wait-state table for {len(states)} JSON points with wait states")
    if not states:
        return
    header, rows = cr.table(path)
    keys = cr.key_columns(doc)
    for row in rows:
        point = next((pt for pt, _ in states if all(str(v) == row[cr.column_name(k)] for k, v in pt["params"].items())), None)
        check(point is not None, f"wait-state row of p = {row['p']}: no JSON point")
        if point is None:
            continue
        ws, rank = point["wait_states"], int(row["rank"])
        patterns = [c[:-2] for c in header[len(keys) + 1:] if c != "total_s"]
        for name in patterns:
            check(name in ws, f"wait state {name}: not in the JSON")
            agree(row[name + "_s"], ws.get(name, {}).get("per_rank_s", [None] * (rank + 1))[rank], f"{name} of {rank}")
        # the rank's total is the sum of its patterns (the JSON gives the patterns per rank, the total per point)
        total = math.fsum(ws[n]["per_rank_s"][rank] for n in patterns if n in ws)
        check(math.isclose(float(row["total_s"]), total, rel_tol=1e-8, abs_tol=1e-12), f"total_s of rank {rank}")


class Tables(html.parser.HTMLParser):
    """The page's <table> elements, each as (the id of the <h2> before it, its header cells, its rows of cells); a
    header cell with a data-column attribute (a table walked from a view's schema: src/report/rep_schema.h) is kept as
    "COLUMN|HEAD", the CSV column it shows and its head with the unit."""

    def __init__(self):
        super().__init__()
        self.tables, self.section, self.cell, self.row, self.column = [], None, None, None, None

    def handle_starttag(self, tag, attrs):
        if tag == "h2":
            self.section = dict(attrs).get("id")
        elif tag == "table":
            self.tables.append((self.section, None, []))
        elif tag == "tr" and self.tables:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""
            self.column = dict(attrs).get("data-column") if tag == "th" else None

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(f"{self.column}|{self.cell}" if self.column else self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            section, head, rows = self.tables[-1]
            if head is None:
                self.tables[-1] = (section, self.row, rows)
            else:
                rows.append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


UNITS = {"s": 1, "ms": 1e3, "us": 1e6, "ns": 1e9}


def column_of(head):
    """The CSV column an HTML header names: its data-column ("t_par_s|T_par (ms)"), else "T_par (s)" is t_par_s, "Ovh
    comm" ovh_comm, "B-ratio io" b_io."""
    if "|" in head:
        return head.split("|")[0]
    special = {"communication/computation": "comm_comp_ratio", "memory/processing": "mem_proc_ratio",
               "utilisation U_p": "utilisation", "model diff": "model_diff", "simrun difference": "rel_diff"}
    if head in special:
        return special[head]
    if head.startswith("B-ratio "):
        return "b_" + head[8:]
    if head == "platform":  # the swept platform parameter, its path as written (docs/results.md)
        return "platform_file"
    unit = head_unit(head)
    name = head[:head.rfind(" (")] if unit else head  # a time in any unit is the CSV's column in seconds
    name = name.lower().replace(" ", "_").replace("-", "_")
    return name + "_s" if unit else name


def head_unit(head):
    """The time unit a head names ("t_par_s|T_par (ms)", "idle (us)": "ms", "us"), or None."""
    text = head.split("|")[-1]
    unit = text[text.rfind("(") + 1:-1] if text.endswith(")") else None
    return unit if unit in UNITS else None


def scaled_agrees(cell, text, largest):
    """A time the page shows in its column's unit (at least 3 significant digits below 6 decimals, rep_units.h)
    against the CSV's SI seconds: within half its last digit; "0" where the CSV's is under the noise floor (1e-9 of
    the column's largest)."""
    cell, unit = cell
    if text == "" or cell in ("", "-"):
        return cell in ("", "-") and text == ""
    value = float(text)
    if cell == "0":
        return abs(value) <= 1e-9 * largest
    decimals = len(cell.split(".")[1]) if "." in cell else 0
    significant = len(cell.replace("-", "").replace(".", "").lstrip("0"))
    # fewer digits only at rep_unit_pick's cap of 6 decimals (a value 1e-4 of its column's largest)
    return (significant >= 3 or decimals == 6) and abs(float(cell) / UNITS[unit] - value) <= 0.5001 * 10 ** -decimals / UNITS[unit]


def html_rows(table_rows, header, keys, csv_rows, extra=()):
    """Pairs each HTML row with the one CSV row of the same key cells (the swept parameters, p, then `extra`)."""
    named = [h for h in header if column_of(h) in keys or column_of(h) in extra]
    for cells in table_rows:
        key = {h: c for h, c in zip(header, cells) if h in named}
        match = [r for r in csv_rows if all(r[column_of(h)] == c for h, c in key.items())]
        check(len(match) == 1, f"HTML row {key}: {len(match)} CSV rows of that key")
        if len(match) == 1:
            yield cells, match[0]


def check_html_table(section, header, table_rows, folder, doc):
    """One HTML table against its CSV table (or, for the model's summary, against the main table's model_diff)."""
    keys = set(cr.key_columns(doc))
    sources = {"points": ("out.csv", ()), "bottlenecks": ("out.csv", ()), "processes": ("out-processes.csv", ("rank",)),
               "references": ("out-references.csv", ("quantity", "source")), "messages": ("out-messages.csv", ("bytes", "hops"))}
    if section == "model":
        return check_html_model(header, table_rows, folder)
    if section == "factors":
        return check_html_factors(header, table_rows, folder)
    check(section in sources, f"HTML table in section {section!r}: the checker does not know it")
    if section not in sources:
        return
    name, extra = sources[section]
    _, rows = cr.table(f"{folder}/{name}")
    check(len(table_rows) == len(rows), f"HTML {section}: {len(table_rows)} rows for {len(rows)} in {name}")
    main = cr.table(f"{folder}/out.csv")[1]
    for cells, row in html_rows(table_rows, header, keys, rows, extra):
        for head, cell in zip(header, cells):
            column = column_of(head)
            if section == "processes" and "rank_" + column in row:  # "Ovh comm" of a rank is rank_ovh_comm
                column = "rank_" + column
            what = f"HTML {section} {head!r} at p = {row['p']}"
            if column == "rel_diff":
                check(cell == ("" if row[column] == "" else f"{100 * float(row[column]):+.1f}%"), f"{what}: {cell!r}")
            elif head_unit(head) and column in row:
                largest = max((abs(float(r[column])) for r in rows if r[column] != ""), default=0)
                check(scaled_agrees((cell, head_unit(head)), row[column], largest),
                      f"{what}: {cell!r} against CSV {row[column]!r} s")
            elif column in row:
                check(cell == row[column] or cell and row[column] and float(cell) == float(row[column]),
                      f"{what}: {cell!r} against CSV {row[column]!r}")
            elif column == "idle_s" and section == "bottlenecks" and head_unit(head):
                point = doc["points"][next(i for i, m in enumerate(main) if all(m[k] == row[k] for k in keys))]
                largest = max(abs(pt["bottleneck"]["idle_s"]) for pt in doc["points"])
                check(scaled_agrees((cell, head_unit(head)), str(point["bottleneck"]["idle_s"]), largest),
                      f"{what}: {cell!r} against JSON {point['bottleneck']['idle_s']!r} s")
            else:
                check(False, f"{what}: no CSV column {column} in {name}")


def check_html_factors(header, table_rows, folder):
    """A factor x factor table at one p ("p = P", then the last factor's values as columns, each a T_par in the p's unit
    and a speedup, "*" on the best; a row per combination of the others, named by their values' file names) against -factors.csv."""
    names, rows = cr.table(f"{folder}/out-factors.csv")
    factors = names[names.index("scenario") + 1:names.index("p")]
    check(len(header) >= 2 and header[0].startswith("p = "), f"HTML factors header {header}")
    p, columns = header[0][len("p = "):], header[1:]
    units = {head_unit(h) for h in table_rows[0][0::2]} if table_rows else set()
    check(len(units) == 1 and None not in units, f"HTML factors at p = {p}: T_par heads {table_rows[:1]}")
    unit = units.pop() if len(units) == 1 else "s"
    at_p = [abs(float(r["t_par_s"])) for r in rows if r["p"] == p]
    for cells in table_rows[1:]:  # the first row names T_par (its unit) and speedup under each column
        label, pairs = cells[0], cells[1:]
        check(len(pairs) == 2 * len(columns), f"HTML factors at p = {p}, {label}: {len(pairs)} cells")
        for value, t_par, speedup in zip(columns, pairs[0::2], pairs[1::2]):
            match = [r for r in rows if r["p"] == p and r[factors[-1]] == value and
                     all(os.path.basename(r[f]) in label for f in factors[:-1])]
            what = f"HTML factors at p = {p}, {label}, {value}"
            if t_par == "-":
                check(not match, f"{what}: '-' where the CSV has a point")
                continue
            check(len(match) == 1, f"{what}: {len(match)} CSV rows")
            if len(match) != 1:
                continue
            best = t_par.endswith("*")
            check(scaled_agrees((t_par.rstrip(" *"), unit), match[0]["t_par_s"], max(at_p)),
                  f"{what}: T_par {t_par!r} ({unit}) against CSV {match[0]['t_par_s']!r} s")
            check(float(speedup) == float(match[0]["speedup"]), f"{what}: speedup {speedup!r}")
            check(best == (match[0]["best"] == "1"), f"{what}: best mark {t_par!r} against best = {match[0]['best']}")


def check_html_model(header, table_rows, folder):
    """The model's summary: how many points have a model, the mean and largest |model_diff| and the p of the largest,
    computed here from the main table."""
    _, rows = cr.table(f"{folder}/out.csv")
    diffs = [(abs(float(r["model_diff"])), int(r["p"])) for r in rows if r.get("model_diff", "") != ""]
    check(header == ["model", "points", "mean |diff|", "max |diff|", "at p"] and len(table_rows) == 1,
          f"HTML model table {header}")
    if len(table_rows) != 1 or len(table_rows[0]) != 5:
        return
    _, count, mean, largest, at = table_rows[0]
    check(int(count) == len(diffs), f"HTML model: {count} points for {len(diffs)} model_diff values")
    if diffs:
        worst = max(diffs, key=lambda d: d[0])
        check(math.isclose(float(mean), math.fsum(d for d, _ in diffs) / len(diffs), rel_tol=1e-8), "HTML model mean")
        check(math.isclose(float(largest), worst[0], rel_tol=1e-8), f"HTML model max {largest} against {worst[0]}")
        check(any(p == int(at) and d == worst[0] for d, p in diffs), f"HTML model at p = {at}")


def check_html(folder, doc):
    parser = Tables()
    with open(f"{folder}/out.html", encoding="utf-8") as f:
        parser.feed(f.read())
    check(any(section == "points" for section, _, _ in parser.tables), "HTML: no table of the points")
    for section, header, rows in parser.tables:
        check_html_table(section, header or [], rows, folder, doc)


def kind_of(folder):
    """Which of check_results.py's families the study is: DSM (profiles), a benchmark (messages) or lost cycles."""
    if os.path.exists(f"{folder}/out-profiles.csv"):
        return "dsm"
    return "messages" if os.path.exists(f"{folder}/out-messages.csv") else "lost"


def check_terminal(folder, doc, report):
    """The terminal report against the CSV (check_results.py); a lost-cycle study without a per-process view has its
    main and bottleneck tables checked, not the per-process one."""
    kind = kind_of(folder)
    if kind == "lost" and not os.path.exists(f"{folder}/out-processes.csv"):
        rows, ordered = cr.report_order(cr.check_main(folder, doc)[1], doc)
        cr.check_ratios(rows, ordered, report)
    else:
        {"lost": cr.check_lost, "dsm": cr.check_dsm, "messages": cr.check_messages}[kind](folder, doc, report)
    cr.check_common(folder, doc)


def run(simrun, scenario, options, folder):
    # computed afresh unless the suite names a cache (its snapshot test, run first, filled it with the same points)
    cache = [] if os.environ.get("SIMRUN_CACHE_DIR") else ["--no-cache"]
    args = [os.path.abspath(simrun), "-q"] + cache + [os.path.abspath(scenario), "--csv", "out.csv", "--json", "out.json", "--html",
            "out.html", "--requests", "--full", "--width", "1000"] + options  # every table, none split
    done = subprocess.run(args, cwd=folder, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"simrun exited {done.returncode}: {done.stderr.strip()}")
        sys.exit(2)
    with open(f"{folder}/report.txt", "w", encoding="utf-8") as f:
        f.write(done.stdout)
    return done.stdout


def main():
    if len(sys.argv) < 3:
        print(__doc__.split("Usage: ")[1].split("\n")[0], file=sys.stderr)
        sys.exit(2)
    with tempfile.TemporaryDirectory(prefix="simrun-formats-") as folder:
        report = run(sys.argv[1], sys.argv[2], sys.argv[3:], folder)
        with open(f"{folder}/out.json", encoding="utf-8") as f:
            doc = json.load(f)
        check_main_json(folder, doc)
        check_fits_json(folder, doc)
        check_wait_states_json(folder, doc)
        check_html(folder, doc)
        check_terminal(folder, doc, report)
    for failure in cr.failures:
        print(failure)
    sys.exit(1 if cr.failures else 0)


if __name__ == "__main__":
    main()
