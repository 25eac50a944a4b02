/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A low layer that includes a higher one (scripts/check-includes: a circle between folders, not modules). */
#include "l.h"
