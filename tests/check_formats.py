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
import re
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
    if column in ("idle_s", "comm_comp_ratio", "mem_proc_ratio", "utilisation", "dominant", "bottleneck", "cause"):
        return bool(b), b.get(column)
    if name in DSM_PP + tuple(c.replace("_", "") for c in DSM_CP) and "profiles" in point:
        return True, dsm_total(point, name)
    return False, None


def dsm_total(point, name):
    """A DSM category summed over the JSON's nodes (the main table's is the "all" row of the profile: met_ce.h)."""
    part = "pp" if name in DSM_PP else "cp"
    key = name if part == "pp" else "cp_" + name[2:]
    values = [row[part][key] for row in point["profiles"] if row["by"] == "node" and row["name"] != "all"]
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
            if column in ("a", "b", "c"):
                agree(row[column], (fit.get("coefficients") or {}).get(column), f"fit {column}")
            else:
                agree(row[column], fit.get(column), f"fit {column}")


def check_fits_report(folder, report):
    """The report's "Regression fits" lines are the -fits table's rows, in order: "  METRIC against AXIS[, GROUP]:
    TEXT"."""
    path = f"{folder}/out-fits.csv"
    lines = report.split("\n")
    start = next((k for k, line in enumerate(lines) if line.startswith("Regression fits")), None)
    check((start is not None) == os.path.exists(path), "the report's fits without a -fits table, or the reverse")
    if start is None or not os.path.exists(path):
        return
    shown = []
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        shown.append(line)
    _, rows = cr.table(path)
    check(len(shown) == len(rows), f"the report's {len(shown)} fit lines for the -fits table's {len(rows)} rows")
    # the axis may carry a note ("grid-rows (the swept grid rows, not a work size)"), a single curve a name ("simulated")
    for line, r in zip(shown, rows):
        group = ", " + re.escape(r["group"]) if r["group"] else "(, [^:]+)?"
        pattern = rf"  {re.escape(r['metric'])} against {re.escape(r['axis'])}( \([^)]*\))?{group}: {re.escape(r['text'])}"
        check(re.fullmatch(pattern, line) is not None, f"report fit line {line!r} against the -fits row {r}")
        shown = re.fullmatch(r"fit (.*) \((\S+)\), R\^2 = (\S+), adjusted (\S+), \S+ from (\S+) to (\S+)", r["text"])
        check(r["shown"] == ("no" if r["text"].startswith("no simple form") else "yes"),
              f"fit {r['metric']}: shown {r['shown']}, text {r['text']!r}")
        if shown:  # a fit's line (not a constant's): its figures are the row's columns
            formula, form, r2, adj, low, high = shown.groups()
            check(formula == r["formula"] and form == r["form"], f"fit {r['metric']}: {formula} ({form}) against {r}")
            for text, column in ((r2, "r2"), (adj, "adj_r2"), (low, "x_min"), (high, "x_max")):
                cr.close(text, float(r[column]), f"fit {r['metric']} {column}")


# The tables of views declared as schemas of their own rows (src/report/rep_dsm_tables.c, rep_wait.c): each CSV table,
# the JSON's list of the same rows in each point, the HTML page's table and the terminal's, compared figure by figure.
DSM_WAITS = ("CPLWait", "CPLComp", "CPCComm", "CPRWait", "CPRComp", "PPRWait", "PPRComp", "PPLWait")


def snake(name):
    """NCP2's category as the JSON names it (src/report/rep_json.c): "CPLWait" is cpl_wait, "CPComp" cp_comp."""
    out = ""
    for i, c in enumerate(name):
        starts = i > 0 and c.isupper() and (not name[i - 1].isupper() or i + 1 < len(name) and name[i + 1].islower())
        out += ("_" if starts else "") + c.lower()
    return out


def json_key_profiles(column):
    """The key in a JSON "profiles" row of a -profiles column: profile_cpcomp_s is cp.cp_comp, profile_comp_s pp.comp."""
    if not column.startswith("profile_"):
        return column
    name = column[len("profile_"):-2]
    if name in DSM_PP:
        return "pp." + name
    return "cp." + next((c for c in DSM_CP if c.replace("_", "") == name), name)


def json_key_waits(column):
    """The key in a JSON "wait_map" row of a -waits column: time_s is wait, CPLWait_s categories.cpl_wait."""
    if column == "time_s":
        return "wait"
    return "categories." + snake(column[:-2]) if column[:-2] in DSM_WAITS else column


# table: (CSV suffix, the JSON list in each point, the CSV column's key in its rows)
ROW_TABLES = {"profiles": ("profiles", json_key_profiles), "waits": ("wait_map", json_key_waits),
              "wait-states": ("wait_states", lambda column: column)}


def dig(item, key):
    """A dotted key's value in a JSON object ("pp.comp"); (found, value)."""
    for part in key.split("."):
        if not isinstance(item, dict) or part not in item:
            return False, None
        item = item[part]
    return True, item


def check_rows_json(folder, doc, name):
    """A table of a view's own rows against the JSON's lists of the same rows in its points, row by row, column by
    column: the CSV's rows are the points' lists, in order."""
    path, (key, json_key) = f"{folder}/out-{name}.csv", ROW_TABLES[name]
    listed = [(pt, item) for pt in doc["points"] for item in pt.get(key) or []]
    check(os.path.exists(path) == bool(listed), f"a -{name} table for {len(listed)} JSON {key} rows")
    if not os.path.exists(path):
        return
    header, rows = cr.table(path)
    keys = cr.key_columns(doc)
    check(len(rows) == len(listed), f"-{name}: {len(rows)} rows for {len(listed)} JSON {key} rows")
    for row, (point, item) in zip(rows, listed):
        check(cr.of_point(row, point), f"-{name} row at p = {row['p']}: not the JSON's point")
        for column in header[len(keys):]:
            found, value = dig(item, json_key(column))
            check(found, f"-{name} column {column}: no {json_key(column)} in the JSON's {key}")
            agree(row[column], value, f"-{name} {column} at p = {row['p']}")
        if name == "wait-states":  # a rank's total is the sum of its patterns
            total = math.fsum(float(row[c]) for c in header[len(keys) + 1:] if c != "total_s")
            check(math.isclose(float(row["total_s"]), total, rel_tol=1e-8, abs_tol=1e-12), f"total_s of {row['rank']}")


def terminal_cell_agrees(cell, head, text, largest):
    """A terminal cell against the CSV's text of the same figure: a time in its head's unit (scaled_agrees), a share in
    % against the fraction, a count or a word as written."""
    if head_unit(head):
        return scaled_agrees((cell, head_unit(head)), text, largest)
    if cell.endswith("%"):
        return text != "" and rounded_agrees(cell, float(text))
    return cell == text or cell == "-" and text == ""


def check_terminal_table(shown, rows, name, what, shares=None):
    """A table the terminal drew from a view's schema (cr.report_table) against its CSV rows, row for row: every
    column it shows is the CSV's column of the same name (its unit and "_s" aside), or a share of a category in the
    line's time (the wait map: CSV category / time_s)."""
    check(shown is not None and len(shown) == len(rows), f"{what}: {len(shown or [])} rows for {len(rows)} CSV rows")
    for cells, row in zip(shown or [], rows):
        for head, cell in cells.items():
            base = head.split(" (")[0]
            names = (base, base + "_s", base.lower() + "_s", "profile_" + base.lower() + "_s", {"op": "operation"}.get(base))
            column = next((c for c in names if c in row), None)
            if shares and base in DSM_WAITS and not head_unit(head):
                time = float(row["time_s"])
                text = str(float(row[base + "_s"]) / time) if time > 0 else "0"
                check(terminal_cell_agrees(cell, head, text, 0), f"{what} {head} of {row['scope']}: {cell!r}")
                continue
            check(column is not None, f"{what}: head {head!r} is no column of the -{name} table")
            if column is None:
                continue
            largest = max((abs(float(r[column])) for r in rows if cr.numeral(r[column])), default=0)
            check(terminal_cell_agrees(cell, head, row[column], largest),
                  f"{what} {head}: {cell!r} against CSV {row[column]!r}")


def check_terminal_dsm(folder, doc, report):
    """Each point's three profile tables and its wait map (its first 12 lines) against the -profiles and -waits rows."""
    main = cr.table(f"{folder}/out.csv")[1]
    _, profiles = cr.table(f"{folder}/out-profiles.csv")
    _, waits = cr.table(f"{folder}/out-waits.csv")
    keys = cr.key_columns(doc)
    blocks = [b for b in report.split("\n==== ")[1:] if "T_par = " in b.split("\n")[0]]
    for block, point in zip(blocks, main):
        mine = [r for r in profiles if all(r[k] == point[k] for k in keys)]
        for by, title in (("node", "Time by node"), ("scope", "Time by code scope"), ("operation", "Time by DSM op")):
            check_terminal_table(cr.report_table(block, title, "name"), [r for r in mine if r["by"] == by], "profiles",
                                 f"terminal {title} at p = {point['p']}")
        lines = [r for r in waits if all(r[k] == point[k] for k in keys)][:12]
        check_terminal_table(cr.report_table(block, "Wait map", "scope"), lines, "waits",
                             f"terminal wait map at p = {point['p']}", shares=True)


def check_terminal_wait_states(folder, doc, report):
    """Each point's wait-state table: its ranks are the -wait-states rows, its "all" row their sums."""
    path = f"{folder}/out-wait-states.csv"
    tables = report.split("\nWait states, p = ")[1:]
    check(os.path.exists(path) or not tables, "wait-state tables in the report without a -wait-states table")
    if not os.path.exists(path):
        return
    header, rows = cr.table(path)
    keys = cr.key_columns(doc)
    points = list(dict.fromkeys(tuple(r[k] for k in keys) for r in rows))
    check(len(tables) == len(points), f"{len(tables)} terminal wait-state tables for {len(points)} points")
    for text, point in zip(tables, points):
        mine = [r for r in rows if tuple(r[k] for k in keys) == point]
        totals = {c: str(math.fsum(float(r[c]) for r in mine)) for c in header[len(keys) + 1:]}
        shown = cr.report_table("\n" + text, "", "rank")
        check_terminal_table(shown, mine + [dict(mine[0], rank="all", **totals)], "wait-states",
                             f"terminal wait states at p = {point[-1]}")


class Tables(html.parser.HTMLParser):
    """The page's <table> elements, each as (the id of the <h2> before it, its header cells, its rows of cells); a
    header cell with a data-column attribute (a table walked from a view's schema: src/report/rep_schema.h) is kept as
    "COLUMN|HEAD", the CSV column it shows and its head with the unit."""

    def __init__(self):
        super().__init__()
        self.tables, self.section, self.cell, self.row, self.column, self.exact = [], None, None, None, None, None

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
            self.exact = dict(attrs).get("title") if tag == "td" else None

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(Cell(f"{self.column}|{self.cell}" if self.column else self.cell, self.exact))
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


class Cell(str):
    """A page's cell as shown, with `exact`: its tooltip (title), the CSV's figure of a rounded number ("0.1234" shows
    0.123411111, a time "1.23 ms" shows "0.00123456789 s"), or None."""

    def __new__(cls, text, exact=None):
        cell = super().__new__(cls, text)
        cell.exact = exact
        return cell


def rounded_agrees(cell, exact):
    """A rounded number the page shows (a share or difference in %, a ratio or speedup to its decimals, as the
    terminal's) against its exact figure: within half its last digit."""
    if cell.endswith("%"):
        return abs(float(cell[:-1]) - 100 * exact) <= 0.05 + 1e-9
    if cell in ("inf", "-inf"):
        return float(cell) == exact
    decimals = len(cell.split(".")[1]) if "." in cell else 0
    return abs(float(cell) - exact) <= 0.5001 * 10 ** -decimals


def finite(text):
    """Whether a CSV cell's text is a finite number."""
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def exact_agrees(cell, text):
    """A cell's tooltip against the CSV's text of the same figure: the same number (a time's in seconds)."""
    exact = cell.exact[:-2] if cell.exact.endswith(" s") else cell.exact
    return text != "" and float(exact) == float(text)


def column_of(head):
    """The CSV column an HTML header names: its data-column ("t_par_s|T_par (ms)": every view's table is walked from its
    schema), else a key column's: a swept parameter ("grid-rows" is grid_rows, "platform" platform_file) or p."""
    if "|" in head:
        return head.split("|")[0]
    if head == "platform":  # the swept platform parameter, its path as written (docs/results.md)
        return "platform_file"
    return head.lower().replace(" ", "_").replace("-", "_")


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
               "references": ("out-references.csv", ("quantity", "source")),
               "profiles": ("out-profiles.csv", ("by", "name")), "waits": ("out-waits.csv", ("scope", "waiter", "operation")),
               "wait-states": ("out-wait-states.csv", ("rank",)),
               "messages": ("out-messages.csv", ("bytes", "hops"))}
    if section == "model":
        return check_html_model(header, table_rows, folder)
    if section == "factors":
        return check_html_factors(header, table_rows, folder)
    check(section in sources, f"HTML table in section {section!r}: the checker does not know it")
    if section not in sources:
        return
    name, extra = sources[section]
    csv_header, rows = cr.table(f"{folder}/{name}")
    if name[4:-4] in ROW_TABLES:  # a view's own rows: the page shows every column of its CSV table
        missing = set(csv_header[len(cr.key_columns(doc)):]) - {column_of(h) for h in header}
        check(not missing, f"HTML {section}: no column for {sorted(missing)}")
    check(len(table_rows) == len(rows), f"HTML {section}: {len(table_rows)} rows for {len(rows)} in {name}")
    for cells, row in html_rows(table_rows, header, keys, rows, extra):
        for head, cell in zip(header, cells):
            column = column_of(head)
            what = f"HTML {section} {head!r} at p = {row['p']}"
            if column not in row:
                check(False, f"{what}: no CSV column {column} in {name}")
                continue
            # a schema column's finite figure shown rounded (a time, or with a point or a %) has its tooltip, and only
            # such a cell has one
            rounded = "|" in head and finite(row[column]) and bool(head_unit(head) or "." in cell or cell.endswith("%"))
            check(rounded == (cell.exact is not None), f"{what}: {cell!r} with tooltip {cell.exact!r}")
            if rounded and cell.exact is not None:
                check(exact_agrees(cell, row[column]), f"{what}: tooltip {cell.exact!r} against CSV {row[column]!r}")
            if head_unit(head):
                largest = max((abs(float(r[column])) for r in rows if r[column] != ""), default=0)
                check(scaled_agrees((cell, head_unit(head)), row[column], largest),
                      f"{what}: {cell!r} against CSV {row[column]!r} s")
            elif rounded:
                check(rounded_agrees(cell, float(row[column])), f"{what}: {cell!r} against CSV {row[column]!r}")
            else:
                check(cell == row[column] or cell and row[column] and float(cell) == float(row[column]),
                      f"{what}: {cell!r} against CSV {row[column]!r}")


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
            if finite(match[0]["speedup"]):
                check(speedup.exact is not None and float(speedup.exact) == float(match[0]["speedup"]) and
                      rounded_agrees(speedup, float(match[0]["speedup"])),
                      f"{what}: speedup {speedup!r} ({speedup.exact})")
            else:
                check(speedup == match[0]["speedup"] and speedup.exact is None, f"{what}: speedup {speedup!r}")
            check(t_par.exact is not None and exact_agrees(t_par, match[0]["t_par_s"]),
                  f"{what}: T_par tooltip {t_par.exact!r} against CSV {match[0]['t_par_s']!r}")
            check(best == (match[0]["best"] == "1"), f"{what}: best mark {t_par!r} against best = {match[0]['best']}")


def model_summary(folder):
    """The model's summary worked out here from the main table: the points with a model_diff, their mean and largest
    |model_diff|, and the p at which the largest is (all of them, for ties)."""
    _, rows = cr.table(f"{folder}/out.csv")
    diffs = [(abs(float(r["model_diff"])), int(r["p"])) for r in rows if r.get("model_diff", "") != ""]
    if not diffs:
        return 0, None, None, []
    largest = max(d for d, _ in diffs)
    return len(diffs), math.fsum(d for d, _ in diffs) / len(diffs), largest, [p for d, p in diffs if d == largest]


def check_model(what, count, mean, largest, at, folder):
    """One writer's model summary (numbers) against model_summary's."""
    n, mean_, largest_, ps = model_summary(folder)
    check(count == n, f"{what}: {count} points for {n} model_diff values")
    if n:
        check(math.isclose(mean, mean_, rel_tol=1e-8), f"{what}: mean |diff| {mean} against {mean_}")
        check(math.isclose(largest, largest_, rel_tol=1e-8), f"{what}: max |diff| {largest} against {largest_}")
        check(at in ps, f"{what}: at p = {at}, the largest is at p = {ps}")


def check_factors_report(folder, report):
    """The terminal's factor x factor tables ("p = P (UNIT)", the last factor's values across; a row per combination of
    the others, named by their values' file names; each cell T_par in the unit and speedup, '*' on the best, '-'
    without a point) against -factors.csv, cell by cell; every CSV row is shown once."""
    path = f"{folder}/out-factors.csv"
    if not os.path.exists(path):
        check("Factors at each p" not in report, "factor tables in the report without a -factors table")
        return
    names, rows = cr.table(path)
    factors = names[names.index("scenario") + 1:names.index("p")]
    lines, shown = report.split("\n"), 0
    for k, line in enumerate(lines):
        head = re.match(r"^p = (\d+) \((\w+)\)\s+(.*)$", line)
        if not head:
            continue
        p, unit, columns = head.group(1), head.group(2), head.group(3).split()
        for row in lines[k + 1:]:
            tokens = row.split()
            if not tokens or row.startswith("p = ") or tokens[0] == "Each":
                break
            cells = []
            for _ in columns:  # from the right: "-", or T_par and speedup
                cells.insert(0, [tokens.pop()] if tokens[-1] == "-" else [tokens.pop(-2), tokens.pop()])
            label = " ".join(tokens)
            for value, cell in zip(columns, cells):
                match = [r for r in rows if r["p"] == p and os.path.basename(r[factors[-1]]) == value and
                         all(os.path.basename(r[f]) in label for f in factors[:-1])]
                what = f"report factors at p = {p}, {label}, {value}"
                check(len(match) == (0 if cell == ["-"] else 1), f"{what}: {cell} for {len(match)} CSV rows")
                if len(match) != 1 or cell == ["-"]:
                    continue
                shown += 1
                cr.close(cell[0], float(match[0]["t_par_s"]) * UNITS[unit], f"{what}: T_par")
                cr.close(cell[1].rstrip("*"), float(match[0]["speedup"]), f"{what}: speedup")
                check(cell[1].endswith("*") == (match[0]["best"] == "1"), f"{what}: best mark {cell[1]!r}")
    check(shown == len(rows), f"report factors: {shown} cells for {len(rows)} rows of -factors.csv")


def check_html_model(header, table_rows, folder):
    """The page's model table (the schema's columns, by their data-column) against the main table."""
    names = [column_of(h) for h in header]
    check(names == ["model", "points", "mean_abs_diff", "max_abs_diff", "worst_p"] and len(table_rows) == 1,
          f"HTML model table {header}")
    if len(table_rows) != 1 or len(table_rows[0]) != 5:
        return
    _, count, mean, largest, at = table_rows[0]
    for cell in (mean, largest):  # ratios, shown to 4 decimals as the terminal's, exact in the tooltip
        check(not cell or cell.exact is not None and rounded_agrees(cell, float(cell.exact)),
              f"HTML model cell {cell!r} with tooltip {cell.exact!r}")
    number = lambda cell: float(cell.exact) if cell and cell.exact is not None else math.nan
    check_model("HTML model", int(count), number(mean), number(largest), int(at) if at else None, folder)


def check_model_json(folder, doc, report):
    """The JSON's model_summary, there when the study has a model (the report's "Model: " line), against the main
    table."""
    s = doc.get("model_summary")
    check((s is not None) == bool(re.search(r"^Model: ", report, re.M)), "JSON model_summary where a model is")
    if s:
        check_model("JSON model_summary", s["points"], s["mean_abs_diff"], s["max_abs_diff"], s["worst_p"], folder)


def check_model_report(folder, report):
    """The terminal's line "Over N points: mean |diff| = M%, max |diff| = X% (p = P..." against the main table, to its
    two decimals."""
    for count, mean, largest, at in re.findall(r"^Over (\d+) points: mean \|diff\| = ([0-9.]+)%, max \|diff\| = "
                                               r"([0-9.]+)% \(p = (\d+)", report, re.M):
        n, mean_, largest_, ps = model_summary(folder)
        check(int(count) == n, f"report model: {count} points for {n}")
        cr.close(mean, 100 * mean_, "report model mean |diff|")
        cr.close(largest, 100 * largest_, "report model max |diff|")
        check(int(at) in ps, f"report model: at p = {at}, the largest is at p = {ps}")


def check_html(folder, doc):
    parser = Tables()
    with open(f"{folder}/out.html", encoding="utf-8") as f:
        parser.feed(f.read())
    check(any(section == "points" for section, _, _ in parser.tables), "HTML: no table of the points")
    for section, header, rows in parser.tables:
        check_html_table(section, header or [], rows, folder, doc)


TABLE5 = {"T_par": "t_par_s", "idle": "idle_s", "communication/computation": "comm_comp_ratio",
          "memory/processing": "mem_proc_ratio", "utilisation U_p": "utilisation"}


def table5_column(label):
    """The main table's CSV column a row of the terminal's bottleneck table shows ("processing (Tproc)":
    processing_s, "  link-init (Tcni)": link_init_s, "B-ratio io": b_io), or None for a reference's rows."""
    name = label.strip()
    name = name[:name.find(" (")] if " (" in name else name
    if name.startswith("B-ratio "):
        return "b_" + name[len("B-ratio "):]
    if name in TABLE5:
        return TABLE5[name]
    return name.replace("-", "_") + "_s" if name in COMPONENTS + tuple(s.replace("_", "-") for s in SUBS) else None


def table5_tables(report):
    """The terminal's bottleneck tables (seed 001 Table 5 layout), each as (unit, [p...], [(label, [cell...])...]): the
    rows of its column groups joined."""
    tables = []
    lines = report.split("\n")
    for k, line in enumerate(lines):
        if not line.startswith("Bottleneck analysis") or not lines[k + 1].startswith("  ("):
            continue
        unit, ps, rows, block = lines[k + 1][3:].split(",")[0], [], [], -1
        for row in lines[k + 2:]:
            if not row.startswith("  ") or row.startswith("  Verdict"):
                if row.strip():
                    break
                continue
            cells = row.split()
            if row.startswith("  p "):
                ps += cells[1:]
                block, width = 0, len(cells) - 1
                continue
            label = re.match(rf"^(.*?)(?:\s+\S+){{{width}}}\s*$", row).group(1)
            if len(ps) > width:  # a later group of columns: the same rows again
                rows[block][1].extend(cells[-width:])
            else:
                rows.append((label, cells[-width:]))
            block += 1
        tables.append((unit, ps, rows))
    return tables


def check_table5(folder, doc, report):
    """Every cell of the terminal's bottleneck tables against the main table's CSV (a table per group, in the report's
    order; times in the table's unit to their last digit, ratios to 3 decimals, '-' where the CSV is empty) and its
    reference rows against the -references table; every component and ratio has its row, and a sub-component without
    one has no time in the group."""
    if not os.path.exists(f"{folder}/out.csv") or "Bottleneck analysis" not in report:
        return
    header, rows = cr.table(f"{folder}/out.csv")
    rows, ordered = cr.report_order(rows, doc)
    refs = cr.table(f"{folder}/out-references.csv")[1] if os.path.exists(f"{folder}/out-references.csv") else []
    keys = cr.key_columns(doc)
    groups = []
    for row in rows:
        key = tuple(row[k] for k in keys if k != "p")
        if not groups or groups[-1][0] != key:
            groups.append((key, []))
        groups[-1][1].append(row)
    tables = table5_tables(report)
    check(len(tables) == len(groups), f"{len(tables)} bottleneck tables for {len(groups)} groups")
    for (unit, ps, table_rows), (_, members) in zip(tables, groups):
        check(ps == [r["p"] for r in members], f"bottleneck table of p {ps}: the group's p are {[r['p'] for r in members]}")
        seen, last = set(), None
        for label, cells in table_rows:
            column = table5_column(label)
            what = f"bottleneck table {label.strip()!r} of p {ps}"
            check(len(cells) == len(members), f"{what}: {len(cells)} cells")
            if column is not None:
                check(column in header, f"{what}: no CSV column {column}")
                if column not in header:
                    continue
                seen.add(column)
                last = column
                for cell, row in zip(cells, members):
                    if column.endswith("_s"):
                        cr.close(cell, float(row[column]) * UNITS[unit], f"{what} at p = {row['p']}")
                    elif cell == "-" or row[column] == "":
                        check(cell == "-" and row[column] == "", f"{what} at p = {row['p']}: {cell!r}, CSV {row[column]!r}")
                    else:
                        cr.close(cell, float(row[column]), f"{what} at p = {row['p']}")
            elif label.strip() == "simrun difference":
                check_table5_refs(refs, source, last, cells, members, keys, unit, diff=True)
            else:
                source = label.strip()
                check_table5_refs(refs, source, last, cells, members, keys, unit, diff=False)
        expected = [c for c in header if c in ("t_par_s", "idle_s", "comm_comp_ratio", "mem_proc_ratio", "utilisation")
                    or c.startswith("b_") or c[:-2] in COMPONENTS]
        for column in expected:
            check(column in seen, f"bottleneck table of p {ps}: no row of {column}")
        for sub in SUBS:
            column = sub + "_s"
            check(column in seen or all(float(r[column]) == 0 for r in members),
                  f"bottleneck table of p {ps}: no row of {column}, which has time")


PARTS = {"processing": ("cpu", "fpu"), "memory": ("intmem", "extmem"), "io": ("input", "output"),
         "communication": ("link_init", "distribution", "broadcast", "collection", "other_comm")}


def check_breakdown(folder):
    """The main table's bottleneck columns hold together (seed 001 §3.5), whatever writer or getter made them: each
    component is the sum of its sub-components, each B-ratio the component over the sum of the others (empty where
    they are 0), so that a column read from the wrong figure fails even where every format agrees."""
    header, rows = cr.table(f"{folder}/out.csv")
    if "b_processing" not in header:
        return
    for row in (r for r in rows if r["processing_s"] != ""):
        what = f"out.csv at p = {row['p']}"
        comp = {c: float(row[c + "_s"]) for c in PARTS}
        for c, subs in PARTS.items():
            total = math.fsum(float(row[s + "_s"]) for s in subs)
            check(math.isclose(comp[c], total, rel_tol=1e-7, abs_tol=1e-9), f"{what}: {c}_s {comp[c]} != its parts {total}")
            others = math.fsum(v for k, v in comp.items() if k != c)
            ratio = row["b_" + c]
            check(ratio == "" if others == 0 else ratio != "" and math.isclose(float(ratio), comp[c] / others, rel_tol=1e-7),
                  f"{what}: b_{c} {ratio!r} against {c}_s / the others' {comp[c]} / {others}")


def check_table5_refs(refs, source, quantity_column, cells, members, keys, unit, diff):
    """A reference's row (its figure in the table's unit) or the simrun difference under it (%+.1f%% of rel_diff, '-'
    where empty) against the -references table's row of the point, quantity and source."""
    quantity = "t_par" if quantity_column == "t_par_s" else quantity_column[:-2].replace("_", "-")
    for cell, row in zip(cells, members):
        match = [r for r in refs if all(r[k] == row[k] for k in keys) and r["quantity"] == quantity and
                 r["source"].startswith(source)]
        what = f"bottleneck table reference {source!r} of {quantity} at p = {row['p']}"
        if not match:
            check(cell == "-", f"{what}: {cell!r} without a -references row")
            continue
        if diff:
            text = "-" if match[0]["rel_diff"] == "" else f"{100 * float(match[0]['rel_diff']):+.1f}%"
            check(cell == text, f"{what}: difference {cell!r} against {text!r}")
        else:
            cr.close(cell, float(match[0]["reference_s"]) * UNITS[unit], what)


def kind_of(folder):
    """Which of check_results.py's families the study is: DSM (profiles), a benchmark (messages) or lost cycles."""
    if os.path.exists(f"{folder}/out-profiles.csv"):
        return "dsm"
    return "messages" if os.path.exists(f"{folder}/out-messages.csv") else "lost"


def check_terminal(folder, doc, report):
    """The terminal report against the CSV (check_results.py); a lost-cycle study without a per-process view has its
    main and bottleneck tables and its -factors table checked, not the per-process one."""
    kind = kind_of(folder)
    if kind == "lost" and not os.path.exists(f"{folder}/out-processes.csv"):
        rows, ordered = cr.report_order(cr.check_main(folder, doc)[1], doc)
        cr.check_ratios(rows, ordered, report)
        cr.check_factors(folder, doc, rows)  # the -factors table's ranks worked out anew, as check_lost does
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
        for name in ROW_TABLES:
            check_rows_json(folder, doc, name)
        check_html(folder, doc)
        check_terminal(folder, doc, report)
        if kind_of(folder) == "dsm":
            check_terminal_dsm(folder, doc, report)
        check_terminal_wait_states(folder, doc, report)
        check_fits_report(folder, report)
        check_table5(folder, doc, report)
        check_breakdown(folder)
        check_model_json(folder, doc, report)
        check_model_report(folder, report)
        check_factors_report(folder, report)
    for failure in cr.failures:
        print(failure)
    sys.exit(1 if cr.failures else 0)


if __name__ == "__main__":
    main()
