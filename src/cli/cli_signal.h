/* Signals that stop a sweep: SIGINT, SIGTERM and SIGHUP alike. The study stops at the next point, keeping the finished
 * ones in the cache, the outputs are not written, and simrun exits with 128 + the signal's number (130, 143, 129). */
#ifndef CLI_SIGNAL_H
#define CLI_SIGNAL_H

/* Catches the three signals (without SA_RESTART, so that a wait for a simulation returns at once) until
 * cli_signal_release puts the previous handlers back. */
void cli_signal_catch(void);
void cli_signal_release(void);

/* 1 once one of the signals came (a study's stop callback), else 0. */
int cli_signal_stop(void);

/* The exit status for the signal that came, 128 + its number, or 0 when none did. */
int cli_signal_status(void);

#endif
