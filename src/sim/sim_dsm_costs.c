/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The DSM cost model: the simrun:dsm-* root-zone properties (documented in platforms/ncp2-myrinet-8.xml) and each
 * node's memory (simrun:memory-bytes). */
#include "sim_dsm_world.h"
#include "sim_engine.h"
#include "sim_error.h"

#include <simgrid/host.h>
#include <math.h>
#include <stdlib.h>

static const struct {
  const char *name;
  size_t offset;
} dsm_props[] = {
    {"simrun:dsm-page-bytes", offsetof(dsm_costs_t, page_bytes)},
    {"simrun:dsm-word-bytes", offsetof(dsm_costs_t, word_bytes)},
    {"simrun:dsm-header-bytes", offsetof(dsm_costs_t, header_bytes)},
    {"simrun:dsm-notice-bytes", offsetof(dsm_costs_t, notice_bytes)},
    {"simrun:dsm-interrupt-us", offsetof(dsm_costs_t, interrupt_us)},
    {"simrun:dsm-handler-cycles", offsetof(dsm_costs_t, handler_cycles)},
    {"simrun:dsm-fault-cycles", offsetof(dsm_costs_t, fault_cycles)},
    {"simrun:dsm-page-cycles", offsetof(dsm_costs_t, page_cycles)},
    {"simrun:dsm-cp-command-cycles", offsetof(dsm_costs_t, cp_command_cycles)},
    {"simrun:dsm-cp-word-cycles", offsetof(dsm_costs_t, cp_word_cycles)},
    {"simrun:dsm-cp-page-cycles", offsetof(dsm_costs_t, cp_page_cycles)},
    {"simrun:dsm-sw-message-cycles", offsetof(dsm_costs_t, sw_message_cycles)},
    {"simrun:dsm-sw-byte-cycles", offsetof(dsm_costs_t, sw_byte_cycles)},
    {"simrun:dsm-sw-word-cycles", offsetof(dsm_costs_t, sw_word_cycles)},
};

/* Reads one property as a finite number >= 0. */
static int read_cost(dsm_world_t *w, const char *name, double *out)
{
  const char *text = sim_engine_property(name);
  if (!text) {
    sim_dsm_world_fail(w, SIM_EPLATFORM,
                       "the platform has no property %s: DSM skeletons need an NCP2 platform such as "
                       "platforms/ncp2-myrinet-8.xml",
                       name);
    return -1;
  }
  char *end = NULL;
  *out = strtod(text, &end);
  while (end != text && (*end == ' ' || *end == '\t'))
    end++;
  if (end == text || *end != '\0' || !isfinite(*out) || *out < 0) {
    sim_dsm_world_fail(w, SIM_EPLATFORM, "platform property %s = \"%s\": expected a number >= 0", name, text);
    return -1;
  }
  return 0;
}

static int is_power_of_two(double x, double lo, double hi)
{
  if (x < lo || x > hi || x != floor(x))
    return 0;
  long v = (long)x;
  return (v & (v - 1)) == 0;
}

int sim_dsm_read_costs(dsm_world_t *w)
{
  for (size_t i = 0; i < sizeof dsm_props / sizeof dsm_props[0]; i++)
    if (read_cost(w, dsm_props[i].name, (double *)((char *)&w->c + dsm_props[i].offset)) != 0)
      return -1;
  if (!is_power_of_two(w->c.page_bytes, 256, 1 << 20))
    sim_dsm_world_fail(w, SIM_EPLATFORM,
                       "platform property simrun:dsm-page-bytes = %g: expected a power of two from 256 to "
                       "1048576",
                       w->c.page_bytes);
  else if (!is_power_of_two(w->c.word_bytes, 1, 8))
    sim_dsm_world_fail(w, SIM_EPLATFORM, "platform property simrun:dsm-word-bytes = %g: expected 1, 2, 4 or 8",
                       w->c.word_bytes);
  return w->error ? -1 : 0;
}

/* Checks that the shared space fits in a node's memory (the host's simrun:memory-bytes, when it has one). */
void sim_dsm_check_memory(dsm_world_t *w, const_sg_host_t host)
{
  const char *text = sg_host_get_property_value(host, "simrun:memory-bytes");
  char *end = NULL;
  double memory = text ? strtod(text, &end) : INFINITY;
  if (text && (end == text || *end != '\0' || !(memory > 0)))
    sim_dsm_world_fail(w, SIM_EPLATFORM,
                       "host '%s': property simrun:memory-bytes = \"%s\": expected a number of bytes > 0",
                       sg_host_get_name(host), text);
  else if ((double)w->program.shared_bytes > memory)
    sim_dsm_world_fail(w, SIM_EPARAM,
                       "the shared data (%ld bytes) exceed the memory of node '%s' (%.0f bytes, property "
                       "simrun:memory-bytes); choose a smaller problem",
                       w->program.shared_bytes, sg_host_get_name(host), memory);
}
