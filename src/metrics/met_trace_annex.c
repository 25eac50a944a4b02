/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trace's cause-effect annex (DSM skeletons): per node and unit the spans of its protocol states, and the remote
 * requests with their marks (seed 003's cause-effect analysis), checked as they arrive. */
#include "met_trace_internal.h"

static bool valid_span(const met_trace_t *trace, const met_span_line_t *line, const met_span_t *span)
{
  double prev_end = line->count ? line->items[line->count - 1].end : 0.0;
  return valid_amount(span->end) && span->start >= prev_end && span->end >= span->start && span->state >= 0 &&
         span->state < MET_SPAN_STATES && span->op >= 0 && span->op < MET_SPAN_OPS && valid_phase(trace, span->scope);
}

int met_trace_span_add(met_trace_t *trace, int node, int unit, const met_span_t *span)
{
  if (!valid_rank(trace, node) || unit < 0 || unit >= MET_UNIT_COUNT)
    return -1;
  if (!trace->units && !(trace->units = calloc((size_t)trace->nranks * MET_UNIT_COUNT, sizeof *trace->units)))
    return -1;
  met_span_line_t *line = &trace->units[node * MET_UNIT_COUNT + unit];
  if (!valid_span(trace, line, span))
    return -1;
  if (span->end == span->start)
    return 0;
  met_span_t *items = grow(line->items, &line->cap, line->count + 1, sizeof *items);
  if (!items)
    return -1;
  line->items = items;
  items[line->count++] = *span;
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
  if (!valid_request(trace, req))
    return -1;
  met_request_t *items = grow(trace->requests, &trace->request_cap, trace->nrequests + 1, sizeof *items);
  if (!items)
    return -1;
  trace->requests = items;
  items[trace->nrequests++] = *req;
  return 0;
}

const met_request_t *met_trace_requests(const met_trace_t *trace, size_t *count)
{
  *count = trace->nrequests;
  return trace->requests;
}
