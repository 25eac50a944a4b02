/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trace's table of MPI call names (met_trace.h, met_trace_call_id): a measured interval names its call by a small
 * id, so that the exports write each call as a region of its own; found by hash, since a run of polls names its count
 * ("MPI_Testany*12") and a run may give thousands of counts. */
#include "met_trace_internal.h"

/* FNV-1a over the name. */
static uint64_t name_hash(const char *name)
{
  uint64_t h = 14695981039346656037ULL;
  for (const unsigned char *c = (const unsigned char *)name; *c; c++)
    h = (h ^ *c) * 1099511628211ULL;
  return h;
}

/* The slot of `name`: the one holding its id, or the empty one where it would go. */
static size_t slot_of(const met_trace_t *trace, const char *name)
{
  size_t mask = trace->call_slot_cap - 1;
  size_t at = (size_t)name_hash(name) & mask;
  while (trace->call_slots[at] != 0 && strcmp(trace->calls[trace->call_slots[at] - 1], name) != 0)
    at = (at + 1) & mask;
  return at;
}

/* Doubles the slots (16 at first) and files every name again. 0, or BAS_ENOMEM (the table is then unchanged). */
static int grow_slots(met_trace_t *trace)
{
  size_t cap = trace->call_slot_cap ? 2 * trace->call_slot_cap : 16;
  int *slots = calloc(cap, sizeof *slots);
  if (!slots)
    return BAS_ENOMEM;
  free(trace->call_slots);
  trace->call_slots = slots;
  trace->call_slot_cap = cap;
  for (size_t i = 0; i < trace->ncalls; i++)
    slots[slot_of(trace, trace->calls[i])] = (int)i + 1;
  return 0;
}

int met_trace_call_id(met_trace_t *trace, const char *name)
{
  if (trace->call_slot_cap && trace->call_slots[slot_of(trace, name)] != 0)
    return trace->call_slots[slot_of(trace, name)];
  if (trace->ncalls >= INT32_MAX - 1 || (2 * (trace->ncalls + 1) > trace->call_slot_cap && grow_slots(trace) != 0))
    return BAS_ENOMEM;
  if (append_name(&trace->calls, &trace->ncalls, &trace->call_cap, name) != 0)
    return BAS_ENOMEM;
  int id = (int)trace->ncalls;
  trace->call_slots[slot_of(trace, name)] = id;
  return id;
}

const char *met_trace_call_name(const met_trace_t *trace, int id)
{
  if (id < 0)
    id = -id;
  return id > 0 && (size_t)id <= trace->ncalls ? trace->calls[id - 1] : NULL;
}

int met_trace_call_count(const met_trace_t *trace)
{
  return (int)trace->ncalls;
}

void met_trace_calls_free(met_trace_t *trace)
{
  for (size_t i = 0; i < trace->ncalls; i++)
    free(trace->calls[i]);
  free(trace->calls);
  free(trace->call_slots);
}
