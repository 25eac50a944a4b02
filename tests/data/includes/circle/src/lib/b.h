/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The other half of the circle. */
#include "a.h"
