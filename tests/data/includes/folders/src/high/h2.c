/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A second module of the higher folder. */
#include "h2.h"
