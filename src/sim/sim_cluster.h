/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The Parsytec SuperCluster's links between clusters of 16 transputers (docs/t800.md): such a link passes extra INMOS
 * C004 crossbar stages, each of which lengthens every byte's cycle on the link protocol, so a message that crosses
 * clusters costs more than Table 2's T(l, d). Read from the platform: root-zone properties for the stage's cost, a
 * property on each crossing link for its number of extra stages. */
#ifndef SIM_CLUSTER_H
#define SIM_CLUSTER_H

#include <stddef.h>

/* Its properties are rows of sim_prop_table.h. simrun:extra-c004-stages, of a link: the C004 stages it passes beyond
 * those of a link inside a cluster (absent: 0). simrun:forward-buffers, of the root zone: how many packet buffers a
 * transputer that forwards a message has (docs/t800.md, step 5). With 1 it takes a packet in, then sends it on, so its
 * cycle holds both link transfers and a crossing on either side of it paces the whole stream; with 2 it receives the
 * next packet while it sends this one, and only the sender's cycle paces the stream. Absent: 1, the value the
 * SuperCluster's N = 256 measurements choose. simrun:ack-us, of the root zone (read with the C004 properties only):
 * the time of an acknowledgement each message waits for, alpha + gamma x hops us (absent: none). */

typedef struct sim_cluster {
  double stage_delay_bits; /* simrun:c004-delay-bits: delay of one stage, each direction, in bit periods */
  double link_bits_per_s;  /* simrun:link-bit-rate: the links' bit rate */
  double packet_bytes;     /* simrun:comm-packet-bytes: p_s of eq. 4, the pipeline's packet */
  double us_per_byte;      /* 2 x delay / rate: what one stage adds to a byte's cycle, in us; 0 when not modelled */
  int forward_buffers;     /* simrun:forward-buffers: packet buffers of a forwarding transputer, 1 or 2 */
  double relay_cpu_us;     /* simrun:relay-cpu-us: CPU a computing forwarder loses per packet, in us; 0 when absent */
  double ack_us[2];        /* simrun:ack-us: alpha, gamma of a message's acknowledgement, in us; 0 0 when absent */
} sim_cluster_t;

/* Reads the model from the loaded platform's root zone. Both stage properties absent: us_per_byte = 0 (a flat
 * machine). Returns 0, or SIM_EPLATFORM with a message when a value is malformed, only one of them is given, or
 * simrun:forward-buffers is neither 1 nor 2. */
int sim_cluster_read(sim_cluster_t *cluster, char *err, size_t errlen);

/* Reads the model and, when the platform has one, makes every message pay sim_cluster_extra_time on top of the
 * machine's message time. `cluster` is borrowed for the run. 0, or SIM_EPLATFORM with a message. */
int sim_cluster_install(sim_cluster_t *cluster, char *err, size_t errlen);

/* The CPU seconds a transputer that forwards `bytes` loses, relay_cpu_us per packet of packet_bytes (the last one
 * partly full counts whole); 0 without simrun:relay-cpu-us. */
double sim_cluster_relay_cpu(const sim_cluster_t *cluster, double bytes);

/* Seconds that `bytes` take beyond T(l, d) on a route of `hops` links, link i passing stages[i] extra stages (route
 * order, from the sender), with Delta_i = stages[i] x us_per_byte per byte: the first packet, min(l, p_s) bytes, pays
 * Delta_i at every hop (store and forward); the rest of the message, l - p_s bytes, pays the extra cycle of the
 * slowest stage of the packet pipeline. The sender's cycle holds its link transfer, Delta_0; a one-buffer forwarder's
 * cycle holds its two transfers, Delta_{j-1} + Delta_j; a two-buffer forwarder overlaps them and paces nothing.
 * With simrun:ack-us = "alpha gamma", every message also waits for an end-to-end acknowledgement back over its
 * `hops` links, alpha + gamma x hops us (a PARIX virtual link's synchronous send; docs/t800.md). */
double sim_cluster_extra_time(const void *cluster, double bytes, const double *stages, int hops);

#endif
