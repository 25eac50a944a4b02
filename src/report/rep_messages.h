/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The message-time table, one row per (point with the message view, size, distance) (docs/results.md "-messages"):
 * how many messages, their transfer from the send's start to the receive's end and, apart, the receiver's wait in the
 * call that completed them (met_msg_stat_t), as a table declaration (rep_schema.h) every writer walks. */
#ifndef REP_MESSAGES_H
#define REP_MESSAGES_H

#include "rep_schema.h"

extern const rep_schema_t rep_messages_schema;

/* The rows of the message-time table: every (size, distance) group of every point with the message view, or of point
 * `only` alone when it is not NULL, each row's item its met_msg_stat_t. *count of them; NULL when there is none or out
 * of memory (free it). */
rep_at_t *rep_messages_rows(const stu_study_t *study, const stu_point_t *only, size_t *count);

#endif
