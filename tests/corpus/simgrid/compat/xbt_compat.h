/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The few SimGrid utility calls (xbt) that SimGrid's own test programs make, as the C library's, so that they build
 * unchanged with Open MPI's mpicc (tests/corpus/run-one passes this file with -include). */
#ifndef XBT_COMPAT_H
#define XBT_COMPAT_H

#include <assert.h>
#include <stdlib.h>

#define xbt_malloc(size)   malloc(size)
#define xbt_free(pointer)  free(pointer)
#define xbt_new0(type, n)  ((type *)calloc((size_t)(n), sizeof(type)))
#define xbt_assert(...)    assert(__VA_ARGS__)

#endif
