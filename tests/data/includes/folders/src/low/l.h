/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Includes a header of the higher folder. */
#include "h2.h"
