/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The platform subcommand: its options, usage and messages; the platform itself is plt_topo's (mesh, torus,
 * hypercube, switch, fat tree), written whole or not at all. */
#include "cli_platform.h"
#include "cli_exit.h"

#include "cli_results.h"
#include "rep_report.h"
#include "plt_topo.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

typedef struct platform_options {
  plt_topo_t topo;
  const char *output;
} platform_options_t;

static void platform_usage(FILE *out)
{
  fprintf(out,
          "Usage: simrun platform KIND SIZE [OPTIONS]\n"
          "\n"
          "Writes a SimGrid platform (XML) of identical hosts and links, to standard output or to FILE.\n"
          "\n"
          "Kinds and sizes (at most %d hosts; with --routing native, meshes, tori and fat trees of up to %d):\n"
          "  mesh ROWSxCOLS      2D mesh, each host linked to its 4 neighbours; hosts carry simrun:row/col\n"
          "  torus ROWSxCOLS     the mesh with wrap-around links\n"
          "  hypercube D         2^D hosts, host i linked to host i xor 2^b for every bit b\n"
          "  switch N            N hosts, each linked to one switch\n"
          "  fattree K:L         K^L hosts under an L-level K-ary tree of switches, links K times fatter per level\n"
          "  dragonfly G:C:R:N   G groups of C chassis of R routers of N hosts (G <= R): SimGrid's own dragonfly\n"
          "                      zone, routed by SimGrid whatever --routing says\n"
          "\n"
          "Options:\n"
          "  --preset NAME       the hosts, links and machine model of a machine: %s\n"
          "  --speed SPEED       host speed, such as 25Mf (f kf Mf Gf Tf); overrides the preset's\n"
          "  --bandwidth BW      link bandwidth, such as 125MBps or 10GiBps (Bps kBps MBps GBps TBps KiBps ...\n"
          "                      TiBps, and in bits bps ... Tibps)\n"
          "  --latency LAT       link latency, such as 50us (s ms us ns)\n"
          "  --routing ROUTING   explicit (default: every link and its route in the file, for any SimGrid program)\n"
          "                      or native (mesh, torus, fattree: built by simrun at load time, routed by arithmetic)\n"
          "  -o, --output FILE   write FILE (whole or not at all) instead of standard output\n"
          "  -h, --help          show this help and exit\n"
          "\n"
          "Without --preset, --speed, --bandwidth and --latency are all required. See docs/topologies.md.\n"
          "Example: simrun platform mesh 16x8 --preset t800 -o t800.xml (the machine of platforms/t800-mesh-128.xml)\n",
          PLT_TOPO_MAX_HOSTS, PLT_TOPO_MAX_NATIVE_HOSTS, plt_topo_preset_names());
}

static int fail_platform(const char *message)
{
  fprintf(stderr, "simrun: error: %s; see simrun platform --help\n", message);
  return EXIT_INPUT;
}

/* Fills `po` from the arguments after "platform" (options anywhere). Returns -1 to go on, or an exit status. */
static int parse_platform(int argc, char **argv, platform_options_t *po)
{
  static const struct option longopts[] = {
      {"preset", required_argument, NULL, 'p'},    {"speed", required_argument, NULL, 's'},
      {"bandwidth", required_argument, NULL, 'b'}, {"latency", required_argument, NULL, 'l'},
      {"output", required_argument, NULL, 'o'},    {"help", no_argument, NULL, 'h'},
      {"routing", required_argument, NULL, 'r'},   {NULL, 0, NULL, 0}};
  char message[1200];
  opterr = 0;
  optind = 0; /* glibc starts afresh: an earlier call's parse may have stopped inside a group */
  for (int c; (c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1;) {
    if (c == 'h') {
      platform_usage(stdout);
      return EXIT_OK;
    }
    if (c == '?' || c == ':') {
      snprintf(message, sizeof message, c == '?' ? "unknown option '%s'" : "option '%s' needs a value",
               argv[optind - 1]);
      return fail_platform(message);
    }
    if (c == 'p' && !(po->topo.preset = plt_topo_preset(optarg))) {
      snprintf(message, sizeof message, "unknown preset '%s'; choose one of: %s", optarg, plt_topo_preset_names());
      return fail_platform(message);
    }
    if (c == 'r' && strcmp(optarg, "explicit") != 0 && strcmp(optarg, "native") != 0) {
      snprintf(message, sizeof message, "unknown routing '%s'; choose explicit or native", optarg);
      return fail_platform(message);
    }
    po->topo.native = c == 'r' ? strcmp(optarg, "native") == 0 : po->topo.native;
    po->topo.speed = c == 's' ? optarg : po->topo.speed;
    po->topo.bandwidth = c == 'b' ? optarg : po->topo.bandwidth;
    po->topo.latency = c == 'l' ? optarg : po->topo.latency;
    po->output = c == 'o' ? optarg : po->output;
  }
  if (argc - optind != 2) {
    snprintf(message, sizeof message,
             argc - optind < 2 ? "give a topology and its size, such as mesh 16x8"
                               : "unexpected argument '%s' after the size",
             argv[argc - 1]);
    return fail_platform(message);
  }
  if (plt_topo_parse_kind(argv[optind], &po->topo.kind, message, sizeof message) != 0 ||
      plt_topo_parse_size(po->topo.kind, argv[optind + 1], po->topo.size, message, sizeof message) != 0 ||
      plt_topo_resolve(&po->topo, message, sizeof message) != 0)
    return fail_platform(message);
  return -1;
}

/* simrun platform: writes the platform to standard output, or to a file that appears whole or not at all. */
int cli_platform_main(int argc, char **argv)
{
  platform_options_t po = {.topo = {.kind = PLT_TOPO_MESH}};
  int status = parse_platform(argc, argv, &po);
  rep_file_t *file = NULL;
  if (status >= 0 || (status = cli_gate_output("--output", po.output, NULL, 0, &file)) != EXIT_OK)
    return status;
  char message[1200] = "";
  if (plt_topo_write(&po.topo, file ? rep_file_stream(file) : stdout, message, sizeof message) != 0) {
    rep_file_abort(file);
    fprintf(stderr, "simrun: error: %s\n", message);
    return EXIT_RUNTIME;
  }
  if (file && rep_file_commit(file, message, sizeof message) != 0) {
    fprintf(stderr, "simrun: error: %s\n", message);
    return EXIT_RUNTIME;
  }
  return EXIT_OK;
}
