/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the study module: the raw reads and writes of a task's result stream (stu_task.c's header, each view's
 * own section in stu_view.c), with a count checked against what the stream still holds before it is allocated. */
#ifndef STU_CODEC_H
#define STU_CODEC_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Writes or reads `size` bytes (none for 0). 0, or BAS_EIO. */
int stu_codec_put(FILE *out, const void *data, size_t size);
int stu_codec_get(FILE *in, void *data, size_t size);
/* Reads `count` items of `size` bytes into a new array (NULL for none); 0 or BAS_EIO. A count the rest of the input
 * cannot hold is refused before anything is allocated (a damaged count asked for terabytes). */
int stu_codec_get_array(FILE *in, size_t count, size_t size, void **array);

/* Zeroes the padding the compiler leaves between members a and b of *obj: written raw into the result channel and the
 * cache, undefined bytes would make identical results differ (valgrind: "points to uninitialised byte(s)"). */
#define STU_ZERO_GAP(obj, a, b)                                                                                        \
  memset((char *)(obj) + offsetof(__typeof__(*(obj)), a) + sizeof(obj)->a, 0,                                          \
         offsetof(__typeof__(*(obj)), b) - offsetof(__typeof__(*(obj)), a) - sizeof(obj)->a)

#endif
