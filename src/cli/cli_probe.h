/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The measurements of `simrun machine probe` (docs/machines.md, "Characterising your own machine"): this machine's
 * clock, cores, memory and last cache level from the system (sysfs, /proc), the cost of each operation class of
 * seed 001's eq. 2 and of a page fault from timed loops, and its message times from an Open MPI ping-pong between two
 * ranks. */
#ifndef CLI_PROBE_H
#define CLI_PROBE_H

#include "met_msgfit.h"

#include <stddef.h>

/* What was measured, each figure with a line saying how (for the platform's comments). */
typedef struct cli_probe {
  int cores;
  double clock_hz;
  char clock_how[160];
  double memory_bytes;
  double cache_bytes; /* the last cache level's size, 0 when sysfs does not give it */
  char cache_how[160];
  double flops;        /* flop/s of four independent multiply-add chains, the tracer's calibration loop */
  double cycles[4];    /* cpu, flop, intmem (an L1-sized array), extmem (an array far larger than the caches) */
  double cycles_cache; /* an array of half the last cache level, when it is known */
  char cycles_how[4][160];
  double eager_bytes; /* Open MPI's shared-memory eager limit (ompi_info), 0 when unknown */
  double fault_us;    /* a minor page fault: the first touch of a fresh 4 KiB page, 0 when it could not be measured */
  char fault_how[160];
} cli_probe_t;

/* Measures the machine (a few seconds of loops). */
void cli_probe_machine(cli_probe_t *probe);

/* Runs the ping-pong (simrun-pingpong) under mpirun with 2 ranks on this node (its lines at 1 hop), then with 2 ranks
 * between nodes (its lines at 2 hops: an inter-node route of the probed platform is two links): on the first two nodes
 * of `hostfile`, or without one on this node over Open MPI's TCP transport (--mca btl tcp,self), the one it takes
 * between nodes, as their stand-in; the output of both appended to `csv`, their standard error apart (what it said,
 * one warning line). Returns 0, or 1 after one error line (mpirun or the program missing or failing, both ranks on one
 * node; it quotes mpirun's last line), 2 for a path mpirun cannot be given, or
 * CLI_EXIT_STOPPED (cli_results.h) when a signal stopped it (cli_signal.h): mpirun was ended, nothing printed. */
int cli_probe_pingpong(const char *csv, const char *hostfile);

/* The bandwidth the ranks saw, for the platform's comment: from `csv`'s "# spread BYTES HOPS MEAN_US SD_US" lines
 * (simrun-pingpong's: the mean and standard deviation of its samples of half a round trip), of messages of 64 KiB or
 * more inside a node (`apart` 0: 1 hop) or between nodes (1: more), one line each into `text`: the bandwidth at the
 * lower quartile (the sample of `samples` at that size and hops, which the fit takes) and at the mean (NetPIPE's
 * measure) with the standard deviation in percent of the mean. `text` is "" when the file has no such lines (a user's
 * samples, or an older ping-pong's). */
void cli_probe_seen(const char *csv, const met_msg_sample_t *samples, size_t count, int apart, char *text, size_t len);

/* What a process's first collective of a kind costs beyond the next one, for simrun:first-call-us: from `csv`'s
 * "# first-call ACTION FIRST_US NEXT_US" lines (simrun-pingpong's, one per collective), the median over the lines of
 * FIRST_US - NEXT_US (0 when negative) into *us, and the lines as "ACTION FIRST then NEXT" into `text` for the
 * platform's comment; *us is -1 and `text` "" when the file has none (a user's samples, or an older ping-pong's).
 * The text ends with "..." when the lines outgrow `len`. Returns 0, or EXIT_INPUT after one error line naming a line
 * (SHOWN:LINE, `shown` the name of `csv` there) that is not such a line (ACTION lowercase letters, two times of 0 to
 * 1e6 us) or one beyond the 64th. */
int cli_probe_first_calls(const char *csv, const char *shown, double *us, char *text, size_t len);

#endif
