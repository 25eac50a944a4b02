/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SimGrid's actors as ucontexts in sanitised builds, each switch shown to AddressSanitizer (sim_ucontext.c). */
#ifndef SIM_UCONTEXT_H
#define SIM_UCONTEXT_H

/* SIM_ASAN: compiled with AddressSanitizer, by gcc (which defines __SANITIZE_ADDRESS__) or by clang (which says so
 * through __has_feature only, up to clang 15 at least: the fuzzing build's). */
#if defined(__SANITIZE_ADDRESS__)
#define SIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIM_ASAN 1
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* 1 in a sanitised build, whose swapcontext tells ASan of each switch (then SimGrid's actors may run as ucontexts),
 * else 0. Calling it also links the file's swapcontext into the program. */
int sim_ucontext_shown(void);

#ifdef __cplusplus
}
#endif

#endif
