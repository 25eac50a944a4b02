/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Signals that stop a run: SIGINT, SIGTERM, SIGHUP and SIGPIPE alike, at any step. During the sweep the study stops at
 * the next point, keeping the finished ones in the cache; the outputs, written as one transaction (rep_report.h), are
 * rolled back; simrun exits with 128 + the signal's number (130, 143, 129; 141, silently, for SIGPIPE: the reader of
 * the output went away). A watchdog thread ends the run itself, the same way, when the main thread has not reported
 * the stop within 0.5 s (busy or blocked) or at a second signal. */
#ifndef CLI_SIGNAL_H
#define CLI_SIGNAL_H

#include <stddef.h>

/* Catches the signals (without SA_RESTART, so that a wait for a simulation returns at once) and starts the watchdog,
 * until cli_signal_release puts the previous handlers back and ends it. */
void cli_signal_catch(void);
void cli_signal_release(void);

/* 1 once one of the signals came (a study's stop callback), else 0. */
int cli_signal_stop(void);

/* The exit status for the signal that came, 128 + its number, or 0 when none did. */
int cli_signal_status(void);

/* 1 when the signal was SIGPIPE: the run ends without a message. */
int cli_signal_quiet(void);

/* The step the run is at: `name` for the test hook SIMRUN_TEST_PAUSE=NAME (which waits there for a signal; NAME:stuck
 * waits forever, ignoring it, so that only the watchdog can end the run), `phrase` for messages ("during the sweep").
 * Both are borrowed for the whole run. */
void cli_signal_step(const char *name, const char *phrase);

/* The outputs the run writes, as the message lists them ("out.csv, out.json"); copied. */
void cli_signal_outputs(const char *list);

/* "interrupted by SIGTERM <phrase>; not written: <outputs> (...)", the body of the stop's message, into `line`. */
void cli_signal_message(char *line, size_t len);

/* Whether this thread is the one to report the stop: 1 the first time only (the main thread or the watchdog). */
int cli_signal_claim(void);

/* Reports the stop from the main thread: "simrun: error: <cli_signal_message>" on one line, unless the watchdog
 * already did or the signal was SIGPIPE (the reader went away); returns the stop's exit status, 128 + its number. */
int cli_signal_report(void);

#endif
