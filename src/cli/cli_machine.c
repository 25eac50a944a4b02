/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `simrun machine probe`: this machine's characterisation (seed 001 §3, eq. 2, measured by cli_probe) and its message
 * times (eq. 4 fitted by met_msgfit to Open MPI ping-pongs, one fit per transport: inside a node, and between nodes or
 * on one machine over TCP as their stand-in) written as a SimGrid platform of one host per core (with --pool, one host
 * of all the cores), each value with its measurement in a comment beside it; with a hostfile, one such node per node
 * it names, the messages between nodes fitted to a ping-pong between the first two. */
#include "cli_machine.h"
#include "bas_temp.h"
#include "cli_exit.h"
#include "cli_characterise.h"
#include "cli_hostfile.h"
#include "cli_output.h"
#include "cli_probe.h"
#include "cli_results.h"
#include "cli_signal.h"
#include "rep_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
  fprintf(out,
          "Usage: simrun machine probe FILE.xml [--hostfile HOSTS] [--samples PINGPONG.csv] [--pool]\n"
          "\n"
          "Measures this machine and writes a SimGrid platform of it to FILE.xml (docs/probe.md): one host per\n"
          "core at the flop rate of the tracer's calibration loop, seed 001's characterisation (cycles per CPU,\n"
          "floating-point, internal and external memory operation) from timed loops, the clock, memory and last\n"
          "cache level from the system, and the message times of eq. 4 fitted (as simrun characterise does), one\n"
          "fit per transport: an Open MPI ping-pong between two ranks on this node (simrun-pingpong under mpirun)\n"
          "for messages inside a node, and one over Open MPI's TCP transport (--mca btl tcp,self), which it takes\n"
          "between nodes, as the stand-in for messages between nodes (a fit of it that cannot be trusted is left\n"
          "out with a warning); with Open MPI's eager limit, the cost of a page fault (the first write to a fresh\n"
          "page), which replays charge for the faults a traced call took, and what a process's first collective of\n"
          "a kind costs beyond the next, which replays charge at a rank's first of each kind. Every value has its\n"
          "measurement in a comment. Takes about 20 s. The loops are timed in CPU time; the ping-pongs are timed\n"
          "by the wall clock, which a loaded machine stretches.\n"
          "\n"
          "Options:\n"
          "  --hostfile HOSTS    Open MPI's hostfile of alike nodes: the platform holds each node (slots= cores,\n"
          "                      else this machine's), and a second ping-pong between the first two nodes (mpirun\n"
          "                      --hostfile HOSTS --map-by node) gives the time between nodes instead of TCP's\n"
          "                      on this node\n"
          "  --samples FILE.csv  fit these ping-pong times (bytes,hops,time_us: hops 1 inside a node, 2 between\n"
          "                      nodes, each fitted alone; without 2-hop lines, no model between nodes) instead of\n"
          "                      measuring them\n"
          "  --pool              one host per node with all its cores instead of one per core: the ranks of an\n"
          "                      oversubscribed run, which Open MPI leaves unbound, share the node's cores (for\n"
          "                      ti-replay; the other skeletons put one rank per host)\n"
          "  -h, --help          show this help and exit\n"
          "\n"
          "FILE.xml is checked first: a folder, a device, a path in a missing folder or an input given here is\n"
          "refused before anything is measured. The ping-pong's times go to a temporary file in $TMPDIR (else /tmp);\n"
          "what mpirun says on its standard error is one warning.\n"
          "\n"
          "Exit status: 0 success, 1 a measurement failed or the fit cannot be trusted, 2 bad usage or output,\n"
          "128 + N stopped by signal N (nothing written).\n");
}

/* The root zone's characterisation: each value and its comment. */
static void write_characterisation(FILE *out, const cli_probe_t *p)
{
  static const char *const names[4] = {"cpu", "flop", "intmem", "extmem"};
  fprintf(out, "    <!-- clock: %s -->\n    <prop id=\"simrun:clock-hz\" value=\"%.6g\"/>\n", p->clock_how,
          p->clock_hz);
  for (int c = 0; c < 4; c++)
    fprintf(out, "    <!-- %s: %s, x the clock -->\n    <prop id=\"simrun:cycles-%s\" value=\"%.4g\"/>\n", names[c],
            p->cycles_how[c], names[c], p->cycles[c]);
  fprintf(out,
          "    <!-- memory: sysconf's physical pages x page size -->\n"
          "    <prop id=\"simrun:memory-bytes\" value=\"%.0f\"/>\n",
          p->memory_bytes);
  if (p->cache_bytes > 0)
    fprintf(out,
            "    <!-- cache: %s; a sum over an array of half its size: %.4g cycles per 8-byte load -->\n"
            "    <prop id=\"simrun:cache-bytes\" value=\"%.0f\"/>\n"
            "    <prop id=\"simrun:cycles-cache\" value=\"%.4g\"/>\n",
            p->cache_how, p->cycles_cache, p->cache_bytes, p->cycles_cache);
}

/* The two transports' fits, each with the ping-pong it was fitted to; `apart` only when `has_apart`. */
typedef struct fits {
  met_msgfit_t node, apart;
  int has_apart;
  char node_source[600], apart_source[600];
  char apart_refused[700]; /* on one machine, why TCP's fit was refused (its platform then has none), else "" */
  char node_seen[800], apart_seen[800]; /* the bandwidths the ranks saw (cli_probe_seen), or "" */
  double first_call_us; /* what a first collective of a kind costs beyond the next (cli_probe_first_calls), or -1 */
  char first_calls[1200];
} fits_t;

/* The bandwidths the ranks saw `what` (cli_probe_seen's lines), when the ping-pong gave them. */
static void write_seen(FILE *out, const char *what, const char *seen)
{
  if (seen[0])
    fprintf(
        out,
        "    <!-- bandwidth %s as the ranks see it: bytes over half a round trip at the lower quartile of\n"
        "         simrun-pingpong's 31 samples (each about 1 ms of round trips), which the fit takes, and at their\n"
        "         mean (NetPIPE's measure, a mean over repeated round trips), with the spread of the samples:%s -->\n",
        what, seen);
}

/* One fit's comment: its ping-pong, its residuals per regime, and which messages take it. */
static void write_fit_comment(FILE *out, const char *what, const char *source, const met_msgfit_t *fit,
                              const char *takes)
{
  fprintf(out,
          "    <!-- messages %s: seed 001 eq. 4 fitted by relative error (terms >= 0, split by\n"
          "         cross-validation) to the ping-pong of %s;\n"
          "         residuals rms %.1f%% up to %g bytes, %.1f%% above (cross-validated %.1f%%). %s\n"
          "         (docs/probe.md); fitted at one distance, it prices a message whatever its hops -->\n",
          what, source, 100 * fit->rms_rel[0], fit->model.packet_bytes, 100 * fit->rms_rel[1], 100 * fit->cv_rel,
          takes);
}

static void write_piecewise(FILE *out, const char *const ids[3], const met_piecewise_t *m)
{
  fprintf(out,
          "    <prop id=\"%s\" value=\"%.10g\"/>\n    <prop id=\"%s\" value=\"%.6g %.6g %.6g %.6g\"/>\n"
          "    <prop id=\"%s\" value=\"%.6g %.6g %.6g %.6g\"/>\n",
          ids[0], m->packet_bytes, ids[1], m->small[0], m->small[1], m->small[2], m->small[3], ids[2], m->large[0],
          m->large[1], m->large[2], m->large[3]);
}

/* The message models: eq. 4 fitted to the ping-pong inside a node (simrun:comm-*) and, when measured, to the one
 * between nodes (simrun:internode-*), Open MPI's eager limit, and what a page fault costs a traced call. */
static void write_messages(FILE *out, const fits_t *fits, const cli_probe_t *p, int pool)
{
  static const char *const comm[3] = {"simrun:comm-packet-bytes", "simrun:comm-small-us", "simrun:comm-large-us"};
  static const char *const apart[3] = {"simrun:internode-packet-bytes", "simrun:internode-small-us",
                                       "simrun:internode-large-us"};
  write_fit_comment(out, "inside a node", fits->node_source, &fits->node,
                    pool ? "A message between two ranks of one host (a node) takes it"
                         : "A message between two hosts of one simrun:node takes it");
  fprintf(out, "    <prop id=\"simrun:comm-model\" value=\"piecewise\"/>\n");
  write_piecewise(out, comm, &fits->node.model);
  write_seen(out, "inside a node", fits->node_seen);
  if (fits->has_apart) {
    write_fit_comment(out, "between nodes", fits->apart_source, &fits->apart,
                      "A message between hosts of two nodes takes it");
    write_piecewise(out, apart, &fits->apart.model);
    write_seen(out, "between nodes", fits->apart_seen);
  } else
    fprintf(out, "    <!-- no model between nodes (%s): messages between nodes take the model above -->\n",
            fits->apart_refused[0] ? fits->apart_refused : "no 2-hop samples");
  if (p->eager_bytes > 0)
    fprintf(out,
            "    <!-- eager limit: ompi_info's btl_vader_eager_limit (Open MPI's shared memory) -->\n"
            "    <prop id=\"simrun:eager-bytes\" value=\"%.0f\"/>\n",
            p->eager_bytes);
  if (p->fault_us > 0)
    fprintf(out,
            "    <!-- page fault: %s, best of 3, in the thread's CPU time;\n"
            "         charged for the faults a traced call took (its TI faults action: docs/tracer.md) -->\n"
            "    <prop id=\"simrun:page-fault-us\" value=\"%.4g\"/>\n",
            p->fault_how, p->fault_us);
  if (fits->first_call_us >= 0)
    fprintf(
        out,
        "    <!-- first call of a collective kind, from %s: the first call of each\n"
        "         collective a TI trace holds, then the next, each as the slower of the 2 ranks took it, ranks in "
        "step\n"
        "         (us): %s;\n"
        "         the median of what a first costs beyond the next, the library's set-up of that kind in a process,\n"
        "         charged at a replayed rank's first collective of each kind (docs/tracer-extras.md) -->\n"
        "    <prop id=\"simrun:first-call-us\" value=\"%.4g\"/>\n",
        fits->node_source, fits->first_calls, fits->first_call_us);
}

void cli_machine_host_id(char *id, size_t len, int nodes, int node, int core)
{
  if (nodes > 1 && core >= 0)
    snprintf(id, len, "n%d-core-%d", node, core);
  else if (core >= 0)
    snprintf(id, len, "core-%d", core);
  else if (nodes > 1)
    snprintf(id, len, "n%d", node);
  else
    snprintf(id, len, "this-node");
}

/* --pool: one host per node with its cores (SimGrid shares a host's cores among the ranks placed on it, each computing
 * on at most one): Open MPI binds no rank when a node is oversubscribed and binds more than 2 to the socket (mpirun(1),
 * "Bind to none: when oversubscribed"), and Linux spreads such ranks over the cores, so the node is one pool of cores
 * rather than a host per core with ranks fixed on it. With several nodes, each node's network link, and a route
 * between two nodes through both. */
static void write_pooled(FILE *out, const cli_hostfile_t *hosts, const cli_probe_t *p)
{
  char a_id[32], b_id[32];
  for (int n = 0; n < hosts->nodes; n++) {
    cli_machine_host_id(a_id, sizeof a_id, hosts->nodes, n, -1);
    if (hosts->nodes > 1)
      fprintf(out, "    <!-- node %d: %s -->\n", n, hosts->name[n]);
    fprintf(out, "    <host id=\"%s\" speed=\"%.6gf\" core=\"%d\"/>\n", a_id, p->flops, hosts->slots[n]);
  }
  for (int n = 0; hosts->nodes > 1 && n < hosts->nodes; n++) {
    cli_machine_host_id(a_id, sizeof a_id, hosts->nodes, n, -1);
    fprintf(out, "    <link id=\"net-%s\" bandwidth=\"1TBps\" latency=\"1ns\"/>\n", a_id);
  }
  for (int a = 0; a < hosts->nodes; a++)
    for (int b = a + 1; b < hosts->nodes; b++) {
      cli_machine_host_id(a_id, sizeof a_id, hosts->nodes, a, -1);
      cli_machine_host_id(b_id, sizeof b_id, hosts->nodes, b, -1);
      fprintf(out, "    <route src=\"%s\" dst=\"%s\"><link_ctn id=\"net-%s\"/><link_ctn id=\"net-%s\"/></route>\n",
              a_id, b_id, a_id, b_id);
    }
}

/* Each node's hosts (simrun:node: its number), its pairs' links, and with several nodes each host's network link. */
static void write_hosts_links(FILE *out, const cli_hostfile_t *hosts, const cli_probe_t *p)
{
  char id[32];
  for (int n = 0; n < hosts->nodes; n++) {
    if (hosts->nodes > 1)
      fprintf(out, "    <!-- node %d: %s, %d cores -->\n", n, hosts->name[n], hosts->slots[n]);
    for (int h = 0; h < hosts->slots[n]; h++) {
      cli_machine_host_id(id, sizeof id, hosts->nodes, n, h);
      fprintf(out, "    <host id=\"%s\" speed=\"%.6gf\"><prop id=\"simrun:node\" value=\"%d\"/></host>\n", id, p->flops,
              n);
    }
  }
  for (int n = 0; n < hosts->nodes; n++)
    for (int a = 0; a < hosts->slots[n]; a++) {
      cli_machine_host_id(id, sizeof id, hosts->nodes, n, a);
      if (hosts->nodes > 1)
        fprintf(out, "    <link id=\"net-%s\" bandwidth=\"1TBps\" latency=\"1ns\"/>\n", id);
      for (int b = a + 1; b < hosts->slots[n]; b++)
        fprintf(out, "    <link id=\"shm-%s-%d\" bandwidth=\"1TBps\" latency=\"1ns\"/>\n", id, b);
    }
}

/* A route between every pair of hosts: one link on a node, the two hosts' network links between nodes. */
static void write_routes(FILE *out, const cli_hostfile_t *hosts)
{
  char a_id[32], b_id[32];
  for (int na = 0; na < hosts->nodes; na++)
    for (int a = 0; a < hosts->slots[na]; a++)
      for (int nb = na; nb < hosts->nodes; nb++)
        for (int b = nb == na ? a + 1 : 0; b < hosts->slots[nb]; b++) {
          cli_machine_host_id(a_id, sizeof a_id, hosts->nodes, na, a);
          cli_machine_host_id(b_id, sizeof b_id, hosts->nodes, nb, b);
          if (na == nb)
            fprintf(out, "    <route src=\"%s\" dst=\"%s\"><link_ctn id=\"shm-%s-%d\"/></route>\n", a_id, b_id, a_id,
                    b);
          else
            fprintf(out,
                    "    <route src=\"%s\" dst=\"%s\"><link_ctn id=\"net-%s\"/><link_ctn id=\"net-%s\"/></route>\n",
                    a_id, b_id, a_id, b_id);
        }
}

/* The platform: a zone of one host per core (of each node), a link per pair of hosts of a node (its latency and
 * bandwidth are placeholders: the piecewise model sets each message's time through SimGrid's latency factor); with
 * `pool`, one host per node (write_pooled), a message inside a node on SimGrid's loopback link, given the same
 * placeholders. */
static int write_platform(FILE *out, const fits_t *fits, const cli_probe_t *p, const cli_hostfile_t *hosts, int pool)
{
  fprintf(out,
          "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<!-- This machine, measured by simrun machine probe (docs/probe.md): %d cores. Host speed %.6g flop/s:\n"
          "     the tracer's calibration loop (four multiply-add chains), so that a traced run's TI compute amounts\n"
          "     replay in the CPU time they took (trace with SIMRUN_TRACE_FLOPS=%.6g to use this very rate).%s -->\n"
          "<platform version=\"4.1\">\n  <config>\n    <prop id=\"network/model\" value=\"CM02\"/>\n%s  </config>\n"
          "  <zone id=\"this-machine\" routing=\"Full\">\n",
          p->cores, p->flops, p->flops,
          pool
              ? "\n     One host per node with its cores (the pool option): for ti-replay of runs with more ranks "
                "than cores;\n"
                "     simrun's skeletons put one rank per host and run on it at p = 1 only."
              : "\n     One host per core, each rank fixed on one (ti-replay: rank i on host i mod the hosts), as Open "
                "MPI binds\n"
                "     ranks up to the cores, and beyond with mpirun's bind-to core:overload-allowed, map-by core\n"
                "     (docs/validation.md, \"Placement, measured\").",
          pool ? "    <prop id=\"network/loopback-bw\" value=\"1e12\"/>\n"
                 "    <prop id=\"network/loopback-lat\" value=\"1e-9\"/>\n"
               : "");
  write_characterisation(out, p);
  write_messages(out, fits, p, pool);
  if (pool) {
    write_pooled(out, hosts, p);
  } else {
    write_hosts_links(out, hosts, p);
    write_routes(out, hosts);
  }
  fprintf(out, "  </zone>\n</platform>\n");
  return ferror(out) ? -1 : 0;
}

/* The ping-pong samples of `csv`, named `shown` in an error, and the bandwidths the ranks saw into `fits`
 * (cli_probe_seen). 0, or an exit status. */
static int read_samples(const char *csv, const char *shown, met_msg_sample_t **samples, size_t *count, fits_t *fits)
{
  int rc = cli_characterise_read(csv, shown, samples, count);
  if (rc == 0) {
    cli_probe_seen(csv, *samples, *count, 0, fits->node_seen, sizeof fits->node_seen);
    cli_probe_seen(csv, *samples, *count, 1, fits->apart_seen, sizeof fits->apart_seen);
    rc = cli_probe_first_calls(csv, shown, &fits->first_call_us, fits->first_calls, sizeof fits->first_calls);
  }
  return rc;
}

/* The ping-pong samples: measured into a temporary file in TMPDIR or /tmp (removed on every path, and by the signal
 * watchdog if the probe is stopped meanwhile), or the user's, and the bandwidths the ranks saw (read_samples). 0, or
 * an exit status (CLI_EXIT_STOPPED: a signal stopped it). */
static int samples_of(const char *given, const char *hostfile, met_msg_sample_t **samples, size_t *count, fits_t *fits)
{
  if (given)
    return read_samples(given, given, samples, count, fits);
  const char *folder = bas_temp_dir();
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s/simrun-pingpong-XXXXXX", folder);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    fprintf(stderr,
            "simrun: error: cannot make a temporary file in %s for the ping-pong's output; set TMPDIR to a "
            "writable folder\n",
            folder);
    return EXIT_RUNTIME;
  }
  close(fd);
  if (rep_file_guard_tree(tmp) != 0) {
    unlink(tmp);
    fprintf(stderr, "simrun: error: out of memory\n");
    return EXIT_RUNTIME;
  }
  cli_signal_step("pingpong", "during the ping-pong");
  int rc = cli_signal_stop() ? CLI_EXIT_STOPPED : cli_probe_pingpong(tmp, hostfile);
  /* a line of its own output it cannot read is the ping-pong's failure, not the user's input */
  if (rc == 0 && read_samples(tmp, "the ping-pong's output", samples, count, fits) != 0)
    rc = EXIT_RUNTIME;
  rep_file_unguard_tree(tmp);
  unlink(tmp);
  return rc;
}

/* Text fit for an XML comment, which may not hold "--" (a path may): each second hyphen of a pair becomes '_'. */
static void comment_safe(char *text)
{
  for (char *at = strstr(text, "--"); at; at = strstr(at, "--"))
    at[1] = '_';
}

/* The samples of one transport (inside a node: at most 1 hop; `apart`: more) fitted into *fit. 0 when fitted, 1 when
 * there are none, -1 with the reason in err. */
static int fit_transport(const met_msg_sample_t *samples, size_t count, int apart, met_msgfit_t *fit, char *err,
                         size_t errlen)
{
  met_msg_sample_t *mine = malloc((count ? count : 1) * sizeof *mine);
  if (!mine) {
    snprintf(err, errlen, "out of memory for %zu samples", count);
    return -1;
  }
  size_t n = 0;
  for (size_t i = 0; i < count; i++)
    if ((samples[i].hops > 1) == apart)
      mine[n++] = samples[i];
  int rc = n == 0 ? 1 : met_msgfit(mine, n, -1, fit, err, errlen);
  free(mine);
  return rc;
}

/* Both transports' fits and their sources. 0, or an exit status after the one error line: no sample inside a node,
 * none between the hostfile's nodes, or a fit refused (too few points, residuals too large); on one machine measured
 * here, a refused fit of the TCP ping-pong (the stand-in between nodes) leaves the platform without a model between
 * nodes, after a warning, and the reason in its comment. */
static int fit_both(const met_msg_sample_t *samples, size_t count, const char *given, const char *hostfile, int nodes,
                    fits_t *fits)
{
  char err[600];
  const char *source = given ? given : "the ping-pong";
  int rc = fit_transport(samples, count, 0, &fits->node, err, sizeof err);
  if (rc == 1) {
    fprintf(stderr,
            "simrun: error: %s: no sample at 1 hop, so the time inside a node cannot be fitted; add the on-node "
            "ping-pong's lines (bytes,1,time_us)\n",
            source);
    return given ? EXIT_INPUT : EXIT_RUNTIME;
  }
  int apart = rc == 0 ? fit_transport(samples, count, 1, &fits->apart, err, sizeof err) : 0;
  if (rc == 0 && apart < 0 && !given && !hostfile) { /* only the stand-in between nodes: the platform stands without */
    snprintf(fits->apart_refused, sizeof fits->apart_refused, "the fit of the TCP ping-pong was refused: %s", err);
    comment_safe(fits->apart_refused);
    fprintf(stderr,
            "simrun: warning: the ping-pong over TCP (the stand-in between nodes): %s; the platform has no "
            "model between nodes\n",
            err);
    apart = 1;
  }
  if (rc != 0 || apart < 0) {
    fprintf(stderr,
            "simrun: error: %s: messages %s: %s; nothing written (measure again when the machine is quieter, or fit "
            "your own times with --samples)\n",
            source, rc != 0 ? "inside a node" : "between nodes", err);
    return EXIT_RUNTIME;
  }
  if (apart == 1 && nodes > 1) {
    fprintf(stderr,
            "simrun: error: %s: no sample at 2 hops, so the time between the hostfile's nodes cannot be fitted; add "
            "the inter-node ping-pong's lines (bytes,2,time_us) or leave out --hostfile\n",
            given ? given : "the ping-pong's output");
    return EXIT_INPUT;
  }
  fits->has_apart = apart == 0;
  if (given) {
    snprintf(fits->node_source, sizeof fits->node_source, "the 1-hop lines of %s", given);
    snprintf(fits->apart_source, sizeof fits->apart_source, "the 2-hop lines of %s", given);
  } else {
    snprintf(fits->node_source, sizeof fits->node_source, "simrun-pingpong, 2 ranks on this node");
    if (hostfile)
      snprintf(fits->apart_source, sizeof fits->apart_source,
               "simrun-pingpong between the first two nodes of %s (mpirun, mapped by node)", hostfile);
    else
      snprintf(fits->apart_source, sizeof fits->apart_source,
               "simrun-pingpong, 2 ranks on this node over Open MPI's TCP\n"
               "         transport (its btl tcp,self), which it takes between nodes, here over the loopback\n"
               "         interface: the stand-in for a network this one machine does not have");
  }
  comment_safe(fits->node_source);
  comment_safe(fits->apart_source);
  return 0;
}

/* The summary line of one fit: its small-message regime at d = 1. */
static void print_fit(const char *what, const met_msgfit_t *fit)
{
  const met_piecewise_t *m = &fit->model;
  printf(", messages %s %.3g us + %.3g us/KiB up to %g bytes", what, m->small[0] + m->small[2],
         1024 * (m->small[1] + m->small[3]), m->packet_bytes);
}

/* Measures and fits into `file`, opened before any measurement so that a path that cannot be written costs nothing;
 * commits it, or removes it on every other path. */
static int probe(const char *output, rep_file_t *file, const char *given, const char *hostfile, int pool)
{
  cli_hostfile_t hosts = {.nodes = 1};
  int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  hosts.slots[0] = cores > 0 ? cores : 1;
  int rc = hostfile ? cli_hostfile_read(hostfile, hosts.slots[0], &hosts) : 0;
  met_msg_sample_t *samples = NULL;
  size_t count = 0;
  fits_t fits = {0};
  rc = rc ? rc : samples_of(given, hostfile, &samples, &count, &fits);
  rc = rc ? rc : fit_both(samples, count, given, hostfile, hosts.nodes, &fits);
  free(samples);
  cli_probe_t p;
  if (rc == 0) {
    cli_signal_step("measuring", "while measuring this machine");
    cli_probe_machine(&p);
  }
  char message[1200];
  if (rc != 0 || cli_signal_stop()) {
    rep_file_abort(file);
    return rc == CLI_EXIT_STOPPED || cli_signal_stop() ? cli_signal_report() : rc;
  }
  if (write_platform(rep_file_stream(file), &fits, &p, &hosts, pool) != 0) {
    rep_file_abort(file);
    fprintf(stderr, "simrun: error: cannot write '%s'\n", output);
    return EXIT_RUNTIME;
  }
  if (rep_file_commit(file, message, sizeof message) != 0) {
    fprintf(stderr, "simrun: error: %s\n", message);
    return EXIT_RUNTIME;
  }
  printf("Wrote %s: %d node(s) of %d cores%s at %.4g flop/s", output, hosts.nodes, hosts.slots[0],
         pool ? " (a host per node)" : "", p.flops);
  print_fit("inside a node", &fits.node);
  if (fits.has_apart)
    print_fit("between nodes", &fits.apart);
  printf("\n");
  return 0;
}

/* The output gate (cli_output.h), then the probe with the signals caught: a stop removes the temporary files and says
 * so in one line (cli_signal.h), as a sweep's does. */
static int gated_probe(const cli_context_t *ctx, const char *output, const char *samples, const char *hostfile,
                       int pool)
{
  const char *const inputs[][2] = {{"--samples", samples}, {"--hostfile", hostfile}};
  rep_file_t *file = NULL;
  int status = cli_gate_output("the platform", output, inputs, 2, &file);
  if (status != EXIT_OK)
    return status;
  if (ctx->catch_signals)
    cli_signal_catch();
  cli_signal_outputs(output);
  status = probe(output, file, samples, hostfile, pool);
  fflush(stdout);
  if (ctx->catch_signals)
    cli_signal_release();
  return status;
}

int cli_machine_main(const cli_context_t *ctx, int argc, char **argv)
{
  const char *output = NULL, *samples = NULL, *hostfile = NULL;
  int pool = 0;
  if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
    usage(stdout);
    return 0;
  }
  if (argc < 2 || strcmp(argv[1], "probe") != 0) {
    fprintf(stderr, "simrun: error: expected 'simrun machine probe FILE.xml'; see simrun machine --help\n");
    return EXIT_INPUT;
  }
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return 0;
    }
    if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc)
      samples = argv[++i];
    else if (strcmp(argv[i], "--hostfile") == 0 && i + 1 < argc)
      hostfile = argv[++i];
    else if (strcmp(argv[i], "--pool") == 0)
      pool = 1;
    else if (argv[i][0] == '-' || output) {
      fprintf(stderr, "simrun: error: unexpected argument '%s'; see simrun machine --help\n", argv[i]);
      return EXIT_INPUT;
    } else
      output = argv[i];
  }
  if (!output) {
    fprintf(stderr, "simrun: error: no output file given; usage: simrun machine probe FILE.xml\n");
    return EXIT_INPUT;
  }
  return gated_probe(ctx, output, samples, hostfile, pool);
}
