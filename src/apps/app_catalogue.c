/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The catalogue of skeletons: every skeleton simrun knows, found by name. The only file that sees every skeleton. */
#include "app_catalogue.h"
#include "app_dsm_false.h"
#include "app_dsm_gj.h"
#include "app_dsm_matmul.h"
#include "app_gj.h"
#include "app_matmul.h"
#include "app_pdgemm.h"
#include "app_pdtrsm.h"
#include "app_pingpong.h"
#include "app_ring.h"
#include "app_ti.h"

#include <stdio.h>
#include <string.h>

static const app_skeleton_t *const catalogue[] = {
    &app_gj_skeleton,     &app_pingpong_skeleton, &app_matmul_skeleton,        &app_pdgemm_skeleton,
    &app_pdtrsm_skeleton, &app_dsm_gj_skeleton,   &app_dsm_matmul_skeleton,    &app_dsm_false_skeleton,
    &app_ti_skeleton,     &app_ring_skeleton,     &app_ring_broadcast_skeleton};

const app_skeleton_t *app_find(const char *name)
{
  for (size_t i = 0; i < sizeof catalogue / sizeof catalogue[0]; i++)
    if (strcmp(catalogue[i]->spec->name, name) == 0)
      return catalogue[i];
  return NULL;
}

const char *app_names(void)
{
  static char names[256];
  if (names[0] == '\0')
    for (size_t i = 0; i < sizeof catalogue / sizeof catalogue[0]; i++)
      snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", catalogue[i]->spec->name);
  return names;
}
