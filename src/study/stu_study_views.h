/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The views of a study, one STU_VIEW(SLOT, row) each: SLOT names the view's slot of a point's and a study's results
 * (STU_SLOT_<SLOT>, stu_study.h) and row is its row of the views table, defined by the view's module (stu_view.h), in
 * the order the table walks them (analysis, finish, summary, sections of the result stream). Included by stu_study.h
 * for the slots, by stu_view.h for the rows' declarations and by stu_view.c for the table, so it has no include guard:
 * adding a view is its module and one line here. */
STU_VIEW(LOST_CYCLES, stu_lost_cycles_view)
STU_VIEW(MESSAGES, stu_messages_view)
STU_VIEW(CAUSE_EFFECT, stu_cause_effect_view)
STU_VIEW(WAITS, stu_waits_view)
STU_VIEW(MODEL, stu_model_view)
STU_VIEW(PHASES, stu_phases_view)
STU_VIEW(REPLAY, stu_replay_view)
