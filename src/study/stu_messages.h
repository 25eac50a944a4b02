/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The message view (MET_VIEW_MESSAGES: message durations by size and distance, met_comm.h): its results at a point and
 * their accessor, read by the report; its row of the views table is stu_messages_view (stu_view.h). */
#ifndef STU_MESSAGES_H
#define STU_MESSAGES_H

#include "met_comm.h"
#include "stu_study.h"

/* The point's message groups by size and distance, *count of them; NULL (and 0) when it has none. Borrowed from the
 * point. */
const met_msg_stat_t *stu_msgs(const stu_point_t *point, size_t *count);

#endif
