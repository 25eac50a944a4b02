/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sweeps: points run in parallel give the very results of a one-at-a-time run; finished points are filed in the cache
 * and taken from it again (a doctored entry shows through), under a key that changes with the platform file; an
 * interrupted sweep keeps its finished points and resumes; the platform is a parameter like any other. */
#define _DEFAULT_SOURCE /* mkdtemp, symlink, mkfifo, truncate, setgid */

#include "app_gj.h"
#include "scn_scenario.h"
#include "sim_error.h"
#include "stu_cache.h"
#include "stu_lost_cycles.h"
#include "stu_sweep.h"
#include "tu.h"
#include "tu_run.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define DATA SIMRUN_SOURCE_DIR "/tests/data/sweep/"

static scn_scenario_t *load(const char *path)
{
  scn_scenario_t *scenario = NULL;
  scn_error_t err;
  if (scn_load(path, &scenario, &err) != 0 || scn_check(scenario, app_gj_skeleton.spec, &err) != 0)
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.message);
  return scenario;
}

/* Runs the study of `scenario` with `options`; the study, or NULL. */
static stu_study_t *run(const scn_scenario_t *scenario, const stu_options_t *options)
{
  stu_study_t *study = NULL;
  scn_error_t err;
  if (stu_run_with(scenario, &app_gj_skeleton, options, &study, &err) != 0)
    fprintf(stderr, "%s: %s\n", err.file, err.message);
  return study;
}

/* Whether two studies have the same figures, bit for bit. */
static int same_studies(const stu_study_t *a, const stu_study_t *b)
{
  if (!a || !b || a->npoints != b->npoints)
    return 0;
  for (size_t i = 0; i < a->npoints; i++) {
    const stu_point_t *x = &a->points[i];
    const stu_point_t *y = &b->points[i];
    if (x->p != y->p || x->t_par != y->t_par || x->messages != y->messages ||
        memcmp(stu_eppa(x), stu_eppa(y), sizeof(met_eppa_t)) != 0 ||
        memcmp(stu_breakdown(x), stu_breakdown(y), sizeof(met_breakdown_t)))
      return 0;
  }
  return 1;
}

/* A new empty folder for a cache; its path in `dir`. */
static void make_folder(char *dir, size_t len)
{
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, len, "%s/simrun-sweep-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
}

/* Calls fn(path) for every file of `dir`; returns how many there are. */
static size_t each_file(const char *dir, void (*fn)(const char *path))
{
  DIR *folder = opendir(dir);
  size_t count = 0;
  char path[2048];
  for (const struct dirent *entry; folder && (entry = readdir(folder));) {
    if (entry->d_name[0] == '.')
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
    if (fn)
      fn(path);
    count++;
  }
  if (folder)
    closedir(folder);
  return count;
}

static void remove_file(const char *path)
{
  CU_ASSERT_EQUAL(remove(path), 0);
}

static void remove_folder(const char *dir)
{
  each_file(dir, remove_file);
  CU_ASSERT_EQUAL(rmdir(dir), 0);
}

/* 3 processes at once: the same figures as one at a time (stu_run). */
static void test_stu_sweep_jobs_do_not_change_results(void)
{
  scn_scenario_t *scenario = load(DATA "gj-broadcasts.xml");
  CU_ASSERT_FATAL(scenario != NULL);
  stu_study_t *three = run(scenario, &(stu_options_t){.jobs = 3});
  stu_study_t *one = NULL;
  scn_error_t err;
  CU_ASSERT(tu_study_run(scenario, &app_gj_skeleton, 0, NULL, NULL, &one, &err) == 0);
  CU_ASSERT(one && one->npoints == 6 && one->points[5].t_par > 0);
  CU_ASSERT(same_studies(one, three));
  stu_free(one);
  stu_free(three);
  scn_free(scenario);
}

/* Overwrites the T_par of a cache entry (a result's "SRR2" magic, its status, then T_par) with 1234.5 s. */
static void doctor(const char *path)
{
  FILE *f = fopen(path, "r+b");
  CU_ASSERT_FATAL(f != NULL);
  char buf[8192];
  size_t n = fread(buf, 1, sizeof buf, f);
  char *magic = NULL;
  for (size_t i = 0; i + 4 <= n && !magic; i++)
    magic = memcmp(buf + i, "SRR2", 4) == 0 ? buf + i : NULL;
  CU_ASSERT_FATAL(magic != NULL);
  double forged = 1234.5;
  CU_ASSERT(fseek(f, (long)(magic - buf) + 8, SEEK_SET) == 0 && fwrite(&forged, sizeof forged, 1, f) == 1);
  fclose(f);
}

/* Copies file `from` to `to`, then appends `extra`. */
static void copy_file(const char *from, const char *to, const char *extra)
{
  FILE *in = fopen(from, "rb");
  FILE *out = fopen(to, "wb");
  CU_ASSERT_FATAL(in && out);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    CU_ASSERT(fwrite(buf, 1, n, out) == n);
  fputs(extra, out);
  fclose(in);
  fclose(out);
}

static void free_three(stu_study_t *first, stu_study_t *second, stu_study_t *third, scn_scenario_t *scenario)
{
  stu_free(first);
  stu_free(second);
  stu_free(third);
  scn_free(scenario);
}

/* The sum of the inode numbers of the cache's entries: an entry rewritten is a new file, with a new inode. */
static unsigned long long inodes;

static void add_inode(const char *path)
{
  struct stat st;
  CU_ASSERT_EQUAL(stat(path, &st), 0);
  inodes += (unsigned long long)st.st_ino;
}

static unsigned long long entry_inodes(const char *cache)
{
  inodes = 0;
  each_file(cache, add_inode);
  return inodes;
}

static size_t warnings;

static void count_warning(const char *message, void *ctx)
{
  CU_ASSERT_PTR_NOT_NULL(strstr(message, "removed it, the point is simulated again"));
  warnings++;
}

/* One cache entry per point (each group's p = 1 point gives its T_seq); a second run takes them all from the cache,
 * as their unchanged files show; once the platform file changes (a comment is enough), none of them is reused. */
static void test_stu_sweep_cache_keeps_and_reuses_points(void)
{
  char dir[1024];
  char cache[1100];
  char platform[1100];
  make_folder(dir, sizeof dir);
  snprintf(cache, sizeof cache, "%s/cache", dir);
  snprintf(platform, sizeof platform, "%s/t800-mesh-128.xml", dir);
  copy_file(SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml", platform, "");
  /* the study runs on a copy of the platform, which the test may change */
  scn_scenario_t *scenario = load(DATA "gj-broadcasts.xml");
  CU_ASSERT_FATAL(scenario != NULL);
  free(scenario->platform);
  scenario->platform = strdup(platform);
  stu_options_t options = {.jobs = 2, .cache_dir = cache};
  stu_study_t *first = run(scenario, &options);
  CU_ASSERT_FATAL(first != NULL);
  CU_ASSERT_EQUAL(each_file(cache, NULL), 6);
  unsigned long long filed = entry_inodes(cache);
  stu_study_t *second = run(scenario, &options);
  CU_ASSERT(same_studies(first, second));
  CU_ASSERT_EQUAL(entry_inodes(cache), filed);
  copy_file(SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml", platform, "<!-- changed -->\n");
  stu_study_t *third = run(scenario, &options);
  CU_ASSERT(same_studies(first, third));
  CU_ASSERT_EQUAL(each_file(cache, NULL), 12);
  free_three(first, second, third, scenario);
  remove_folder(cache);
  remove_folder(dir);
}

/* 64-bit FNV-1a of `text` (offset basis 14695981039346656037, prime 1099511628211), which names a cache entry. */
static unsigned long long fnv_of(const char *text)
{
  unsigned long long hash = 14695981039346656037ull;
  for (; *text; text++)
    hash = (hash ^ (unsigned char)*text) * 1099511628211ull;
  return hash;
}

/* Files result `bytes` bytes long under `key`, last used at `when` seconds (since 1970). */
static void put_aged(stu_cache_t *cache, const char *key, size_t bytes, time_t when)
{
  FILE *result = tmpfile();
  CU_ASSERT_FATAL(result != NULL);
  for (size_t i = 0; i < bytes; i++)
    fputc('x', result);
  rewind(result);
  CU_ASSERT_EQUAL(stu_cache_put(cache, key, result), 0);
  fclose(result);
  char path[1200];
  snprintf(path, sizeof path, "%s/%016llx.result", stu_cache_dir(cache), fnv_of(key));
  const struct timespec times[2] = {{when, 0}, {when, 0}};
  CU_ASSERT_EQUAL(utimensat(AT_FDCWD, path, times, 0), 0);
}

/* The trim of a cache beyond its bound, by hand: an entry of a 1000-byte result under a one-letter key is 15 (the
 * magic line) + 2 (key and NUL) + 16 (length and checksum) + 1000 = 1033 bytes. Four of them (a, b, c, d, used at 100,
 * 200, 300, 400 s) are 4132 bytes: within 4132 nothing goes; within 3100 the oldest go until at most 3/4 x 3100 = 2325
 * are left (a: 3099, b: 2066), c and d stay. A hit on c makes it the newest: within 2066 (d 400 s, e 500 s, c now) the
 * trim leaves 1549 at most, so d and e go and c stays. A file that is not an entry is neither counted nor removed, and
 * an entry this run filed or used (since the cache was opened) stays whatever the bound: c, and f filed now, within 1
 * byte. */
static void test_stu_sweep_cache_trimmed_to_its_bound(void)
{
  char dir[1024];
  char err[256];
  make_folder(dir, sizeof dir);
  stu_cache_t *cache = stu_cache_open(dir, NULL, NULL, err, sizeof err);
  CU_ASSERT_FATAL(cache != NULL);
  static const char *const keys[] = {"a", "b", "c", "d"};
  for (int i = 0; i < 4; i++)
    put_aged(cache, keys[i], 1000, 100 * (i + 1));
  FILE *notes = fopen(strcat(strcpy(err, dir), "/notes.txt"), "w");
  CU_ASSERT_FATAL(notes != NULL);
  fprintf(notes, "%100000d\n", 0);
  fclose(notes);
  CU_ASSERT_EQUAL(stu_cache_trim(cache, 4132), 0);
  CU_ASSERT_EQUAL(stu_cache_trim(cache, 3100), 2);
  CU_ASSERT_FALSE(stu_cache_has(cache, "a"));
  CU_ASSERT_FALSE(stu_cache_has(cache, "b"));
  CU_ASSERT_TRUE(stu_cache_has(cache, "c")); /* a hit: used now */
  put_aged(cache, "e", 1000, 500);
  CU_ASSERT_EQUAL(stu_cache_trim(cache, 2066), 2);
  CU_ASSERT_TRUE(stu_cache_has(cache, "c"));
  CU_ASSERT_FALSE(stu_cache_has(cache, "d"));
  CU_ASSERT_FALSE(stu_cache_has(cache, "e"));
  CU_ASSERT_EQUAL(access(err, F_OK), 0); /* notes.txt */
  FILE *result = tmpfile();
  CU_ASSERT_FATAL(result != NULL);
  fputs("f's result", result);
  rewind(result);
  CU_ASSERT_EQUAL(stu_cache_put(cache, "f", result), 0);
  fclose(result);
  CU_ASSERT_EQUAL(stu_cache_trim(cache, 1), 0);
  CU_ASSERT_TRUE(stu_cache_has(cache, "c") && stu_cache_has(cache, "f"));
  stu_cache_free(cache);
  remove_folder(dir);
}

/* A new folder into dir (1024 bytes), the path of a cache in it into cache (1100 bytes), and scenario `path` loaded. */
static scn_scenario_t *cache_and_scenario(char *dir, char *cache, const char *path)
{
  make_folder(dir, 1024);
  snprintf(cache, 1100, "%s/cache", dir);
  scn_scenario_t *scenario = load(path);
  CU_ASSERT_FATAL(scenario != NULL);
  return scenario;
}

/* The size of the largest file each_file visits. */
static off_t largest;

static void note_size(const char *path)
{
  struct stat st;
  CU_ASSERT_EQUAL(stat(path, &st), 0);
  largest = st.st_size > largest ? st.st_size : largest;
}

/* A per-process point's cache entry holds its pictures (met_pixels.h), not its whole trace, so that it grows with its
 * ranks and columns: per rank at most the raster's 1,100 columns (a byte each), 331 message paths (8 bytes each) and
 * 3 x 468 + 2 page segments (40 bytes each: 30,000 / 64 columns a rank, a segment either a whole interval a column long
 * or more or the shorter ones of one column), 1 KiB of views, and 64 KiB for the key and headers: 3.97 MB at p = 64.
 * gj256's one-to-all run at p = 64 has 65,405 intervals, whose whole trace (84 bytes an interval as met_trace_write
 * writes it: the 5.96 MB entry simrun made before) is beyond the bound. The second run, from the cache, draws the same
 * columns. */
static void test_stu_sweep_cache_entry_bounded_by_pixels(void)
{
  enum { P = 64, COLUMNS = MET_PAGE_SEGMENTS / P };
  char dir[1024];
  char cache[1100];
  scn_scenario_t *scenario = cache_and_scenario(dir, cache, DATA "gj-timeline.xml");
  stu_options_t options = {.per_process = P, .cache_dir = cache};
  stu_study_t *first = run(scenario, &options), *second = run(scenario, &options);
  CU_ASSERT_FATAL(first && second && first->npoints == 2 && first->points[1].pixels && second->points[1].pixels);
  double bound = P * (MET_PIXELS_COLS + 8.0 * MET_PIXELS_LINES + 40.0 * (3 * COLUMNS + 2) + 1024) + 65536;
  size_t intervals = met_pixels_intervals(first->points[1].pixels);
  CU_ASSERT_EQUAL(intervals, 65405);
  CU_ASSERT(84.0 * (double)intervals > bound);
  largest = 0;
  CU_ASSERT_EQUAL(each_file(cache, note_size), 2);
  CU_ASSERT((double)largest < bound);
  for (int r = 0; r < P; r++)
    CU_ASSERT(memcmp(met_pixels_row(first->points[1].pixels, r), met_pixels_row(second->points[1].pixels, r),
                     MET_PIXELS_COLS) == 0);
  free_three(first, second, NULL, scenario);
  remove_folder(cache);
  remove_folder(dir);
}

/* Asserts that `path` is a regular file (the entries a third run leaves). */
static void regular_entry(const char *path)
{
  struct stat st;
  CU_ASSERT(lstat(path, &st) == 0 && S_ISREG(st.st_mode));
}

/* Truncates a cache entry by 3 bytes. */
static void truncate_entry(const char *path)
{
  struct stat st;
  CU_ASSERT(stat(path, &st) == 0 && truncate(path, st.st_size - 3) == 0);
}

/* Flips the bits of the entry's middle byte. */
static void flip_byte(const char *path)
{
  struct stat st;
  FILE *f = fopen(path, "r+b");
  CU_ASSERT_FATAL(f && stat(path, &st) == 0);
  CU_ASSERT_EQUAL(fseek(f, st.st_size / 2, SEEK_SET), 0);
  int c = fgetc(f);
  CU_ASSERT(fseek(f, st.st_size / 2, SEEK_SET) == 0 && fputc(c ^ 0xff, f) != EOF);
  fclose(f);
}

static void zero_length(const char *path)
{
  CU_ASSERT_EQUAL(truncate(path, 0), 0);
}

/* Appends a byte: the result's length no longer matches its seal. */
static void append_byte(const char *path)
{
  FILE *f = fopen(path, "ab");
  CU_ASSERT_FATAL(f != NULL);
  fputc('x', f);
  fclose(f);
}

/* An entry grown to 100 GiB, sparse: found damaged by its size, without reading it (hashed to its end, it took 190 CPU
 * s and 6 of them took half an hour). */
static void grow_sparse(const char *path)
{
  CU_ASSERT_EQUAL(truncate(path, (off_t)100 << 30), 0);
}

/* An entry of an older format: "simrun-cache 3", whose messages carried no transfer from their send. */
static void stale_version(const char *path)
{
  FILE *f = fopen(path, "r+b");
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT(fseek(f, 13, SEEK_SET) == 0 && fputc('3', f) != EOF);
  fclose(f);
}

/* No one may read it (effective for a user other than root: see expect_unreadable_repaired). */
static void unreadable(const char *path)
{
  CU_ASSERT_EQUAL(chmod(path, 0), 0);
}

static void empty_folder(const char *path)
{
  CU_ASSERT(remove(path) == 0 && mkdir(path, 0777) == 0);
}

/* A folder holding a file and a folder. */
static void full_folder(const char *path)
{
  char inner[2100];
  empty_folder(path);
  snprintf(inner, sizeof inner, "%s/inner", path);
  CU_ASSERT_EQUAL(mkdir(inner, 0777), 0);
  snprintf(inner, sizeof inner, "%s/file", path);
  FILE *f = fopen(inner, "w");
  CU_ASSERT_FATAL(f != NULL);
  fclose(f);
}

/* A symbolic link to a whole, valid entry, but another point's (the first entry in the folder besides this one). */
static void link_elsewhere(const char *path)
{
  char target[2100];
  snprintf(target, sizeof target, "%s.kept", path);
  CU_ASSERT(rename(path, target) == 0 && symlink(target, path) == 0);
}

static void fifo(const char *path)
{
  CU_ASSERT(remove(path) == 0 && mkfifo(path, 0600) == 0);
}

/* Every entry replaced by another point's whole entry: the entries' contents go round, each to the next name. */
static void swap_points(const char *cache)
{
  char paths[16][2048];
  size_t n = 0;
  DIR *folder = opendir(cache);
  for (const struct dirent *entry; folder && n < 16 && (entry = readdir(folder));)
    if (entry->d_name[0] != '.')
      snprintf(paths[n++], sizeof paths[0], "%s/%s", cache, entry->d_name);
  if (folder)
    closedir(folder);
  char spare[2100];
  snprintf(spare, sizeof spare, "%s/.spare", cache);
  CU_ASSERT_FATAL(n > 1 && rename(paths[0], spare) == 0);
  for (size_t i = 1; i < n; i++)
    CU_ASSERT_EQUAL(rename(paths[i], paths[i - 1]), 0);
  CU_ASSERT_EQUAL(rename(spare, paths[n - 1]), 0);
}

/* Removes the link targets link_elsewhere kept beside the entries. */
static void remove_kept(const char *path)
{
  size_t len = strlen(path);
  if (len > 5 && strcmp(path + len - 5, ".kept") == 0)
    CU_ASSERT_EQUAL(remove(path), 0);
}

/* The damage done to every entry by damage_each (swap_points needs them all at once). */
static void (*damage_one)(const char *path);

static void damage_each(const char *cache)
{
  each_file(cache, damage_one);
}

/* A cache filled by a first run of gj-broadcasts.xml, and that run's study: each damage is done to a copy of it, so
 * that the run is made once, not once per damage (test_stu_sweep_cache_damage_is_repaired: 1.96 s before, 1.33). */
static struct {
  char dir[1024];
  scn_scenario_t *scenario; /* gj-broadcasts.xml, which the study and every repairing run borrow */
  stu_study_t *study;
} filled;
static char copy_to[1100]; /* the cache each_file(filled.dir, copy_entry) copies the entries into */

static void copy_entry(const char *path)
{
  char to[2200];
  snprintf(to, sizeof to, "%s/%s", copy_to, strrchr(path, '/') + 1);
  copy_file(path, to, "");
}

/* Fills `filled` when it is empty (the scenario loaded, its study run into a new cache); copies its entries into the
 * new folder `cache`. */
static void copy_filled_cache(const char *cache)
{
  if (!filled.study) {
    filled.scenario = load(DATA "gj-broadcasts.xml");
    CU_ASSERT_FATAL(filled.scenario != NULL);
    make_folder(filled.dir, sizeof filled.dir);
    stu_options_t options = {.jobs = 2, .cache_dir = filled.dir, .warn = count_warning};
    filled.study = run(filled.scenario, &options);
    CU_ASSERT_FATAL(filled.study != NULL);
  }
  CU_ASSERT_EQUAL_FATAL(mkdir(cache, 0777), 0);
  snprintf(copy_to, sizeof copy_to, "%s", cache);
  CU_ASSERT_EQUAL(each_file(filled.dir, copy_entry), 6);
}

/* Frees what copy_filled_cache made and removes its cache. */
static void forget_filled_cache(void)
{
  stu_free(filled.study);
  scn_free(filled.scenario);
  filled.study = NULL;
  filled.scenario = NULL;
  remove_folder(filled.dir);
}

/* Damaged entries (a doubled T_par used to be taken as it was; a truncated one failed every later run; another
 * point's entry, an unreadable one or a full folder in its place were never healed) are each reported once, removed
 * and recomputed: the results are those of a fresh run, and a third run warns of nothing and finds 6 whole entries.
 * `damage_all` damages a copy of the filled cache. */
static void expect_damage_repaired(void (*damage_all)(const char *cache))
{
  char dir[1024];
  char cache[1100];
  make_folder(dir, sizeof dir);
  snprintf(cache, sizeof cache, "%s/cache", dir);
  copy_filled_cache(cache);
  stu_options_t options = {.jobs = 2, .cache_dir = cache, .warn = count_warning};
  damage_all(cache);
  warnings = 0;
  stu_study_t *second = run(filled.scenario, &options);
  CU_ASSERT(same_studies(filled.study, second));
  CU_ASSERT_EQUAL(warnings, 6);
  warnings = 0;
  stu_study_t *third = run(filled.scenario, &options);
  CU_ASSERT(same_studies(filled.study, third));
  CU_ASSERT_EQUAL(warnings, 0);
  each_file(cache, remove_kept);
  CU_ASSERT_EQUAL(each_file(cache, regular_entry), 6);
  stu_free(second);
  stu_free(third);
  remove_folder(cache);
  remove_folder(dir);
}

static void test_stu_sweep_cache_damage_is_repaired(void)
{
  void (*const damages[])(const char *) = {doctor,      truncate_entry, flip_byte,     zero_length,
                                           append_byte, grow_sparse,    stale_version, empty_folder,
                                           full_folder, link_elsewhere, fifo};
  for (size_t i = 0; i < sizeof damages / sizeof damages[0]; i++) {
    damage_one = damages[i];
    expect_damage_repaired(damage_each);
  }
  expect_damage_repaired(swap_points);
  forget_filled_cache();
}

/* Drops the capabilities that let root read any file (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH) from this process and
 * the ones it forks: a file of mode 000 is then unreadable, while the checkout, root's own, stays readable (switching
 * to user nobody could not read a checkout in a folder of mode 0700, such as mktemp -d makes). 0, or -1. */
static int drop_read_anything(void)
{
  struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct data[2];
  if (syscall(SYS_capget, &header, data) != 0)
    return -1;
  data[0].effective &= ~((1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH));
  return syscall(SYS_capset, &header, data) == 0 ? 0 : -1;
}

/* An unreadable entry: root reads every file, so the test runs in a child process without root's right to read
 * anything when it is root. The child's failed assertions are its exit status. */
static void test_stu_sweep_cache_unreadable_is_repaired(void)
{
  if (geteuid() != 0) {
    damage_one = unreadable;
    expect_damage_repaired(damage_each);
    forget_filled_cache();
    return;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    unsigned before = CU_get_number_of_failures();
    if (drop_read_anything() != 0)
      _exit(100);
    damage_one = unreadable;
    expect_damage_repaired(damage_each);
    forget_filled_cache();
    _exit((int)(CU_get_number_of_failures() - before));
  }
  int wstatus = 0;
  CU_ASSERT_EQUAL(waitpid(pid, &wstatus, 0), pid);
  CU_ASSERT(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
}

static size_t finished;
static stu_progress_t last_progress;

static void count_points(const stu_progress_t *at, void *ctx)
{
  finished = at->done;
  last_progress = *at;
}

/* Stops once 3 points are finished, as a SIGINT handler would. */
static int stop_after_three(void)
{
  return finished >= 3;
}

/* Interrupted after 3 points, the study fails with SIM_EINTR and says where the finished points are; at least those 3
 * are in the cache; the next run completes with the figures of an uninterrupted one. The progress's predicted
 * schedule: per point 8e3 (STU_TASK_FIXED_WORK) and N (1 + p + the broadcast's operations) + 4 (p - 1) for
 * Gauss-Jordan at N = 24, by hand: a broadcast among 2 is 1 message (2 operations, one per end), among 4 three
 * (binomial: 0 to 2, then 0 to 1 and 2 to 3; mesh on a 2 x 2 grid: along the root's row, then down both columns), so
 * 8048, 8124 and 8276 at p = 1, 2, 4 for each of the 2 broadcasts. On 2 jobs the two p = 1 runs (the sequential phase)
 * end at 8048; then binomial's p = 2 and 4 start, ending at 16172 and 16324, mesh's p = 2 follows the first (24296)
 * and p = 4 the second: 24600 in all. The resumed run's schedule holds only the points the cache lacked (shorter, at
 * least one point long), and all of it is done at its end. */
static void test_stu_sweep_interrupted_sweep_resumes(void)
{
  char dir[1024];
  make_folder(dir, sizeof dir);
  scn_scenario_t *scenario = load(DATA "gj-broadcasts.xml");
  CU_ASSERT_FATAL(scenario != NULL);
  finished = 0;
  stu_options_t options = {.jobs = 2, .cache_dir = dir, .stop = stop_after_three, .progress = count_points};
  stu_study_t *study = NULL;
  scn_error_t err;
  CU_ASSERT_EQUAL(stu_run_with(scenario, &app_gj_skeleton, &options, &study, &err), SIM_EINTR);
  CU_ASSERT(study == NULL && strstr(err.message, "interrupted after ") && strstr(err.message, "of 6 points") &&
            strstr(err.message, dir) && strstr(err.message, "run the same command again to resume"));
  size_t kept = each_file(dir, NULL);
  CU_ASSERT(kept >= 3 && kept < 6);
  CU_ASSERT_DOUBLE_EQUAL(last_progress.work_total, 24600, 1e-6);
  options.stop = NULL;
  stu_study_t *resumed = run(scenario, &options);
  CU_ASSERT(last_progress.work_total < 24600 && last_progress.work_total >= 8048);
  CU_ASSERT_DOUBLE_EQUAL(last_progress.work_done, last_progress.work_total, 1e-6);
  CU_ASSERT_EQUAL(last_progress.done, 6);
  stu_study_t *fresh = run(scenario, &(stu_options_t){.jobs = 1});
  CU_ASSERT(same_studies(resumed, fresh));
  CU_ASSERT_EQUAL(each_file(dir, NULL), 6);
  stu_free(resumed);
  stu_free(fresh);
  scn_free(scenario);
  remove_folder(dir);
}

/* A swept platform overrides <platform>: the switch's messages cross 2 links where the mesh's cross 1, so its runs
 * are slower; both have the same sequential time (same hosts); each point names its own platform file. */
static void test_stu_sweep_platform_parameter(void)
{
  scn_scenario_t *scenario = load(DATA "gj-platforms.xml");
  CU_ASSERT_FATAL(scenario != NULL);
  stu_study_t *study = run(scenario, &(stu_options_t){.jobs = 2});
  CU_ASSERT_FATAL(study && study->npoints == 4);
  CU_ASSERT(strstr(stu_platform(study, &study->points[0]), "t800-mesh-16x8.xml") != NULL);
  CU_ASSERT(strstr(stu_platform(study, &study->points[3]), "t800-switch-128.xml") != NULL);
  for (size_t i = 0; i < 2; i++) {
    CU_ASSERT(study->points[i + 2].t_par > study->points[i].t_par);
    CU_ASSERT_EQUAL(stu_eppa(&study->points[i + 2])->t_seq, stu_eppa(&study->points[i])->t_seq);
  }
  stu_free(study);
  scn_free(scenario);
}

/* A platform value that does not exist is refused when the scenario is loaded, at the line of the parameter. */
static void test_stu_sweep_platform_parameter_missing_file(void)
{
  scn_scenario_t *scenario = NULL;
  scn_error_t err;
  CU_ASSERT(scn_load(DATA "missing-platform.xml", &scenario, &err) != 0);
  CU_ASSERT_EQUAL(err.line, 9);
  CU_ASSERT(strstr(err.message, "no-such-platform.xml' not found") != NULL);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_stu_sweep_jobs_do_not_change_results", test_stu_sweep_jobs_do_not_change_results},
      {"test_stu_sweep_cache_keeps_and_reuses_points", test_stu_sweep_cache_keeps_and_reuses_points},
      {"test_stu_sweep_cache_trimmed_to_its_bound", test_stu_sweep_cache_trimmed_to_its_bound},
      {"test_stu_sweep_cache_entry_bounded_by_pixels", test_stu_sweep_cache_entry_bounded_by_pixels},
      {"test_stu_sweep_cache_damage_is_repaired", test_stu_sweep_cache_damage_is_repaired},
      {"test_stu_sweep_cache_unreadable_is_repaired", test_stu_sweep_cache_unreadable_is_repaired},
      {"test_stu_sweep_interrupted_sweep_resumes", test_stu_sweep_interrupted_sweep_resumes},
      {"test_stu_sweep_platform_parameter", test_stu_sweep_platform_parameter},
      {"test_stu_sweep_platform_parameter_missing_file", test_stu_sweep_platform_parameter_missing_file},
      {NULL, NULL}};
  return tu_run("stu_sweep", cases);
}
