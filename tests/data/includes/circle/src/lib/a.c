/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Half of a circle for scripts/check-includes: a includes b, b includes a. */
#include "a.h"
