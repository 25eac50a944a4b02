/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Gauss-Jordan elimination in shared-memory form on TreadMarks (seed 002 §3), the DSM counterpart of app_gj.h. */
#ifndef APP_DSM_GJ_H
#define APP_DSM_GJ_H

#include "app_skeleton.h"

extern const app_skeleton_t app_dsm_gj_skeleton;

#endif
