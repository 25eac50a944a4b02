/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The SuperCluster's crossing links (docs/t800.md, "The SuperCluster as it was built"): INMOS C004 delay per stage
 * and direction, the link bit rate, and the extra time of a message whose route crosses clusters. */
#include "sim_cluster.h"
#include "sim_engine.h"
#include "sim_error.h"
#include "sim_prop.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The number of property `id` into *value, > 0 when `positive`, else >= 0 (and at most 1e12); 0 when absent (value
 * unchanged), 1 when read, SIM_EPLATFORM. */
static int read_number(sim_prop_id_t id, int positive, double *value, char *err, size_t errlen)
{
  const char *name = sim_prop_name(id);
  const char *text = sim_engine_property(name);
  if (!text)
    return 0;
  char *end = NULL;
  *value = strtod(text, &end);
  if (end == text || *end != '\0' || !isfinite(*value) || *value < 0 || (positive && *value == 0) ||
      (!positive && *value > 1e12)) {
    snprintf(err, errlen, "platform property %s = \"%s\": expected a %s", name, text,
             positive ? "positive number" : "number >= 0");
    return SIM_EPLATFORM;
  }
  return 1;
}

static int read_positive(sim_prop_id_t id, double *value, char *err, size_t errlen)
{
  return read_number(id, 1, value, err, errlen);
}

/* simrun:ack-us, "alpha gamma" (both >= 0), into ack[2]; 0 (absent: ack unchanged) or SIM_EPLATFORM. */
static int read_ack(double ack[2], char *err, size_t errlen)
{
  const char *name = sim_prop_name(SIM_PROP_ACK_US);
  const char *text = sim_engine_property(name);
  if (!text)
    return 0;
  char *end = NULL;
  ack[0] = strtod(text, &end);
  const char *second = end;
  ack[1] = strtod(second, &end);
  while (*end == ' ')
    end++;
  if (second == text || end == second || *end != '\0' || !(ack[0] >= 0 && ack[0] <= 1e12) ||
      !(ack[1] >= 0 && ack[1] <= 1e12)) {
    snprintf(err, errlen, "platform property %s = \"%s\": expected two numbers >= 0, \"alpha gamma\" in us", name,
             text);
    return SIM_EPLATFORM;
  }
  return 0;
}

int sim_cluster_read(sim_cluster_t *cluster, char *err, size_t errlen)
{
  *cluster = (sim_cluster_t){0};
  int delay = read_positive(SIM_PROP_C004_DELAY_BITS, &cluster->stage_delay_bits, err, errlen);
  int rate = delay < 0 ? delay : read_positive(SIM_PROP_LINK_BIT_RATE, &cluster->link_bits_per_s, err, errlen);
  if (rate < 0)
    return rate;
  if (delay != rate) {
    snprintf(err, errlen,
             "platform properties %s and %s go together: give both (crossbar stages between clusters) or neither (a "
             "flat machine)",
             sim_prop_name(SIM_PROP_C004_DELAY_BITS), sim_prop_name(SIM_PROP_LINK_BIT_RATE));
    return SIM_EPLATFORM;
  }
  if (!delay)
    return 0;
  int packet = read_positive(SIM_PROP_COMM_PACKET_BYTES, &cluster->packet_bytes, err, errlen);
  if (packet == 0) {
    snprintf(err, errlen, "platform property %s needs the piecewise comm model's %s (the packet of the pipeline)",
             sim_prop_name(SIM_PROP_C004_DELAY_BITS), sim_prop_name(SIM_PROP_COMM_PACKET_BYTES));
    return SIM_EPLATFORM;
  }
  if (packet < 0)
    return packet;
  double buffers = 1;
  int forward = read_positive(SIM_PROP_FORWARD_BUFFERS, &buffers, err, errlen);
  if (forward < 0 || (buffers != 1 && buffers != 2)) {
    snprintf(err, errlen, "platform property %s = \"%s\": expected 1 or 2 (packet buffers of a forwarding transputer)",
             sim_prop_name(SIM_PROP_FORWARD_BUFFERS), sim_engine_property(sim_prop_name(SIM_PROP_FORWARD_BUFFERS)));
    return SIM_EPLATFORM;
  }
  cluster->forward_buffers = (int)buffers;
  int ack = read_ack(cluster->ack_us, err, errlen);
  if (ack < 0)
    return ack;
  double relay = 0;
  int relay_rc = read_number(SIM_PROP_RELAY_CPU_US, 0, &relay, err, errlen);
  if (relay_rc < 0)
    return relay_rc;
  cluster->relay_cpu_us = relay;
  /* the data byte forward and its acknowledge back both pass the stage: twice the delay per byte's cycle */
  cluster->us_per_byte = 2 * cluster->stage_delay_bits / cluster->link_bits_per_s * 1e6;
  return 0;
}

int sim_cluster_install(sim_cluster_t *cluster, char *err, size_t errlen)
{
  int rc = sim_cluster_read(cluster, err, errlen);
  if (rc != 0 || cluster->us_per_byte == 0)
    return rc;
  return sim_engine_set_route_extra(sim_cluster_extra_time, cluster, sim_prop_name(SIM_PROP_EXTRA_C004_STAGES), err,
                                    errlen);
}

/* Extra C004 stages in the cycle of the packet pipeline's slowest stage (sim_cluster_extra_time). */
static double pacing_stages(const sim_cluster_t *cluster, const double *stages, int hops)
{
  double slowest = stages[0]; /* the sender sends on link 0 */
  if (cluster->forward_buffers == 1)
    for (int j = 1; j < hops; j++) /* forwarder j receives on link j - 1, then sends on link j */
      slowest = fmax(slowest, stages[j - 1] + stages[j]);
  return slowest;
}

double sim_cluster_extra_time(const void *model, double bytes, const double *stages, int hops)
{
  const sim_cluster_t *cluster = model;
  if (hops <= 0)
    return 0;
  double packet = fmin(bytes, cluster->packet_bytes);
  double fill = 0;
  for (int i = 0; i < hops; i++)
    fill += stages[i];
  double ack = cluster->ack_us[0] + cluster->ack_us[1] * hops;
  /* ack added last, so that without one the sum is the same to the last bit as before it existed */
  return 1e-6 * cluster->us_per_byte * (fill * packet + pacing_stages(cluster, stages, hops) * (bytes - packet)) +
         1e-6 * ack;
}

double sim_cluster_relay_cpu(const sim_cluster_t *cluster, double bytes)
{
  if (cluster->relay_cpu_us <= 0 || bytes <= 0)
    return 0;
  return 1e-6 * cluster->relay_cpu_us * ceil(bytes / cluster->packet_bytes);
}
