/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The DSM cost model: the simrun:dsm-* root-zone properties (documented in platforms/ncp2-myrinet-8.xml) and each
 * node's memory (simrun:memory-bytes). */
#include "sim_dsm_world.h"
#include "sim_engine.h"
#include "sim_error.h"
#include "sim_prop.h"

#include <simgrid/host.h>
#include <math.h>
#include <stdlib.h>

static const struct {
  sim_prop_id_t id;
  size_t offset;
} dsm_props[] = {
    {SIM_PROP_DSM_PAGE_BYTES, offsetof(dsm_costs_t, page_bytes)},
    {SIM_PROP_DSM_WORD_BYTES, offsetof(dsm_costs_t, word_bytes)},
    {SIM_PROP_DSM_HEADER_BYTES, offsetof(dsm_costs_t, header_bytes)},
    {SIM_PROP_DSM_NOTICE_BYTES, offsetof(dsm_costs_t, notice_bytes)},
    {SIM_PROP_DSM_INTERRUPT_US, offsetof(dsm_costs_t, interrupt_us)},
    {SIM_PROP_DSM_HANDLER_CYCLES, offsetof(dsm_costs_t, handler_cycles)},
    {SIM_PROP_DSM_FAULT_CYCLES, offsetof(dsm_costs_t, fault_cycles)},
    {SIM_PROP_DSM_PAGE_CYCLES, offsetof(dsm_costs_t, page_cycles)},
    {SIM_PROP_DSM_CP_COMMAND_CYCLES, offsetof(dsm_costs_t, cp_command_cycles)},
    {SIM_PROP_DSM_CP_WORD_CYCLES, offsetof(dsm_costs_t, cp_word_cycles)},
    {SIM_PROP_DSM_CP_PAGE_CYCLES, offsetof(dsm_costs_t, cp_page_cycles)},
    {SIM_PROP_DSM_SW_MESSAGE_CYCLES, offsetof(dsm_costs_t, sw_message_cycles)},
    {SIM_PROP_DSM_SW_BYTE_CYCLES, offsetof(dsm_costs_t, sw_byte_cycles)},
    {SIM_PROP_DSM_SW_WORD_CYCLES, offsetof(dsm_costs_t, sw_word_cycles)},
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
    if (read_cost(w, sim_prop_name(dsm_props[i].id), (double *)((char *)&w->c + dsm_props[i].offset)) != 0)
      return SIM_EPLATFORM;
  const sim_prop_t *page = sim_prop_row(SIM_PROP_DSM_PAGE_BYTES);
  const sim_prop_t *word = sim_prop_row(SIM_PROP_DSM_WORD_BYTES);
  if (!is_power_of_two(w->c.page_bytes, page->lo, page->hi))
    sim_dsm_world_fail(w, SIM_EPLATFORM, "platform property %s = %g: expected a power of two from %g to %g", page->name,
                       w->c.page_bytes, page->lo, page->hi);
  else if (!is_power_of_two(w->c.word_bytes, word->lo, word->hi))
    sim_dsm_world_fail(w, SIM_EPLATFORM, "platform property %s = %g: expected 1, 2, 4 or 8", word->name,
                       w->c.word_bytes);
  return w->error ? SIM_EPLATFORM : 0;
}

/* Checks that the shared space fits in a node's memory (the host's simrun:memory-bytes, when it has one). */
void sim_dsm_check_memory(dsm_world_t *w, const_sg_host_t host)
{
  const char *memory_prop = sim_prop_name(SIM_PROP_MEMORY_BYTES);
  const char *owner = NULL;
  const char *text = sim_engine_host_property(host, memory_prop, &owner);
  char *end = NULL;
  double memory = text ? strtod(text, &end) : INFINITY;
  if (text && (end == text || *end != '\0' || !(memory > 0)))
    sim_dsm_world_fail(w, SIM_EPLATFORM, "host '%s': property %s = \"%s\": expected a number of bytes > 0",
                       sg_host_get_name(host), memory_prop, text);
  else if ((double)w->program.shared_bytes > memory)
    sim_dsm_world_fail(w, SIM_EPARAM,
                       "the shared data (%ld bytes) exceed the memory of node '%s' (%.0f bytes, property %s); "
                       "choose a smaller problem",
                       w->program.shared_bytes, sg_host_get_name(host), memory, memory_prop);
}
