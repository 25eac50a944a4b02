/* The on-disk cache of finished points: one file per result, named by a 64-bit FNV-1a hash of its key and holding the
 * key itself (checked on reading, so that a hash collision is a miss, never a wrong result) followed by the result. */
#define _POSIX_C_SOURCE 200809L /* fileno, mkdir */

#include "stu_cache.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_MAGIC "simrun-cache 1\n"
#define FNV_OFFSET  1469598103934665603ull
#define FNV_PRIME   1099511628211ull

/* A file's contents hash, remembered by path. */
typedef struct file_hash {
  char *path;
  uint64_t hash;
} file_hash_t;

struct stu_cache {
  char *dir;
  uint64_t binary; /* the running executable's contents */
  file_hash_t *files;
  size_t nfiles;
};

static uint64_t fnv(uint64_t hash, const void *data, size_t len)
{
  const unsigned char *bytes = data;
  for (size_t i = 0; i < len; i++)
    hash = (hash ^ bytes[i]) * FNV_PRIME;
  return hash;
}

/* The hash of a file's contents; 0 and -1 when it cannot be read. */
static int hash_file(const char *path, uint64_t *hash)
{
  FILE *in = fopen(path, "rb");
  if (!in)
    return -1;
  char buf[65536];
  size_t n;
  *hash = FNV_OFFSET;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    *hash = fnv(*hash, buf, n);
  int rc = ferror(in) ? -1 : 0;
  fclose(in);
  return rc;
}

int stu_cache_default_dir(char *dir, size_t len)
{
  const char *own = getenv("SIMRUN_CACHE_DIR");
  const char *xdg = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  if (own && *own)
    snprintf(dir, len, "%s", own);
  else if (xdg && *xdg)
    snprintf(dir, len, "%s/simrun", xdg);
  else if (home && *home)
    snprintf(dir, len, "%s/.cache/simrun", home);
  else
    return -1;
  return 0;
}

/* mkdir -p. */
static int make_folders(const char *dir)
{
  char path[4096];
  snprintf(path, sizeof path, "%s", dir);
  for (char *c = path + 1; *c; c++) {
    if (*c != '/')
      continue;
    *c = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
      return -1;
    *c = '/';
  }
  return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

stu_cache_t *stu_cache_open(const char *dir, char *err, size_t errlen)
{
  stu_cache_t *cache = calloc(1, sizeof *cache);
  if (!cache || !(cache->dir = strdup(dir))) {
    snprintf(err, errlen, "out of memory");
    stu_cache_free(cache);
    return NULL;
  }
  if (make_folders(dir) != 0 || access(dir, W_OK) != 0) {
    snprintf(err, errlen,
             "cannot use the cache folder '%s': %s; set SIMRUN_CACHE_DIR to a writable folder, or give "
             "--no-cache",
             dir, strerror(errno));
    stu_cache_free(cache);
    return NULL;
  }
  if (hash_file("/proc/self/exe", &cache->binary) != 0) {
    snprintf(err, errlen, "cannot read the simrun executable to key the cache: %s; give --no-cache", strerror(errno));
    stu_cache_free(cache);
    return NULL;
  }
  return cache;
}

void stu_cache_free(stu_cache_t *cache)
{
  if (!cache)
    return;
  for (size_t i = 0; i < cache->nfiles; i++)
    free(cache->files[i].path);
  free(cache->files);
  free(cache->dir);
  free(cache);
}

const char *stu_cache_dir(const stu_cache_t *cache)
{
  return cache->dir;
}

/* The contents hash of platform `path`, computed once per run. 0, or -1. */
static int platform_hash(stu_cache_t *cache, const char *path, uint64_t *hash)
{
  for (size_t i = 0; i < cache->nfiles; i++)
    if (strcmp(cache->files[i].path, path) == 0) {
      *hash = cache->files[i].hash;
      return 0;
    }
  file_hash_t *grown = realloc(cache->files, (cache->nfiles + 1) * sizeof *grown);
  if (!grown)
    return -1;
  cache->files = grown;
  if (hash_file(path, hash) != 0 || !(grown[cache->nfiles].path = strdup(path)))
    return -1;
  grown[cache->nfiles++].hash = *hash;
  return 0;
}

/* Whether the skeleton reads files named by its parameters (such as ti-replay's trace and the files its index lists):
 * their contents are not in the key, so its points are never cached. */
static int reads_files(const stu_sweep_ctx_t *ctx)
{
  const scn_skeleton_spec_t *spec = ctx->skeleton->spec;
  for (size_t i = 0; i < spec->nparams; i++)
    if (spec->params[i].kind == SCN_PATH)
      return 1;
  return 0;
}

int stu_cache_key(stu_cache_t *cache, const stu_sweep_ctx_t *ctx, const stu_task_t *task, char *key, size_t len)
{
  if (reads_files(ctx))
    return -1;
  const stu_point_t *point = &ctx->study->points[task->point];
  uint64_t platform;
  if (platform_hash(cache, stu_platform(ctx->study, point), &platform) != 0)
    return -1;
  int used = snprintf(key, len, "simrun %016llx\nplatform %016llx\nskeleton %s\ntask %d p=%d procs=%d trace=%d\n",
                      (unsigned long long)cache->binary, (unsigned long long)platform, ctx->skeleton->spec->name,
                      task->kind, task->nranks, task->keep_procs, task->keep_trace);
  for (size_t j = 0; j < ctx->scenario->nparams && used > 0 && (size_t)used < len; j++)
    if (j != ctx->p_index)
      used += snprintf(key + used, len - (size_t)used, "%s=%s\n", ctx->names[j], point->values[j]);
  return used > 0 && (size_t)used < len ? 0 : -1;
}

static void entry_path(const stu_cache_t *cache, const char *key, char *path, size_t len)
{
  snprintf(path, len, "%s/%016llx.result", cache->dir, (unsigned long long)fnv(FNV_OFFSET, key, strlen(key)));
}

/* Whether `in` starts with the header of `key`; leaves it after the header. */
static int header_matches(FILE *in, const char *key)
{
  size_t magic = strlen(CACHE_MAGIC);
  size_t len = strlen(key);
  char *header = malloc(magic + len + 1);
  int ok = header && fread(header, 1, magic + len + 1, in) == magic + len + 1 &&
           memcmp(header, CACHE_MAGIC, magic) == 0 && memcmp(header + magic, key, len) == 0 &&
           header[magic + len] == '\0';
  free(header);
  return ok;
}

FILE *stu_cache_get(const stu_cache_t *cache, const char *key)
{
  char path[4200];
  entry_path(cache, key, path, sizeof path);
  FILE *in = fopen(path, "rb");
  if (in && !header_matches(in, key)) {
    fclose(in);
    return NULL;
  }
  return in;
}

int stu_cache_has(const stu_cache_t *cache, const char *key)
{
  FILE *in = stu_cache_get(cache, key);
  if (in)
    fclose(in);
  return in != NULL;
}

/* Copies `in` from its position to its end into `out`. 0 or -1. */
static int copy_rest(FILE *in, FILE *out)
{
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, n, out) != n)
      return -1;
  return ferror(in) ? -1 : 0;
}

int stu_cache_put(const stu_cache_t *cache, const char *key, FILE *result)
{
  char path[4200];
  char tmp[4300];
  entry_path(cache, key, path, sizeof path);
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
  long start = ftell(result);
  FILE *out = start >= 0 ? fopen(tmp, "wb") : NULL;
  if (!out)
    return -1;
  int rc = fputs(CACHE_MAGIC, out) < 0 || fwrite(key, 1, strlen(key) + 1, out) != strlen(key) + 1 ||
                   copy_rest(result, out) != 0
               ? -1
               : 0;
  rc = fclose(out) != 0 ? -1 : rc;
  rc = rc == 0 ? rename(tmp, path) : rc;
  if (rc != 0)
    remove(tmp);
  return fseek(result, start, SEEK_SET) != 0 ? -1 : rc;
}
