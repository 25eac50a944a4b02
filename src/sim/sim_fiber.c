/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Light contexts for the analytic network (sim_fiber.h): stacks from one memory mapping, a binary heap of events, and
 * a context switch that saves only what the C calling convention says a callee keeps (SimGrid's "raw" contexts do the
 * same): no system call per switch, unlike swapcontext. */
#include "sim_fiber.h"
#include "sim_ucontext.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xbt/asserts.h>

#ifdef SIM_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

/* Above this many contexts their stacks go without a guard page: each guard splits the mapping, and the kernel's
 * default limit of 65,530 mappings (vm.max_map_count) would be reached (as SimGrid's guarded stacks reach it). */
enum { SIM_FIBER_GUARDED = 16384 };

typedef struct sim_event {
  double time;
  unsigned long seq;
  int id;
} sim_event_t;

typedef struct sim_fiber {
#if defined(__x86_64__)
  void *sp; /* its saved stack pointer while it does not run */
#else
  ucontext_t ctx;
#endif
  sim_fiber_fn fn;
  void *arg;
  int done;
#ifdef SIM_ASAN
  void *fake_stack;
#endif
} sim_fiber_t;

struct sim_fibers {
  int count;
  size_t stack_bytes;
  char *stacks; /* count stacks of stack_bytes, context i's at stacks + i * stack_bytes */
  size_t mapped;
  sim_fiber_t *fibers;
  sim_event_t *heap; /* the runnable contexts, earliest first; each context is in it at most once */
  int heap_len;
  unsigned long seq;
  double now;
  int current; /* the context running, or -1 in the scheduler */
#if defined(__x86_64__)
  void *main_sp;
#else
  ucontext_t main_ctx;
#endif
#ifdef SIM_ASAN
  const void *main_bottom;
  size_t main_size;
#endif
};

/* The scheduler whose sim_fibers_run is under way: a new context's first function finds it here. */
static sim_fibers_t *running;

#if defined(__x86_64__)
/* Saves the callee-saved registers on the current stack, its pointer in *save, and resumes the stack at `load`
 * (System V AMD64: rbx, rbp, r12-r15; the return address is on the stack). */
void sim_fiber_swap(void **save, void *load);
__asm__(".text\n"
        ".globl sim_fiber_swap\n"
        ".type sim_fiber_swap,@function\n"
        "sim_fiber_swap:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size sim_fiber_swap, .-sim_fiber_swap\n");
#endif

static void to_fiber(sim_fibers_t *s, sim_fiber_t *f)
{
#ifdef SIM_ASAN
  void *fake = NULL;
  __sanitizer_start_switch_fiber(&fake, s->stacks + (size_t)(f - s->fibers) * s->stack_bytes, s->stack_bytes);
#endif
#if defined(__x86_64__)
  sim_fiber_swap(&s->main_sp, f->sp);
#else
  swapcontext(&s->main_ctx, &f->ctx);
#endif
#ifdef SIM_ASAN
  __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}

/* Back from context `f` to the scheduler; returns when the scheduler runs `f` again (never once it is done). */
static void to_scheduler(sim_fibers_t *s, sim_fiber_t *f)
{
#ifdef SIM_ASAN
  __sanitizer_start_switch_fiber(f->done ? NULL : &f->fake_stack, s->main_bottom, s->main_size);
#endif
#if defined(__x86_64__)
  sim_fiber_swap(&f->sp, s->main_sp);
#else
  swapcontext(&f->ctx, &s->main_ctx);
#endif
#ifdef SIM_ASAN
  __sanitizer_finish_switch_fiber(f->fake_stack, &s->main_bottom, &s->main_size);
#endif
}

/* The first function of every context: runs its function, then leaves for good. */
static void fiber_main(void)
{
  sim_fibers_t *s = running;
  sim_fiber_t *f = &s->fibers[s->current];
#ifdef SIM_ASAN
  __sanitizer_finish_switch_fiber(NULL, &s->main_bottom, &s->main_size);
#endif
  f->fn(f->arg);
  f->done = 1;
  to_scheduler(s, f);
  xbt_die("a finished context was resumed");
}

sim_fibers_t *sim_fibers_new(int count, size_t stack_bytes)
{
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  sim_fibers_t *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->count = count;
  s->stack_bytes = (stack_bytes + page - 1) / page * page;
  s->mapped = s->stack_bytes * (size_t)(count > 0 ? count : 1);
  s->current = -1;
  s->fibers = calloc((size_t)count + 1, sizeof *s->fibers);
  s->heap = malloc(((size_t)count + 1) * sizeof *s->heap);
  void *stacks = mmap(NULL, s->mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  s->stacks = stacks == MAP_FAILED ? NULL : stacks;
  if (!s->fibers || !s->heap || !s->stacks) {
    sim_fibers_free(s);
    return NULL;
  }
  for (int i = 0; count <= SIM_FIBER_GUARDED && i < count; i++) /* a stack overflow then crashes at once */
    mprotect(s->stacks + (size_t)i * s->stack_bytes, page, PROT_NONE);
  return s;
}

void sim_fibers_free(sim_fibers_t *s)
{
  if (!s)
    return;
  if (s->stacks)
    munmap(s->stacks, s->mapped);
  free(s->fibers);
  free(s->heap);
  free(s);
}

static int earlier(const sim_event_t *a, const sim_event_t *b)
{
  return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* Makes context `id` runnable at `time`. */
static void push(sim_fibers_t *s, int id, double time)
{
  xbt_assert(s->heap_len < s->count, "context %d runnable twice", id);
  sim_event_t e = {.time = time, .seq = s->seq++, .id = id};
  int i = s->heap_len++;
  while (i > 0 && earlier(&e, &s->heap[(i - 1) / 2])) {
    s->heap[i] = s->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  s->heap[i] = e;
}

/* Takes the earliest event out of the heap (which is not empty). */
static sim_event_t pop(sim_fibers_t *s)
{
  sim_event_t top = s->heap[0];
  sim_event_t last = s->heap[--s->heap_len];
  int i = 0;
  for (;;) {
    int child = 2 * i + 1;
    if (child >= s->heap_len)
      break;
    if (child + 1 < s->heap_len && earlier(&s->heap[child + 1], &s->heap[child]))
      child++;
    if (!earlier(&s->heap[child], &last))
      break;
    s->heap[i] = s->heap[child];
    i = child;
  }
  s->heap[i] = last;
  return top;
}

void sim_fibers_start(sim_fibers_t *s, int id, sim_fiber_fn fn, void *arg)
{
  sim_fiber_t *f = &s->fibers[id];
  f->fn = fn;
  f->arg = arg;
  char *top = s->stacks + (size_t)(id + 1) * s->stack_bytes; /* page-aligned, so 16-byte aligned */
#if defined(__x86_64__)
  /* what sim_fiber_swap pops: six registers, then fiber_main as the return address, above it a null one for
   * fiber_main's frame (which never returns), so that fiber_main starts with the stack aligned as after a call */
  void **sp = (void **)top - 8;
  for (int i = 0; i < 6; i++)
    sp[i] = NULL;
  sp[6] = (void *)(uintptr_t)fiber_main;
  sp[7] = NULL;
  f->sp = sp;
#else
  getcontext(&f->ctx);
  f->ctx.uc_stack.ss_sp = top - s->stack_bytes;
  f->ctx.uc_stack.ss_size = s->stack_bytes;
  f->ctx.uc_link = NULL;
  makecontext(&f->ctx, fiber_main, 0);
#endif
  push(s, id, 0);
}

void sim_fibers_run(sim_fibers_t *s)
{
  sim_fibers_t *outer = running;
  running = s;
  while (s->heap_len > 0) {
    sim_event_t e = pop(s);
    if (e.time > s->now)
      s->now = e.time;
    s->current = e.id;
    to_fiber(s, &s->fibers[e.id]);
    s->current = -1;
  }
  running = outer;
}

double sim_fibers_now(const sim_fibers_t *s)
{
  return s->now;
}

void sim_fibers_sleep_until(sim_fibers_t *s, double t)
{
  push(s, s->current, t > s->now ? t : s->now);
  to_scheduler(s, &s->fibers[s->current]);
}

void sim_fibers_suspend(sim_fibers_t *s)
{
  to_scheduler(s, &s->fibers[s->current]);
}

void sim_fibers_resume(sim_fibers_t *s, int id)
{
  push(s, id, s->now);
}
