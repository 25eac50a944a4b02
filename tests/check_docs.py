#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Holds README.md and docs/ to what simrun does today (issue 50 item 3).

Links: every relative link of every page resolves to a file or folder, every #anchor to a heading of its page, and every
section quoted after a page's name (docs/NAME.md, "Title") to a heading or bold lead of that page (docs/history/ is
history: its own quoted sections are not checked, its links are).
Figures: each entry of FIGURES runs a cheap command (a few seconds at most) once, in a scratch folder where SOURCE_DIR's
scenarios/, platforms/, examples/, tests/, docs/, bench/, scripts/ and src/ are linked and `simrun` and `build/simrun`
are the binary given, with COLUMNS=1000 (a report's lines unwrapped, its tables unsplit: the figures are those of any width; an excerpt of a
report as a terminal shows it names its width, `COLUMNS=80 simrun ...`), and
requires the figures worked out from its output on the doc's line that holds the entry's anchor: in a table row, in
the cells named; elsewhere, anywhere on the line. An excerpt (EXCERPTS) is an indented block after its anchor line
whose lines must be the command's, in order, `...` marking lines left out. Then each checked figure is changed in a
copy of its line (one digit) and the check must fail, so that a check that cannot fail is found too.

Usage: check_docs.py SOURCE_DIR SIMRUN
Prints one line per failure and exits 1 when any; else one line saying what was checked."""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

failures = []


def fail(what):
    failures.append(what)


# --- figures ----------------------------------------------------------------------------------------------------------


def csv_tpar(output, broadcast, p):
    """T_par to the CSV's 9 digits of the point (broadcast, p) of a study whose CSV the command printed."""
    return value(output, "t_par_s", broadcast=broadcast, p=p)


def diff(new, old, decimals):
    """(new - old) / old as the docs print it: '-83.5%' with one decimal, '0' when the two are equal."""
    return "0" if new == old else f"{(new - old) / old * 100:+.{decimals}f}%"


def networks(p, decimals):
    """The analytic network's T_par against SimGrid's at p, from the CSV of a study run under both."""
    return lambda line, out: diff(value(out, "t_par_s", network="analytic", p=p),
                                  value(out, "t_par_s", network="simgrid", p=p), decimals)


def validation_cells(line, out):
    """docs/validation.md's 'broadcast | p | measured | simrun | error | ...' row: simrun's T_par and its error."""
    cells = table_cells(line)
    simrun = csv_tpar(out, cells[0], int(cells[1]))
    return {3: f"{simrun:.2f}", 4: diff(simrun, float(cells[2]), 1)}


def forwarding_cells(line, out):
    """docs/validation.md's 'broadcast | p | measured | before | error | after | error' row: after is simrun today."""
    cells = table_cells(line)
    simrun = csv_tpar(out, cells[0], int(cells[1]))
    return {5: f"{simrun:.2f}", 6: diff(simrun, float(cells[2]), 1)}


def readme_validation_cells(line, out):
    """README.md's validation table: simrun's T_par at p = 1 to 128 for one broadcast, two decimals."""
    broadcast = table_cells(line)[0].split(",")[0]
    return {k + 1: f"{csv_tpar(out, broadcast, p):.2f}" for k, p in enumerate(PS)}


def mean_max_error(broadcast, out, measured_rows):
    """Mean and largest absolute error over p = 2-128 of simrun's T_par (two decimals) against the measured row."""
    errors = [abs(csv_tpar(out, broadcast, p) - m) / m * 100
              for p, m in zip(PS[1:], measured_rows[1:])]
    return f"{sum(errors) / len(errors):.1f}% / {max(errors):.1f}%"


def points(output, **where):
    """The points of a study's CSV (printed by the command) whose columns have the values `where` gives."""
    lines = output.strip().split("\n")
    header = lines[0].split(",")
    found = [dict(zip(header, line.split(","))) for line in lines[1:]]
    found = [point for point in found if all(point.get(k) == str(v) for k, v in where.items())]
    if not found:
        raise LookupError(f"no point {where} in the CSV")
    return found


def value(output, column, **where):
    return float(points(output, **where)[0][column])


def grab(pattern, output):
    """The groups of the first match of `pattern` in the output."""
    match = re.search(pattern, output, re.M)
    if not match:
        raise LookupError(f"nothing like '{pattern}' in the output")
    return match.groups()


def percent(ratio, decimals=1):
    """A ratio as a signed percentage, '0.0%' for a difference under the last digit printed."""
    return "0.0%" if abs(ratio) * 100 < 0.5 * 10 ** -decimals else f"{ratio * 100:+.{decimals}f}%"


def bcast_row(line, out):
    """docs/broadcasts.md's row of p: T_par of each of the six broadcasts, three decimals."""
    p = int(table_cells(line)[0])
    names = ("one-to-all", "neighbour", "binomial", "pipelined-chain", "scatter-allgather", "mesh")
    return {k + 1: f"{value(out, 't_par_s', broadcast=b, p=p):.3f}" for k, b in enumerate(names)}


def matmul_row(column, form):
    """docs/icluster.md's ring multiply row of one metric at p = 1 .. 8."""
    return lambda line, out: {p: form(value(out, column, p=p)) for p in range(1, 9)}


def efficiency(v):
    return "100%" if v == 1 else f"{v * 100:.1f}%"


GRIDS = ("1x4", "1x8", "1x16", "1x32", "2x2", "2x4", "2x8", "2x16", "4x1", "4x2", "4x4", "4x8", "8x1", "8x2", "8x4")


def grid_point(out, grid):
    rows, cols = (int(n) for n in grid.split("x"))
    return points(out, grid_rows=rows, p=rows * cols)[0]


def pdtrsm_row(column, form):
    """docs/icluster.md's pdtrsm row of one column over the 15 grids of 4 to 32 ranks."""
    return lambda line, out: {k + 1: form(float(grid_point(out, g)[column])) for k, g in enumerate(GRIDS)}


def best_grid_row(line, out):
    """docs/icluster.md's 'p | best grid | runner-up | worst | model's choice' row, from the report's table."""
    p = table_cells(line)[0]
    best, best_t, worst, worst_t, model = grab(rf"^ +{p} +(\S+) +(\S+) +(\S+) +(\S+) +(\S+)$", out)
    return {1: f"{best}, {float(best_t):.2f}", 3: f"{worst}, {float(worst_t):.2f}", 4: model}


PS = (1, 2, 4, 8, 16, 32, 64, 128)
MEASURED = {"neighbour": (78.15, 41.33, 22.67, 13.73, 9.40, 7.46, 6.89, 7.54),  # seed 001, Tables 3-4
            "one-to-all": (78.21, 41.52, 27.21, 18.91, 20.91, 36.03, 69.81, 146.27)}
GJ256 = "simrun scenarios/gj256.xml --csv gj256.csv >/dev/null && cat gj256.csv"
GJ_MESH = ("simrun platform mesh {n}x{n} --preset t800-flat --routing native -o mesh{n}.xml && "
           "simrun gj256 --set platform=mesh{n}.xml --set n={p} --set p=\"1 {p}\" --set broadcast={b} "
           "--set network=\"simgrid analytic\" --per-process {p} --csv gj{p}{b}.csv >/dev/null && cat gj{p}{b}.csv")
PDGEMM = ("simrun platform switch {p} --preset icluster -o sw{p}.xml && simrun pdgemm-grids --set platform=sw{p}.xml "
          "--set p=\"1 {p}\" --set grid-rows={r} --set network=\"simgrid analytic\" --per-process {p} "
          "--csv pdgemm{p}.csv >/dev/null && cat pdgemm{p}.csv")

# (doc, anchor: a text on exactly one line of the doc, command, figures(line, output)): the figures a dict of table
# cells {column: text}, or a list of texts that must be on the line.
FIGURES = [
    ("docs/scale.md", "| Gauss-Jordan, neighbour broadcast |", GJ_MESH.format(n=8, p=64, b="neighbour"),
     lambda line, out: {1: networks(64, 2)(line, out)}),
    ("docs/scale.md", "| Gauss-Jordan, one-to-all broadcast |", GJ_MESH.format(n=8, p=64, b="one-to-all"),
     lambda line, out: {1: networks(64, 2)(line, out)}),
    ("docs/scale.md", "| Gauss-Jordan, one-to-all broadcast |", GJ_MESH.format(n=16, p=256, b="one-to-all"),
     lambda line, out: {2: networks(256, 2)(line, out)}),
    ("docs/scale.md", "| pdgemm, binomial broadcasts |", PDGEMM.format(p=64, r=8),
     lambda line, out: {1: networks(64, 1)(line, out)}),
    ("docs/scale.md", "| pdgemm, binomial broadcasts |", PDGEMM.format(p=256, r=16),
     lambda line, out: {2: networks(256, 1)(line, out)}),
    ("docs/scale.md", "| pdgemm, binomial broadcasts |", PDGEMM.format(p=1024, r=32),
     lambda line, out: {3: networks(1024, 1)(line, out)}),
    ("README.md", "| neighbour, simrun (s) |", GJ256, readme_validation_cells),
    ("README.md", "| one-to-all, simrun (s) |", GJ256, readme_validation_cells),
    ("README.md", "| neighbour, simrun (s) |", GJ256,
     lambda line, out: {9: mean_max_error("neighbour", out, MEASURED["neighbour"]) + " (paper's model 17.5% / 27.6%)"}),
    ("README.md", "| one-to-all, simrun (s) |", GJ256,
     lambda line, out: {9: mean_max_error("one-to-all", out, MEASURED["one-to-all"])
                        + " (paper's model 6.9% / 15.5%)"}),
    ("README.md", "Over both rows the mean absolute error is", GJ256, lambda line, out: [
        "mean absolute error is {:.1f}%".format(sum(abs(csv_tpar(out, b, p) - m) / m * 100 for b in MEASURED
                                                    for p, m in zip(PS[1:], MEASURED[b][1:])) / 14)]),
    ("docs/validation.md", "Mean / largest absolute error over p = 2-128: one-to-all", GJ256,
     lambda line, out: ["one-to-all " + mean_max_error("one-to-all", out, MEASURED["one-to-all"])]),
    ("docs/validation.md", "3.9% / 12.1% (the paper's model 17.5% / 27.6%)", GJ256,
     lambda line, out: [mean_max_error("neighbour", out, MEASURED["neighbour"]) + " (the paper's model"]),
]
FIGURES += [("docs/validation.md", (f"| {b} | {p} | {m:.2f} |", "## simrun and the paper's model"), GJ256,
             validation_cells) for b in MEASURED for p, m in zip(PS, MEASURED[b])]
FIGURES += [("docs/validation.md", (f"| {b} | {p} | {m:.2f} |", "## Before and after one-buffer forwarding"), GJ256,
             forwarding_cells) for b in MEASURED for p, m in zip(PS[5:], MEASURED[b][5:])]

FIGURES += [("docs/broadcasts.md", f"| {p} | ", "cat tests/snapshot/bcast-t800.csv", bcast_row) for p in PS]
MATMUL = "simrun scenarios/matmul100.xml --csv matmul.csv >/dev/null && cat matmul.csv"
PDTRSM = "simrun scenarios/pdtrsm.xml --csv pdtrsm.csv >/dev/null && cat pdtrsm.csv"
FIGURES += [
    ("docs/icluster.md", "| T_par (ms) | 27.64 |", MATMUL, matmul_row("t_par_s", lambda v: f"{v * 1000:.2f}")),
    ("docs/icluster.md", "| speedup | 1.000 |", MATMUL, matmul_row("speedup", lambda v: f"{v:.3f}")),
    ("docs/icluster.md", "| efficiency | 100% |", MATMUL, matmul_row("efficiency", efficiency)),
    ("docs/icluster.md", "| speedup | 2.55 |", MATMUL, lambda line, out: {2: f"{value(out, 'speedup', p=3):.3f}"}),
    ("docs/icluster.md", "| efficiency | 85% |", MATMUL,
     lambda line, out: {2: efficiency(value(out, 'efficiency', p=3))}),
    ("docs/icluster.md", "| overheads | communication and idling |", MATMUL, lambda line, out: {
        2: f"communication {value(out, 'ovh_comm', p=3):.2f} T_seq, idling {value(out, 'ovh_idle', p=3):.2f} T_seq "
           f"(granularity {value(out, 'granularity', p=3):.2f})"}),
    ("docs/icluster.md", "| simrun T_par (s) |", PDTRSM, pdtrsm_row("t_par_s", lambda v: f"{v:.2f}")),
    ("docs/icluster.md", "| model (s) | 6.89 |", PDTRSM, pdtrsm_row("t_model_s", lambda v: f"{v:.2f}")),
    ("docs/icluster.md", "| diff | -0.7% |", PDTRSM, pdtrsm_row("model_diff", percent)),
    ("docs/icluster.md", "Mean |diff| 2.72%, max 9.49% (4x8)", "simrun scenarios/pdtrsm.xml --full", lambda line, out: [
        "Mean |diff| {}, max {} ".format(*grab(r"mean \|diff\| = (\S+), max \|diff\| = (\S+) ", out))]),
] + [("docs/icluster.md", f"| {p} | 1x{p}, ", "simrun scenarios/pdtrsm.xml --full", best_grid_row) for p in (4, 8, 16, 32)]
BOTTLENECK = "simrun scenarios/gj256-bottleneck.xml --full"
FIGURES += [
    ("docs/bottlenecks.md", "| communication becomes a bottleneck beyond 64 processors |", BOTTLENECK,
     lambda line, out: ["at p = {2:.0f}, between {0} and {1}".format(*(float(g) if "." in g else g for g in grab(
         r"B-ratio of communication rises above 1 between p = (\d+) and (\d+) \(at about p = ([\d.]+)", out)))]),
    ("docs/bottlenecks.md", "| communication/computation exceeds 1 at about 48 |", BOTTLENECK,
     lambda line, out: ["at p = {:.0f}".format(float(grab(
         r"communication/computation rises above 1 between p = \d+ and \d+ \(at about p = ([\d.]+)", out)[0]))]),
    ("docs/bottlenecks.md", "| I/O is the bottleneck between 16 and 64 |", BOTTLENECK,
     lambda line, out: ["communication dominates from p = {}".format(*grab(
         r"^ +p = (\d+) to \d+: communication dominates", out))]),
    ("docs/bottlenecks.md", "| T_inp dominates from 32 processors", BOTTLENECK,
     lambda line, out: ["input is the largest sub-component from p = {}, broadcast second".format(*grab(
         r"^ +p = (\d+) to \d+: the largest sub-component is input, then broadcast", out))]),
]

MACHINES = "simrun scenarios/gj-machines.xml --csv machines.csv >/dev/null && cat machines.csv"


def machine_row(platform):
    """docs/machines.md's gj-machines row: T_seq, T_par and efficiency at p = 8 on one platform."""
    return lambda line, out: {1: f"{value(out, 't_seq_s', platform=platform, p=8):.3f}",
                              2: f"{value(out, 't_par_s', platform=platform, p=8):.3f}",
                              3: f"{value(out, 'efficiency', platform=platform, p=8) * 100:.1f}%"}


FIGURES += [("docs/machines.md", f"| {name} | ", MACHINES, machine_row(platform)) for name, platform in (
    ("T800 mesh", "t800-mesh-128.xml"), ("icluster", "icluster-fe-32.xml"), ("NCP2", "ncp2-myrinet-8.xml"),
    ("present-day cluster", "modern-switch-64.xml"))]
FIGURES += [("docs/machines.md", "Rsub element (16.5 of them the three accesses", "simrun scenarios/gj256.xml --set "
             "n=1024 --set p=1 --set broadcast=neighbour --set platform=platforms/icluster-fe-32.xml --per-process 1 "
             "--csv icluster-seq.csv >/dev/null && cat icluster-seq.csv",
             lambda line, out: ["T_seq = {:.2f} s".format(value(out, "t_seq_s"))])]

TOPOLOGY = "simrun scenarios/topology-gj.xml --csv topology.csv >/dev/null && cat topology.csv"
SHAPES = ("t800-mesh-16x8.xml", "t800-torus-16x8.xml", "t800-hypercube-7.xml", "t800-switch-128.xml")


def topology_row(line, out):
    """docs/topologies.md's 'broadcast | p | mesh | torus | hypercube | switch' row: T_par on each, three decimals."""
    broadcast, p = table_cells(line)[:2]
    return {k + 2: f"{value(out, 't_par_s', platform=shape, broadcast=broadcast, p=p):.3f}"
            for k, shape in enumerate(SHAPES)}


FIGURES += [("docs/topologies.md", f"| {b} | {p} | ", TOPOLOGY, topology_row)
            for b, p in (("neighbour", 4), ("neighbour", 16), ("neighbour", 64), ("neighbour", 128), ("binomial", 16),
                         ("binomial", 128))]

def link_init(out, p):
    """The link initialisation (Tcni) the bottleneck table gives the neighbour broadcast at p, in seconds."""
    table = out[out.index("Bottleneck analysis, broadcast = neighbour"):]
    ps = grab(r"^  p +([\d ]+)$", table)[0].split()
    return float(grab(r"^ +link-init \(Tcni\) +([\d. ]+)$", table)[0].split()[ps.index(str(p))])


FIGURES += [
    ("docs/t800.md", "link of the partition: ", "simrun scenarios/gj256.xml --full",
     lambda line, out: [f"{link_init(out, 64):.2f} s and {link_init(out, 128):.2f} s at p = 64 and 128"]),
    ("docs/t800.md", "  sends 65,278 messages: 512 x 127", "simrun scenarios/gj512.xml --csv gj512.csv >/dev/null && "
     "cat gj512.csv",
     lambda line, out: [f"sends {value(out, 'messages', broadcast='one-to-all', p=128):,.0f} messages"]),
    ("docs/t800.md", "rank). simrun gives ", GJ256, lambda line, out: [
        f"simrun gives {csv_tpar(out, 'one-to-all', 4):.2f} and {csv_tpar(out, 'neighbour', 4):.2f} s"]),
]

FIGURES += [
    ("README.md", "communication becomes a bottleneck at p = ", BOTTLENECK, lambda line, out: [
        "communication becomes a bottleneck at p = {:.0f}".format(float(grab(
            r"B-ratio of communication rises above 1 between p = \d+ and \d+ \(at about p = ([\d.]+)", out)[0]))]),
    ("docs/pictures.md", "is close to T_seq = ", "simrun scenarios/gj256.xml --full", lambda line, out: [
        "{1} is close to T_seq = {2:.1f} s; {0:.2f} s per processor".format(
            float(grab(r"time against p, broadcast = one-to-all: fit \S+ \+ \S+/p \+ ([\d.]+) p", out)[0]),
            grab(r"time against p, broadcast = one-to-all: fit \S+ \+ (\S+)/p", out)[0],
            float(grab(r"^broadcast = one-to-all, T_seq = ([\d.]+) s", out)[0]))]),
    ("docs/pictures.md", "the speedup against N at p = 16 takes the saturating form",
     "simrun scenarios/gj-worksize.xml --full", lambda line, out: [
         "{} over N = 64 to 512".format(*grab(r"speedup against n, p = 16: fit (.*) \(saturating\)", out))]),
]

def as_printed(cell, v):
    """`v` with as many decimals as the doc's cell gives it, and the cell's unit after it."""
    number, _, unit = cell.partition(" ")
    decimals = len(number.partition(".")[2])
    return f"{v:.{decimals}f}" + (" " + unit if unit else "")


def dsm_row(**where):
    """docs/ncp2.md's 'scenario | T_par with CP | without | the CP saves' row, from the scenario's CSV."""
    def cells(line, out):
        shown = table_cells(line)
        with_cp = value(out, "t_par_s", controller="yes", **where)
        without = value(out, "t_par_s", controller="no", **where)
        return {1: as_printed(shown[1], with_cp), 2: as_printed(shown[2], without),
                3: f"{(without - with_cp) / without * 100:.1f}%"}
    return cells


FIGURES += [
    ("docs/ncp2.md", "| dsm-gj, N = 256 |", "cat tests/snapshot/dsm-gj.csv", dsm_row()),
    ("docs/ncp2.md", "| dsm-matmul, N = 256 |", "cat tests/snapshot/dsm-matmul.csv", dsm_row()),
    ("docs/ncp2.md", "| dsm-false-sharing, interleaved |", "cat tests/snapshot/dsm-false-sharing.csv",
     dsm_row(layout="interleaved")),
    ("docs/ncp2.md", "| dsm-false-sharing, blocked |", "cat tests/snapshot/dsm-false-sharing.csv",
     dsm_row(layout="blocked")),
    ("docs/ncp2.md", "Interleaving the false-sharing kernel costs", "cat tests/snapshot/dsm-false-sharing.csv",
     lambda line, out: ["costs {:.0f} times the blocked layout's time".format(
         value(out, "t_par_s", controller="yes", layout="interleaved")
         / value(out, "t_par_s", controller="yes", layout="blocked"))]),
]

TI_TIMES = "bench/ti-times.sh build/simrun"


def ti_times(out, name):
    """smpirun's and simrun's simulated times of one trace, as bench/ti-times.sh prints them (6 decimals)."""
    smpi, ours = grab(rf"^{re.escape(name)} \d+ (\S+) (\S+)$", out)
    return smpi, ours


def ti_row(line, out):
    """docs/ti-replay.md's 'trace | ranks | smpirun (s) | simrun (s) | difference' row."""
    name = table_cells(line)[0]
    smpi, ours = ti_times(out, "pair" if name.startswith("pair-0/pair-1") else name)
    return [f"| {smpi} | {ours} | {diff(float(ours), float(smpi), 2) if ours != smpi else '0.00%'}"]


TI_SEQ = "simrun tests/data/ti/seq/study.xml"
TI_SEQ_CSV = "simrun tests/data/ti/seq/study.xml --csv ti-seq.csv >/dev/null && cat ti-seq.csv"
WAITS = "simrun scenarios/gj256.xml --csv gj256w.csv >/dev/null && cat gj256w-wait-states.csv"


def waits(out, broadcast, column):
    """Each rank's seconds of one wait state at p = 16 of gj256, from its -wait-states table."""
    return [float(point[column]) for point in points(out, broadcast=broadcast, p=16)]


FIGURES += [("docs/ti-replay.md", (f"| {name} | ", "## Against smpirun"), TI_TIMES, ti_row) for name in (
    "allgatherv", "allreduce", "alltoall", "alltoallv", "barrier", "bcast", "bcast-datatypes", "gather",
    "reducescatter", "waitall", "isend", "pair-0/pair-1 (per-rank files)")]
FIGURES += [
    ("docs/ti-replay.md", "s for an 11-line trace of", TI_TIMES, lambda line, out: [
        f"{ti_times(out, 'eager')[1]} s for an 11-line", f"rendezvous {ti_times(out, 'rendezvous')[1]} s for four"]),
    ("docs/ti-replay.md", "send, eight ", TI_TIMES, lambda line, out: [f"eight {ti_times(out, 'eight')[1]} s for 8 ranks"]),
    ("docs/ti-replay.md", "`posted-before-barrier.txt`, ", TI_TIMES, lambda line, out: [
        "`posted-before-barrier.txt`, {} s in both".format(*set(ti_times(out, "posted-before-barrier")))]),
    ("docs/ti-replay.md", "`T_seq = 2.50 s: the sum of the trace's computation", TI_SEQ, lambda line, out: [
        "`T_seq = {} s: the sum of the trace's computation, {} flops (every rank's compute actions)".format(
            *grab(r"T_seq = (\S+) s: the sum of the trace's computation, (\S+) flops \(every rank's compute", out))]),
    ("docs/ti-replay.md", "so speedup 1.11 and Ovh_idle", TI_SEQ_CSV, lambda line, out: [
        "so speedup {:.2f} and Ovh_idle = 2.0 s / 2.5 s = {:.2f})".format(value(out, "speedup"),
                                                                       value(out, "ovh_idle"))]),
    ("docs/wait-states.md", "s in all to late broadcasts (rank 0", WAITS, lambda line, out: [
        "{:.1f} s in all to late broadcasts (rank 0 {:.1f} s, down to rank 15 {:.1f} s".format(
            sum(waits(out, "one-to-all", "late_broadcast_s")), *(waits(out, "one-to-all", "late_broadcast_s")[k]
                                                                   for k in (0, 15)))]),
    ("docs/wait-states.md", "ranks' pivot rows) and", WAITS, lambda line, out: [
        "and {:.1f} s to late senders".format(sum(waits(out, "one-to-all", "late_sender_s"))),
        "rank k waits {:.1f} to {:.1f} s for its".format(min(waits(out, "one-to-all", "late_sender_s")[1:]),
                                                        max(waits(out, "one-to-all", "late_sender_s")[1:]))]),
    ("docs/wait-states.md", "with the neighbour relay, late broadcasts fall to", WAITS, lambda line, out: [
        "late broadcasts fall to {:.1f} s".format(sum(waits(out, "neighbour", "late_broadcast_s")))]),
]

REQUESTS = " && ".join(f"simrun {name} --csv {name}.csv --requests >/dev/null && wc -c {name}-requests.csv"
                       for name in ("dsm-matmul", "dsm-false-sharing", "dsm-gj"))
COMPARE = "cd tests/data/compare && simrun compare {} {}; echo \"exit status $?\""


def compare_largest(out, which="relative"):
    """The percentage of simrun compare's largest relative (or absolute) difference, as it prints it: '+7.14'."""
    return grab(rf"^Largest {which} difference: \S+ \S+ -> \S+ \(([+-][\d.]+)%\)", out)[0]


def request_sizes(line, out):
    sizes = [int(n) for n in re.findall(r"^(\d+) \S+-requests\.csv$", out, re.M)]
    return [f"({min(sizes) / 1e6:.2f} to {max(sizes) / 1e6:.2f} MB for the"]


FIGURES += [
    ("docs/results.md", "The request table lists every request of every point", REQUESTS, request_sizes),
    ("docs/compare.md", "a run's and a measurement's (", COMPARE.format("simulated.csv", "measured.csv"),
     lambda line, out: ["a run's and a measurement's ({:+.0f}% within 5%, {:+.0f}% beyond 4.5%)".format(
         float(compare_largest(out, "absolute")), float(compare_largest(out)))]),
    ("docs/compare.md", "noise only (T_par and speedup within", COMPARE.format("study-a.csv", "study-noise.csv"),
     lambda line, out: [f"within {abs(float(compare_largest(out))):.2f}%"]),
    ("docs/compare.md", "noise only (T_par and speedup within",
     COMPARE.format("study-a.csv", "study-noise.csv --metric all"),
     lambda line, out: [f"`model_diff` {compare_largest(out)}%"]),
    ("docs/compare.md", "against one with one real change (", COMPARE.format("study-a.csv", "study-change.csv"),
     lambda line, out: ["one real change ({}%: exit {}".format(compare_largest(out),
                                                                *grab(r"^exit status (\d+)$", out))]),
]

TABLE2 = "simrun characterise tests/data/machine/table2.csv"


def regime(out, which):
    """The four coefficients and the rms of one regime ('<=' or '>') of simrun characterise's fit."""
    return grab(rf"^  l {which} \d+: +alpha +(\S+) us, beta +(\S+) us/B, gamma +(\S+) us/hop, delta +(\S+) us/B/hop\n"
                r" +\d+ samples, residuals rms (\S+)%", out)


FIGURES += [
    ("docs/probe.md", "`simrun characterise tests/data/machine/table2.csv --packet-bytes 120`:", TABLE2 + " --packet-bytes 120",
     lambda line, out: ["`: {}, {}, {} and {});".format(*regime(out, "<=")[:4])]),
    ("docs/probe.md", "cross-validation puts the split at", TABLE2 + " --packet-bytes 120",
     lambda line, out: ["{}% rms); left".format(regime(out, ">")[4])]),
    ("docs/probe.md", "cross-validation puts the split at", TABLE2, lambda line, out: [
        "split at {} bytes ({}% rms above)".format(grab(r"packet size (\d+) bytes \(chosen", out)[0],
                                                   regime(out, ">")[4])]),
]

def variant(name, script):
    """gj256's CSV on a copy of the T800 platform edited by a sed script, as bench/validation.sh makes its variants."""
    return (f"sed '{script}' platforms/t800-mesh-128.xml > {name}.xml && simrun scenarios/gj256.xml --set "
            f"platform={name}.xml --csv {name}.csv >/dev/null && cat {name}.csv")


TWO_BUFFERS = variant("two-buffers", 's/"simrun:forward-buffers" value="1"/"simrun:forward-buffers" value="2"/')
TABLE5_INIT = variant("table5-link-init", 's#<prop id="simrun:link-init-us" value="1270"/>#&<prop '
                      'id="simrun:link-init-by-p" value="1 0 2 0.001 4 0.004 8 0.01 16 0.03 32 0.07 64 0.17 128 0.49"/>#')
ONCHIP = variant("onchip-spill", 's/"simrun:cycles-intmem" value="10.9635"/"simrun:cycles-intmem" '
                 'value="34.42766666666667"/')


def errors(out, broadcast, ps):
    """simrun's T_par of one broadcast at each p of `ps` against the paper's measured time, in percent."""
    return [(csv_tpar(out, broadcast, p) - MEASURED[broadcast][PS.index(p)]) / MEASURED[broadcast][PS.index(p)] * 100
            for p in ps]


def one_to_all_errors(out):
    return errors(out, "one-to-all", PS[5:])


def signed(values):
    """Errors as the docs list them: '-3.5, -6.7, -12.1' (one decimal, a sign only when negative)."""
    return ", ".join(f"{v:.1f}" for v in values)


FIGURES += [
    ("docs/supercluster.md", "its `two-buffers` column): with 2, one-to-all is", TWO_BUFFERS, lambda line, out: [
        "one-to-all is {:.1f}-{:.1f}% fast at p = 32-128".format(-max(one_to_all_errors(out)),
                                                                  -min(one_to_all_errors(out)))]),
    ("docs/supercluster.md", "with 1, ", GJ256,
     lambda line, out: ["with 1, {:.1f}, {:.1f}, {:+.1f}%.".format(*one_to_all_errors(out))]),
]

def entry_sizes(out):
    """The sizes of the cache entries `ls -l` lists, in bytes."""
    return [int(size) for size in re.findall(r"^\S+ +\d+ +\S+ +\S+ +(\d+) .*\.result$", out, re.M)]


FIGURES += [
    ("docs/sweeps.md", "kilobyte for most (", "SIMRUN_CACHE_DIR=gj256-cache simrun -q scenarios/gj256.xml >/dev/null && "
     "ls -l gj256-cache", lambda line, out: ["({} to {} bytes for gj256's points".format(
         min(entry_sizes(out)), max(s for s in entry_sizes(out) if s < 1000))]),
    ("docs/sweeps.md", "KB for gj256's one-to-all run at p = 64", "SIMRUN_CACHE_DIR=gj64-cache simrun -q "
     "scenarios/gj256.xml --set \"p=1 64\" --set broadcast=one-to-all --per-process 64 >/dev/null && ls -l gj64-cache",
     lambda line, out: [f"{max(entry_sizes(out)) / 1000:.0f} KB for gj256's one-to-all run at p = 64"]),
]

FIGURES += [
    ("docs/t800.md", "with one buffer it is within", GJ256,
     lambda line, out: [f"with one buffer it is within {max(abs(e) for e in one_to_all_errors(out)):.1f}% there"]),
    ("docs/t800.md", "every send and every computation added up with no overlap: ", GJ256,
     lambda line, out: ["{:.2f} s with simrun's figures".format(value(out, "t_model_s", broadcast="one-to-all", p=4))]),
    ("docs/t800.md", "at p = 4 ... 128 against ", GJ256, lambda line, out: [
        "against {}, {:+.1f}% as shipped".format(signed(errors(out, "one-to-all", PS[2:7])),
                                                 errors(out, "one-to-all", [128])[0])]),
    ("docs/t800.md", "simrun keeps the ", GJ256, lambda line, out: [
        "keeps the {:.1f}% at p = 4 (and {}% at p = 8, 16)".format(errors(out, "one-to-all", [4])[0],
                                                                   signed(errors(out, "one-to-all", [8, 16])))]),
    ("docs/t800.md", "The neighbour broadcast is within 3% inside one cluster and", GJ256, lambda line, out: [
        "within {}% inside one cluster and {}% at p = 32, 64, 128 ({:.2f}, {:.2f} and".format(
            math.ceil(max(abs(e) for e in errors(out, "neighbour", PS[:5]))), signed(errors(out, "neighbour", PS[5:])),
            *(MEASURED["neighbour"][PS.index(p)] - csv_tpar(out, "neighbour", p) for p in (32, 64)))]),
    ("docs/t800.md", "s short). Each hypothesis, with what it does to those three points:", GJ256, lambda line, out: [
        "{:.2f} s short)".format(MEASURED["neighbour"][-1] - csv_tpar(out, "neighbour", 128))]),
    ("docs/t800.md", "(supercluster.md, step 5): moves them from ", TWO_BUFFERS,
     lambda line, out: [f"from {signed(errors(out, 'neighbour', PS[5:]))}% (two buffers)"]),
    ("docs/t800.md", "(supercluster.md, step 5): moves them from ", GJ256,
     lambda line, out: [f"(two buffers) to {signed(errors(out, 'neighbour', PS[5:]))}%"]),
]
FIGURES += [("docs/validation.md", (f"| {b} | {p} | {m:.2f} |", "## Before and after one-buffer forwarding"), TWO_BUFFERS,
             lambda line, out: {3: f"{csv_tpar(out, *table_cells(line)[:1], int(table_cells(line)[1])):.2f}",
                                4: diff(csv_tpar(out, table_cells(line)[0], int(table_cells(line)[1])),
                                        float(table_cells(line)[2]), 1)})
            for b in MEASURED for p, m in zip(PS[5:], MEASURED[b][5:])]

NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def fuzz_share(line, out):
    """scripts/fuzz's default targets (its `targets=(...)` line) sharing the seconds scripts/test gives them (its
    `scripts/fuzz TOTAL` line): 'seven targets of 25 s each'."""
    targets = grab(r"targets=\((fuzz_[^)]*)\)", out)[0].split()
    total = int(grab(r"scripts/fuzz (\d+)$", out)[0])
    return [f"{total}`: {NUMBERS[len(targets)]} targets of {total // len(targets)} s each"]


FIGURES += [("docs/hostile-input.md", "s each, two at a time on 2 cores",
             "grep -hF -e 'targets=(' -e 'phase fuzz' scripts/fuzz scripts/test", fuzz_share)]

EPYC = ("simrun scenarios/gj256.xml --set n=2048 --set broadcast=neighbour --set 'p=1 8 16 32' --set "
        "platform=platforms/generated/{0}-switch-32.xml --csv {0}.csv >/dev/null && cat {0}.csv")
FIGURES += [
    ("docs/machines.md", "s on a node of `epyc-hdr`, T_par = ", EPYC.format("epyc-hdr"), lambda line, out: [
        "{:.3f} s on a node of `epyc-hdr`, T_par = {:.3f} s at p = 8 (eq. 11 within {:.1f}% at every p)".format(
            value(out, "t_seq_s", p=8), value(out, "t_par_s", p=8),
            max(abs(float(point["model_diff"])) for point in points(out)) * 100)]),
    ("docs/machines.md", "s on a node of `epyc-hdr`, T_par = ", EPYC.format("epyc-25gbe"), lambda line, out: [
        "and {:.3f} s against".format(value(out, "t_seq_s", p=8))]),
    ("docs/machines.md", "s at p = 8 on `epyc-25gbe` (eq. 11 `-`", EPYC.format("epyc-25gbe"), lambda line, out: [
        "{:.3f} s at p = 8 on `epyc-25gbe` (eq. 11 `-`".format(value(out, "t_par_s", p=8))]
        if not points(out, p=8)[0]["t_model_s"] else ["eq. 11 prints a figure on epyc-25gbe today"]),
]

def over_points(out):
    """The mean and largest |diff| and the count of a study's `Over N points: ...` line (--full's model summary)."""
    count, mean, largest = grab(r"^Over (\d+) points: mean \|diff\| = ([\d.]+)%, max \|diff\| = ([\d.]+)%", out)
    return count, mean, largest


FIGURES += [
    ("README.md", "over 117 of the 119 grids", "cat tests/snapshot/pdgemm-grids.out tests/snapshot/pdgemm-grids.csv",
     lambda line, out: ["{1}% and {2}% over {0} of the {3} grids".format(
         *over_points(out), len(re.findall(r"^pdgemm-grids,", out, re.M)))]),
    ("README.md", "along the ring and the pipeline: ", "cat tests/snapshot/pdtrsm.out", lambda line, out: [
        "pipeline: {1}% and {2}% over its {0} grids".format(*over_points(out))]),
    ("README.md", "(`scenarios/matmul100.xml`: ", MATMUL,
     lambda line, out: ["`scenarios/matmul100.xml`: {:.3f}".format(value(out, "speedup", p=3))]),
    ("README.md", "and what the controller saves (", "cat tests/snapshot/dsm-gj.csv", lambda line, out: [
        "saves ({:.0f}% of Gauss-".format((value(out, "t_par_s", controller="no") - value(out, "t_par_s", controller="yes"))
                                           / value(out, "t_par_s", controller="no") * 100)]),
    ("README.md", "and the pipelined chain from p = ", "cat tests/snapshot/bcast-t800.out",
     lambda line, out: ["wins up to p = {} and the pipelined chain from p = {} ".format(
         grab(r"^  p = \d+ to (\d+): neighbour, by", out)[0], grab(r"^  p = (\d+) to \d+: pipelined-chain, by", out)[0])]),
]

BCAST = "cat tests/snapshot/bcast-t800.csv"
PDGEMM_GRIDS = "cat tests/snapshot/pdgemm-grids.csv"


def lead(out, p):
    """By how much the pipelined chain beats the neighbour relay at p, in seconds (bcast-t800)."""
    return value(out, "t_par_s", broadcast="neighbour", p=p) - value(out, "t_par_s", broadcast="pipelined-chain", p=p)


def pd_grid(out, rows, p):
    return value(out, "t_par_s", grid_rows=rows, p=p)


def single_row(out, qs):
    """pdgemm's T_par on the 1 x Q grids of `qs`, two decimals."""
    return [f"{pd_grid(out, 1, q):.2f}" for q in qs]


def pp_mean(out, controller, column):
    """A DSM profile's mean per node (its 'all' row over the 8 nodes), in ms."""
    row = points(out, controller=controller, by="node", name="all")[0]
    return float(row[column]) / 8 * 1000


FIGURES += [
    ("docs/broadcasts.md", "from p = 64 the pipelined chain**, by ", BCAST,
     lambda line, out: [f"by {lead(out, 64):.2f} and {lead(out, 128):.2f} s"]),
    ("docs/broadcasts.md", "s less idle: the far end of the chain", "cat tests/snapshot/bcast-t800.out", lambda line, out: [
        "{:.2f} s less idle".format(float(grab(r"per process, idle \+(\d+) ms on average", out)[0]) / 1000)]),
    ("docs/icluster.md", "**Compact grids beat elongated ones.**", PDGEMM_GRIDS, lambda line, out: [
        "4x8 and 8x4 ({:.3f} s, speedup {:.2f}), the worst".format(pd_grid(out, 4, 32),
                                                                  value(out, "speedup", grid_rows=4, p=32))]),
    ("docs/icluster.md", "1x32 and 32x1 (", PDGEMM_GRIDS,
     lambda line, out: ["1x32 and 32x1 ({:.3f} s)".format(pd_grid(out, 1, 32))]),
    ("docs/icluster.md", "s at Q = 2; ", PDGEMM_GRIDS, lambda line, out: [
        "{} s at Q = 2; {}, {} at Q = 3, 4; {} down to {} at Q = 5..8; {} down to {} at Q = 9..16;".format(
            *single_row(out, (2, 3, 4, 5, 8, 9, 16)))]),
    ("docs/icluster.md", "at Q = 17..32", PDGEMM_GRIDS,
     lambda line, out: ["{} down to {} at Q = 17..32".format(*single_row(out, (17, 32)))]),
    ("docs/ncp2.md", "What the controller buys is mostly the PP's protocol work", "cat tests/snapshot/dsm-gj-profiles.csv",
     lambda line, out: ["spends {:.0f} ms in Extra and {:.0f} ms in".format(pp_mean(out, "yes", "profile_extra_s"),
                                                                         pp_mean(out, "yes", "profile_prste_s"))]),
    ("docs/ncp2.md", "Prste with the CP, ", "cat tests/snapshot/dsm-gj-profiles.csv",
     lambda line, out: ["with the CP, {:.0f} ms and {:.0f} ms without".format(pp_mean(out, "no", "profile_extra_s"),
                                                                          pp_mean(out, "no", "profile_prste_s"))]),
    ("docs/validation.md", "are identical before and after: one-to-all ", GJ256, lambda line, out: [
        "one-to-all {}, {}, {}, {},".format(*(f"{e:+.1f}" for e in errors(out, "one-to-all", PS[:4])))]),
    ("docs/validation.md", "%; neighbour ", GJ256, lambda line, out: [
        "{}%; neighbour {}, {}, {}, {}, {}%.".format(*(f"{e:+.1f}" for e in errors(out, "one-to-all", PS[4:5])
                                                       + errors(out, "neighbour", PS[:5])))]),
]

def table2(l, d):
    """Seed 001 eq. 4 with Table 2's large-message regime (l > 120 bytes), in seconds."""
    return (-81.5 + 1.33 * l + 93.04 * d + 0.05 * l * d) * 1e-6


def ring_sum(p, d):
    """The ping-ring's T_par by hand: (p - 1) one-hop messages of 1000 bytes and the last hop's d links back."""
    return (p - 1) * table2(1000, 1) + table2(1000, d)


FIGURES += [("docs/scale.md", "(the hand sums ", "true", lambda line, out: [
    "the hand sums {:.7f}, {:.8f} and".format(ring_sum(65536, 255), ring_sum(262144, 511))])]

def diff_wait(out, controller):
    """The PPs' mean wait per diff request of a DSM run (its -waits table), in us."""
    rows = points(out, controller=controller, waiter="Wait", operation="diff")
    return sum(float(r["time_s"]) for r in rows) / sum(int(r["requests"]) for r in rows) * 1e6


FIGURES += [
    ("docs/ncp2.md", "Prste with the CP, ", "cat tests/snapshot/dsm-gj-waits.csv", lambda line, out: [
        "the mean diff request falls from {:.0f} us to {:.0f} us".format(diff_wait(out, "no"), diff_wait(out, "yes"))]),
    ("docs/ncp2.md", "node 0 serves ", "cat tests/snapshot/dsm-matmul.out", lambda line, out: [
        "node 0 serves {} page requests".format(grab(r"^==== controller = yes, p = 8: .* requests: page (\d+)", out)[0])]),
]

def ablation(column):
    """docs/validation.md's ablation row (broadcast | p | full | two-buffers | ...): one column's error."""
    return lambda line, out: {column: "{:+.1f}%".format(errors(out, table_cells(line)[0], [int(table_cells(line)[1])])[0])}


FIGURES += [("docs/validation.md", (f"| {b} | {p} | ", "## Ablation"), command, ablation(column))
            for b in MEASURED for p in PS
            for command, column in ((GJ256, 2), (TWO_BUFFERS, 3), (TABLE5_INIT, 10), (ONCHIP, 11))]
FIGURES += [
    ("docs/t800.md", "neighbour broadcast from -12.1% to", TABLE5_INIT, lambda line, out: [
        "to {:.1f}% at p = 128 and from".format(*errors(out, "neighbour", [128])),
        "to {:.1f}% at p = 64".format(*errors(out, "neighbour", [64]))]),
    ("docs/t800.md", "the platform with `simrun:cycles-intmem` = `simrun:cycles-extmem`), one-to-all is ", ONCHIP,
     lambda line, out: ["one-to-all is {},".format(", ".join(f"{e:+.1f}" for e in errors(out, "one-to-all", PS[2:7])))]),
    ("docs/t800.md", "at p = 4 ... 128 against ", ONCHIP, lambda line, out: [
        "  {:+.1f}% at p = 4 ... 128".format(*errors(out, "one-to-all", PS[7:]))]),
]

# The source checks' counts, as each prints them today (scripts/check-calls reads the objects of the build that made
# the simrun given: its folder).
CHECK_CALLS = 'scripts/check-calls "$(dirname "$(readlink -f build/simrun)")"'
FIGURES += [
    ("docs/testing.md", "Today (`scripts/check-includes`): ", "scripts/check-includes", lambda line, out: [
        "{} modules, {} edges, {} folders, no circle".format(
            *grab(r"^check-includes: (\d+) modules, (\d+) include edges", out),
            grab(r"^check-includes: (\d+) folders, \d+ include edges", out)[0])]),
    ("docs/testing.md", "Today (`scripts/check-calls build`): ", CHECK_CALLS, lambda line, out: [
        "{} files, {} call edges, {} problems".format(*grab(r"^check-calls: (\d+) files, (\d+) call edges, (\d+) problem",
                                                           out))]),
    ("docs/testing.md", "one it must find. Today: ", "scripts/check-contracts", lambda line, out: [
        "Today: {0} of {1} (`scripts/check-contracts`)".format(*grab(r"^check-contracts: (\d+) of (\d+) header", out))]),
    ("docs/testing.md", "same line (`scripts/check-contracts --strict`",
     "scripts/check-contracts --strict | grep '^check-contracts: [0-9]'",
     lambda line, out: ["84% then): {} of {}.".format(*grab(r"^check-contracts: (\d+) of (\d+) header", out))]),
    ("docs/testing.md", "Today (`scripts/check-returns src`): ", "scripts/check-returns src", lambda line, out: [
        "Today (`scripts/check-returns src`): {} bare -1.".format(*grab(r"^check-returns: (\d+) bare -1", out))]),
]

# (doc, anchor: the text of the line before the block, command): the block is an excerpt of the command's output.
EXCERPTS = [
    ("README.md", "`tests/test_cli_layout.c` checks every shipped scenario's report at 80 and 120 columns):",
     "COLUMNS=80 simrun scenarios/gj256.xml"),
    ("docs/pictures.md", "whoever uses one outside it extrapolates (the heading says so):",
     "simrun scenarios/gj256.xml --full"),
    ("docs/scenarios.md", "is left out, with `-` for its figures. The report adds a table, one row per p:",
     "simrun tests/data/cli/gj-scaled.xml"),
]


def table_cells(line):
    """The cells of a table row, without the bold marks of a figure singled out."""
    return [cell.strip().strip("*") for cell in line.strip().strip("|").split("|")]


def figures_fail(line, want):
    """Why `line` does not hold the figures `want` (None when it does)."""
    if isinstance(want, dict):
        cells = table_cells(line)
        wrong = [f"column {k}: '{cells[k] if k < len(cells) else ''}', expected '{v}'" for k, v in want.items()
                 if k >= len(cells) or cells[k] != v]
        return "; ".join(wrong) or None
    missing = [w for w in want if w not in line]
    return ("expected " + ", ".join(f"'{m}'" for m in missing)) if missing else None


def excerpt_fail(block, output):
    """Why `block` (lines, '...' for lines left out) is not an excerpt of `output` in order (None when it is)."""
    out = [line.rstrip() for line in output.split("\n")]
    at = 0
    chunks = [[]]
    for line in block:
        if line.strip() == "...":
            chunks.append([])
        else:
            chunks[-1].append(line.rstrip())
    for chunk in filter(None, chunks):
        found = next((i for i in range(at, len(out) - len(chunk) + 1) if out[i:i + len(chunk)] == chunk), None)
        if found is None:
            return f"'{chunk[0].strip()}' ... not in the command's output in this order"
        at = found + len(chunk)
    return None


def anchor_line(lines, doc, anchor):
    """The index of the one line of `lines` that holds `anchor`, a text or (text, the heading of its section)."""
    first, last = 0, len(lines)
    if isinstance(anchor, tuple):
        anchor, heading = anchor
        first = next((i for i, line in enumerate(lines) if line.startswith(heading)), last)
        last = next((i for i in range(first + 1, len(lines)) if lines[i].startswith("#")), last)
    hits = [i for i in range(first, last) if anchor in lines[i]]
    if len(hits) != 1:
        fail(f"{doc}: the anchor '{anchor}' is on {len(hits)} lines, not one: name the figure's line uniquely")
        return None
    return hits[0]


def indented_block(lines, at):
    """The lines of the indented block that follows line `at` (a blank line between), without their indent."""
    i = at + 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    block = []
    while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
        block.append(lines[i][4:])
        i += 1
    while block and not block[-1].strip():
        block.pop()
    return i - len(block), block


def one_digit_changed(text):
    """`text` with its last digit changed, so that a check of it must fail."""
    for i in range(len(text) - 1, -1, -1):
        if text[i].isdigit():
            return text[:i] + str((int(text[i]) + 1) % 10) + text[i + 1:]
    return text + "0"


def changed_line(line, want):
    """`line` with one digit of one checked figure changed."""
    if isinstance(want, dict):
        cells = line.split("|")
        column = next(iter(want)) + (1 if line.strip().startswith("|") else 0)
        cells[column] = one_digit_changed(cells[column])
        return "|".join(cells)
    return line.replace(want[0], one_digit_changed(want[0]))


class Commands:
    """Runs each command once in a scratch folder laid out as the source tree, and keeps its output."""

    def __init__(self, source, simrun, scratch):
        self.outputs = {}
        self.scratch = scratch
        for name in ("scenarios", "platforms", "examples", "tests", "docs", "bench", "scripts", "src"):
            os.symlink(os.path.join(os.path.abspath(source), name), os.path.join(scratch, name))
        bin_dir = os.path.join(scratch, "build")
        os.mkdir(bin_dir)
        os.symlink(os.path.abspath(simrun), os.path.join(bin_dir, "simrun"))
        self.env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""),
                        SIMRUN_CACHE_DIR=os.environ.get("SIMRUN_CACHE_DIR") or os.path.join(scratch, "cache"),
                        COLUMNS="1000")

    def output(self, command):
        if command not in self.outputs:
            try:
                run = subprocess.run(command, shell=True, cwd=self.scratch, env=self.env, capture_output=True,
                                     text=True, timeout=60)
            except subprocess.TimeoutExpired:
                self.outputs[command] = None
                fail(f"'{command}' took over 60 s: not a cheap command")
                return None
            if run.returncode != 0:
                fail(f"'{command}' exited with {run.returncode}: {run.stderr.strip()[:300]}")
            self.outputs[command] = run.stdout
        return self.outputs[command]


def check_figures(source, commands):
    checked = 0
    for doc, anchor, command, figures in FIGURES:
        lines = read(source, doc).split("\n")
        at = anchor_line(lines, doc, anchor)
        output = commands.output(command)
        if at is None or output is None:
            continue
        try:
            want = figures(lines[at], output)
        except (LookupError, ValueError) as error:
            fail(f"{doc}:{at + 1}: '{command}': {error}")
            continue
        why = figures_fail(lines[at], want)
        if why:
            fail(f"{doc}:{at + 1}: {why}, as '{command}' gives today")
        elif not figures_fail(changed_line(lines[at], want), want):
            fail(f"{doc}:{at + 1}: the check of '{anchor}' passes with a figure changed: it cannot fail")
        checked += 1
    for doc, anchor, command in EXCERPTS:
        lines = read(source, doc).split("\n")
        at = anchor_line(lines, doc, anchor)
        output = commands.output(command)
        if at is None or output is None:
            continue
        start, block = indented_block(lines, at)
        why = excerpt_fail(block, output) if block else "no indented block after it"
        if why:
            fail(f"{doc}:{start + 1}: {why} ('{command}' today)")
        else:
            digits = next(k for k, line in enumerate(block) if re.search(r"\d", line))
            if not excerpt_fail(block[:digits] + [one_digit_changed(block[digits])] + block[digits + 1:], output):
                fail(f"{doc}:{start + 1}: the excerpt's check passes with a figure changed: it cannot fail")
        checked += 1
    return checked


# --- links ------------------------------------------------------------------------------------------------------------


def read(source, doc):
    with open(os.path.join(source, doc), encoding="utf-8") as f:
        return f.read()


def pages(source):
    found = ["README.md"]
    for root, _, files in os.walk(os.path.join(source, "docs")):
        found += [os.path.relpath(os.path.join(root, f), source) for f in files if f.endswith(".md")]
    return sorted(found)


def prose(text):
    """`text` without its fenced and indented code blocks and its inline code, line numbers kept."""
    out, fenced, previous_blank = [], False, True
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
            out.append("")
            continue
        code = fenced or (line.startswith("    ") and previous_blank and not line.lstrip().startswith(("-", "|")))
        previous_blank = (not line.strip()) or (code and previous_blank)
        out.append("" if code else re.sub(r"`([^`]*)`", lambda m: m[1] if re.fullmatch(r"[\w./-]+\.md", m[1]) else "``",
                                          line))
    return "\n".join(out)


def slug(heading):
    """The anchor GitHub gives a heading: lower case, punctuation but '-' and '_' dropped, blanks as '-'."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(text):
    seen, found = {}, set()
    for heading in re.findall(r"^#+ (.*)$", prose(text), re.M):
        base = slug(heading)
        found.add(base if base not in seen else f"{base}-{seen[base]}")
        seen[base] = seen.get(base, 0) + 1
    return found


def titles(text):
    """The headings and bold leads of a page, blanks collapsed, lower case: what a quoted section may name."""
    flat = re.sub(r"\s+", " ", text)
    found = [h for h in re.findall(r"^#+ (.*)$", text, re.M)] + re.findall(r"\*\*([^*]+)\*\*", flat)
    return [re.sub(r"\s+", " ", t).strip().strip(".:").lower() for t in found]


def check_links(source):
    count = 0
    for page in pages(source):
        text = read(source, page)
        plain = prose(text)
        for number, line in enumerate(plain.split("\n"), 1):
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                if re.match(r"[a-z]+:", target):
                    continue
                count += 1
                path, _, anchor = target.partition("#")
                full = os.path.normpath(os.path.join(source, os.path.dirname(page), path)) if path else \
                    os.path.join(source, page)
                if not os.path.exists(full):
                    fail(f"{page}:{number}: the link '{target}' names no file")
                elif anchor and (not full.endswith(".md") or anchor not in anchors(read(source, full))):
                    fail(f"{page}:{number}: the link '{target}' names no heading of {os.path.relpath(full, source)}")
        if page.startswith(os.path.join("docs", "history")):
            continue
        flat = re.sub(r"\s+", " ", plain)
        for name, title in re.findall(r"(?:docs/)?([\w./-]+\.md),? \(?\"([^\"]+)\"", flat):
            target = os.path.join(source, "docs", os.path.basename(name)) if name.startswith(("docs/", "history/")) \
                or "/" not in name else os.path.join(source, name)
            if name.startswith("history/") or name.startswith("docs/history/"):
                target = os.path.join(source, "docs", "history", os.path.basename(name))
            count += 1
            if not os.path.exists(target):
                fail(f"{page}: '{name}, \"{title}\"' names no page")
                continue
            wanted = re.sub(r"\s+", " ", title).strip().strip(".:").lower()
            if not any(t.startswith(wanted) for t in titles(read(source, target))):
                fail(f"{page}: '{name}, \"{title}\"': {os.path.relpath(target, source)} has no such heading or bold "
                     "lead")
    return count


def check_links_can_fail(source, scratch):
    """Plants a link to no file, an anchor to no heading and a quoted section that is none in a copy of README.md and
    docs/, and requires the link check to name each of the three."""
    copy = os.path.join(scratch, "planted")
    os.mkdir(copy)
    shutil.copytree(os.path.join(source, "docs"), os.path.join(copy, "docs"))
    for name in os.listdir(source):
        if name not in ("docs", "README.md"):
            os.symlink(os.path.join(os.path.abspath(source), name), os.path.join(copy, name))
    with open(os.path.join(copy, "README.md"), "w", encoding="utf-8") as f:
        f.write(read(source, "README.md") + '\n[gone](docs/gone.md), [here](docs/scale.md#no-such-heading), '
                'docs/scale.md, "No such section"\n')
    found = len(failures)
    check_links(copy)
    planted = failures[found:]
    del failures[found:]
    for what in ("'docs/gone.md' names no file", "'docs/scale.md#no-such-heading' names no heading",
                 "\"No such section\"': docs/scale.md has no such heading"):
        if not any(what in line for line in planted):
            fail(f"the link check did not find a planted fault ({what}): it cannot fail")


def main():
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[-2], file=sys.stderr)
        return 2
    source, simrun = sys.argv[1], sys.argv[2]
    links = check_links(source)
    with tempfile.TemporaryDirectory(prefix="check-docs-") as scratch:
        check_links_can_fail(source, scratch)
        figures = check_figures(source, Commands(source, simrun, scratch))
    for what in failures:
        print(what)
    if failures:
        return 1
    print(f"check_docs: {links} links and quoted sections resolve (and a planted broken link, anchor and section are "
          f"found); {figures} figures and excerpts are what their commands print today (and each check fails when its "
          f"figure is changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
