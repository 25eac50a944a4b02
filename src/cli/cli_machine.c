/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `simrun machine probe`: this machine's characterisation (seed 001 §3, eq. 2, measured by cli_probe) and its message
 * time (eq. 4 fitted by met_msgfit to an Open MPI ping-pong) written as a SimGrid platform of one host per core (with
 * --pool, one host of all the cores), each value with its measurement in a comment beside it; with a hostfile, one
 * such node per node it names, the messages between nodes fitted to a ping-pong between the first two. */
#include "cli_machine.h"
#include "cli_exit.h"
#include "cli_characterise.h"
#include "cli_hostfile.h"
#include "cli_probe.h"
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
          "Measures this machine and writes a SimGrid platform of it to FILE.xml (docs/machines.md): one host per\n"
          "core at the flop rate of the tracer's calibration loop, seed 001's characterisation (cycles per CPU,\n"
          "floating-point, internal and external memory operation) from timed loops, the clock, memory and last\n"
          "cache level from the system, and the message time of eq. 4 fitted (as simrun characterise does) to an\n"
          "Open MPI ping-pong between two ranks on this node (simrun-pingpong under mpirun), with Open MPI's eager\n"
          "limit. Every value has its measurement in a comment. Takes about 15 s. The loops are timed in CPU time;\n"
          "the ping-pong is timed by the wall clock, which a loaded machine stretches.\n"
          "\n"
          "Options:\n"
          "  --hostfile HOSTS    Open MPI's hostfile of alike nodes: the platform holds each node (slots= cores,\n"
          "                      else this machine's), and a second ping-pong between the first two nodes (mpirun\n"
          "                      --hostfile HOSTS --map-by node) gives the time between nodes (eq. 4 at d = 2)\n"
          "  --samples FILE.csv  fit these ping-pong times (bytes,hops,time_us; hops 2 between nodes) instead of\n"
          "                      measuring them\n"
          "  --pool              one host per node with all its cores instead of one per core: the ranks of an\n"
          "                      oversubscribed run, which Open MPI leaves unbound, share the node's cores (for\n"
          "                      ti-replay; the other skeletons put one rank per host)\n"
          "  -h, --help          show this help and exit\n"
          "\n"
          "Exit status: 0 success, 1 a measurement failed or the fit cannot be trusted, 2 bad usage.\n");
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

/* The message model: eq. 4 fitted to the ping-pong, and Open MPI's eager limit. */
static void write_messages(FILE *out, const char *source, const met_msgfit_t *fit, const cli_probe_t *p, int nodes,
                           int pool)
{
  static const char *const routes[2][2] = {
      {"every route below is one link, so T(l, 1) is the whole message time",
       "a route inside a node is one link and a route between nodes two (each host's network link),\n"
       "         so T(l, 1) is an on-node message's whole time and T(l, 2) an inter-node one's"},
      {"a message inside the node takes its loopback link, so T(l, 1) is the whole message time",
       "a message inside a node takes its loopback link and one between nodes two (each node's network\n"
       "         link), so T(l, 1) is an on-node message's whole time and T(l, 2) an inter-node one's"}};
  const met_piecewise_t *m = &fit->model;
  fprintf(out,
          "    <!-- messages: seed 001 eq. 4 fitted by relative error (terms >= 0, split by cross-validation) to the\n"
          "         ping-pong of %s: residuals rms %.1f%% up to %g bytes, %.1f%% above (cross-validated %.1f%%);\n"
          "         %s (docs/machines.md) -->\n"
          "    <prop id=\"simrun:comm-model\" value=\"piecewise\"/>\n"
          "    <prop id=\"simrun:comm-packet-bytes\" value=\"%.10g\"/>\n"
          "    <prop id=\"simrun:comm-small-us\" value=\"%.6g %.6g %.6g %.6g\"/>\n"
          "    <prop id=\"simrun:comm-large-us\" value=\"%.6g %.6g %.6g %.6g\"/>\n",
          source, 100 * fit->rms_rel[0], m->packet_bytes, 100 * fit->rms_rel[1], 100 * fit->cv_rel,
          routes[pool != 0][nodes > 1], m->packet_bytes, m->small[0], m->small[1], m->small[2], m->small[3],
          m->large[0], m->large[1], m->large[2], m->large[3]);
  if (p->eager_bytes > 0)
    fprintf(out,
            "    <!-- eager limit: ompi_info's btl_vader_eager_limit (Open MPI's shared memory) -->\n"
            "    <prop id=\"simrun:eager-bytes\" value=\"%.0f\"/>\n",
            p->eager_bytes);
}

/* Host `core` of node `node`'s id: core-C on one node, nN-core-C on several; pooled (core -1), the node's one host:
 * this-node on one node, nN on several. */
static void host_id(char *id, size_t len, int nodes, int node, int core)
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
    host_id(a_id, sizeof a_id, hosts->nodes, n, -1);
    if (hosts->nodes > 1)
      fprintf(out, "    <!-- node %d: %s -->\n", n, hosts->name[n]);
    fprintf(out, "    <host id=\"%s\" speed=\"%.6gf\" core=\"%d\"/>\n", a_id, p->flops, hosts->slots[n]);
  }
  for (int n = 0; hosts->nodes > 1 && n < hosts->nodes; n++) {
    host_id(a_id, sizeof a_id, hosts->nodes, n, -1);
    fprintf(out, "    <link id=\"net-%s\" bandwidth=\"1TBps\" latency=\"1ns\"/>\n", a_id);
  }
  for (int a = 0; a < hosts->nodes; a++)
    for (int b = a + 1; b < hosts->nodes; b++) {
      host_id(a_id, sizeof a_id, hosts->nodes, a, -1);
      host_id(b_id, sizeof b_id, hosts->nodes, b, -1);
      fprintf(out, "    <route src=\"%s\" dst=\"%s\"><link_ctn id=\"net-%s\"/><link_ctn id=\"net-%s\"/></route>\n",
              a_id, b_id, a_id, b_id);
    }
}

/* Each node's hosts, its pairs' links, and with several nodes each host's network link. */
static void write_hosts_links(FILE *out, const cli_hostfile_t *hosts, const cli_probe_t *p)
{
  char id[32];
  for (int n = 0; n < hosts->nodes; n++) {
    if (hosts->nodes > 1)
      fprintf(out, "    <!-- node %d: %s, %d cores -->\n", n, hosts->name[n], hosts->slots[n]);
    for (int h = 0; h < hosts->slots[n]; h++) {
      host_id(id, sizeof id, hosts->nodes, n, h);
      fprintf(out, "    <host id=\"%s\" speed=\"%.6gf\"/>\n", id, p->flops);
    }
  }
  for (int n = 0; n < hosts->nodes; n++)
    for (int a = 0; a < hosts->slots[n]; a++) {
      host_id(id, sizeof id, hosts->nodes, n, a);
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
          host_id(a_id, sizeof a_id, hosts->nodes, na, a);
          host_id(b_id, sizeof b_id, hosts->nodes, nb, b);
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
static int write_platform(FILE *out, const char *source, const met_msgfit_t *fit, const cli_probe_t *p,
                          const cli_hostfile_t *hosts, int pool)
{
  fprintf(out,
          "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<!-- This machine, measured by simrun machine probe (docs/machines.md): %d cores. Host speed %.6g flop/s:\n"
          "     the tracer's calibration loop (four multiply-add chains), so that a traced run's TI compute amounts\n"
          "     replay in the CPU time they took (trace with SIMRUN_TRACE_FLOPS=%.6g to use this very rate).%s -->\n"
          "<platform version=\"4.1\">\n  <config>\n    <prop id=\"network/model\" value=\"CM02\"/>\n%s  </config>\n"
          "  <zone id=\"this-machine\" routing=\"Full\">\n",
          p->cores, p->flops, p->flops,
          pool ? "\n     One host per node with its cores (the pool option): for ti-replay of runs with more ranks "
                 "than cores;\n"
                 "     simrun's skeletons put one rank per host and run on it at p = 1 only."
               : "",
          pool ? "    <prop id=\"network/loopback-bw\" value=\"1e12\"/>\n"
                 "    <prop id=\"network/loopback-lat\" value=\"1e-9\"/>\n"
               : "");
  write_characterisation(out, p);
  write_messages(out, source, fit, p, hosts->nodes, pool);
  if (pool) {
    write_pooled(out, hosts, p);
  } else {
    write_hosts_links(out, hosts, p);
    write_routes(out, hosts);
  }
  fprintf(out, "  </zone>\n</platform>\n");
  return ferror(out) ? -1 : 0;
}

/* The ping-pong samples: measured into a temporary file, or the user's. 0, or an exit status. */
static int samples_of(const char *given, const char *hostfile, met_msg_sample_t **samples, size_t *count)
{
  char tmp[] = "/tmp/simrun-pingpong-XXXXXX";
  int fd = given ? -1 : mkstemp(tmp);
  if (!given && fd < 0) {
    fprintf(stderr, "simrun: error: cannot make a temporary file in /tmp for the ping-pong's output\n");
    return EXIT_RUNTIME;
  }
  if (fd >= 0)
    close(fd);
  int rc = given ? 0 : cli_probe_pingpong(tmp, hostfile);
  if (rc == 0)
    rc = cli_characterise_read(given ? given : tmp, samples, count);
  if (!given && rc == 0)
    unlink(tmp);
  return rc;
}

static int probe(const char *output, const char *given, const char *hostfile, int pool)
{
  cli_hostfile_t hosts = {.nodes = 1};
  int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  hosts.slots[0] = cores > 0 ? cores : 1;
  int rc = hostfile ? cli_hostfile_read(hostfile, hosts.slots[0], &hosts) : 0;
  if (rc != 0)
    return rc;
  met_msg_sample_t *samples = NULL;
  size_t count = 0;
  rc = samples_of(given, hostfile, &samples, &count);
  size_t apart = 0;
  for (size_t i = 0; rc == 0 && i < count; i++)
    apart += samples[i].hops == 2;
  if (rc == 0 && hosts.nodes > 1 && apart == 0) {
    fprintf(stderr,
            "simrun: error: %s: no sample at 2 hops, so the time between the hostfile's nodes cannot be fitted; add "
            "the inter-node ping-pong's lines (bytes,2,time_us) or leave out --hostfile\n",
            given ? given : "the ping-pong's output");
    rc = EXIT_INPUT;
  }
  met_msgfit_t fit;
  char err[600];
  if (rc == 0 && met_msgfit(samples, count, -1, &fit, err, sizeof err) != 0) {
    fprintf(stderr,
            "simrun: error: %s: %s; nothing written (measure again when the machine is quieter, or fit your "
            "own times with --samples)\n",
            given ? given : "the ping-pong", err);
    rc = 1;
  }
  free(samples);
  if (rc != 0)
    return rc;
  cli_probe_t p;
  cli_probe_machine(&p);
  const char *source = given             ? given
                       : hosts.nodes > 1 ? "simrun-pingpong (2 ranks on this node, then on the hostfile's first two)"
                                         : "simrun-pingpong (2 ranks, this node)";
  char message[1200];
  rep_file_t *file = rep_file_open(output, message, sizeof message);
  if (file && write_platform(rep_file_stream(file), source, &fit, &p, &hosts, pool) == 0 &&
      rep_file_commit(file, message, sizeof message) == 0) {
    printf("Wrote %s: %d node(s) of %d cores%s at %.4g flop/s, messages %.3g us + %.3g us/KiB up to %g bytes at "
           "d = 1\n",
           output, hosts.nodes, hosts.slots[0], pool ? " (a host per node)" : "", p.flops,
           fit.model.small[0] + fit.model.small[2], 1024 * (fit.model.small[1] + fit.model.small[3]),
           fit.model.packet_bytes);
    return 0;
  }
  if (file)
    rep_file_abort(file);
  fprintf(stderr, "simrun: error: %s\n", file ? output : message);
  return EXIT_RUNTIME;
}

int cli_machine_main(int argc, char **argv)
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
  return probe(output, samples, hostfile, pool);
}
