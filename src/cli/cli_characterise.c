/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun characterise: reads "bytes,hops,time_us" samples from a CSV file, fits eq. 4's piecewise form by least squares
 * (met_msgfit, relative error, terms >= 0, split by cross-validation) as Zemerly et al. fitted Table 2, and prints the
 * simrun:comm-* properties with each regime's residuals, or refuses a fit that cannot be trusted. */
#include "cli_characterise.h"
#include "bas_grow.h"
#include "cli_exit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The bounds of a ping-pong CSV (docs/hostile-input.md): a sample line is three numbers, well under 1 KiB. */
#define MAX_CSV_BYTES (1L << 30)
#define MAX_LINE      1024
#define MAX_SAMPLES   10000000

static void usage(FILE *out)
{
  fprintf(out,
          "Usage: simrun characterise FILE.csv [--packet-bytes N]\n"
          "\n"
          "Fits Zemerly et al.'s piecewise message time (seed 001 eq. 4, Table 2), T(l, d) = alpha + beta l + gamma d\n"
          "+ delta l d in microseconds with one set of coefficients up to the packet size and one above, to measured\n"
          "ping-pong times by least squares of the relative residuals with every term >= 0, and prints the root-zone\n"
          "properties to paste into a platform with each regime's residuals and every sample's. A fit that cannot be\n"
          "trusted (too few samples in a regime, residuals above 20%% rms) is refused with the reason. FILE.csv has\n"
          "one sample a line, bytes,hops,time_us (an optional header line, '#' comments and blank lines are\n"
          "skipped), decimal numbers only; one distance only fits alpha and beta. A regular file of at most 1 GiB,\n"
          "lines of at most 1022 characters, at most 10000000 samples.\n"
          "\n"
          "Options:\n"
          "  --packet-bytes N    split the regimes at N bytes (default: the sample size with the smallest\n"
          "                      cross-validated error, leaving out one (size, distance) at a time; the\n"
          "                      largest size means one regime)\n"
          "  -h, --help          show this help and exit\n"
          "\n"
          "See docs/probe.md.\n");
}

static int fail(const char *file, long line, const char *message)
{
  if (line > 0)
    fprintf(stderr, "simrun: error: %s:%ld: %s\n", file, line, message);
  else
    fprintf(stderr, "simrun: error: %s: %s\n", file, message);
  return EXIT_INPUT;
}

/* Whether `text` (a line without its newline) is blank or a comment. */
static int skipped(const char *text)
{
  text += strspn(text, " \t\r");
  return *text == '\0' || *text == '#';
}

/* Parses "bytes,hops,time_us" into *s: 0, or -1 when the line is not three non-negative decimal numbers. */
static int parse_sample(const char *text, met_msg_sample_t *s)
{
  double v[3];
  const char *cursor = text;
  for (int i = 0; i < 3; i++) {
    char *end = NULL;
    errno = 0;
    v[i] = strtod(cursor, &end);
    size_t decimal = strspn(cursor, " \t0123456789.+-eE"); /* no hexadecimal, inf or nan */
    if (end == cursor || decimal < (size_t)(end - cursor) || errno != 0 || !(v[i] >= 0) || v[i] > 1e300)
      return -1;
    cursor = end + strspn(end, " \t");
    if (i < 2 && *cursor++ != ',')
      return -1;
  }
  if (cursor[strspn(cursor, " \t\r")] != '\0')
    return -1;
  *s = (met_msg_sample_t){.bytes = v[0], .hops = v[1], .us = v[2]};
  return 0;
}

/* Appends a sample to *samples (capacity *cap, doubled as needed); 0 or -1 on no memory. */
static int append(met_msg_sample_t **samples, size_t *count, size_t *cap, const met_msg_sample_t *s)
{
  if (bas_reserve((void **)samples, cap, *count, sizeof **samples, 1024) != 0)
    return -1;
  (*samples)[(*count)++] = *s;
  return 0;
}

/* Opens `file` for reading if it is a regular file (a FIFO or a device such as /dev/zero would never end; opened
 * without blocking, to tell) of at most MAX_CSV_BYTES. NULL after printing the error. */
static FILE *open_samples(const char *file, const char *shown)
{
  int fd = open(file, O_RDONLY | O_NONBLOCK);
  struct stat st;
  char why[300] = "";
  if (fd < 0 || fstat(fd, &st) != 0)
    snprintf(why, sizeof why, "%s; check the path", strerror(errno));
  else if (!S_ISREG(st.st_mode))
    snprintf(why, sizeof why, "it is not a regular file (a folder, a FIFO or a device); give the CSV file itself");
  else if (st.st_size > MAX_CSV_BYTES)
    snprintf(why, sizeof why, "it is larger than 1 GiB, the limit of a ping-pong CSV; keep fewer samples per size");
  FILE *in = *why ? NULL : fdopen(fd, "r");
  if (!in && !*why)
    snprintf(why, sizeof why, "%s", strerror(errno));
  if (!in) {
    fprintf(stderr, "simrun: error: %s: cannot read it: %s\n", shown, why);
    if (fd >= 0)
      close(fd);
  }
  return in;
}

int cli_characterise_read(const char *file, const char *shown, met_msg_sample_t **samples, size_t *count)
{
  FILE *in = open_samples(file, shown);
  if (!in)
    return EXIT_INPUT;
  char line[MAX_LINE];
  long number = 0;
  size_t cap = 0;
  int data_lines = 0;
  int rc = 0;
  while (rc == 0 && fgets(line, sizeof line, in)) {
    number++;
    size_t len = strlen(line);
    if ((len == 0 || line[len - 1] != '\n') && !feof(in)) { /* cut by the buffer, or by a NUL byte */
      rc = fail(shown, number,
                len == sizeof line - 1 ? "the line is longer than 1022 characters; a sample is bytes,hops,time_us"
                                       : "a NUL byte: this is not a text file; give the CSV file of the measurements");
      break;
    }
    line[strcspn(line, "\n")] = '\0';
    if (skipped(line))
      continue;
    met_msg_sample_t s;
    int header = data_lines++ == 0 && strspn(line, " \t0123456789.+-eE") == 0;
    if (header)
      continue;
    if (*count == MAX_SAMPLES)
      rc = fail(shown, number, "more than 10000000 samples, the limit; keep fewer samples per size");
    else if (parse_sample(line, &s) != 0)
      rc = fail(shown, number, "expected three non-negative numbers, bytes,hops,time_us; fix this line");
    else if (append(samples, count, &cap, &s) != 0)
      rc = fail(shown, number, "out of memory");
  }
  if (rc == 0 && ferror(in))
    rc = fail(shown, number + 1, "read error");
  fclose(in);
  return rc;
}

/* One regime's coefficients and how far its samples are from them (relative residuals). */
static void print_regime(const char *label, const double c[4], size_t n, double rms_rel, double max_rel)
{
  printf("  %-10s alpha %10.6g us, beta %10.6g us/B, gamma %10.6g us/hop, delta %10.6g us/B/hop\n", label, c[0], c[1],
         c[2], c[3]);
  printf("  %-10s %zu samples, residuals rms %.2f%%, worst %.2f%% of the measured time\n", "", n, 100 * rms_rel,
         100 * max_rel);
}

static void print_fit(const char *file, const met_msg_sample_t *samples, size_t count, const met_msgfit_t *fit,
                      int given)
{
  const met_piecewise_t *m = &fit->model;
  char small[64];
  char large[64];
  snprintf(small, sizeof small, "l <= %g:", m->packet_bytes);
  snprintf(large, sizeof large, "l > %g:", m->packet_bytes);
  printf("Seed 001 eq. 4 (Table 2's form) fitted to the %zu samples of %s by relative error, every term >= 0; packet "
         "size %g bytes (%s; cross-validated error %.2f%% rms)%s\n",
         count, file, m->packet_bytes,
         given             ? "given"
         : fit->one_regime ? "cross-validation chose one regime"
                           : "chosen by cross-validation",
         100 * fit->cv_rel, fit->distance_terms ? "" : "; one distance only, so gamma = delta = 0 and alpha holds it");
  print_regime(small, m->small, fit->n_small, fit->rms_rel[0], fit->max_rel[0]);
  if (!fit->one_regime)
    print_regime(large, m->large, fit->n_large, fit->rms_rel[1], fit->max_rel[1]);
  printf("Residuals (measured - fitted): rms %.4g us, max |r| %.4g us\n", fit->rms_us, fit->max_abs_us);
  printf("%12s %6s %14s %14s %12s %9s\n", "bytes", "hops", "measured (us)", "fitted (us)", "residual", "relative");
  for (size_t i = 0; i < count; i++) {
    double fitted = 1e6 * met_piecewise_time(m, samples[i].bytes, (int)samples[i].hops);
    printf("%12g %6g %14.6g %14.6g %12.4g %8.2f%%\n", samples[i].bytes, samples[i].hops, samples[i].us, fitted,
           samples[i].us - fitted, 100 * (samples[i].us - fitted) / samples[i].us);
  }
  printf("\nRoot-zone properties for the platform (docs/probe.md):\n"
         "    <prop id=\"simrun:comm-model\" value=\"piecewise\"/>\n"
         "    <prop id=\"simrun:comm-packet-bytes\" value=\"%.10g\"/>\n"
         "    <prop id=\"simrun:comm-small-us\" value=\"%.10g %.10g %.10g %.10g\"/>\n"
         "    <prop id=\"simrun:comm-large-us\" value=\"%.10g %.10g %.10g %.10g\"/>\n",
         m->packet_bytes, m->small[0], m->small[1], m->small[2], m->small[3], m->large[0], m->large[1], m->large[2],
         m->large[3]);
}

/* Reads the options after "characterise": the file and the packet size (-1 when not given). -1 to go on, or a status.
 */
static int parse(int argc, char **argv, const char **file, double *packet_bytes)
{
  *file = NULL;
  *packet_bytes = -1;
  for (int i = 1; i < argc; i++) {
    char *end = NULL;
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return 0;
    }
    if (strcmp(argv[i], "--packet-bytes") == 0 && i + 1 < argc) {
      *packet_bytes = strtod(argv[++i], &end);
      if (end == argv[i] || *end != '\0' || argv[i][strspn(argv[i], "0123456789.+eE")] || !(*packet_bytes >= 0) ||
          *packet_bytes > 1e15) /* decimal, no sign: hexadecimal and -0 are refused */
        return fail("--packet-bytes", 0,
                    "expected a decimal number of bytes from 0 to 1e15; see simrun characterise --help");
    } else if (argv[i][0] == '-' || *file) {
      fprintf(stderr, "simrun: error: unexpected argument '%s'; see simrun characterise --help\n", argv[i]);
      return EXIT_INPUT;
    } else
      *file = argv[i];
  }
  if (*file)
    return -1;
  fprintf(stderr, "simrun: error: no CSV file given; see simrun characterise --help\n");
  return EXIT_INPUT;
}

int cli_characterise_main(int argc, char **argv)
{
  const char *file;
  double packet_bytes;
  int rc = parse(argc, argv, &file, &packet_bytes);
  if (rc >= 0)
    return rc;
  met_msg_sample_t *samples = NULL;
  size_t count = 0;
  rc = cli_characterise_read(file, file, &samples, &count);
  met_msgfit_t fit;
  char err[512];
  if (rc == 0 && met_msgfit(samples, count, packet_bytes, &fit, err, sizeof err) != 0) {
    char message[600];
    snprintf(message, sizeof message, "%s; no properties written", err);
    rc = fail(file, 0, message);
  }
  if (rc == 0)
    print_fit(file, samples, count, &fit, packet_bytes >= 0);
  free(samples);
  return rc;
}
