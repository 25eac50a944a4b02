/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A false-sharing kernel on TreadMarks (seed 002 §3): nodes update their own elements of one shared array. */
#ifndef APP_DSM_FALSE_H
#define APP_DSM_FALSE_H

#include "app_skeleton.h"

extern const app_skeleton_t app_dsm_false_skeleton;

#endif
