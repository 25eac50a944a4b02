/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Growing an array by doubling (bas_grow.h). */
#include "bas_grow.h"
#include "bas_error.h"

#include <stdint.h>
#include <stdlib.h>

int bas_reserve(void **items, size_t *cap, size_t n, size_t size, size_t first)
{
  if (n < *cap)
    return 0;
  size_t more = *cap ? 2 * *cap : first;
  if (more <= *cap || size == 0 || more > SIZE_MAX / size)
    return BAS_ENOMEM;
  void *grown = realloc(*items, more * size);
  if (!grown)
    return BAS_ENOMEM;
  *items = grown;
  *cap = more;
  return 0;
}
