/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SimGrid's actors under AddressSanitizer (sim_ucontext.h): in a sanitised build they run as ucontexts whose switches
 * ASan is told of, so that a simulation whose actors message each other, end, and are killed (SimGrid unwinds a
 * killed actor's stack with an exception) says nothing on standard error, where ASan warned of its own swapcontext and
 * of the exception on a stack it did not know; and ASan still finds a read past an array on an actor's stack. Each
 * simulation runs in a child process, its standard error kept. */
#include "sim_engine.h"
#include "sim_ucontext.h"
#include "tu.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PLATFORM SIMRUN_SOURCE_DIR "/tests/data/cli/two-hosts.xml"

static int payload = 1;

static void sender(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  sg_mailbox_put(sg_mailbox_by_name("box"), &payload, 1000);
}

static void receiver(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  sg_mailbox_get(sg_mailbox_by_name("box"));
}

static void sleeper(int argc, char **argv) /* killed while it sleeps */
{
  (void)argc;
  (void)argv;
  sg_actor_sleep_for(100);
}

static void killer(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  sg_actor_sleep_for(1);
  sg_actor_kill(sg_actor_by_pid(3));
}

static volatile int past = 8; /* an index the compiler cannot see is out of bounds */

static void overflower(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  int local[8] = {0}, copy[9];
  sg_actor_sleep_for(1); /* after a switch away and back; memcpy, since UBSan would stop an indexed read first */
  memcpy(copy, local, (size_t)(past + 1) * sizeof *local);
  printf("%d\n", copy[past]);
}

/* Runs the actors `fn` (n of them, on hosts h0 and h1 in turn; pids from 1) in a child process: its exit status, its
 * standard error in err. */
static int simulate(void (*const *fn)(int, char **), int n, char *err, size_t errlen)
{
  char path[] = "/tmp/simrun-ucontext-XXXXXX";
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  pid_t pid = fork();
  CU_ASSERT_FATAL(pid >= 0);
  if (pid == 0) {
    dup2(fd, 2);
    char why[1024];
    if (sim_engine_start(PLATFORM, why, sizeof why) != 0)
      _exit(3);
    for (int i = 0; i < n; i++)
      sg_actor_create("actor", sg_host_by_name(i % 2 ? "h1" : "h0"), fn[i], 0, NULL);
    simgrid_run();
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ssize_t got = pread(fd, err, errlen - 1, 0);
  err[got > 0 ? got : 0] = '\0';
  close(fd);
  unlink(path);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Actors that message each other and end, one that sleeps and one that kills it: a silent run. */
static void test_sim_ucontext_quiet_actors(void)
{
  CU_ASSERT_EQUAL(sim_ucontext_shown(), SANITIZED);
  void (*const fn[])(int, char **) = {sender, receiver, sleeper, killer};
  char err[4096];
  CU_ASSERT_EQUAL(simulate(fn, 4, err, sizeof err), 0);
  CU_ASSERT_STRING_EQUAL(err, "");
}

/* A read one past an array on an actor's stack, after the actor was switched away and back: ASan reports it. */
static void test_sim_ucontext_overflow_found(void)
{
  if (!SANITIZED) { /* nothing to find it */
    fprintf(stderr, "\nucontext overflow: only a sanitised build finds it\n");
    return;
  }
  void (*const fn[])(int, char **) = {overflower};
  char err[16384];
  CU_ASSERT_NOT_EQUAL(simulate(fn, 1, err, sizeof err), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "ERROR: AddressSanitizer: stack-buffer-overflow"));
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "overflower"));
  CU_ASSERT_PTR_NULL(strstr(err, "WARNING"));
}

int main(void)
{
  const tu_case_t cases[] = {{"test_sim_ucontext_quiet_actors", test_sim_ucontext_quiet_actors},
                             {"test_sim_ucontext_overflow_found", test_sim_ucontext_overflow_found},
                             {NULL, NULL}};
  return tu_run("sim_ucontext", cases);
}
