/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reads the platform's machine model (seed 001 eqs. 3-6) from root-zone properties and evaluates it; reads each host's
 * characterisation (eqs. 1-2) from its own properties or its zones'. */
#include "sim_machine.h"
#include "sim_engine.h"
#include "sim_error.h"
#include "sim_grid.h"
#include "sim_map.h"
#include "sim_prop.h"
#include "sim_routes.h"

#include <math.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses exactly `count` numbers from property `name` into out; an absent property leaves out unchanged. */
static int read_numbers(const char *name, double *out, int count, char *err, size_t errlen)
{
  const char *text = sim_engine_property(name);
  if (!text)
    return 0;
  const char *cursor = text;
  if (text[strspn(text, "0123456789.+-eE \t")] != '\0') /* strtod takes hexadecimal, inf and nan too */
    goto malformed;
  for (int i = 0; i < count; i++) {
    char *end = NULL;
    out[i] = strtod(cursor, &end);
    if (end == cursor)
      goto malformed;
    cursor = end;
  }
  while (*cursor == ' ' || *cursor == '\t')
    cursor++;
  if (*cursor == '\0')
    return 0;
malformed:
  snprintf(err, errlen, "platform property %s = \"%s\": expected %d decimal number%s; write %s as digits, such as 12.5",
           name, text, count, count > 1 ? "s" : "", count > 1 ? "them, separated by spaces," : "it");
  return SIM_EPLATFORM;
}

/* simrun:eager-bytes: a finite number of bytes, at least 0 (docs/machines.md). */
static int read_eager_bytes(sim_machine_t *machine, char *err, size_t errlen)
{
  int rc = read_numbers(sim_prop_name(SIM_PROP_EAGER_BYTES), &machine->eager_bytes, 1, err, errlen);
  if (rc != 0 || (isfinite(machine->eager_bytes) && machine->eager_bytes >= 0))
    return rc;
  snprintf(err, errlen,
           "platform property %s = \"%s\": expected a finite number of bytes >= 0 (the message library's eager "
           "limit); fix the value",
           sim_prop_name(SIM_PROP_EAGER_BYTES), sim_engine_property(sim_prop_name(SIM_PROP_EAGER_BYTES)));
  return SIM_EPLATFORM;
}

/* simrun:eager-start: "send" or "receive" (docs/machines.md); the value is checked against the table's words. */
static int read_eager_start(sim_machine_t *machine, char *err, size_t errlen)
{
  const char *text = sim_engine_property(sim_prop_name(SIM_PROP_EAGER_START));
  machine->eager_at_send = text && strcmp(text, "send") == 0;
  if (!text || machine->eager_at_send || strcmp(text, "receive") == 0)
    return 0;
  snprintf(err, errlen, "platform property %s = \"%s\": expected %s; fix the value",
           sim_prop_name(SIM_PROP_EAGER_START), text, sim_prop_row(SIM_PROP_EAGER_START)->words);
  return SIM_EPLATFORM;
}

/* simrun:link-init-by-p: up to SIM_LINK_INIT_POINTS pairs "p seconds", p a whole number >= 1 given once, seconds
 * finite and >= 0 (docs/t800.md, "What Table 5's T_cni counts"). */
static int read_link_init_by_p(sim_machine_t *machine, char *err, size_t errlen)
{
  const char *text = sim_engine_property(sim_prop_name(SIM_PROP_LINK_INIT_BY_P));
  if (!text)
    return 0;
  const char *cursor = text;
  int count = 0;
  for (;;) {
    char *end = NULL;
    double value = strtod(cursor, &end);
    if (end == cursor)
      break;
    int is_p = count % 2 == 0;
    if (count == 2 * SIM_LINK_INIT_POINTS || !isfinite(value) || value < 0 ||
        (is_p && (value < 1 || value != floor(value) || value > 1e9)))
      goto malformed;
    for (int i = 0; is_p && i < count; i += 2)
      if (machine->link_init_by_p[i] == value)
        goto malformed;
    machine->link_init_by_p[count++] = value;
    cursor = end;
  }
  while (*cursor == ' ' || *cursor == '\t')
    cursor++;
  if (*cursor == '\0' && count > 0 && count % 2 == 0) {
    machine->link_init_points = count / 2;
    return 0;
  }
malformed:
  snprintf(err, errlen,
           "platform property %s = \"%s\": expected pairs \"p seconds\" (at most %d; each p a whole number >= 1 "
           "given once, each time >= 0), e.g. \"2 0.001 4 0.004\"",
           sim_prop_name(SIM_PROP_LINK_INIT_BY_P), text, SIM_LINK_INIT_POINTS);
  return SIM_EPLATFORM;
}

int sim_machine_link_init_time(const sim_machine_t *machine, int nranks, int links, double *seconds, char *err,
                               size_t errlen)
{
  *seconds = 1e-6 * machine->link_init_us * links;
  if (machine->link_init_points == 0)
    return 0;
  for (int i = 0; i < machine->link_init_points; i++)
    if (machine->link_init_by_p[2 * i] == nranks) {
      *seconds = machine->link_init_by_p[2 * i + 1];
      return 0;
    }
  snprintf(err, errlen,
           "platform property %s gives no link initialisation time for p = %d; add the pair \"%d <seconds>\" or run "
           "one of the p it lists",
           sim_prop_name(SIM_PROP_LINK_INIT_BY_P), nranks, nranks);
  return SIM_EPLATFORM;
}

/* The piecewise model of properties packet, small, large (eq. 4: p_s, then alpha, beta, gamma, delta twice) into msg;
 * the caller has checked that all three are there. */
static int read_piecewise(const sim_prop_id_t ids[3], met_piecewise_t *msg, char *err, size_t errlen)
{
  int rc = read_numbers(sim_prop_name(ids[0]), &msg->packet_bytes, 1, err, errlen);
  rc = rc ? rc : read_numbers(sim_prop_name(ids[1]), msg->small, 4, err, errlen);
  return rc ? rc : read_numbers(sim_prop_name(ids[2]), msg->large, 4, err, errlen);
}

/* simrun:internode-*: all three or none (docs/machines.md). */
static int read_internode(sim_machine_t *machine, char *err, size_t errlen)
{
  static const sim_prop_id_t ids[3] = {SIM_PROP_INTERNODE_PACKET_BYTES, SIM_PROP_INTERNODE_SMALL_US,
                                       SIM_PROP_INTERNODE_LARGE_US};
  int given = 0;
  for (int i = 0; i < 3; i++)
    given += sim_engine_property(sim_prop_name(ids[i])) != NULL;
  if (given == 0)
    return 0;
  if (given == 3) {
    machine->internode = 1;
    return read_piecewise(ids, &machine->internode_msg, err, errlen);
  }
  snprintf(err, errlen,
           "the message model between nodes needs %s, %s and %s together; add what is missing or remove them",
           sim_prop_name(ids[0]), sim_prop_name(ids[1]), sim_prop_name(ids[2]));
  return SIM_EPLATFORM;
}

int sim_machine_read(sim_machine_t *machine, char *err, size_t errlen)
{
  static const sim_prop_id_t comm[3] = {SIM_PROP_COMM_PACKET_BYTES, SIM_PROP_COMM_SMALL_US, SIM_PROP_COMM_LARGE_US};
  memset(machine, 0, sizeof *machine);
  const char *model = sim_engine_property(sim_prop_name(SIM_PROP_COMM_MODEL));
  if (model && strcmp(model, sim_prop_row(SIM_PROP_COMM_MODEL)->words) != 0) {
    snprintf(err, errlen, "platform property %s = \"%s\": the only model is \"%s\"; write that or remove the property",
             sim_prop_name(SIM_PROP_COMM_MODEL), model, sim_prop_row(SIM_PROP_COMM_MODEL)->words);
    return SIM_EPLATFORM;
  }
  int rc = 0;
  if (model) {
    machine->piecewise = 1;
    if (!sim_engine_property(sim_prop_name(SIM_PROP_COMM_SMALL_US)) ||
        !sim_engine_property(sim_prop_name(SIM_PROP_COMM_LARGE_US)) ||
        !sim_engine_property(sim_prop_name(SIM_PROP_COMM_PACKET_BYTES))) {
      snprintf(err, errlen, "the piecewise comm model needs %s, %s and %s", sim_prop_name(SIM_PROP_COMM_PACKET_BYTES),
               sim_prop_name(SIM_PROP_COMM_SMALL_US), sim_prop_name(SIM_PROP_COMM_LARGE_US));
      return SIM_EPLATFORM;
    }
    rc = read_piecewise(comm, &machine->msg, err, errlen);
  }
  rc = rc ? rc : read_internode(machine, err, errlen);
  rc = rc ? rc : read_numbers(sim_prop_name(SIM_PROP_LINK_INIT_US), &machine->link_init_us, 1, err, errlen);
  rc = rc ? rc : read_link_init_by_p(machine, err, errlen);
  rc = rc ? rc : read_numbers(sim_prop_name(SIM_PROP_IO_INPUT_US), machine->input_us, 2, err, errlen);
  rc = rc ? rc : read_numbers(sim_prop_name(SIM_PROP_IO_OUTPUT_US), machine->output_us, 2, err, errlen);
  rc = rc ? rc : read_numbers(sim_prop_name(SIM_PROP_PAGE_FAULT_US), &machine->page_fault_us, 1, err, errlen);
  rc = rc ? rc : read_numbers(sim_prop_name(SIM_PROP_FIRST_CALL_US), &machine->first_call_us, 1, err, errlen);
  rc = rc ? rc : read_eager_start(machine, err, errlen);
  return rc ? rc : read_eager_bytes(machine, err, errlen);
}

/* The node of a host: its simrun:node (checked by sim_check_props: a whole number), or -1, a node of its own. */
static long node_of(const_sg_host_t host)
{
  const char *text = sg_host_get_property_value(host, sim_prop_name(SIM_PROP_NODE));
  return text ? strtol(text, NULL, 10) : -1;
}

/* Whether a message from src to dst takes the model between nodes: the platform has one and they are two nodes. */
static int apart(const sim_machine_t *machine, const_sg_host_t src, const_sg_host_t dst)
{
  return machine->internode && src != dst && (node_of(src) < 0 || node_of(src) != node_of(dst));
}

double sim_machine_msg_time(const void *model, double bytes, int hops, const_sg_host_t src, const_sg_host_t dst)
{
  const sim_machine_t *machine = model;
  int between = apart(machine, src, dst);
  if (!between && !machine->piecewise)
    return NAN; /* inside a node without simrun:comm-model: the links' own time */
  return met_piecewise_time(between ? &machine->internode_msg : &machine->msg, bytes, hops);
}

double sim_machine_io_time(const sim_machine_t *machine, sim_io_dir_t dir, double bytes)
{
  return met_io_time(dir == SIM_INPUT ? machine->input_us : machine->output_us, bytes);
}

/* One characterisation property of `host` into *out (left alone when absent; *given says whether it was there): a
 * finite number, at least the row's lo (strictly above it when the row says so: sim_prop_table.h). */
static int read_charac_value(const_sg_host_t host, const char *platform, sim_prop_id_t id, double *out, int *given,
                             char *err, size_t errlen)
{
  const char *name = sim_prop_name(id);
  double min = sim_prop_row(id)->lo;
  int strict = sim_prop_row(id)->open;
  const char *owner = NULL;
  const char *text = sim_engine_host_property(host, name, &owner);
  *given = text != NULL;
  if (!text)
    return 0;
  char *end = NULL;
  double value = strtod(text, &end);
  while (end && (*end == ' ' || *end == '\t'))
    end++;
  int decimal = text[strspn(text, "0123456789.+-eE \t")] == '\0';
  if (end != text && *end == '\0' && decimal && isfinite(value) && (strict ? value > min : value >= min)) {
    *out = value;
    return 0;
  }
  snprintf(err, errlen,
           "%s:%d: property %s = \"%s\" (for host %s, set on %s): expected a finite decimal number %s %g; fix "
           "the value",
           platform, sim_prop_line(platform, name, text), name, text, sg_host_get_name(host), owner,
           strict ? ">" : ">=", min);
  return SIM_EPLATFORM;
}

/* The property of each operation class (met_class_t), in its order. */
static const sim_prop_id_t cycles_props[MET_CLASS_COUNT] = {SIM_PROP_CYCLES_CPU, SIM_PROP_CYCLES_FLOP,
                                                            SIM_PROP_CYCLES_INTMEM, SIM_PROP_CYCLES_EXTMEM};

/* The four simrun:cycles-<class>, all or none; *given counts those present. */
static int read_cycles(const_sg_host_t host, const char *platform, met_charac_t *c, int *given, char *err,
                       size_t errlen)
{
  *given = 0;
  const char *missing = NULL;
  for (int i = 0; i < MET_CLASS_COUNT; i++) {
    int here = 0;
    int rc = read_charac_value(host, platform, cycles_props[i], &c->cycles[i], &here, err, errlen);
    if (rc != 0)
      return rc;
    *given += here;
    missing = here ? missing : sim_prop_name(cycles_props[i]);
  }
  if (*given == 0 || *given == MET_CLASS_COUNT)
    return 0;
  snprintf(err, errlen,
           "%s: host %s has some simrun:cycles-* properties but not %s: a characterisation "
           "gives all four (cpu, flop, intmem, extmem; docs/machines.md); add it",
           platform, sg_host_get_name(host), missing);
  return SIM_EPLATFORM;
}

/* The optional cache level: simrun:cache-bytes and simrun:cycles-cache, both or neither. */
static int read_cache(const_sg_host_t host, const char *platform, met_charac_t *c, char *err, size_t errlen)
{
  int size_given = 0;
  int cycles_given = 0;
  int rc = read_charac_value(host, platform, SIM_PROP_CACHE_BYTES, &c->cache_bytes, &size_given, err, errlen);
  rc = rc ? rc : read_charac_value(host, platform, SIM_PROP_CYCLES_CACHE, &c->cache_cycles, &cycles_given, err, errlen);
  if (rc != 0 || size_given == cycles_given)
    return rc;
  snprintf(err, errlen, "%s: host %s has %s but not %s: a cache level gives its size and its hit cost; add it",
           platform, sg_host_get_name(host), sim_prop_name(size_given ? SIM_PROP_CACHE_BYTES : SIM_PROP_CYCLES_CACHE),
           sim_prop_name(size_given ? SIM_PROP_CYCLES_CACHE : SIM_PROP_CACHE_BYTES));
  return SIM_EPLATFORM;
}

/* Where host's characterisation `c` came from, into origin (when originlen > 0). */
static void write_origin(const_sg_host_t host, const char *platform, const met_charac_t *c, char *origin,
                         size_t originlen)
{
  if (originlen == 0)
    return;
  const char *owner = sg_host_get_name(host);
  if (!c->derived) {
    sim_engine_host_property(host, sim_prop_name(SIM_PROP_CYCLES_FLOP), &owner);
    snprintf(origin, originlen, "simrun:cycles-* of %s in %s", owner, platform);
  } else
    snprintf(origin, originlen,
             "default: no simrun:cycles-* for host %s in %s, so a CPU or floating-point operation "
             "takes 1 / %s's speed (%g op/s) and memory accesses are free",
             owner, platform, owner, c->clock_hz);
}

/* The characterisation of the last host read in a native zone (sim_grid.h): simrun builds every host of such a zone
 * with the zone's properties and speed, so each has the characterisation of the first one read (at the speed it had
 * then), and a run of p ranks need not parse p times the same eight properties (about 18,000 instructions a host,
 * in the probe, the models' description and the run). */
typedef struct native_charac {
  const void *zone;
  double speed;
  met_charac_t charac;
} native_charac_t;
static native_charac_t native_charac;

int sim_machine_charac(const_sg_host_t host, const char *platform, met_charac_t *charac, char *origin, size_t originlen,
                       char *err, size_t errlen)
{
  double memory = 0;
  double clock = sg_host_get_speed(host);
  const void *zone = sim_grid_native_zone(host);
  if (zone && zone == native_charac.zone && clock == native_charac.speed) {
    *charac = native_charac.charac;
    write_origin(host, platform, charac, origin, originlen);
    return 0;
  }
  int given = 0;
  int clock_given = 0;
  int rc = read_charac_value(host, platform, SIM_PROP_MEMORY_BYTES, &memory, &given, err, errlen);
  rc = rc ? rc : read_charac_value(host, platform, SIM_PROP_CLOCK_HZ, &clock, &clock_given, err, errlen);
  *charac = met_charac_default(clock, memory);
  rc = rc ? rc : read_cycles(host, platform, charac, &given, err, errlen);
  rc = rc ? rc : read_cache(host, platform, charac, err, errlen);
  if (rc != 0)
    return rc;
  if (given)
    charac->derived = 0;
  if (zone)
    native_charac = (native_charac_t){.zone = zone, .speed = sg_host_get_speed(host), .charac = *charac};
  write_origin(host, platform, charac, origin, originlen);
  return 0;
}

/* Counts rank i's host's characterisation c among m's kinds of host (a new one past the last kept counts too). */
static void add_kind(met_platform_t *m, const met_charac_t *c, int rank, const char *host)
{
  int kept = m->nkinds < MET_PLATFORM_MAX_KINDS ? m->nkinds : MET_PLATFORM_MAX_KINDS;
  int k = 0;
  while (k < kept && !met_charac_equal(&m->kinds[k].charac, c))
    k++;
  if (rank < MET_PLATFORM_PAIR_RANKS)
    m->rank_kind[rank] = (unsigned char)k;
  if (k < kept) {
    if (m->kinds[k].ranks++ == 1)
      m->kinds[k].second_rank = rank;
    return;
  }
  if (m->nkinds < MET_PLATFORM_MAX_KINDS) {
    met_host_kind_t *kind = &m->kinds[m->nkinds];
    *kind = (met_host_kind_t){.charac = *c, .first_rank = rank, .second_rank = -1, .ranks = 1};
    snprintf(kind->host, sizeof kind->host, "%s", host);
  }
  m->nkinds++;
}

/* Fills what the models need of the first m->p ranks' hosts, once the platform is loaded and the machine read. */
static int describe_ranks(const char *platform, const sg_host_t *hosts, met_platform_t *m, char *err, size_t errlen)
{
  m->uniform = 1;
  char origin[sizeof m->origin];
  char figures[sizeof m->origin];
  int rc = sim_machine_charac(hosts[0], platform, &m->charac, origin, sizeof origin, err, errlen);
  met_charac_describe(&m->charac, figures, sizeof figures);
  snprintf(m->origin, sizeof m->origin, "%.200s: %.300s", figures, origin);
  for (int i = 0; rc == 0 && i < m->p; i++) {
    met_charac_t c;
    rc = sim_machine_charac(hosts[i], platform, &c, NULL, 0, err, errlen);
    m->uniform = m->uniform && met_charac_equal(&c, &m->charac);
    add_kind(m, &c, i, sg_host_get_name(hosts[i]));
    if (i < MET_PLATFORM_MAX_RANKS)
      m->hops[i] = sim_engine_hops(hosts[0], hosts[i]);
  }
  if (rc == 0 && m->p > 1)
    sim_engine_route(hosts[0], hosts[1], &m->latency, &m->bandwidth);
  int pairs = m->p < MET_PLATFORM_PAIR_RANKS ? m->p : MET_PLATFORM_PAIR_RANKS;
  for (int i = 0; rc == 0 && i < pairs; i++)
    for (int j = 0; j < pairs; j++) {
      m->pair_hops[i][j] = sim_engine_hops(hosts[i], hosts[j]);
      sim_engine_route(hosts[i], hosts[j], &m->pair_latency[i][j], &m->pair_bandwidth[i][j]);
    }
  if (rc == 0 && m->p <= MET_PLATFORM_PAIR_RANKS) {
    int whole;
    rc = sim_routes_ports(hosts, m->p, MET_PLATFORM_PAIR_RANKS, MET_PLATFORM_ROUTE_LINKS, &m->pair_route[0][0][0],
                          &m->pair_route_hops[0][0], &whole);
    m->port_links = rc < 0 ? 0 : whole ? rc : -1;
    rc = rc < 0 ? rc : 0;
  }
  for (int rows = 1; rc == 0 && m->p <= MET_PLATFORM_PAIR_RANKS && rows <= m->p; rows++) {
    int shared = m->p % rows == 0 ? sim_routes_grid_shared(hosts, rows, m->p / rows, m->grid_rounds[rows]) : 0;
    rc = shared < 0 ? shared : 0;
    m->grid_shared[rows] = shared == 1;
  }
  if (rc == 0 && m->p <= MET_PLATFORM_PAIR_RANKS) {
    int shared = sim_routes_relay_shared(hosts, m->p);
    rc = shared < 0 ? shared : 0;
    m->relay_shared = shared == 1;
  }
  return rc ? rc : sim_routes_describe(hosts, m->p, &m->one_to_all, &m->neighbour, &m->from_rank0);
}

int sim_machine_describe(const char *platform, int nranks, met_platform_t *m, char *err, size_t errlen)
{
  sim_machine_t machine;
  memset(m, 0, sizeof *m);
  m->p = nranks;
  int rc = sim_machine_read(&machine, err, errlen);
  if (rc != 0)
    return rc;
  m->piecewise = machine.piecewise;
  m->msg = machine.msg;
  sim_engine_net(&m->net);
  m->link_init_us = machine.link_init_us;
  m->eager_bytes = machine.eager_bytes;
  m->eager_at_send = machine.eager_at_send;
  memcpy(m->input_us, machine.input_us, sizeof m->input_us);
  memcpy(m->output_us, machine.output_us, sizeof m->output_us);
  m->has_io = sim_engine_property(sim_prop_name(SIM_PROP_IO_INPUT_US)) ||
              sim_engine_property(sim_prop_name(SIM_PROP_IO_OUTPUT_US));
  sg_host_t *hosts = calloc((size_t)nranks, sizeof *hosts);
  if (!hosts)
    return SIM_ENOMEM;
  rc = sim_map_ranks(nranks, hosts, err, errlen);
  if (rc == 0 && nranks > 1 && apart(&machine, hosts[0], hosts[1])) {
    m->msg = machine.internode_msg; /* ranks 0 and 1 on two nodes: the models take the message model between them */
    m->piecewise = 1;
  }
  rc = rc ? rc : describe_ranks(platform, hosts, m, err, errlen);
  free(hosts);
  return rc;
}
