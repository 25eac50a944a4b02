/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The on-disk cache of finished points. Each result is filed under a key made of all that determines it: the skeleton,
 * the point's parameters, the contents of its platform file and of the files that names (speed and bandwidth
 * profiles), of the simrun executable itself, and the SimGrid library's version. An interrupted sweep resumes where it
 * stopped; a changed input, a rebuilt simrun or another SimGrid never reuses a stale result. Entries carry a format
 * version and a checksum: a damaged one is deleted with a warning and recomputed. Sweeps may share a cache. */
#ifndef STU_CACHE_H
#define STU_CACHE_H

#include "stu_task.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct stu_cache stu_cache_t;

/* Told, once per entry and run, that a damaged entry was found and removed (the caller shows it as a warning). */
typedef void (*stu_cache_warn_fn)(const char *message, void *ctx);

/* Opens the cache in `dir`, creating the folders as needed; `warn` (or NULL) hears of damaged entries. NULL with a
 * message when it cannot be. Free with stu_cache_free (accepts NULL). */
stu_cache_t *stu_cache_open(const char *dir, stu_cache_warn_fn warn, void *ctx, char *err, size_t errlen);
void stu_cache_free(stu_cache_t *cache);
const char *stu_cache_dir(const stu_cache_t *cache);

/* The key of `task` into `key`. 0, or BAS_EINVAL when its platform file cannot be read or the skeleton reads files
 * named by its parameters (a ti-replay trace), whose points are then never cached. */
int stu_cache_key(stu_cache_t *cache, const stu_sweep_ctx_t *ctx, const stu_task_t *task, char *key, size_t len);

/* The stored result of `key`, positioned at its first byte (the caller closes it), or NULL when there is none. An
 * entry is checked before use: its format version, its key (the point's, with simrun's and SimGrid's versions) and the
 * length and checksum of its result; one that fails, or anything else in its place (a folder, full or empty, a link,
 * a FIFO, an unreadable file), is removed with one warning per run, so that the point's new result is filed there. */
FILE *stu_cache_get(stu_cache_t *cache, const char *key);
/* Whether a result is stored under `key` (stu_cache_get's checks). */
int stu_cache_has(stu_cache_t *cache, const char *key);
/* Stores the rest of `result` (from its position to its end) under `key`, written to an unnamed file and named once
 * whole, so that an interrupted write leaves nothing; `result` is back at its position afterwards. 0, or BAS_EIO. */
int stu_cache_put(const stu_cache_t *cache, const char *key, FILE *result);

/* Keeps the folder's entries within `max` bytes: when they add up to more, removes the least recently used (the oldest
 * modification time: filing an entry and each hit on it set its time) until they add up to at most three quarters of
 * max, so that the next runs do not trim again at once; never an entry this run filed or used (since the cache was
 * opened), which it may resume from. Only entries ("<16 hex digits>.result", regular files) count and go. Returns how
 * many it removed. */
size_t stu_cache_trim(stu_cache_t *cache, uint64_t max);

#endif
