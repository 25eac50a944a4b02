/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SimGrid's ucontext actors shown to AddressSanitizer (sim_ucontext.h). In a sanitised build this file defines
 * swapcontext, which SimGrid's calls bind to before glibc's (the executable comes first in the dynamic linker's order),
 * and which tells ASan the stack a switch goes to and, once there, that it arrived
 * (__sanitizer_start_switch_fiber, __sanitizer_finish_switch_fiber), then switches with glibc's own swapcontext:
 * what SimGrid does itself when it is built with ASan, which Debian's package is not. Without it ASan takes an actor's
 * stack for a part of the main thread's, prints a warning on the first exception an actor throws (SimGrid ends actors
 * with one) and ASan's own swapcontext another; actors as threads, the other way, cost a system call and a thread
 * switch per context switch: test_stu_models took 29.0 s under ASan with threads, 10.8 s as ucontexts. */
#define _GNU_SOURCE /* dlopen's RTLD_NOLOAD */
#include "sim_ucontext.h"

#ifdef SIM_ASAN
#include <dlfcn.h>
#include <sanitizer/common_interface_defs.h>
#include <stdint.h>
#include <ucontext.h>
#include <xbt/asserts.h>

typedef int (*swap_fn)(ucontext_t *, const ucontext_t *);

static swap_fn glibc_swap;      /* glibc's swapcontext, bypassing ASan's (which warns that it may mislead) */
static const void *main_bottom; /* the main thread's stack, as ASan knows it: SimGrid's maestro runs there */
static size_t main_size;
static int arriving; /* a switch was started into a context that has not said it arrived: a new one, first run */

/* The switch into this context (a new one, whose code started without returning from a swapcontext) ends here. The
 * first switch of all leaves the main thread's stack: ASan then says its bounds. */
static void arrived(void *fake_stack)
{
  const void *from_bottom = NULL;
  size_t from_size = 0;
  __sanitizer_finish_switch_fiber(fake_stack, &from_bottom, &from_size);
  if (!main_bottom) {
    main_bottom = from_bottom;
    main_size = from_size;
  }
  arriving = 0;
}

/* The stack context `to` runs on: its own (uc_stack, which SimGrid set before makecontext and which glibc's
 * swapcontext leaves alone) where its saved stack pointer lies in it, else the main thread's (maestro's: made by no
 * makecontext, its uc_stack never set). */
static void stack_of(const ucontext_t *to, const void **bottom, size_t *size)
{
  uintptr_t sp = (uintptr_t)to->uc_mcontext.gregs[REG_RSP], low = (uintptr_t)to->uc_stack.ss_sp;
  if (low && sp >= low && sp - low <= to->uc_stack.ss_size) {
    *bottom = to->uc_stack.ss_sp;
    *size = to->uc_stack.ss_size;
  } else {
    *bottom = main_bottom;
    *size = main_size;
  }
}

int swapcontext(ucontext_t *from, const ucontext_t *to)
{
  if (!glibc_swap) {
    void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    glibc_swap = libc ? (swap_fn)dlsym(libc, "swapcontext") : NULL;
    xbt_assert(glibc_swap, "simrun: cannot find glibc's swapcontext: %s", dlerror());
  }
  if (arriving)
    arrived(NULL);
  const void *bottom;
  size_t size;
  stack_of(to, &bottom, &size);
  void *fake_stack = NULL;
  __sanitizer_start_switch_fiber(&fake_stack, bottom, size);
  arriving = 1;
  int rc = glibc_swap(from, to);
  arrived(fake_stack); /* back in this context, from another */
  return rc;
}

int sim_ucontext_shown(void)
{
  return 1;
}
#else
int sim_ucontext_shown(void)
{
  return 0;
}
#endif
