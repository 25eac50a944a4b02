/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The message view: a point's message durations grouped by size and distance (met_comm_stats), computed in the
 * simulating child from its trace, whole or aggregate, and carried in the result stream. */
#include "stu_messages.h"
#include "sim_error.h"
#include "stu_codec.h"
#include "stu_view.h"

#include <stdlib.h>

typedef struct messages {
  met_msg_stat_t *msgs;
  size_t n;
} messages_t;

const met_msg_stat_t *stu_msgs(const stu_point_t *point, size_t *count)
{
  const messages_t *m = point->view[STU_SLOT_MESSAGES].data;
  *count = m ? m->n : 0;
  return m ? m->msgs : NULL;
}

static void release(void *data)
{
  messages_t *m = data;
  free(m->msgs);
  free(m);
}

static messages_t *make(stu_point_t *point)
{
  return stu_slot_make(&point->view[STU_SLOT_MESSAGES], sizeof(messages_t), release);
}

static int32_t analyse(stu_point_t *point, const met_trace_t *trace, const stu_view_input_t *in)
{
  (void)in;
  messages_t *m = make(point);
  long groups = m ? met_comm_stats(trace, &m->msgs) : -1;
  if (m)
    m->n = groups < 0 ? 0 : (size_t)groups;
  return groups < 0 ? SIM_ENOMEM : 0;
}

/* [nmsgs][msgs], their padding (after hops) zeroed; [0] for a point without the view. */
static int encode(stu_point_t *point, FILE *out)
{
  messages_t *m = point->view[STU_SLOT_MESSAGES].data;
  uint64_t n = m ? m->n : 0;
  for (size_t i = 0; i < n; i++)
    STU_ZERO_GAP(&m->msgs[i], hops, count);
  return stu_codec_put(out, &n, sizeof n) | stu_codec_put(out, m ? m->msgs : NULL, n * sizeof *m->msgs);
}

/* A point without the view (an empty section) is left without results. */
static int decode(stu_point_t *point, FILE *in)
{
  uint64_t n = 0;
  void *msgs = NULL;
  if (stu_codec_get(in, &n, sizeof n) || stu_codec_get_array(in, n, sizeof(met_msg_stat_t), &msgs))
    return -1;
  messages_t *m = msgs ? make(point) : NULL;
  if (m)
    *m = (messages_t){msgs, (size_t)n};
  else
    free(msgs);
  return msgs && !m ? -1 : 0;
}

const stu_view_row_t stu_messages_view = {
    .flag = MET_VIEW_MESSAGES,
    .needs = STU_NEED_HOPS,
    .analyse = analyse,
    .encode = encode,
    .decode = decode,
};
