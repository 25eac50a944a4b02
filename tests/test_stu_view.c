/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the table of views (stu_view.h): the flags a skeleton registers and what each view needs of the runs. */
#include "stu_view.h"
#include "tu.h"

/* A skeleton that registers nothing has the lost-cycle view; its flags are the study's and combine; a flag no view
 * knows is dropped. */
static void test_view_flags(void)
{
  CU_ASSERT_EQUAL(stu_view_flags(0), MET_VIEW_LOST_CYCLES);
  CU_ASSERT_EQUAL(stu_view_flags(MET_VIEW_MESSAGES), MET_VIEW_MESSAGES);
  CU_ASSERT_EQUAL(stu_view_flags(MET_VIEW_CAUSE_EFFECT), MET_VIEW_CAUSE_EFFECT);
  CU_ASSERT_EQUAL(stu_view_flags(MET_VIEW_LOST_CYCLES | MET_VIEW_MESSAGES), MET_VIEW_LOST_CYCLES | MET_VIEW_MESSAGES);
  CU_ASSERT_EQUAL(stu_view_flags(MET_VIEW_MESSAGES | 1u << 7), MET_VIEW_MESSAGES);
}

/* Lost cycles need T_seq and the per-process view, messages the hop counts, cause-effect the whole trace. */
static void test_view_needs(void)
{
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_LOST_CYCLES, STU_NEED_SEQ));
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_LOST_CYCLES, STU_NEED_PROCS));
  CU_ASSERT_FALSE(stu_view_needs(MET_VIEW_LOST_CYCLES, STU_NEED_HOPS | STU_NEED_TRACE));
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_MESSAGES, STU_NEED_HOPS));
  CU_ASSERT_FALSE(stu_view_needs(MET_VIEW_MESSAGES, STU_NEED_SEQ | STU_NEED_PROCS | STU_NEED_TRACE));
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_CAUSE_EFFECT, STU_NEED_TRACE));
  CU_ASSERT_FALSE(stu_view_needs(MET_VIEW_CAUSE_EFFECT, STU_NEED_SEQ | STU_NEED_HOPS));
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_LOST_CYCLES | MET_VIEW_MESSAGES, STU_NEED_SEQ));
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_LOST_CYCLES | MET_VIEW_MESSAGES, STU_NEED_HOPS));
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_view_flags", test_view_flags}, {"test_view_needs", test_view_needs}, {NULL, NULL}};
  return tu_run("view", cases);
}
