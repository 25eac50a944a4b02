/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The presets of `simrun platform --preset`: each machine's host and link parameters, network configuration and
 * machine-model properties, copied from the shipped platform file whose sources they cite (plt_topo_preset.h). */
#include "plt_topo_preset.h"

#include <stdio.h>
#include <string.h>

/* The T800 preset copies platforms/t800-mesh-128.xml, where each value's source in seed 001 is given (the
 * characterisation, simrun:clock-hz and simrun:cycles-*, included: docs/machines.md). */
static const char *const t800_config[] = {"network/model", "CM02", "network/crosstraffic", "0", NULL};
static const plt_topo_prop_t t800_props[] = {{SIM_PROP_COMM_MODEL, "piecewise"},
                                             {SIM_PROP_COMM_PACKET_BYTES, "120"},
                                             {SIM_PROP_COMM_SMALL_US, "51.1 0.27 8.86 0.68"},
                                             {SIM_PROP_COMM_LARGE_US, "-81.5 1.33 93.04 0.05"},
                                             {SIM_PROP_LINK_INIT_US, "1270"},
                                             {SIM_PROP_IO_INPUT_US, "642.16 3.73"},
                                             {SIM_PROP_IO_OUTPUT_US, "1583.73 2.2"},
                                             {SIM_PROP_CLOCK_HZ, "25e6"},
                                             {SIM_PROP_CYCLES_CPU, "20.505"},
                                             {SIM_PROP_CYCLES_FLOP, "19.2175"},
                                             {SIM_PROP_CYCLES_INTMEM, "10.9635"},
                                             {SIM_PROP_CYCLES_EXTMEM, "34.42766666666667"},
                                             {SIM_PROP_COUNT, NULL}};

/* The SuperCluster's clusters, as in platforms/t800-mesh-128.xml (docs/t800.md): 4x4 blocks of transputers; a link
 * between two of them passes 2 more INMOS C004 stages, 1.75 bit periods each way, on 20 Mbit/s links; a forwarding
 * transputer has one packet buffer. */
static const plt_topo_prop_t t800_cluster_props[] = {{SIM_PROP_C004_DELAY_BITS, "1.75"},
                                                     {SIM_PROP_LINK_BIT_RATE, "20e6"},
                                                     {SIM_PROP_FORWARD_BUFFERS, "1"},
                                                     {SIM_PROP_COUNT, NULL}};

/* icluster copies platforms/icluster-fe-32.xml (seed 003; Fast Ethernet through one switch; the Pentium III's
 * characterisation, whose sources are given there): the message latency of
 * 0.5 + 123.54 us, split there into the up and down links of a port, is split evenly here over a route's two links. */
static const char *const cluster_config[] = {"network/model", "CM02", "network/crosstraffic", "0", NULL};
static const plt_topo_prop_t icluster_host_props[] = {{SIM_PROP_MEMORY_BYTES, "268435456"},
                                                      {SIM_PROP_CLOCK_HZ, "733e6"},
                                                      {SIM_PROP_CYCLES_CPU, "0.5"},
                                                      {SIM_PROP_CYCLES_FLOP, "1"},
                                                      {SIM_PROP_CYCLES_INTMEM, "1"},
                                                      {SIM_PROP_CYCLES_EXTMEM, "5.5"},
                                                      {SIM_PROP_COUNT, NULL}};

/* LAM/MPI's tcp short-message (eager) limit, and eager messages moving when sent (TCP), as
 * platforms/icluster-fe-32.xml assumes and sources them. */
static const plt_topo_prop_t icluster_props[] = {
    {SIM_PROP_EAGER_BYTES, "65536"}, {SIM_PROP_EAGER_START, "send"}, {SIM_PROP_COUNT, NULL}};

/* ncp2 copies the nodes (the PowerPC 604's characterisation included) and Myrinet links of
 * platforms/ncp2-myrinet-8.xml (seed 002); its protocol controllers and
 * PCI buses, which only the DSM model uses, are not generated. */
static const plt_topo_prop_t ncp2_host_props[] = {{SIM_PROP_MEMORY_BYTES, "33554432"}, {SIM_PROP_CYCLES_CPU, "0.5"},
                                                  {SIM_PROP_CYCLES_FLOP, "1"},         {SIM_PROP_CYCLES_INTMEM, "1"},
                                                  {SIM_PROP_CYCLES_EXTMEM, "1.5"},     {SIM_PROP_COUNT, NULL}};

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
                "  over the two links of a host-switch-host route, 62.02 us each; sends of at most 64 KiB are eager\n"
                "  and start moving when sent",
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
