/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unnamed temporary files (bas_temp.h): made in $TMPDIR, else /tmp; readable and writable; no name in the folder at
 * any moment where the file system can make an unnamed file (O_TMPFILE), else none once made; the caller's signal
 * mask as it was; a folder that does not exist refused with errno set. */
#define _GNU_SOURCE /* O_TMPFILE */
#include "bas_temp.h"
#include "tu.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The entries of folder `dir` other than "." and "..". */
static int entries(const char *dir)
{
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e = d ? readdir(d) : NULL; e; e = readdir(d))
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  if (d)
    closedir(d);
  return n;
}

/* Whether the file system of `dir` makes unnamed files (O_TMPFILE). */
static int makes_unnamed(const char *dir)
{
  int fd = open(dir, O_TMPFILE | O_RDWR, 0600);
  if (fd >= 0)
    close(fd);
  return fd >= 0;
}

/* A file made in a new folder named by TMPDIR: 5 bytes written and read back, the folder empty while it is open and
 * after; the descriptor's link (/proc/self/fd) names no simrun-temp-* where the file system makes unnamed files (the
 * file never had one); the signal mask as before. */
static void test_temp_file_in_tmpdir_unnamed(void)
{
  char dir[] = "/tmp/bas-temp-test-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  char *saved = tu_env_swap("TMPDIR", dir);
  CU_ASSERT_STRING_EQUAL(bas_temp_dir(), dir);
  sigset_t before, after;
  pthread_sigmask(SIG_SETMASK, NULL, &before);
  FILE *file = bas_temp_file();
  pthread_sigmask(SIG_SETMASK, NULL, &after);
  CU_ASSERT_PTR_NOT_NULL_FATAL(file);
  int changed = 0;
  for (int signal = 1; signal <= SIGRTMAX; signal++)
    changed += sigismember(&before, signal) != sigismember(&after, signal);
  CU_ASSERT_EQUAL(changed, 0);
  CU_ASSERT_EQUAL(fwrite("hello", 1, 5, file), 5);
  rewind(file);
  char back[8] = "";
  CU_ASSERT_EQUAL(fread(back, 1, 5, file), 5);
  CU_ASSERT_STRING_EQUAL(back, "hello");
  CU_ASSERT_EQUAL(entries(dir), 0);
  char link[64], target[4096] = "";
  snprintf(link, sizeof link, "/proc/self/fd/%d", fileno(file));
  CU_ASSERT(readlink(link, target, sizeof target - 1) > 0);
  CU_ASSERT(strncmp(target, dir, strlen(dir)) == 0);
  CU_ASSERT(!makes_unnamed(dir) || strstr(target, "simrun-temp-") == NULL);
  fclose(file);
  CU_ASSERT_EQUAL(entries(dir), 0);
  CU_ASSERT_EQUAL(rmdir(dir), 0);
  tu_env_restore("TMPDIR", saved);
}

/* TMPDIR naming a folder that does not exist: NULL, errno ENOENT; empty: /tmp. */
static void test_temp_file_refuses_missing_folder(void)
{
  char *saved = tu_env_swap("TMPDIR", "/nonexistent-simrun-folder/below");
  errno = 0;
  CU_ASSERT_PTR_NULL(bas_temp_file());
  CU_ASSERT_EQUAL(errno, ENOENT);
  setenv("TMPDIR", "", 1);
  CU_ASSERT_STRING_EQUAL(bas_temp_dir(), "/tmp");
  tu_env_restore("TMPDIR", saved);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_temp_file_in_tmpdir_unnamed", test_temp_file_in_tmpdir_unnamed},
                                    {"test_temp_file_refuses_missing_folder", test_temp_file_refuses_missing_folder},
                                    {NULL, NULL}};
  return tu_run("bas_temp", cases);
}
