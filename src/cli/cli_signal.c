/* Stopping a sweep on SIGINT, SIGTERM or SIGHUP: the handler only records the signal; the study polls it between
 * points and its waits return early, so that the finished points are kept and the outputs left unwritten. */
#define _POSIX_C_SOURCE 200809L /* sigaction */

#include "cli_signal.h"

#include <signal.h>
#include <stddef.h>

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction before[sizeof caught / sizeof caught[0]];
static volatile sig_atomic_t received;

static void on_signal(int signal)
{
  if (!received)
    received = signal;
}

void cli_signal_catch(void)
{
  struct sigaction on = {.sa_handler = on_signal};
  sigemptyset(&on.sa_mask);
  for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
    sigaction(caught[i], &on, &before[i]);
}

void cli_signal_release(void)
{
  for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
    sigaction(caught[i], &before[i], NULL);
}

int cli_signal_stop(void)
{
  return received != 0;
}

int cli_signal_status(void)
{
  return received ? 128 + received : 0;
}
