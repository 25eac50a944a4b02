/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The catalogue of program skeletons (app_skeleton.h says what each provides): the command line and the tests find a
 * skeleton by the name a scenario gives. */
#ifndef APP_CATALOGUE_H
#define APP_CATALOGUE_H

#include "app_skeleton.h"

/* The skeleton called `name`, or NULL. */
const app_skeleton_t *app_find(const char *name);
/* The names of all skeletons, comma-separated, for messages and --help. A static string. */
const char *app_names(void);

#endif
