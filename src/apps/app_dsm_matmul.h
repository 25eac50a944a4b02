/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Matrix multiply C = A B in shared-memory form on TreadMarks (seed 002 §3). */
#ifndef APP_DSM_MATMUL_H
#define APP_DSM_MATMUL_H

#include "app_skeleton.h"

extern const app_skeleton_t app_dsm_matmul_skeleton;

#endif
