#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reads simrun's CSV tables and JSON with real parsers (csv, json) and checks them against each other and against the
report simrun printed, as a user's script would (docs/results.md). Used by tests/test_rep_export.c.

Usage: check_results.py lost|dsm|messages DIR   (DIR holds out.csv, its extra tables, out.json and report.txt)
Prints one line per failed check and exits 1 when any failed."""
import csv
import json
import math
import os
import re
import shlex
import sys

CORE = ["t_par_s", "t_seq_s", "speedup", "efficiency", "ovh_ctrl", "ovh_comm", "ovh_idle", "ovh_anomaly", "messages"]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def table(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
        header = reader.fieldnames
    check(len(set(header)) == len(header), f"{path}: duplicate column names in {header}")
    check(all(re.fullmatch(r"[a-z][a-z0-9_]*|[A-Z][A-Za-z]*_s", h) for h in header), f"{path}: a column is no identifier")
    return header, rows


def numeral(text):
    """Whether `text` is a number as JSON writes them (the JSON gives such a parameter as a number)."""
    return re.fullmatch(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?", text) is not None


def column_name(param):
    """The CSV column of a parameter: its name, but the swept platform's, platform_file (docs/results.md)."""
    return "platform_file" if param == "platform" else param


def param_name(column):
    return "platform" if column == "platform_file" else column


def key_columns(doc):
    """The key columns every table starts with: scenario, platform, skeleton, the parameters but p, then p (the JSON's
    parameter keys are the columns' names)."""
    params = [column_name(n) for n in doc["points"][0]["params"] if n != "p"]
    return ["scenario", "platform", "skeleton"] + params + ["p"]


def close(shown, value, what):
    """`shown` is the report's rounded text of `value`: they agree to half a unit of its last printed digit."""
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    check(abs(float(shown) - value) <= 0.5 * 10 ** -decimals + 1e-12, f"{what}: report {shown}, file {value}")


def same(text, value, what):
    """A CSV field against the JSON number written from the same double (both %.9g): equal; an empty field is null."""
    check(text == "" and value is None or text != "" and float(text) == value, f"{what}: CSV {text!r}, JSON {value}")


def check_main(folder, doc):
    header, rows = table(f"{folder}/out.csv")
    keys = key_columns(doc)
    check(header[: len(keys) + len(CORE)] == keys + CORE, f"core columns: {header[:len(keys) + len(CORE)]}")
    check(len(rows) == len(doc["points"]), f"{len(rows)} CSV rows for {len(doc['points'])} points")
    for row, point in zip(rows, doc["points"]):
        check(row["scenario"] == doc["scenario"] and row["platform"] == point["platform"], "scenario, platform")
        check(int(row["p"]) == point["p"], "p")
        for name, value in point["params"].items():
            column = column_name(name)
            check(name == "p" or row[column] == str(value), f"parameter {name}")
            check(isinstance(value, str) != numeral(row.get(column, str(value))), f"parameter {name}: typed {value!r}")
        same(row["t_par_s"], point["t_par_s"], "t_par_s")
        check(int(row["messages"]) == point["messages"], "messages")
    return header, rows


def report_rows(report, pattern):
    return [m.groups() for m in re.finditer(pattern, report, re.M)]


UNITS = {"s": 1, "ms": 1e3, "us": 1e6, "ns": 1e9}


def heads_of(line):
    """A terminal table's head line as its heads, a unit joined to its name ("Comp (ms)")."""
    heads = []
    for word in line.split():
        if word.startswith("(") and word.endswith(")") and heads:
            heads[-1] += " " + word
        else:
            heads.append(word)
    return heads


def report_table(text, title, first):
    """The rows of the first table of a view's schema (src/report/rep_schema.c's terminal walker) after the line
    starting `title` in `text`, as dicts from head to cell: its column groups (a blank line between them, each
    repeating the key columns, its head line starting with the head `first`) joined; None when there is none."""
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if line.startswith(title)), None)
    while at is not None and at < len(lines) and heads_of(lines[at])[:1] != [first]:
        at += 1
    rows = None
    while at is not None and at < len(lines) and heads_of(lines[at])[:1] == [first]:
        heads, group, at = heads_of(lines[at]), [], at + 1
        while at < len(lines) and lines[at].strip() and not lines[at].lstrip().startswith("... "):
            group.append(dict(zip(heads, lines[at].split())))
            at += 1
        rows = group if rows is None else [dict(a, **b) for a, b in zip(rows, group)]
        at += 1
    return rows


def head_named(row, name):
    """The head of `row` whose name, lower case and without its unit, is `name`: ("comp", "Comp (ms)")."""
    return next((h for h in row if h.split(" (")[0].lower() == name), None)


def shown_value(row, name):
    """A terminal cell of a time column, in seconds ("-" is None), and its text in the unit its head names."""
    head = head_named(row, name)
    text = row.get(head, "-") if head else "-"
    unit = head[head.rfind("(") + 1:-1] if head and head.endswith(")") else "s"
    return text, UNITS.get(unit, 1)


def of_point(row, point):
    """Whether a CSV row's key columns are the JSON point's parameters."""
    return all(row[column_name(k)] == str(v) for k, v in point["params"].items())


def report_order(rows, doc):
    """The main table's rows and the JSON's points in the report's order: a table per group (the parameters but p), the
    groups in the order they first appear, each group's rows in the CSV's order (a work-size sweep's CSV goes by p)."""
    groups = {}
    for row, point in zip(rows, doc["points"]):
        key = tuple((k, v) for k, v in point["params"].items() if k != "p")
        groups.setdefault(key, []).append((row, point))
    ordered = [item for members in groups.values() for item in members]
    return [r for r, _ in ordered], dict(doc, points=[pt for _, pt in ordered])


def check_lost(folder, doc, report):
    header, rows = check_main(folder, doc)
    rows, doc = report_order(rows, doc)
    # the terminal table: "p T_par (UNIT) speedup efficiency% ctrl comm idle anomaly sum granularity model diff", its
    # times in the unit its header names (docs/results.md), read at --full --width 1000: one group of columns
    number = r"\s+([-+0-9.inf]+)"
    shown = report_rows(report, r"^\s*(\d+)" + number * 3 + r"%" + number * 4)
    units = [{"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[u] for (u,) in report_rows(report, r"^\s*p\s+T_par \((\w+)\)")]
    factors = [units[sum(1 for _ in re.finditer(r"^\s*p\s+T_par \(", report[:m.start()], re.M)) - 1]
               for m in re.finditer(r"^\s*(\d+)" + number * 3 + r"%" + number * 4, report, re.M)]
    check(len(shown) == len(rows), f"{len(shown)} report rows for {len(rows)} CSV rows")
    for (p, t_par, speedup, eff, ctrl, comm, idle, anomaly), row, point, factor in zip(shown, rows, doc["points"],
                                                                                      factors):
        check(int(p) == int(row["p"]), "report order")
        close(t_par, float(row["t_par_s"]) / factor, "T_par")
        close(speedup, float(row["speedup"]), "speedup")
        close(eff, 100 * float(row["efficiency"]), "efficiency")
        for name, text in zip(("ctrl", "comm", "idle", "anomaly"), (ctrl, comm, idle, anomaly)):
            close(text, float(row["ovh_" + name]), "ovh_" + name)
            same(row["ovh_" + name], point["overhead_ratios"][name], "ovh_" + name)
        for name in ("t_seq_s", "speedup", "efficiency", "overhead_s", "t_model_s"):
            same(row[name], point[name], name)
        for name, value in point["bottleneck"]["subcomponents"].items():
            same(row[name + "_s"], value, name)
        # the study's invariant (Lemeire eq. 1.14): speedup = p / (1 + sum of the ratios)
        total = sum(float(row["ovh_" + n]) for n in ("ctrl", "comm", "idle", "anomaly"))
        check(math.isclose(float(row["speedup"]), int(row["p"]) / (1 + total), rel_tol=1e-6), "eq. 1.14")
    check_ratios(rows, doc, report)
    check_processes(folder, doc, rows, report)
    check_factors(folder, doc, rows)


def check_factors(folder, doc, rows):
    """The -factors table holds the JSON's factors rows, row for row; each T_par and speedup is its point's in the main
    table (found by its factors' values and p), and rank and best are worked out anew: 1 + the points at that p of the
    same problem (equal in the JSON's `problem` factors: sizes, zipped parameters) faster by more than 1e-9 of its
    T_par, best for rank 1."""
    path = f"{folder}/out-factors.csv"
    check(("factors" in doc) == os.path.exists(path), "a -factors table without the JSON's factors, or the reverse")
    if "factors" not in doc:
        return
    header, table_rows = table(path)
    names = doc["factors"]["names"]
    check(len(table_rows) == len(doc["factors"]["rows"]), "factors: as many CSV as JSON rows")
    for row, item in zip(table_rows, doc["factors"]["rows"]):
        point = [r for r in rows if r["p"] == row["p"] and all(r[c] == row[c] for c in header[1:1 + len(names)])]
        check(len(point) == 1, f"factors: one main row for {row}")
        if point:
            same(row["t_par_s"], float(point[0]["t_par_s"]), "factors t_par_s")
            same(row["speedup"], float(point[0]["speedup"]), "factors speedup")
        same(row["t_par_s"], item["t_par_s"], "factors t_par_s, JSON")
        t = float(row["t_par_s"])
        problem = [header[1 + names.index(n)] for n in doc["factors"]["problem"]]
        rank = 1 + sum(float(r["t_par_s"]) < t * (1 - 1e-9) for r in table_rows
                       if r["p"] == row["p"] and all(r[c] == row[c] for c in problem))
        check(int(row["rank"]) == rank == item["rank"], f"factors rank of {row}: {rank} by hand")
        check(int(row["best"]) == (rank == 1) == item["best"], f"factors best of {row}")


def check_ratios(rows, doc, report):
    """The bottleneck ratios: the report's rows (a table per group, p ascending, in the order of the CSV's rows), the
    CSV and the JSON agree, and where the report shows '-' (undefined: a zero denominator) the CSV field is empty and
    the JSON null (docs/results.md)."""
    components = ("processing", "memory", "communication", "io")
    ratios = [(f"B-ratio {c}", f"b_{c}", lambda pt, c=c: pt["bottleneck"]["b_ratios"][c]) for c in components]
    ratios += [(label, name, lambda pt, name=name: pt["bottleneck"][name]) for label, name in
               (("communication/computation", "comm_comp_ratio"), ("memory/processing", "mem_proc_ratio"))]
    for label, name, in_json in ratios:
        shown = [t for line in report_rows(report, rf"^  {re.escape(label)}\s+(.*)$") for t in line[0].split()]
        check(len(shown) == len(rows), f"{len(shown)} {label} cells for {len(rows)} CSV rows")
        for text, row, point in zip(shown, rows, doc["points"]):
            undefined = text == "-"
            check(undefined == (row[name] == "") == (in_json(point) is None), f"{name}: '-', empty and null together")
            if not undefined:
                close(text, float(row[name]), name)
                same(row[name], in_json(point), name)


UNITS = {"s": 1, "ms": 1e3, "us": 1e6, "ns": 1e9}


def process_rows(report):
    """The per-process tables' rows (rank, work, ctrl, comm, idle, anomaly, true anomaly, imbalance), each with the unit
    its table's head gives the work ("rank  work (ms) ...")."""
    rows, unit = [], None
    for line in report.splitlines():
        head = re.match(r"^rank\s+work \((\w+)\)", line)
        if head:
            unit = head.group(1)
        elif unit and re.match(r"^\s*\d+(\s+-?[0-9.]+){7}$", line):
            rows.append((unit, line.split()))
        else:
            unit = None
    return rows


def check_processes(folder, doc, rows, report):
    header, procs = table(f"{folder}/out-processes.csv")
    keys = key_columns(doc)
    check(header == keys + ["rank", "rank_work_s", "rank_ovh_ctrl", "rank_ovh_comm", "rank_ovh_idle",
                            "rank_ovh_anomaly", "rank_anomaly", "rank_imbalance"], f"{header}")
    check(all(isinstance(pt["per_process"], list) for pt in doc["points"]), "per_process a list on every point")
    with_procs = [pt for pt in doc["points"] if pt["per_process"]]
    check(len(procs) == sum(pt["p"] for pt in with_procs) and procs, f"{len(procs)} per-process rows")
    shown = process_rows(report)
    check(len(shown) == len(procs), f"{len(shown)} per-process report rows for {len(procs)}")
    for proc, (unit, line) in zip(procs, shown):
        point = next(pt for pt in with_procs if all(proc[column_name(k)] == str(v) for k, v in pt["params"].items()))
        item = point["per_process"][int(proc["rank"])]
        check(line[0] == proc["rank"], "order of the per-process rows")
        same(proc["rank_work_s"], item["work_s"], "work_s")
        close(line[1], float(proc["rank_work_s"]) * UNITS[unit], f"per-process work in {unit}")
        # then the rank's four overhead ratios, and its anomaly split into true anomaly and load imbalance
        for i, name in enumerate(("ovh_ctrl", "ovh_comm", "ovh_idle", "ovh_anomaly", "anomaly", "imbalance")):
            same(proc["rank_" + name], item["overhead_ratios"][name[4:]] if name.startswith("ovh_") else item[name],
                 "per-process " + name)
            close(line[2 + i], float(proc["rank_" + name]), "per-process " + name)
        check(abs(float(proc["rank_anomaly"]) + float(proc["rank_imbalance"]) - float(proc["rank_ovh_anomaly"])) < 1e-6,
              "per-process anomaly + imbalance = ovh_anomaly")
    # the ranks' ratios add up to the point's (met_eppa.h)
    for row in rows:
        mine = [pr for pr in procs if all(pr[k] == row[k] for k in key_columns(doc))]
        for name in ("ctrl", "comm", "idle", "anomaly"):
            if mine:
                total = sum(float(pr["rank_ovh_" + name]) for pr in mine)
                check(abs(total - float(row["ovh_" + name])) < 1e-6, f"per-process ovh_{name} sum")


def check_dsm(folder, doc, report):
    header, rows = check_main(folder, doc)
    # "==== controller = yes, p = 4: T_par = 0.007740 s" then the "all" row of the time by node (ms)
    blocks = [b for b in report.split("\n==== ")[1:] if "T_par = " in b.split("\n")[0]]
    check(len(blocks) == len(rows), f"{len(blocks)} report blocks for {len(rows)} rows")
    cats = ["comp_s", "extra_s", "wait_s", "prste_s", "cpcomp_s", "cpwait_s", "cpidle_s"]
    for block, row in zip(blocks, rows):
        close(re.search(r"T_par = ([0-9.]+) s", block).group(1), float(row["t_par_s"]), "T_par")
        nodes = report_table(block, "Time by node", "name") or []
        everything = next((r for r in nodes if r.get("name") == "all"), {})
        check(everything, "the report's 'all' row of the time by node")
        for name in cats:
            text, scale = shown_value(everything, name[:-2])
            check((text == "-") == (row[name] == ""), f"{name} empty where the report shows '-'")
            if text != "-" and row[name] != "":
                close(text, scale * float(row[name]), name)
        check(row["t_seq_s"] == "" and row["speedup"] == "", "no lost-cycle figures for DSM")
    check_profiles(folder, doc, rows, cats)
    check_requests(folder, doc)
    header, waits = table(f"{folder}/out-waits.csv")
    check(header[: len(key_columns(doc))] == key_columns(doc), "key columns of the wait table")
    check(len(waits) == sum(len(pt["wait_map"]) for pt in doc["points"]), "one wait row per wait-map line")
    for point in doc["points"]:
        mine = [w for w in waits if of_point(w, point)]
        for w, line in zip(mine, point["wait_map"]):
            check(w["scope"] == line["scope"] and w["operation"] == line["operation"], "wait-map order")
            same(w["time_s"], line["wait"], "time_s")
            check(int(w["requests"]) == line["requests"], "requests")


def check_profiles(folder, doc, rows, cats):
    """The profile table: its "all" node row is the main table's; nodes, scopes and operations each add up to it; a
    node's PP categories add up to T_par (every unit is accounted for the whole run)."""
    header, profiles = table(f"{folder}/out-profiles.csv")
    check(header == key_columns(doc) + ["by", "name"] + ["profile_" + c for c in cats], f"{header}")
    for row in rows:
        mine = [r for r in profiles if all(r[k] == row[k] for k in key_columns(doc))]
        everything = next((r for r in mine if r["by"] == "node" and r["name"] == "all"), None)
        check(everything is not None, "an 'all' node row per point")
        if everything is None:
            continue
        for name in cats:
            column = "profile_" + name
            check(everything[column] == row[name], f"profile all {name}: {everything[column]!r} against {row[name]!r}")
            for by in ("node", "scope", "operation"):
                parts = [r[column] for r in mine if r["by"] == by and r["name"] != "all"]
                if row[name] != "":
                    total = sum(float(v) for v in parts)
                    check(math.isclose(total, float(row[name]), rel_tol=1e-9, abs_tol=1e-12), f"{by} sum of {name}")
        point = next(pt for pt in doc["points"] if of_point(row, pt))
        check(len(mine) == len(point["profiles"]), "JSON profiles: one per CSV row")
        for r, item in zip(mine, point["profiles"]):
            check(r["by"] == item["by"] and r["name"] == item["name"], "JSON profiles order")
            for c, value in list(item["pp"].items()) + list(item["cp"].items()):
                same(r["profile_" + c.replace("_", "") + "_s"], value, f"JSON profile {c}")
        for r in mine:
            if r["by"] == "node" and r["name"] != "all":
                pp = sum(float(r["profile_" + c]) for c in cats[:4])
                check(math.isclose(pp, float(row["t_par_s"]), rel_tol=1e-6), f"node {r['name']}: PP time {pp}")


def check_requests(folder, doc):
    """Every request: as many per (point, scope, waiter, operation) as the wait map counts, and the JSON's first page
    request among them with the same 13 intervals."""
    header, requests = table(f"{folder}/out-requests.csv")
    intervals = [f"interval_{k}_s" for k in range(1, 14)]
    check(header == key_columns(doc) + ["node", "waiter", "operation", "scope", "peer", "item", "start_s"] + intervals,
          f"{header}")
    for point in doc["points"]:
        mine = [r for r in requests if of_point(r, point)]
        for line in point["wait_map"]:
            n = sum(1 for r in mine if (r["scope"], r["waiter"], r["operation"]) ==
                    (line["scope"], line["waiter"], line["operation"]))
            check(n == line["requests"], f"{n} request rows for a wait-map line of {line['requests']}")
        first = point["first_page_request"]
        rows = [r for r in mine if r["waiter"] == "Wait" and r["operation"] == "page" and int(r["node"]) == first["node"]
                and int(r["item"]) == first["page"] and float(r["start_s"]) == first["start"]]
        check(len(rows) == 1, "the first page request is a row")
        for r in rows:
            check(r["peer"] == str(first["owner"]), "its owner")
            for name, value in zip(intervals, first["intervals"]):
                same(r[name], value, name)


MESSAGE_TIMES = ("mean_s", "min_s", "max_s", "wait_mean_s", "wait_min_s", "wait_max_s")


def message_rows(report):
    """The message-time tables' rows (bytes, hops, count, the transfers' mean, min and max, the waits'), each with the
    units its head gives the six times ("bytes hops count transfer mean (ms) ... wait max (us)")."""
    rows, units = [], None
    for line in report.splitlines():
        if re.match(r"^\s*bytes\s+hops\s+count\s+transfer mean", line):
            units = re.findall(r"\((\w+)\)", line)
        elif units and re.match(r"^\s*\d+\s+\d+\s+\d+(\s+[0-9.]+){6}$", line):
            rows.append((units, line.split()))
        else:
            units = None
    return rows


def check_messages(folder, doc, report):
    header, rows = check_main(folder, doc)
    header, msgs = table(f"{folder}/out-messages.csv")
    check(header == key_columns(doc) + ["bytes", "hops", "count"] + list(MESSAGE_TIMES), f"{header}")
    shown = message_rows(report)
    check(len(shown) == len(msgs) and msgs, f"{len(shown)} report rows for {len(msgs)} message rows")
    items = [m for pt in doc["points"] for m in pt["messages_by_size"]]
    for m, (units, line), item in zip(msgs, shown, items):
        check(m["bytes"] == line[0] and m["hops"] == line[1] and m["count"] == line[2], "bytes, hops, count")
        for i, name in enumerate(MESSAGE_TIMES):
            close(line[3 + i], UNITS[units[i]] * float(m[name]), name)
            same(m[name], item[name], name)
        # a message's transfer runs from its send's start to its end, past the receiver's wait for it
        check(float(m["mean_s"]) >= float(m["wait_mean_s"]) - 1e-12, "transfer at least the wait")
    check(sum(int(m["count"]) for m in msgs) == int(rows[0]["messages"]), "the counts add up to messages")


PROVENANCE = ["simrun_version", "simgrid_version", "command", "scenario_hash", "network_model"]


def fnv1a64(path):
    """FNV-1a (64 bits) of a file's bytes, as 16 hex digits: the scenario_hash simrun writes, computed here anew."""
    h = 14695981039346656037
    with open(path, "rb") as f:
        for byte in f.read():
            h = ((h ^ byte) * 1099511628211) % 2**64
    return f"{h:016x}"


def snake_keys(item, where="JSON"):
    """Every key of the JSON is snake_case (lower case, digits and '_')."""
    if isinstance(item, dict):
        for key, value in item.items():
            check(re.fullmatch(r"[a-z][a-z0-9_]*", key) is not None, f"{where}: key {key!r} is not snake_case")
            snake_keys(value, f"{where}.{key}")
    elif isinstance(item, list):
        for value in item:
            snake_keys(value, where)


def check_network_model(folder, doc):
    """The network model the provenance names is the one the report's line names, when the report has one."""
    path = f"{folder}/report.txt"
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as f:
        named = [line.split("): ", 1)[1].rstrip("\n") for line in f if line.startswith("Network model (")]
    named = list(dict.fromkeys(named))  # one line per platform of a sweep; the JSON names each model once
    if named:  # a report without the machine lines (DSM, benchmarks) names none
        check(" | ".join(named) == (doc.get("network_model") or ""),
              f"network model: report {named}, JSON {doc.get('network_model')!r}")


def check_common(folder, doc):
    """What every study's files share: provenance in both (the CSV's provenance table, the JSON's top keys), the
    scenario file's hash, snake_case keys, and the lists every point has, empty or not."""
    header, rows = table(f"{folder}/out-provenance.csv")
    check(header == ["scenario"] + PROVENANCE and len(rows) == 1, f"provenance table: {header}, {len(rows)} rows")
    check(rows[0]["scenario"] == doc["scenario"], "provenance: scenario")
    for name in PROVENANCE:  # an empty CSV field is the JSON's null (a measured run names no network model)
        check((rows[0].get(name) or None) == doc.get(name), f"{name}: CSV {rows[0].get(name)!r}, JSON {doc.get(name)!r}")
    check_network_model(folder, doc)
    main_header, _ = table(f"{folder}/out.csv")
    check(not set(PROVENANCE) & set(main_header), "provenance in the main table: two commands would differ there")
    words = shlex.split(doc["command"])
    check(words[0] == "simrun", f"command {doc['command']!r}")
    scenario = next((w for w in words if w.endswith(".xml")), None)
    if scenario:
        path = scenario if os.path.isabs(scenario) else os.path.join(folder, scenario)
        check(doc["scenario_hash"] == fnv1a64(path), f"scenario_hash {doc['scenario_hash']} of {path}")
    check(re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", doc["simgrid_version"] or "") is not None, "simgrid_version")
    snake_keys(doc)
    for point in doc["points"]:
        for key in ("messages_by_size", "references") + (("per_process",) if "t_seq_s" in point else ()):
            check(isinstance(point.get(key), list), f"point p = {point['p']}: {key} is not a list")
    check_references(folder, doc)


def check_references(folder, doc):
    """The reference table holds the JSON's references, row for row; simrun's figure is the main table's, and the
    difference (simrun - reference) / reference."""
    refs = [(pt, r) for pt in doc["points"] for r in pt["references"]]
    path = f"{folder}/out-references.csv"
    check(not refs or os.path.exists(path), "no reference table for the JSON's references")
    if not refs:
        return
    header, rows = table(path)
    _, main_rows = table(f"{folder}/out.csv")
    check(header == key_columns(doc) + ["quantity", "source", "reference_s", "simrun_s", "rel_diff"], f"{header}")
    check(len(rows) == len(refs), f"{len(rows)} reference rows for {len(refs)} in the JSON")
    for row, (point, ref) in zip(rows, refs):
        check(row["quantity"] == ref["quantity"] and row["source"] == ref["source"], "reference order")
        same(row["reference_s"], ref["reference_s"], "reference_s")
        same(row["simrun_s"], ref["simrun_s"], "simrun_s")
        main = next(m for m in main_rows if all(m[k] == row[k] for k in key_columns(doc)))
        column = "t_par_s" if ref["quantity"] == "t_par" else ref["quantity"].replace("-", "_") + "_s"
        check(float(main[column]) == float(row["simrun_s"]), f"simrun_s of {ref['quantity']}: {main[column]}")
        if float(row["reference_s"]) == 0:  # no relative difference to a reference of 0: an empty field
            check(row["rel_diff"] == "" and ref["rel_diff"] is None, "rel_diff of a reference of 0")
            continue
        diff = (float(row["simrun_s"]) - float(row["reference_s"])) / float(row["reference_s"])
        # simrun_s is written to 9 significant digits: the difference recomputed from it is good to 5e-9 of the ratio
        slack = 5e-9 * abs(float(row["simrun_s"]) / float(row["reference_s"])) + 1e-12
        check(math.isclose(diff, float(row["rel_diff"]), rel_tol=1e-6, abs_tol=slack), "rel_diff")


def main():
    kind, folder = sys.argv[1], sys.argv[2]
    with open(f"{folder}/out.json") as f:
        doc = json.load(f)
    with open(f"{folder}/report.txt") as f:
        report = f.read()
    {"lost": check_lost, "dsm": check_dsm, "messages": check_messages}[kind](folder, doc, report)
    check_common(folder, doc)
    for failure in failures:
        print(failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
