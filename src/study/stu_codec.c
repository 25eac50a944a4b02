/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The raw reads and writes of a task's result stream (stu_codec.h). */
#include "stu_codec.h"
#include "bas_error.h"

#include <stdint.h>
#include <stdlib.h>

int stu_codec_put(FILE *out, const void *data, size_t size)
{
  return size == 0 || fwrite(data, size, 1, out) == 1 ? 0 : BAS_EIO;
}

int stu_codec_get(FILE *in, void *data, size_t size)
{
  return size == 0 || fread(data, size, 1, in) == 1 ? 0 : BAS_EIO;
}

/* The bytes left in `in` after its position, or 0 when that cannot be told. */
static size_t bytes_left(FILE *in)
{
  long at = ftell(in);
  long end = at >= 0 && fseek(in, 0, SEEK_END) == 0 ? ftell(in) : -1;
  if (at < 0 || fseek(in, at, SEEK_SET) != 0 || end < at)
    return 0;
  return (size_t)(end - at);
}

int stu_codec_get_array(FILE *in, size_t count, size_t size, void **array)
{
  *array = NULL;
  if (count == 0)
    return 0;
  if (count > SIZE_MAX / size || count * size > bytes_left(in) || !(*array = malloc(count * size)))
    return BAS_EIO;
  return stu_codec_get(in, *array, count * size);
}
