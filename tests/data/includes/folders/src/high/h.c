/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The higher folder, which includes the lower one, as it may. */
#include "h.h"
#include "l.h"
