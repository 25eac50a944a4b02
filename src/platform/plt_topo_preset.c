/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The presets of `simrun platform --preset`: each machine's host and link parameters, network configuration and
 * machine-model properties, copied from the shipped platform file whose sources they cite (plt_topo_preset.h). */
#include "plt_topo_preset.h"

#include <stdio.h>
#include <string.h>

/* The T800 preset copies platforms/t800-mesh-128.xml, where each value's source in seed 001 is given (the
 * characterisation, simrun:clock-hz and simrun:cycles-*, included: docs/machines.md). */
static const char *const t800_config[] = {"network/model", "CM02", "network/crosstraffic", "0", NULL};
static const char *const t800_props[] = {"simrun:comm-model",
                                         "piecewise",
                                         "simrun:comm-packet-bytes",
                                         "120",
                                         "simrun:comm-small-us",
                                         "51.1 0.27 8.86 0.68",
                                         "simrun:comm-large-us",
                                         "-81.5 1.33 93.04 0.05",
                                         "simrun:link-init-us",
                                         "1270",
                                         "simrun:io-input-us",
                                         "642.16 3.73",
                                         "simrun:io-output-us",
                                         "1583.73 2.2",
                                         "simrun:clock-hz",
                                         "25e6",
                                         "simrun:cycles-cpu",
                                         "20.505",
                                         "simrun:cycles-flop",
                                         "19.2175",
                                         "simrun:cycles-intmem",
                                         "10.9635",
                                         "simrun:cycles-extmem",
                                         "34.42766666666667",
                                         NULL};

/* The SuperCluster's clusters, as in platforms/t800-mesh-128.xml (docs/t800.md): 4x4 blocks of transputers; a link
 * between two of them passes 2 more INMOS C004 stages, 1.75 bit periods each way, on 20 Mbit/s links; a forwarding
 * transputer has one packet buffer. */
static const char *const t800_cluster_props[] = {
    "simrun:c004-delay-bits", "1.75", "simrun:link-bit-rate", "20e6", "simrun:forward-buffers", "1", NULL};

/* icluster copies platforms/icluster-fe-32.xml (seed 003; Fast Ethernet through one switch; the Pentium III's
 * characterisation, whose sources are given there): the message latency of
 * 0.5 + 123.54 us, split there into the up and down links of a port, is split evenly here over a route's two links. */
static const char *const cluster_config[] = {"network/model", "CM02", "network/crosstraffic", "0", NULL};
static const char *const icluster_host_props[] = {"simrun:memory-bytes",
                                                  "268435456",
                                                  "simrun:clock-hz",
                                                  "733e6",
                                                  "simrun:cycles-cpu",
                                                  "0.5",
                                                  "simrun:cycles-flop",
                                                  "1",
                                                  "simrun:cycles-intmem",
                                                  "1",
                                                  "simrun:cycles-extmem",
                                                  "5.5",
                                                  NULL};

/* LAM/MPI's tcp short-message (eager) limit, as platforms/icluster-fe-32.xml assumes and sources it. */
static const char *const icluster_props[] = {"simrun:eager-bytes", "65536", NULL};

/* ncp2 copies the nodes (the PowerPC 604's characterisation included) and Myrinet links of
 * platforms/ncp2-myrinet-8.xml (seed 002); its protocol controllers and
 * PCI buses, which only the DSM model uses, are not generated. */
static const char *const ncp2_host_props[] = {"simrun:memory-bytes",
                                              "33554432",
                                              "simrun:l2-bytes",
                                              "262144",
                                              "simrun:cycles-cpu",
                                              "0.5",
                                              "simrun:cycles-flop",
                                              "1",
                                              "simrun:cycles-intmem",
                                              "1",
                                              "simrun:cycles-extmem",
                                              "1.5",
                                              NULL};

static const plt_topo_preset_t presets[] = {
    {.name = "t800",
     .summary =
         "t800, the Parsytec SuperCluster of platforms/t800-mesh-128.xml (seed 001, Zemerly et al.\n"
         "  1995): 25 MHz T800 hosts, links of 1 / 1.33 us per byte; the message time of eq. 4 with Table 2, link\n"
         "  initialisation (eq. 3) and host I/O (eqs. 5-6) are root-zone properties; clusters of 16 hosts (4x4\n"
         "  blocks of meshes and tori, sub-cubes of hypercubes; none through a switch or fat tree): a link between\n"
         "  two passes 2 more C004 crossbars of 1.75 bit periods each way at 20 Mbit/s (docs/t800.md)",
     .speed = "25Mf",
     .bandwidth = "751879.7Bps",
     .latency = "1us",
     .config = t800_config,
     .props = t800_props,
     .cluster_side = 4,
     .cross_stages = "2",
     .cluster_props = t800_cluster_props},
    {.name = "t800-flat",
     .summary =
         "t800-flat, the t800 preset without its clusters: 25 MHz T800 hosts, links of 1 / 1.33 us per byte,\n"
         "  the message time of eq. 4 with Table 2, link initialisation and host I/O of seed 001, and every link\n"
         "  costs what a link inside a SuperCluster cluster does: a what-if that compares shapes, or the\n"
         "  machine without its C004 stages between clusters (docs/t800.md)",
     .speed = "25Mf",
     .bandwidth = "751879.7Bps",
     .latency = "1us",
     .config = t800_config,
     .props = t800_props},
    {.name = "icluster",
     .summary = "icluster, the Pentium III nodes and Fast Ethernet of platforms/icluster-fe-32.xml (seed 003,\n"
                "  Caron and Suter 2002): 733 Mflop/s hosts with 256 MiB, links of 100 Mbit/s less framing\n"
                "  (11866059.8 B/s); the 124.04 us per message through the store-and-forward switch is split evenly\n"
                "  over the two links of a host-switch-host route, 62.02 us each; sends of at most 64 KiB are eager",
     .speed = "733Mf",
     .bandwidth = "11866059.8Bps",
     .latency = "62.02us",
     .config = cluster_config,
     .props = icluster_props,
     .host_props = icluster_host_props},
    {.name = "ncp2",
     .summary = "ncp2, the PowerPC 604 nodes and Myrinet links of platforms/ncp2-myrinet-8.xml (seed 002, Pereira et\n"
                "  al.): 100 MHz hosts with 32 MB and 256 KB of L2, links of 160 MB/s and 0.25 us (the protocol\n"
                "  controllers and PCI buses of the DSM model are not generated)",
     .speed = "100Mf",
     .bandwidth = "160MBps",
     .latency = "0.25us",
     .config = cluster_config,
     .host_props = ncp2_host_props},
};

#define NPRESETS (sizeof presets / sizeof presets[0])

const plt_topo_preset_t *plt_topo_preset(const char *name)
{
  for (size_t i = 0; i < NPRESETS; i++)
    if (strcmp(presets[i].name, name) == 0)
      return &presets[i];
  return NULL;
}

const char *plt_topo_preset_names(void)
{
  static char names[256];
  if (names[0])
    return names;
  for (size_t i = 0; i < NPRESETS; i++)
    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", presets[i].name);
  return names;
}
