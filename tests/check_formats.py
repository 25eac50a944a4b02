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
            if column in "abc":
                coefficients = fit["coefficients"] or []
                k = "abc".index(column)
                agree(row[column], coefficients[k] if k < len(coefficients) else None, f"fit {column}")
            else:
                agree(row[column], fit.get(column), f"fit {column}")


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
        return text != "" and abs(float(cell[:-1]) - 100 * float(text)) <= 0.05 + 1e-9
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
               "references": ("out-references.csv", ("quantity", "source")),
               "profiles": ("out-profiles.csv", ("by", "name")), "waits": ("out-waits.csv", ("scope", "waiter", "operation")),
               "wait-states": ("out-wait-states.csv", ("rank",))}
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
        for name in ROW_TABLES:
            check_rows_json(folder, doc, name)
        check_html(folder, doc)
        check_terminal(folder, doc, report)
        if kind_of(folder) == "dsm":
            check_terminal_dsm(folder, doc, report)
        check_terminal_wait_states(folder, doc, report)
    for failure in cr.failures:
        print(failure)
    sys.exit(1 if cr.failures else 0)


if __name__ == "__main__":
    main()
