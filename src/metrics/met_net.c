/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A message alone under SimGrid 3.32's CM02-family network models (CM02, LV08, SMPI): latency x factor + bytes /
 * (min(bandwidth, TCP-gamma / (2 latency)) x factor), as NetworkCm02Model::communicate sets a communication up. */
#include "met_net.h"

#include <stdio.h>

double met_net_factor(const met_net_step_t *steps, int n, double bytes)
{
  double current = 1.0; /* as SMPI's get_latency_factor reads its steps: the last bound below the size */
  for (int i = 0; i < n; i++) {
    if (bytes <= steps[i].bound)
      return current;
    current = steps[i].value;
  }
  return current;
}

int met_net_size_free(const met_net_t *net)
{
  return net->nlat <= 1 && net->nbw <= 1 && (net->nlat == 0 || net->lat[0].bound < 0) &&
         (net->nbw == 0 || net->bw[0].bound < 0);
}

/* Whether no bound of `steps` lies in [lo, hi). */
static int no_bound_within(const met_net_step_t *steps, int n, double lo, double hi)
{
  for (int i = 0; i < n; i++)
    if (steps[i].bound >= lo && steps[i].bound < hi)
      return 0;
  return 1;
}

int met_net_one_step(const met_net_t *net, double lo, double hi)
{
  return no_bound_within(net->lat, net->nlat, lo, hi) && no_bound_within(net->bw, net->nbw, lo, hi);
}

double met_net_rate(const met_net_t *net, double latency, double bandwidth, double bytes)
{
  double rate = bandwidth;
  if (net->tcp_gamma > 0 && latency > 0 && net->tcp_gamma / (2.0 * latency) < rate)
    rate = net->tcp_gamma / (2.0 * latency);
  return rate * met_net_factor(net->bw, net->nbw, bytes);
}

double met_net_time(const met_net_t *net, double latency, double bandwidth, double bytes)
{
  return latency * met_net_factor(net->lat, net->nlat, bytes) + bytes / met_net_rate(net, latency, bandwidth, bytes);
}

/* Moves *used past the k characters snprintf wrote into a buffer of len, or to its end when they did not fit. */
static void advance(size_t *used, int k, size_t len)
{
  *used = k < 0 || (size_t)k >= len - *used ? len - 1 : *used + (size_t)k;
}

/* "x 13.01" for one step below every size, else SMPI's "by size bound:value;..." form, into out at *used. */
static void describe_steps(const met_net_step_t *steps, int n, char *out, size_t len, size_t *used)
{
  if (n == 0 || (n == 1 && steps[0].bound < 0)) {
    advance(used, snprintf(out + *used, len - *used, "x %.6g", n ? steps[0].value : 1.0), len);
    return;
  }
  advance(used, snprintf(out + *used, len - *used, "by size (above bytes:factor)"), len);
  for (int i = 0; i < n; i++)
    advance(used, snprintf(out + *used, len - *used, "%s%.0f:%.6g", i ? ";" : " ", steps[i].bound, steps[i].value),
            len);
}

void met_net_describe(const met_net_t *net, char *out, size_t len)
{
  if (len == 0)
    return;
  if (!net->model[0]) {
    snprintf(out, len, "the links' own latency and bandwidth (no network model read)");
    return;
  }
  if (!net->priced) {
    snprintf(out, len, "%s: the models print \"-\": %s", net->model, net->reason);
    return;
  }
  size_t used = 0;
  advance(&used, snprintf(out, len, "%s: latency ", net->model), len);
  describe_steps(net->lat, net->nlat, out, len, &used);
  advance(&used, snprintf(out + used, len - used, ", bandwidth "), len);
  describe_steps(net->bw, net->nbw, out, len, &used);
  if (net->tcp_gamma > 0)
    advance(&used,
            snprintf(out + used, len - used, ", rate at most TCP-gamma %.0f B / (2 x route latency)", net->tcp_gamma),
            len);
  else
    advance(&used, snprintf(out + used, len - used, ", no TCP-gamma bound"), len);
  snprintf(out + used, len - used, "%s",
           net->crosstraffic ? ", cross-traffic on (5% of a message's rate on its reverse route)"
                             : ", cross-traffic off");
}
