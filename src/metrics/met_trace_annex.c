/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trace's cause-effect annex (DSM skeletons): per node and unit the spans of its protocol states, and the remote
 * requests with their marks (seed 002's cause-effect analysis), checked as they arrive and summed (met_ce.h); a full
 * trace also keeps them. */
#include "met_ce.h"
#include "bas_error.h"
#include "met_trace_internal.h"

/* A span may start no earlier than the end of its unit's previous one, prev_end. */
static bool valid_span(const met_trace_t *trace, double prev_end, const met_span_t *span)
{
  return valid_amount(span->end) && span->start >= prev_end && span->end >= span->start && span->state >= 0 &&
         span->state < MET_SPAN_STATES && span->op >= 0 && span->op < MET_SPAN_OPS && valid_phase(trace, span->scope);
}

/* The trace's cause-effect sums, made on first use; NULL when out of memory. */
static met_ce_sums_t *sums_of(met_trace_t *trace)
{
  if (!trace->ce)
    trace->ce = met_ce_sums_new(trace->nranks);
  return trace->ce;
}

int met_trace_span_add(met_trace_t *trace, int node, int unit, const met_span_t *span)
{
  if (!valid_rank(trace, node) || unit < 0 || unit >= MET_UNIT_COUNT)
    return BAS_EINVAL;
  if (!trace->aggregate && !trace->units &&
      !(trace->units = calloc((size_t)trace->nranks * MET_UNIT_COUNT, sizeof *trace->units)))
    return BAS_ENOMEM;
  met_span_line_t *line = trace->units ? &trace->units[node * MET_UNIT_COUNT + unit] : NULL;
  int scope;
  double prev_end = sums_of(trace) ? met_ce_sums_last(trace->ce, node, unit, &scope) : 0.0;
  if (!trace->ce || !valid_span(trace, prev_end, span))
    return BAS_EINVAL;
  if (span->end == span->start)
    return 0;
  if (line) { /* room first, the count unchanged: a failure of either leaves the trace as it was */
    met_span_t *items = grow(line->items, &line->cap, line->count + 1, sizeof *items);
    if (!items)
      return BAS_ENOMEM;
    line->items = items;
  }
  if (met_ce_sums_span(trace->ce, node, unit, span) != 0)
    return BAS_ENOMEM;
  if (line)
    line->items[line->count++] = *span;
  if (span->end > trace->end)
    trace->end = span->end;
  return 0;
}

const met_span_t *met_trace_spans(const met_trace_t *trace, int node, int unit, size_t *count)
{
  *count = 0;
  if (!trace->units || !valid_rank(trace, node) || unit < 0 || unit >= MET_UNIT_COUNT)
    return NULL;
  const met_span_line_t *line = &trace->units[node * MET_UNIT_COUNT + unit];
  *count = line->count;
  return line->items;
}

static bool valid_request(const met_trace_t *trace, const met_request_t *req)
{
  if (!valid_rank(trace, req->node) || (req->peer != -1 && !valid_rank(trace, req->peer)) || req->unit < 0 ||
      req->unit >= MET_UNIT_COUNT || req->op < 0 || req->op >= MET_SPAN_OPS || !valid_phase(trace, req->scope))
    return false;
  for (int k = 0; k < MET_REQ_MARKS; k++)
    if (!valid_amount(req->mark[k]) || (k > 0 && req->mark[k] < req->mark[k - 1]))
      return false;
  return true;
}

int met_trace_request_add(met_trace_t *trace, const met_request_t *req)
{
  if (!valid_request(trace, req) || !sums_of(trace))
    return BAS_EINVAL;
  if (!trace->aggregate) { /* room first, as for spans */
    met_request_t *items = grow(trace->requests, &trace->request_cap, trace->nrequests + 1, sizeof *items);
    if (!items)
      return BAS_ENOMEM;
    trace->requests = items;
  }
  if (met_ce_sums_request(trace->ce, req) != 0)
    return BAS_ENOMEM;
  if (!trace->aggregate)
    trace->requests[trace->nrequests++] = *req;
  return 0;
}

const met_request_t *met_trace_requests(const met_trace_t *trace, size_t *count)
{
  *count = trace->nrequests;
  return trace->requests;
}

const met_ce_sums_t *met_trace_ce_sums(const met_trace_t *trace)
{
  return trace->ce;
}
