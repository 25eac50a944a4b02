/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A generated platform's topology and parameters: kind and size parsed, speed, bandwidth and latency checked against
 * SimGrid's units and taken from the preset where not given, and the counts of hosts and switches (plt_topo_param.h).
 */
#include "plt_topo_param.h"
#include "sim_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const plt_topo_names[] = {"mesh", "torus", "hypercube", "switch", "fattree", "dragonfly", NULL};

int plt_topo_parse_kind(const char *name, plt_topo_kind_t *kind, char *err, size_t errlen)
{
  for (int k = 0; k < PLT_TOPO_COUNT; k++)
    if (strcmp(name, plt_topo_names[k]) == 0) {
      *kind = (plt_topo_kind_t)k;
      return 0;
    }
  snprintf(err, errlen, "unknown topology '%s'; choose one of: mesh, torus, hypercube, switch, fattree, dragonfly",
           name);
  return SIM_EINVAL;
}

/* A count beyond any bound: what the size parsers return for a size that is malformed or too large. */
#define TOO_MANY (PLT_TOPO_MAX_NATIVE_HOSTS + 1L)

/* A whole number from 1 to PLT_TOPO_MAX_NATIVE_HOSTS at *text, up to `stop` (or the end); advances *text past it. -1
 * when there is none. */
static long whole(const char **text, char stop)
{
  long value = 0;
  const char *c = *text;
  for (; *c >= '0' && *c <= '9' && value <= PLT_TOPO_MAX_NATIVE_HOSTS; c++)
    value = 10 * value + (*c - '0');
  if (c == *text || *c != stop || value < 1 || value > PLT_TOPO_MAX_NATIVE_HOSTS)
    return -1;
  *text = *c ? c + 1 : c;
  return value;
}

/* base^exp, or TOO_MANY when larger than PLT_TOPO_MAX_NATIVE_HOSTS. */
static long power(long base, long exp)
{
  long result = 1;
  for (long i = 0; i < exp && result <= PLT_TOPO_MAX_NATIVE_HOSTS; i++)
    result *= base;
  return result <= PLT_TOPO_MAX_NATIVE_HOSTS ? result : TOO_MANY;
}

/* The four whole numbers of a dragonfly's "G:C:R:N" into size[]; its host count, or TOO_MANY when a number is
 * missing, out of range, or G > R. */
static long dragonfly_size(const char *text, int size[4])
{
  const char *c = text;
  long hosts = 1;
  for (int i = 0; i < 4; i++) {
    long v = whole(&c, i < 3 ? ':' : '\0');
    if (v < 0)
      return TOO_MANY;
    size[i] = (int)v;
    hosts = hosts * v > PLT_TOPO_MAX_NATIVE_HOSTS ? TOO_MANY : hosts * v;
  }
  return size[0] > size[2] ? TOO_MANY : hosts;
}

/* The one or two whole numbers of every other kind's size into size[]: "ROWSxCOLS", "D", "N" or "K:L"; its host
 * count, or TOO_MANY when a number is missing or out of range, or a fat tree's K is 1. */
static long simple_size(plt_topo_kind_t kind, const char *text, int size[4])
{
  const char *c = text;
  long a = whole(&c, kind == PLT_TOPO_MESH || kind == PLT_TOPO_TORUS ? 'x' : kind == PLT_TOPO_FATTREE ? ':' : '\0');
  long b = kind == PLT_TOPO_MESH || kind == PLT_TOPO_TORUS || kind == PLT_TOPO_FATTREE ? whole(&c, '\0') : 1;
  long hosts = kind == PLT_TOPO_HYPERCUBE ? power(2, a) : kind == PLT_TOPO_FATTREE ? power(a, b) : a * b;
  /* a torus of one host would wrap its links onto that host: a 1x1 torus is no machine */
  if (a <= 0 || b <= 0 || (kind == PLT_TOPO_FATTREE && a < 2) || (kind == PLT_TOPO_TORUS && hosts < 2))
    return TOO_MANY;
  size[0] = (int)a;
  size[1] = (int)b;
  return hosts;
}

int plt_topo_parse_size(plt_topo_kind_t kind, const char *text, int size[4], char *err, size_t errlen)
{
  static const char *const forms[] = {
      "ROWSxCOLS, such as 16x8",
      "ROWSxCOLS of at least 2 hosts (a 1x1 torus would wrap onto its one host), such as 16x8",
      "a dimension D from 1 to 12 (2^D hosts), such as 7",
      "a host count N, such as 32",
      "K:L, a K-ary tree of L levels (K^L hosts, K >= 2), such as 4:3",
      "G:C:R:N, G groups of C chassis of R routers of N hosts (G*C*R*N hosts, G <= R), such as 4:2:4:2"};
  int parsed[4] = {0, 0, 0, 0};
  long hosts = kind == PLT_TOPO_DRAGONFLY ? dragonfly_size(text, parsed) : simple_size(kind, text, parsed);
  long most = plt_topo_has_native(kind) ? PLT_TOPO_MAX_NATIVE_HOSTS : PLT_TOPO_MAX_HOSTS;
  if (hosts > most) {
    snprintf(err, errlen, "%s size '%s': expected %s, with at most %ld hosts%s", plt_topo_names[kind], text,
             forms[kind], most, most > PLT_TOPO_MAX_HOSTS ? " (--routing native; explicit routing: 4096)" : "");
    return SIM_EINVAL;
  }
  memcpy(size, parsed, sizeof parsed);
  return 0;
}

/* Whether `text` is a number >= 0 (> 0 unless zero_ok) followed by exactly one of `units`; the number in *value. */
static int valued(const char *text, const char *const *units, int zero_ok, double *value, const char **unit)
{
  char *end = NULL;
  if (!((*text >= '0' && *text <= '9') || *text == '.'))
    return 0;
  *value = strtod(text, &end);
  if (end == text || !isfinite(*value) || (*value == 0 && !zero_ok))
    return 0;
  for (size_t i = 0; units[i]; i++)
    if (strcmp(end, units[i]) == 0) {
      *unit = units[i];
      return 1;
    }
  return 0;
}

static const char *const speed_units[] = {"f", "kf", "Mf", "Gf", "Tf", NULL};
/* SimGrid's bandwidth units (xbt/parse_units.cpp): bytes or bits per second, SI or IEC prefixes */
static const char *const bandwidth_units[] = {"Bps",   "kBps",  "MBps",  "GBps",  "TBps", "KiBps", "MiBps",
                                              "GiBps", "TiBps", "bps",   "kbps",  "Mbps", "Gbps",  "Tbps",
                                              "Kibps", "Mibps", "Gibps", "Tibps", NULL};
static const char *const latency_units[] = {"s", "ms", "us", "ns", NULL};

/* Checks parameter `name` = `text` against its units; 0 or SIM_EINVAL with a message. */
static int check_param(const char *name, const char *text, const char *const *units, int zero_ok, const char *example,
                       char *err, size_t errlen)
{
  double value;
  const char *unit;
  if (valued(text, units, zero_ok, &value, &unit))
    return 0;
  char list[256] = "";
  for (size_t i = 0; units[i]; i++)
    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? " " : "", units[i]);
  snprintf(err, errlen, "--%s '%s': expected a %s number with one of the units %s, such as %s", name, text,
           zero_ok ? "non-negative" : "positive", list, example);
  return SIM_EINVAL;
}

int plt_topo_resolve(plt_topo_t *topo, char *err, size_t errlen)
{
  const plt_topo_preset_t *preset = topo->preset;
  topo->speed = topo->speed ? topo->speed : preset ? preset->speed : NULL;
  topo->bandwidth = topo->bandwidth ? topo->bandwidth : preset ? preset->bandwidth : NULL;
  topo->latency = topo->latency ? topo->latency : preset ? preset->latency : NULL;
  if (!topo->speed || !topo->bandwidth || !topo->latency) {
    snprintf(err, errlen, "without --preset, give --speed, --bandwidth and --latency (presets: %s)",
             plt_topo_preset_names());
    return SIM_EINVAL;
  }
  int rc = check_param("speed", topo->speed, speed_units, 0, "25Mf", err, errlen);
  rc = rc ? rc : check_param("bandwidth", topo->bandwidth, bandwidth_units, 0, "125MBps", err, errlen);
  if (rc == 0 && !topo->native && plt_topo_hosts(topo) > PLT_TOPO_MAX_HOSTS) {
    snprintf(err, errlen,
             "%s of %zu hosts with explicit routing: every link and route would be listed, which SimGrid loads for at "
             "most %d hosts; give --routing native (up to %d hosts, routed by arithmetic)",
             plt_topo_names[topo->kind], plt_topo_hosts(topo), PLT_TOPO_MAX_HOSTS, PLT_TOPO_MAX_NATIVE_HOSTS);
    return SIM_EINVAL;
  }
  if (rc == 0 && topo->native && !plt_topo_has_native(topo->kind)) {
    snprintf(err, errlen,
             "--routing native: %s routes are explicit only; native routing is for mesh, torus and fattree",
             plt_topo_names[topo->kind]);
    return SIM_EINVAL;
  }
  if (rc == 0 && topo->kind == PLT_TOPO_DRAGONFLY && preset && preset->cluster_props) {
    snprintf(err, errlen,
             "dragonfly with --preset %s: the crossbar stages between its clusters are properties of explicit links, "
             "which SimGrid's dragonfly zone does not have; use --preset %s-flat",
             preset->name, preset->name);
    return SIM_EINVAL;
  }
  if (rc == 0 && topo->native && preset && preset->cluster_props) {
    snprintf(err, errlen,
             "--routing native with --preset %s: the crossbar stages between its clusters are properties of the "
             "explicit links, which a native zone does not have; use --preset %s-flat or explicit routing",
             preset->name, preset->name);
    return SIM_EINVAL;
  }
  return rc ? rc : check_param("latency", topo->latency, latency_units, 1, "50us", err, errlen);
}

size_t plt_topo_fat_switches(const plt_topo_t *topo, int m)
{
  return (size_t)power(topo->size[0], topo->size[1] - m);
}

void plt_topo_link_bandwidth(const plt_topo_t *topo, double fat, char *text, size_t len)
{
  if (fat == 1) {
    snprintf(text, len, "%s", topo->bandwidth);
    return;
  }
  double base = 0;
  const char *unit = NULL;
  valued(topo->bandwidth, bandwidth_units, 0, &base, &unit);
  snprintf(text, len, "%.10g%s", base * fat, unit);
}

size_t plt_topo_hosts(const plt_topo_t *topo)
{
  switch (topo->kind) {
  case PLT_TOPO_HYPERCUBE:
    return (size_t)1 << topo->size[0];
  case PLT_TOPO_FATTREE:
    return (size_t)power(topo->size[0], topo->size[1]);
  case PLT_TOPO_DRAGONFLY:
    return (size_t)topo->size[0] * (size_t)topo->size[1] * (size_t)topo->size[2] * (size_t)topo->size[3];
  default:
    return (size_t)topo->size[0] * (size_t)topo->size[1];
  }
}

size_t plt_topo_dragonfly_links(const plt_topo_t *topo)
{
  size_t g = (size_t)topo->size[0], c = (size_t)topo->size[1], r = (size_t)topo->size[2];
  return plt_topo_hosts(topo) + g * c * r * (r - 1) / 2 + g * r * c * (c - 1) / 2 + g * (g - 1) / 2;
}

int plt_topo_has_native(plt_topo_kind_t kind)
{
  return kind == PLT_TOPO_MESH || kind == PLT_TOPO_TORUS || kind == PLT_TOPO_FATTREE;
}
