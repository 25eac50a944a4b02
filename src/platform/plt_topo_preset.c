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

/* Two machines of today (docs/machines.md, "Machines of today"). A host is one node running one rank whose work
 * spreads over all the node's cores at their peak: the default characterisation (SimGrid's speed as operations per
 * second, memory accesses free), an upper bound as icluster's is. Node peaks, double precision: cores x base clock x
 * 16 flops per cycle (a Zen 2/3 core has two 256-bit FMA units: 2 x 4 doubles x 2 flops; Microway, "Detailed
 * Specifications of the AMD EPYC Rome CPUs", 2019), base clocks and core counts from AMD's EPYC 7003 launch list
 * (Techgage, "AMD EPYC Milan launch", 2021): 7763 64 cores 2.45 GHz, 7543 32 cores 2.8 GHz. */

/* epyc-25gbe: 2 x EPYC 7543 per node (2 x 32 x 2.8e9 x 16 = 2867.2 Gflop/s) and a 25 GbE port per node on one
 * store-and-forward Ethernet switch (the default mode of such switches: Extreme Networks' EXOS manual, "Default
 * Switching Mode"), MPI over TCP. Bandwidth: 25 Gb/s = 3.125e9 B/s times the TCP payload share of a 1500-byte-MTU
 * frame, 1460 / 1538 as for icluster (platforms/icluster-fe-32.xml): 2966514954.5 B/s. Latency per message,
 * 5.82216 us, split evenly over a route's two links (2.91108 us each): Linux's TCP stack at both ends, 4.53 us
 * (Open MPI's TCP transport between two ranks of one machine, bench/internode.sh, docs/validation.md), the two
 * adapters' "sub 0.8 usec" (NVIDIA ConnectX-6 EN product brief) taken as 0.8 us, and the switch storing the last
 * frame whole, 1538 x 8 / 25e9 s = 0.49216 us; the switch's lookup is not in our sources and is left out. Sends of
 * at most 64 KiB are eager and move when sent: Open MPI 4.1's btl_tcp_eager_limit, 65536 (ompi_info). */
static const plt_topo_prop_t epyc_25gbe_props[] = {
    {SIM_PROP_EAGER_BYTES, "65536"}, {SIM_PROP_EAGER_START, "send"}, {SIM_PROP_COUNT, NULL}};

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
    /* epyc-hdr (no simrun property: sends wait for their receivers, MPI's rendezvous): 2 x EPYC 7763 per node (2 x 64
     * x 2.45e9 x 16 = 5017.6 Gflop/s) and one NVIDIA ConnectX-6 HDR adapter per node on one HDR switch. Bandwidth:
     * HDR's 4 lanes of 53.125 Gb/s with 64b/66b encoding carry 200 Gb/s of data (ConnectX-6 user manual, "HDR100": 2
     * lanes give 100 Gb/s) = 25e9 B/s, times the payload share of a 4096-byte packet with its 26 bytes of headers (LRH
     * 8, BTH 12, ICRC 4, VCRC 2: InfiniBand Architecture Specification vol. 1, ch. 7), 4096 / 4122: 24842309558.5 B/s.
     * Latency: the adapters' "sub-600 ns" (Lenovo Press LP1195, ConnectX-6 HDR VPI adapters) taken as 0.6 us per
     * message, split evenly over a route's two links; the switch's own port-to-port latency and the cables are not in
     * our sources and are left out. */
    {.name = "epyc-hdr",
     .summary = "epyc-hdr, a node of today on InfiniBand HDR (docs/machines.md): one host per node of 2 AMD EPYC 7763\n"
                "  (128 cores at 2.45 GHz, 16 double-precision flops per cycle: 5017.6 Gflop/s peak, the default\n"
                "  characterisation), one ConnectX-6 HDR port per node, 200 Gb/s of data less 4096-byte packets'\n"
                "  headers (24842309558.5 B/s); the adapters' 0.6 us per message split over a route's two links, the\n"
                "  switch's own latency left out (no documented figure)",
     .speed = "5017.6Gf",
     .bandwidth = "24842309558.5Bps",
     .latency = "0.3us",
     .config = cluster_config},
    {.name = "epyc-25gbe",
     .summary = "epyc-25gbe, a commodity node of today on 25 Gigabit Ethernet (docs/machines.md): one host per node\n"
                "  of 2 AMD EPYC 7543 (64 cores at 2.8 GHz, 16 flops per cycle: 2867.2 Gflop/s peak, the default\n"
                "  characterisation), MPI over TCP through one store-and-forward switch: 25 Gb/s less framing\n"
                "  (2966514954.5 B/s); 5.82216 us per message (TCP stacks 4.53 us, adapters 0.8 us, one frame\n"
                "  stored 0.49216 us) split over a route's two links; sends of at most 64 KiB are eager and start\n"
                "  moving when sent (Open MPI's btl_tcp_eager_limit)",
     .speed = "2867.2Gf",
     .bandwidth = "2966514954.5Bps",
     .latency = "2.91108us",
     .config = cluster_config,
     .props = epyc_25gbe_props},
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
