/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Output files that appear whole or not at all: written under a temporary name, renamed on success. Inside the output
 * transaction (rep_file_begin) every output of a run is only closed on commit and renamed with all the others at its
 * end, so that a signal or a failure at any moment leaves the earlier outputs as they were. */
#define _GNU_SOURCE /* mkstemp, fchmod, kill */

#include "rep_report.h"
#include "bas_error.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct rep_file {
  char *path; /* "-": standard output, written from an unnamed temporary file on commit */
  char *temp;
  FILE *stream;
  rep_file_t *next; /* in the transaction's list */
};

/* A step that is not one file (rep_file_defer). */
typedef struct deferred {
  rep_defer_fn commit;
  void (*rollback)(void *state);
  void *state;
  struct deferred *next;
} deferred_t;

/* The transaction: a mutex, since a watchdog thread may roll it back while the main thread writes (cli_signal.c). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int open_txn;          /* between rep_file_begin and rep_file_end */
static int closed;            /* rolled back: nothing more may be opened */
static int ended;             /* the last rep_file_end wrote every output */
static int immediate;         /* rep_file_immediate */
static rep_file_t *files;     /* open or complete, awaiting their rename */
static deferred_t *deferreds; /* in the order given */

/* Temporary folders being written (rep_file_guard_tree), removed if the run is ended meanwhile. */
typedef struct guarded {
  char *path;
  struct guarded *next;
} guarded_t;
static guarded_t *guarded;

static int is_stdout(const char *path)
{
  return strcmp(path, "-") == 0;
}

/* Removes the temporary files of `path` that a simrun killed by kill -9 left behind ("PATH.tmp.PID.XXXXXX" whose
 * process is gone); another run's live ones are left alone. */
static void remove_stale(const char *path)
{
  char folder[4096];
  snprintf(folder, sizeof folder, "%s", path);
  char *slash = strrchr(folder, '/');
  const char *base = slash ? slash + 1 : path;
  if (slash)
    slash[slash == folder] = '\0';
  DIR *dir = opendir(slash ? folder : ".");
  size_t len = strlen(base);
  for (struct dirent *e; dir && (e = readdir(dir));) {
    char *end = NULL;
    if (strncmp(e->d_name, base, len) != 0 || strncmp(e->d_name + len, ".tmp.", 5) != 0)
      continue;
    long pid = strtol(e->d_name + len + 5, &end, 10);
    char stale[8192];
    snprintf(stale, sizeof stale, "%s/%s", slash ? folder : ".", e->d_name);
    if (pid > 0 && *end == '.' && strlen(end) == 7 && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
      unlink(stale);
  }
  if (dir)
    closedir(dir);
}

/* Creates the file's temporary: "PATH.tmp.PID.XXXXXX", or an unnamed one for standard output. 0 or -1 (errno). */
static int make_temp(rep_file_t *file, size_t len)
{
  if (is_stdout(file->path)) {
    file->stream = tmpfile();
    return file->stream ? 0 : -1;
  }
  if (!(file->temp = malloc(len + 40)))
    return -1;
  snprintf(file->temp, len + 40, "%s.tmp.%ld.XXXXXX", file->path, (long)getpid());
  int fd = mkstemp(file->temp);
  if (fd < 0) {
    free(file->temp);
    file->temp = NULL;
    return -1;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask); /* as a plain fopen would have made it, not mkstemp's 0600 */
  if ((file->stream = fdopen(fd, "w")))
    return 0;
  int saved = errno;
  close(fd);
  errno = saved;
  return -1;
}

static void release(rep_file_t *file)
{
  free(file->temp);
  free(file->path);
  free(file);
}

/* Takes `file` out of the transaction's list (nothing when it is not there). Under the lock. */
static void unlist(rep_file_t *file)
{
  for (rep_file_t **at = &files; *at; at = &(*at)->next)
    if (*at == file) {
      *at = file->next;
      return;
    }
}

/* Closes and removes the file's temporary, and frees it. */
static void discard(rep_file_t *file)
{
  if (file->stream)
    fclose(file->stream);
  if (file->temp)
    unlink(file->temp);
  release(file);
}

rep_file_t *rep_file_open(const char *path, char *err, size_t errlen)
{
  rep_file_t *file = calloc(1, sizeof *file);
  size_t len = strlen(path);
  if (!file || !(file->path = strdup(path))) {
    snprintf(err, errlen, "out of memory");
    free(file);
    return NULL;
  }
  if (!is_stdout(path))
    remove_stale(path);
  pthread_mutex_lock(&lock);
  int rc = closed ? (errno = EINTR, -1) : make_temp(file, len);
  if (rc == 0) {
    file->next = files;
    files = file;
  }
  pthread_mutex_unlock(&lock);
  if (rc == 0)
    return file;
  snprintf(err, errlen, "cannot write '%s': %s; check that its folder exists and is writable", path, strerror(errno));
  discard(file);
  return NULL;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
  return remove(path);
}

void rep_file_remove_tree(const char *path)
{
  nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

FILE *rep_file_stream(rep_file_t *file)
{
  return file->stream;
}

/* Copies the temporary of a "-" file to standard output. 0, or -1 with errno. */
static int copy_to_stdout(FILE *in)
{
  char buf[65536];
  size_t n;
  rewind(in);
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, n, stdout) != n)
      return -1;
  return ferror(in) || fflush(stdout) != 0 ? -1 : 0;
}

/* Gives a complete file its name (or its contents to standard output). 0, or -1 with errno. */
static int publish(rep_file_t *file)
{
  if (is_stdout(file->path))
    return copy_to_stdout(file->stream);
  return rename(file->temp, file->path);
}

/* Closes the stream of a complete file (a "-" file's stays open for publish). 0, or -1 with errno. */
static int finish_writing(rep_file_t *file)
{
  int failed = ferror(file->stream) || fflush(file->stream) != 0;
  if (failed || is_stdout(file->path))
    return failed ? -1 : 0;
  FILE *stream = file->stream;
  file->stream = NULL;
  return fclose(stream);
}

int rep_file_commit(rep_file_t *file, char *err, size_t errlen)
{
  errno = 0;
  int rc = finish_writing(file);
  pthread_mutex_lock(&lock);
  int held = rc == 0 && open_txn && !closed && !immediate;
  if (!held) {
    unlist(file);
    rc = rc == 0 && !closed ? publish(file) : -1;
  }
  pthread_mutex_unlock(&lock);
  if (held)
    return 0; /* renamed by rep_file_end */
  if (rc != 0)
    snprintf(err, errlen, "cannot write '%s': %s", file->path, strerror(errno ? errno : EIO));
  if (file->temp && rc == 0) {
    free(file->temp);
    file->temp = NULL;
  }
  discard(file);
  return rc;
}

void rep_file_abort(rep_file_t *file)
{
  if (!file)
    return;
  pthread_mutex_lock(&lock);
  unlist(file);
  pthread_mutex_unlock(&lock);
  discard(file);
}

void rep_file_immediate(int on)
{
  pthread_mutex_lock(&lock);
  immediate = on;
  pthread_mutex_unlock(&lock);
}

void rep_file_begin(void)
{
  pthread_mutex_lock(&lock);
  open_txn = 1;
  ended = 0; /* an earlier transaction's in the same process (cli_main called again) says nothing of this one */
  pthread_mutex_unlock(&lock);
}

int rep_file_defer(rep_defer_fn commit, void (*rollback)(void *state), void *state, char *err, size_t errlen)
{
  deferred_t *d = malloc(sizeof *d);
  pthread_mutex_lock(&lock);
  int now = !open_txn || closed || !d;
  if (!now) {
    *d = (deferred_t){.commit = commit, .rollback = rollback, .state = state};
    deferred_t **at = &deferreds;
    while (*at)
      at = &(*at)->next;
    *at = d;
  }
  pthread_mutex_unlock(&lock);
  if (!now)
    return 0;
  free(d);
  if (!closed)
    return commit(state, err, errlen) == 0 ? 0 : BAS_EIO;
  rollback(state);
  snprintf(err, errlen, "interrupted");
  return BAS_EINTR;
}

/* Files in the order they were opened (the list holds them newest first). Under the lock. */
static rep_file_t *reversed(rep_file_t *list)
{
  rep_file_t *out = NULL;
  while (list) {
    rep_file_t *next = list->next;
    list->next = out;
    out = list;
    list = next;
  }
  return out;
}

/* `list` with its standard-output files first, each part in its order: a reader gone (SIGPIPE) stops the transaction
 * before any file is renamed. */
static rep_file_t *stdout_first(rep_file_t *list)
{
  rep_file_t *outs = NULL, **outs_end = &outs, *rest = NULL, **rest_end = &rest;
  for (rep_file_t *f = list, *next; f; f = next) {
    next = f->next;
    f->next = NULL;
    rep_file_t ***end = is_stdout(f->path) ? &outs_end : &rest_end;
    **end = f;
    *end = &f->next;
  }
  *outs_end = rest;
  return outs;
}

/* Removes every temporary and undoes every deferred step. Under the lock. With `keep_records`, the files' streams and
 * records are left to the thread that writes them (it may be inside an fprintf to one: closing or freeing it there was
 * a use after free, seen under valgrind when a signal's watchdog ended a run); only their temporaries go. */
static void roll_back_locked(int keep_records)
{
  for (rep_file_t *f = files, *next; f; f = next) {
    next = f->next;
    if (!keep_records)
      discard(f);
    else if (f->temp)
      unlink(f->temp);
  }
  deferred_t *last_first = NULL; /* undone in the reverse order: an archive's folder before the folder made for it */
  for (deferred_t *d = deferreds, *next; d; d = next) {
    next = d->next;
    d->next = last_first;
    last_first = d;
  }
  for (deferred_t *d = last_first, *next; d; d = next) {
    next = d->next;
    d->rollback(d->state);
    free(d);
  }
  files = NULL;
  deferreds = NULL;
  open_txn = 0;
}

int rep_file_end(char *err, size_t errlen)
{
  pthread_mutex_lock(&lock);
  int rc = closed ? -1 : 0;
  if (closed)
    snprintf(err, errlen, "interrupted");
  rep_file_t *list = stdout_first(reversed(files));
  files = NULL;
  for (rep_file_t *f = list, *next; f; f = next) {
    next = f->next;
    if (rc == 0 && (f->stream && !is_stdout(f->path) ? (errno = EBUSY, -1) : publish(f)) != 0) {
      snprintf(err, errlen, "cannot write '%s': %s", f->path, strerror(errno ? errno : EIO));
      rc = -1;
    }
    if (rc == 0 && f->temp) {
      free(f->temp);
      f->temp = NULL;
    }
    discard(f);
  }
  for (deferred_t *d = deferreds, *next; d; d = next) {
    next = d->next;
    if (rc == 0)
      rc = d->commit(d->state, err, errlen) == 0 ? 0 : -1;
    else
      d->rollback(d->state);
    free(d);
  }
  deferreds = NULL;
  open_txn = 0;
  ended = rc == 0;
  pthread_mutex_unlock(&lock);
  return rc;
}

void rep_file_rollback(void)
{
  pthread_mutex_lock(&lock);
  roll_back_locked(0);
  pthread_mutex_unlock(&lock);
}

int rep_file_guard_tree(const char *path)
{
  guarded_t *g = malloc(sizeof *g);
  if (!g || !(g->path = strdup(path))) {
    free(g);
    return BAS_ENOMEM;
  }
  pthread_mutex_lock(&lock);
  g->next = guarded;
  guarded = g;
  pthread_mutex_unlock(&lock);
  return 0;
}

void rep_file_unguard_tree(const char *path)
{
  pthread_mutex_lock(&lock);
  for (guarded_t **at = &guarded; *at; at = &(*at)->next)
    if (strcmp((*at)->path, path) == 0) {
      guarded_t *g = *at;
      *at = g->next;
      free(g->path);
      free(g);
      break;
    }
  pthread_mutex_unlock(&lock);
}

int rep_file_close_all(void)
{
  struct timespec limit;
  clock_gettime(CLOCK_REALTIME, &limit);
  limit.tv_nsec += 200000000L; /* a rep_file_end writing to a stalled standard output holds the lock: not for long */
  limit.tv_sec += limit.tv_nsec / 1000000000L;
  limit.tv_nsec %= 1000000000L;
  if (pthread_mutex_timedlock(&lock, &limit) != 0)
    return BAS_EIO;
  int written = ended && !files && !deferreds;
  roll_back_locked(1);                         /* called from the watchdog thread, which ends the process at once */
  for (guarded_t *g = guarded; g; g = g->next) /* the writer's: left allocated */
    rep_file_remove_tree(g->path);
  closed = 1;
  pthread_mutex_unlock(&lock);
  return written;
}
