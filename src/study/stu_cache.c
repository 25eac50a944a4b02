/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The on-disk cache of finished points: one file per result, named by a 64-bit FNV-1a hash of its key and holding the
 * format version, the key itself (checked on reading, so that a hash collision is a miss, never a wrong result), the
 * result's length and checksum, then the result: a damaged entry, or anything else in its place, is found, reported
 * once, removed and recomputed. */
#define _GNU_SOURCE /* O_TMPFILE, linkat, nftw */

#include "stu_cache.h"
#include "bas_error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <xbt/base.h> /* before simgrid/version.h, which needs it */
#include <simgrid/version.h>

#define CACHE_MAGIC                                                                                                    \
  "simrun-cache 5\n" /* 3: a per-process point carries its pixels, not its whole trace; 4: messages carry their        \
                        transfer (from the send) and wait; 5: wait states carry Early Scan */
#define FNV_OFFSET 14695981039346656037ull /* FNV-1a 64-bit offset basis */
#define FNV_PRIME  1099511628211ull

/* A file's contents hash, remembered by path. */
typedef struct file_hash {
  char *path;
  uint64_t hash;
} file_hash_t;

struct stu_cache {
  char *dir;
  uint64_t binary; /* the running executable's contents */
  int simgrid[3];  /* the SimGrid library's version, as loaded */
  file_hash_t *files;
  size_t nfiles;
  stu_cache_warn_fn warn;
  void *ctx;
  uint64_t *reported; /* the names of the damaged entries reported in this run */
  size_t nreported;
  struct timespec opened; /* when this run opened it: an entry used since is this run's, never trimmed */
};

static uint64_t fnv(uint64_t hash, const void *data, size_t len)
{
  const unsigned char *bytes = data;
  for (size_t i = 0; i < len; i++)
    hash = (hash ^ bytes[i]) * FNV_PRIME;
  return hash;
}

/* Folds the contents of `in` from its position into *hash; 0, or -1 on a read error. */
static int hash_stream(FILE *in, uint64_t *hash)
{
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    *hash = fnv(*hash, buf, n);
  return ferror(in) ? -1 : 0;
}

/* Folds a file's contents into *hash; 0, or -1 when it cannot be read. */
static int hash_file_into(const char *path, uint64_t *hash)
{
  FILE *in = fopen(path, "rb");
  if (!in)
    return -1;
  int rc = hash_stream(in, hash);
  fclose(in);
  return rc;
}

/* The hash of a file's contents; 0, or -1 when it cannot be read. */
static int hash_file(const char *path, uint64_t *hash)
{
  *hash = FNV_OFFSET;
  return hash_file_into(path, hash);
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

stu_cache_t *stu_cache_open(const char *dir, stu_cache_warn_fn warn, void *ctx, char *err, size_t errlen)
{
  stu_cache_t *cache = calloc(1, sizeof *cache);
  if (cache) {
    cache->warn = warn;
    cache->ctx = ctx;
    sg_version_get(&cache->simgrid[0], &cache->simgrid[1], &cache->simgrid[2]);
    clock_gettime(CLOCK_REALTIME, &cache->opened); /* the clock of files' times */
  }
  if (!cache || !(cache->dir = strdup(dir))) {
    snprintf(err, errlen, "out of memory");
    stu_cache_free(cache);
    return NULL;
  }
  struct stat st;
  if (make_folders(dir) != 0 || access(dir, W_OK) != 0 ||
      (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode) && (errno = ENOTDIR))) {
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
  free(cache->reported);
  free(cache->dir);
  free(cache);
}

const char *stu_cache_dir(const stu_cache_t *cache)
{
  return cache->dir;
}

/* The file a platform names in attribute `value`, as SimGrid finds it: absolute, beside the platform, or in the current
 * folder. A new string, or NULL. */
static char *named_file(const char *platform, const char *value)
{
  const char *slash = strrchr(platform, '/');
  size_t dirlen = value[0] == '/' || !slash ? 0 : (size_t)(slash - platform) + 1;
  char *path = malloc(dirlen + strlen(value) + 1);
  if (path) {
    memcpy(path, platform, dirlen);
    strcpy(path + dirlen, value);
  }
  if (path && dirlen && access(path, R_OK) != 0)
    strcpy(path, value);
  return path;
}

/* Folds into *hash the name and contents of every file the elements under `node` name (speed_file, bandwidth_file,
 * state_file, a <trace file>...): a point reads them too. 0, or -1 when one cannot be read. */
static int hash_named_files(const xmlNode *node, const char *platform, uint64_t *hash)
{
  for (; node; node = node->next) {
    for (const xmlAttr *a = node->type == XML_ELEMENT_NODE ? node->properties : NULL; a; a = a->next) {
      size_t len = strlen((const char *)a->name);
      if (strcmp((const char *)a->name, "file") != 0 && (len < 5 || strcmp((const char *)a->name + len - 5, "_file")))
        continue;
      xmlChar *value = xmlNodeGetContent((const xmlNode *)a);
      char *path = value ? named_file(platform, (const char *)value) : NULL;
      int rc = path ? 0 : -1;
      if (path) {
        *hash = fnv(*hash, a->name, len + 1);
        *hash = fnv(*hash, value, strlen((const char *)value) + 1);
        rc = hash_file_into(path, hash);
      }
      free(path);
      xmlFree(value);
      if (rc != 0)
        return -1;
    }
    if (hash_named_files(node->children, platform, hash) != 0)
      return -1;
  }
  return 0;
}

/* The hash of platform `path` and of the files it names. 0, or -1. */
static int hash_platform(const char *path, uint64_t *hash)
{
  if (hash_file(path, hash) != 0)
    return -1;
  xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  int rc = doc ? hash_named_files(xmlDocGetRootElement(doc), path, hash) : -1;
  xmlFreeDoc(doc);
  return rc;
}

/* The hash of platform `path` and the files it names, computed once per run. 0, or -1. */
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
  if (hash_platform(path, hash) != 0 || !(grown[cache->nfiles].path = strdup(path)))
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
  if (reads_files(ctx) || (task->keep_trace & STU_KEEP_WHOLE)) /* a whole trace grows with the messages */
    return BAS_EINVAL;
  const stu_point_t *point = &ctx->study->points[task->point];
  uint64_t platform;
  if (platform_hash(cache, stu_platform(ctx->study, point), &platform) != 0)
    return BAS_EIO;
  int used = snprintf(key, len,
                      "simrun %016llx\nsimgrid %d.%d.%d\nplatform %016llx\nskeleton %s\ntask %d p=%d procs=%d "
                      "keep=%d\n",
                      (unsigned long long)cache->binary, cache->simgrid[0], cache->simgrid[1], cache->simgrid[2],
                      (unsigned long long)platform, ctx->skeleton->spec->name, task->kind, task->nranks,
                      task->keep_procs, task->keep_trace);
  for (size_t j = 0; j < ctx->scenario->nparams && used > 0 && (size_t)used < len; j++)
    if (j != ctx->p_index)
      used += snprintf(key + used, len - (size_t)used, "%s=%s\n", ctx->names[j], point->values[j]);
  return used > 0 && (size_t)used < len ? 0 : BAS_EINVAL;
}

static void entry_path(const stu_cache_t *cache, const char *key, char *path, size_t len)
{
  snprintf(path, len, "%s/%016llx.result", cache->dir, (unsigned long long)fnv(FNV_OFFSET, key, strlen(key)));
}

/* The length and checksum of an entry's result, after its key. */
typedef struct seal {
  uint64_t length;
  uint64_t checksum;
} seal_t;

typedef enum entry { ENTRY_OK = 0, ENTRY_OTHER_KEY, ENTRY_DAMAGED } entry_t;

/* Reads the header of `in`: ENTRY_OK (positioned at the result) when it is `key`'s, ENTRY_OTHER_KEY when another key
 * hashed to the same name, ENTRY_DAMAGED when it is cut short or not an entry at all. */
static entry_t read_header(FILE *in, const char *key, seal_t *seal)
{
  size_t magic = strlen(CACHE_MAGIC);
  size_t len = strlen(key);
  char *header = malloc(magic + len + 1);
  entry_t e = ENTRY_DAMAGED;
  if (header && fread(header, 1, magic + len + 1, in) == magic + len + 1 && memcmp(header, CACHE_MAGIC, magic) == 0)
    e = memcmp(header + magic, key, len) != 0 || header[magic + len] != '\0' ? ENTRY_OTHER_KEY : ENTRY_OK;
  if (e == ENTRY_OK && (fread(&seal->length, sizeof seal->length, 1, in) != 1 ||
                        fread(&seal->checksum, sizeof seal->checksum, 1, in) != 1))
    e = ENTRY_DAMAGED;
  free(header);
  return e;
}

/* Whether the rest of `in` is `seal`'s length and checksum; leaves `in` where it was. The length is checked against
 * the file's size first, so that a damaged entry of any size (a sparse 100 GiB file took 190 CPU s) is found without
 * reading it. */
static int sealed(FILE *in, const seal_t *seal)
{
  long start = ftell(in);
  struct stat st;
  uint64_t hash = FNV_OFFSET;
  int ok = start >= 0 && fstat(fileno(in), &st) == 0 && (uint64_t)(st.st_size - start) == seal->length &&
           hash_stream(in, &hash) == 0 && hash == seal->checksum && (uint64_t)(ftell(in) - start) == seal->length;
  return fseek(in, start, SEEK_SET) == 0 && ok;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
  return remove(path);
}

/* Frees the place of an entry, whatever is there: a file, a link (not what it points to), a FIFO, a folder and all it
 * holds. 0, or -1 with errno. */
static int free_place(const char *path)
{
  struct stat st;
  if (lstat(path, &st) != 0)
    return -1;
  if (!S_ISDIR(st.st_mode))
    return unlink(path);
  return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Whether entry `path` was reported already in this run; it is remembered when not. The plan asks of each entry, the
 * run takes it: one damage, one warning. */
static int reported(stu_cache_t *cache, const char *path)
{
  uint64_t name = fnv(FNV_OFFSET, path, strlen(path));
  for (size_t i = 0; i < cache->nreported; i++)
    if (cache->reported[i] == name)
      return 1;
  uint64_t *grown = realloc(cache->reported, (cache->nreported + 1) * sizeof *grown);
  if (grown) {
    cache->reported = grown;
    grown[cache->nreported++] = name;
  }
  return 0;
}

/* A damaged entry (cut short by a full disk, edited, another point's, an older format, something else in its place) is
 * removed and reported once: its point is simulated again, and its result filed in the freed place. */
static void discard(stu_cache_t *cache, const char *path, const char *why)
{
  int rc = free_place(path);
  if (rc != 0 && errno == ENOENT)
    return; /* another sweep sharing the cache was quicker */
  if (reported(cache, path))
    return;
  char message[4400];
  if (rc == 0)
    snprintf(message, sizeof message, "cache entry '%s' %s; removed it, the point is simulated again", path, why);
  else
    snprintf(message, sizeof message,
             "cache entry '%s' %s, and cannot be removed (%s); the point is simulated again on every run until "
             "you delete it",
             path, why, strerror(errno));
  if (cache->warn)
    cache->warn(message, cache->ctx);
}

/* Opens entry `path` for reading when it is a regular file, never following a link nor blocking on a FIFO. NULL with
 * *why set when something else or an unreadable file is there, NULL with *why NULL when nothing is. */
static FILE *open_entry(const char *path, const char **why)
{
  struct stat st;
  *why = NULL;
  if (lstat(path, &st) != 0)
    return NULL; /* nothing there: a miss */
  if (S_ISDIR(st.st_mode))
    *why = "is a folder";
  else if (S_ISLNK(st.st_mode))
    *why = "is a symbolic link";
  else if (!S_ISREG(st.st_mode))
    *why = "is not a regular file";
  if (*why)
    return NULL;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  FILE *in = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "rb") : NULL;
  if (!in && fd >= 0)
    close(fd);
  if (!in)
    *why = "cannot be read";
  return in;
}

FILE *stu_cache_get(stu_cache_t *cache, const char *key)
{
  char path[4200];
  seal_t seal;
  const char *why = NULL;
  entry_path(cache, key, path, sizeof path);
  FILE *in = open_entry(path, &why);
  if (!in) {
    if (why)
      discard(cache, path, why);
    return NULL;
  }
  entry_t e = read_header(in, key, &seal);
  if (e == ENTRY_OK && sealed(in, &seal)) {
    futimens(fileno(in), NULL); /* used now: the last to go when the folder is trimmed (a failure only ages it) */
    return in;
  }
  fclose(in);
  discard(cache, path,
          e == ENTRY_DAMAGED     ? "is not a complete simrun cache entry of this version"
          : e == ENTRY_OTHER_KEY ? "holds another point's result"
                                 : "does not match its checksum (damaged)");
  return NULL;
}

int stu_cache_has(stu_cache_t *cache, const char *key)
{
  FILE *in = stu_cache_get(cache, key);
  if (in)
    fclose(in);
  return in != NULL;
}

/* Copies `in` from its position to its end into `out`, summing what it copies into *seal. 0 or -1. */
static int copy_rest(FILE *in, FILE *out, seal_t *seal)
{
  char buf[65536];
  size_t n;
  *seal = (seal_t){.checksum = FNV_OFFSET};
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
    seal->checksum = fnv(seal->checksum, buf, n);
    seal->length += n;
    if (fwrite(buf, 1, n, out) != n)
      return -1;
  }
  return ferror(in) ? -1 : 0;
}

/* Writes the entry of `key` into `out`: the header with a blank seal, the result, then the seal. 0 or -1. */
static int write_entry(FILE *out, const char *key, FILE *result)
{
  seal_t seal = {0};
  if (fputs(CACHE_MAGIC, out) < 0 || fwrite(key, 1, strlen(key) + 1, out) != strlen(key) + 1)
    return -1;
  long at = ftell(out);
  if (at < 0 || fwrite(&seal, sizeof seal, 1, out) != 1 || copy_rest(result, out, &seal) != 0 ||
      fseek(out, at, SEEK_SET) != 0 || fwrite(&seal.length, sizeof seal.length, 1, out) != 1 ||
      fwrite(&seal.checksum, sizeof seal.checksum, 1, out) != 1)
    return -1;
  return 0;
}

/* An unnamed file in the cache folder (O_TMPFILE), given its name only once whole: even kill -9 leaves nothing. Falls
 * back on a named temporary file where the file system has no O_TMPFILE. NULL on failure; *tmp is "" when unnamed. */
static FILE *open_unnamed(const stu_cache_t *cache, const char *path, char *tmp, size_t len)
{
  int fd = -1;
  tmp[0] = '\0';
#ifdef O_TMPFILE
  fd = open(cache->dir, O_TMPFILE | O_RDWR, 0644);
#endif
  if (fd < 0) {
    snprintf(tmp, len, "%s.tmp.XXXXXX", path);
    fd = mkstemp(tmp);
  }
  FILE *out = fd >= 0 ? fdopen(fd, "w+b") : NULL;
  if (!out && fd >= 0)
    close(fd);
  if (!out && tmp[0] && fd >= 0)
    unlink(tmp);
  return out;
}

/* Gives the finished file its name. Another sweep sharing the cache may have filed the same key first: its entry is as
 * good as ours. */
static int name_entry(FILE *out, const char *tmp, const char *path)
{
  if (tmp[0])
    return rename(tmp, path) == 0 ? 0 : (unlink(tmp), -1);
  char self[64];
  snprintf(self, sizeof self, "/proc/self/fd/%d", fileno(out));
  return linkat(AT_FDCWD, self, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 || errno == EEXIST ? 0 : -1;
}

int stu_cache_put(const stu_cache_t *cache, const char *key, FILE *result)
{
  char path[4200];
  char tmp[4300];
  entry_path(cache, key, path, sizeof path);
  long start = ftell(result);
  FILE *out = start >= 0 ? open_unnamed(cache, path, tmp, sizeof tmp) : NULL;
  if (!out)
    return BAS_EIO;
  int rc = write_entry(out, key, result) == 0 && fflush(out) == 0 ? 0 : -1;
  rc = rc == 0 ? name_entry(out, tmp, path) : (tmp[0] ? unlink(tmp), -1 : -1);
  rc = fclose(out) != 0 ? -1 : rc;
  return fseek(result, start, SEEK_SET) != 0 || rc != 0 ? BAS_EIO : 0;
}

/* An entry of the folder: its name, size and last use. */
typedef struct kept {
  char name[32];
  uint64_t size;
  struct timespec used;
} kept_t;

/* Whether `name` is an entry's: 16 hex digits and ".result". */
static int entry_name(const char *name)
{
  return strlen(name) == 23 && strspn(name, "0123456789abcdef") == 16 && strcmp(name + 16, ".result") == 0;
}

/* The folder's entries into *out (the caller frees it), oldest first, and their sum. -1 when it cannot be read. */
static int list_entries(const stu_cache_t *cache, kept_t **out, size_t *n, uint64_t *total)
{
  DIR *dir = opendir(cache->dir);
  if (!dir)
    return -1;
  size_t cap = 0;
  *out = NULL;
  *n = 0;
  *total = 0;
  struct dirent *d;
  struct stat st;
  while ((d = readdir(dir)) != NULL) {
    if (!entry_name(d->d_name) || fstatat(dirfd(dir), d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
      continue;
    if (*n == cap) {
      kept_t *grown = realloc(*out, (cap = cap ? 2 * cap : 256) * sizeof *grown);
      if (!grown)
        break; /* trims among those listed */
      *out = grown;
    }
    kept_t *k = &(*out)[(*n)++];
    snprintf(k->name, sizeof k->name, "%s", d->d_name);
    k->size = (uint64_t)st.st_size;
    k->used = st.st_mtim;
    *total += k->size;
  }
  closedir(dir);
  return 0;
}

static int older_first(const void *a, const void *b)
{
  const struct timespec *x = &((const kept_t *)a)->used, *y = &((const kept_t *)b)->used;
  return x->tv_sec != y->tv_sec     ? (x->tv_sec < y->tv_sec ? -1 : 1)
         : x->tv_nsec != y->tv_nsec ? (x->tv_nsec < y->tv_nsec ? -1 : 1)
                                    : strcmp(((const kept_t *)a)->name, ((const kept_t *)b)->name);
}

size_t stu_cache_trim(stu_cache_t *cache, uint64_t max)
{
  kept_t *entries = NULL;
  size_t n = 0, removed = 0;
  uint64_t total = 0;
  if (list_entries(cache, &entries, &n, &total) == 0 && total > max) {
    qsort(entries, n, sizeof *entries, older_first);
    char path[4200];
    for (size_t i = 0; i < n && total > max / 4 * 3 && older_first(&entries[i], &(kept_t){.used = cache->opened}) < 0;
         i++) {
      snprintf(path, sizeof path, "%s/%s", cache->dir, entries[i].name);
      if (unlink(path) == 0 || errno == ENOENT) { /* another sweep sharing the cache may have trimmed it */
        total -= entries[i].size;
        removed++;
      }
    }
  }
  free(entries);
  return removed;
}
