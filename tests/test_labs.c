/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The teaching labs of docs/labs/ cannot rot: every `build/simrun` command of a lab's sh blocks runs here, in a copy of
 * the repository layout, and every numbered claim of its teacher's section ("1a", "2b", ...) is asserted against the
 * CSV, JSON or terminal output those commands wrote. Also: every long option of `simrun --help` is documented in the
 * man page and the user guide. */
/* nftw */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include "tu_cli.h"

#include <ftw.h>
#include <math.h>
#include <stdarg.h>

#define LABS         SIMRUN_SOURCE_DIR "/docs/labs/"
#define MAX_COMMANDS 8
#define MAX_WORDS    (MAX_ARGS - 2) /* room for the "-q --no-cache" the test adds */

/* Under a sanitizer simrun runs 5 to 20 times slower (the T800 runs fork and trace a lot): the longest scenarios of
 * the labs are left to the normal build, whose run of the same commands asserts the same claims. */
static const char *const heavy_scenarios[] = {"pdgemm-grids.xml",    "topology-gj.xml",      "my-machine.xml",
                                              "scenarios/gj256.xml", "scenarios/dsm-gj.xml", NULL};

/* One lab followed as a student would: the fake repository root its commands ran in, and what each printed. */
typedef struct lab {
  char root[1024];
  char *text;              /* the lab's Markdown */
  char *out[MAX_COMMANDS]; /* stdout of each command, in the lab's order; NULL for a skipped one */
  char svg_dir[MAX_COMMANDS][256];
  size_t commands;
} lab_t;

/* A CSV file as a table of strings. */
typedef struct csv {
  char *text;
  char **cells; /* rows x cols, row 0 the header */
  size_t rows, cols;
} csv_t;

static char *read_file_text(const char *path)
{
  FILE *file = fopen(path, "r");
  char *text = file ? slurp(file) : NULL;
  if (file)
    fclose(file);
  return text;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
  (void)st, (void)type, (void)ftw;
  return remove(path);
}

static int copy_file(const char *from, const char *to)
{
  char *text = read_file_text(from);
  FILE *file = text ? fopen(to, "w") : NULL;
  int rc = file && fputs(text, file) >= 0 ? 0 : -1;
  if (file && fclose(file) != 0)
    rc = -1;
  free(text);
  return rc;
}

/* A working folder laid out as the repository root the labs' commands expect: build/simrun, scenarios/ and platforms/
 * link to the real ones; docs/labs/ holds copies of the labs' scenarios, whose relative paths must resolve inside this
 * folder. */
static int make_root(char *root, size_t size)
{
  static const char *const lab_files[] = {
      "matmul-n.xml", "my-machine.xml", "gj-scaled.xml", "contention.xml", "imbalance.xml", "lab10-samples.csv", NULL};
  char path[2048], from[2048];
  if (make_folder(root, size) != 0)
    return -1;
  int rc = 0;
  snprintf(path, sizeof path, "%s/build", root);
  rc |= mkdir(path, 0700);
  snprintf(path, sizeof path, "%s/build/simrun", root);
  rc |= symlink(SIMRUN_BINARY, path);
  snprintf(path, sizeof path, "%s/scenarios", root);
  rc |= symlink(SIMRUN_SOURCE_DIR "/scenarios", path);
  snprintf(path, sizeof path, "%s/platforms", root);
  rc |= symlink(SIMRUN_SOURCE_DIR "/platforms", path);
  snprintf(path, sizeof path, "%s/docs", root);
  rc |= mkdir(path, 0700);
  snprintf(path, sizeof path, "%s/docs/labs", root);
  rc |= mkdir(path, 0700);
  for (size_t i = 0; lab_files[i]; i++) {
    snprintf(from, sizeof from, LABS "%s", lab_files[i]);
    snprintf(path, sizeof path, "%s/docs/labs/%s", root, lab_files[i]);
    rc |= copy_file(from, path);
  }
  return rc == 0 ? 0 : -1;
}

static int is_heavy(const char *line)
{
  for (size_t i = 0; heavy_scenarios[i]; i++)
    if (strstr(line, heavy_scenarios[i]))
      return 1;
  return 0;
}

/* Runs one command line of a lab (words separated by single spaces, "build/simrun" first) in the lab's root. A
 * simulation gets -q and --no-cache, so that every run is real whatever the cache holds. */
static void run_command(lab_t *lab, const char *line, size_t len)
{
  char buffer[1024];
  const char *args[MAX_ARGS + 1] = {0};
  size_t n = 0;
  snprintf(buffer, sizeof buffer, "%.*s", (int)len, line);
  strtok(buffer, " "); /* build/simrun, the program */
  for (char *word; n < MAX_WORDS && (word = strtok(NULL, " "));) {
    args[n++] = word;
    if (n >= 2 && strcmp(args[n - 2], "--svg") == 0)
      snprintf(lab->svg_dir[lab->commands], sizeof lab->svg_dir[0], "%s", word);
  }
  if (strcmp(args[0], "platform") != 0 && strcmp(args[0], "machine") != 0) {
    args[n++] = "-q";
    args[n++] = "--no-cache";
  }
  cli_run_t run;
  if (run_program(lab->root, "build/simrun", args, &run) != 0) {
    CU_FAIL("simrun could not be run");
    return;
  }
  if (run.status != 0)
    fprintf(stderr, "\n%s: exit status %d\n%s", buffer, run.status, run.err);
  CU_ASSERT_EQUAL(run.status, 0);
  lab->out[lab->commands] = run.out;
  free(run.err);
}

/* Every picture a lab names (a backquoted `name.svg`) must be among those its --svg commands drew. */
static void assert_pictures(const lab_t *lab)
{
  for (const char *c = lab->text; (c = strstr(c, ".svg`")); c++) {
    const char *start = c;
    while (start > lab->text && start[-1] != '`')
      start--;
    int found = 0;
    char path[2048];
    for (size_t i = 0; i < lab->commands && !found; i++) {
      snprintf(path, sizeof path, "%s/%s/%.*s", lab->root, lab->svg_dir[i], (int)(c + 4 - start), start);
      found = lab->svg_dir[i][0] && access(path, R_OK) == 0;
    }
    if (!found && SANITIZED) {
      fprintf(stderr, "\npicture %.*s: its command is too slow under a sanitizer; the normal build asserts it\n",
              (int)(c + 4 - start), start);
      continue;
    }
    if (!found)
      fprintf(stderr, "\npicture %.*s not drawn\n", (int)(c + 4 - start), start);
    CU_ASSERT(found);
  }
}

/* Follows lab `name`: reads docs/labs/<name>, runs every "build/simrun" line of its ```sh blocks in a fresh root
 * (skipping the heavy scenarios under a sanitizer), checks the pictures it names. */
static void lab_follow(lab_t *lab, const char *name)
{
  char path[2048];
  memset(lab, 0, sizeof *lab);
  snprintf(path, sizeof path, LABS "%s", name);
  lab->text = read_file_text(path);
  CU_ASSERT_PTR_NOT_NULL_FATAL(lab->text);
  CU_ASSERT_EQUAL_FATAL(make_root(lab->root, sizeof lab->root), 0);
  int in_sh = 0;
  for (const char *line = lab->text; *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    if (strncmp(line, "```", 3) == 0)
      in_sh = !in_sh && strncmp(line, "```sh", 5) == 0;
    else if (in_sh && strncmp(line, "build/simrun ", 13) == 0 && lab->commands < MAX_COMMANDS) {
      char copy[1024];
      snprintf(copy, sizeof copy, "%.*s", (int)len, line);
      if (!(SANITIZED && is_heavy(copy)))
        run_command(lab, line, len);
      lab->commands++;
    }
    line += len + (end != NULL);
  }
  CU_ASSERT(lab->commands > 0);
  assert_pictures(lab);
}

static void lab_free(lab_t *lab)
{
  for (size_t i = 0; i < MAX_COMMANDS; i++)
    free(lab->out[i]);
  free(lab->text);
  CU_ASSERT_EQUAL(nftw(lab->root, remove_entry, 16, FTW_DEPTH | FTW_PHYS), 0);
}

/* Loads `name` from the lab's root; NULL (and no failure) when a skipped command would have written it. */
static csv_t *csv_load(const lab_t *lab, const char *name)
{
  char *text = read_output(lab->root, name);
  if (!text) {
    if (SANITIZED)
      fprintf(stderr, "\n%s: its command is too slow under a sanitizer; the normal build asserts its claims\n", name);
    else
      CU_FAIL("a lab's output file was not written");
    return NULL;
  }
  csv_t *csv = calloc(1, sizeof *csv);
  csv->text = text;
  size_t capacity = 0;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    size_t cols = 1;
    for (char *c = line; (c = strchr(c, ',')); c++)
      cols++;
    if (csv->rows == 0)
      csv->cols = cols;
    CU_ASSERT_EQUAL(cols, csv->cols);
    if ((csv->rows + 1) * csv->cols > capacity) {
      capacity = 2 * (capacity + csv->cols);
      csv->cells = realloc(csv->cells, capacity * sizeof *csv->cells);
    }
    char **row = csv->cells + csv->rows * csv->cols;
    for (size_t i = 0; i < csv->cols; i++) {
      row[i] = line;
      line = strchr(line, ',');
      if (line)
        *line++ = '\0';
      else
        line = "";
    }
    csv->rows++;
  }
  return csv;
}

/* Follows lab `name` and loads its two output tables `first` and `second` (neither may be missing). */
static void lab_tables(lab_t *lab, const char *name, const char *first, const char *second, csv_t **a, csv_t **b)
{
  lab_follow(lab, name);
  *a = csv_load(lab, first);
  *b = csv_load(lab, second);
  CU_ASSERT_PTR_NOT_NULL_FATAL(*a);
  CU_ASSERT_PTR_NOT_NULL_FATAL(*b);
}

static void csv_free(csv_t *csv)
{
  if (csv) {
    free(csv->cells);
    free(csv->text);
    free(csv);
  }
}

static const char *cell(const csv_t *csv, size_t row, const char *column)
{
  for (size_t i = 0; i < csv->cols; i++)
    if (strcmp(csv->cells[i], column) == 0)
      return csv->cells[row * csv->cols + i];
  CU_FAIL("no such CSV column");
  return "";
}

/* The row whose columns match `where`, "name=value" pairs separated by spaces (a value matches the cell's end, so
 * that "platform=t800-torus-16x8.xml" finds "../platforms/generated/t800-torus-16x8.xml"); 0 when none does. */
static size_t csv_row(const csv_t *csv, const char *where)
{
  for (size_t row = 1; row < csv->rows; row++) {
    int match = 1;
    char conditions[256];
    snprintf(conditions, sizeof conditions, "%s", where);
    for (char *save, *pair = strtok_r(conditions, " ", &save); pair && match; pair = strtok_r(NULL, " ", &save)) {
      char *value = strchr(pair, '=');
      *value++ = '\0';
      const char *have = cell(csv, row, pair);
      size_t a = strlen(have), b = strlen(value);
      match = a >= b && strcmp(have + a - b, value) == 0 && (a == b || have[a - b - 1] == '/');
    }
    if (match)
      return row;
  }
  fprintf(stderr, "\nno CSV row where %s\n", where);
  CU_FAIL("no such CSV row");
  return 0;
}

/* The row where `format` (printf-like, then as csv_row's `where`) holds; 0 when none does. */
__attribute__((format(printf, 2, 3))) static size_t row_of(const csv_t *csv, const char *format, ...)
{
  char where[256];
  va_list ap;
  va_start(ap, format);
  vsnprintf(where, sizeof where, format, ap);
  va_end(ap);
  return csv_row(csv, where);
}

/* The number in `column` of row `row`; NAN for row 0 (no match) or an empty cell (no value), which fails every
 * comparison. */
static double num_at(const csv_t *csv, size_t row, const char *column)
{
  const char *text = row ? cell(csv, row, column) : "";
  return *text ? strtod(text, NULL) : NAN;
}

#define NUM(csv, column, ...)  num_at(csv, row_of(csv, __VA_ARGS__), column)
#define TEXT(csv, column, ...) cell(csv, row_of(csv, __VA_ARGS__), column)

static const int gj_ps[] = {1, 2, 4, 8, 16, 32, 64, 128};
#define GJ_PS (sizeof gj_ps / sizeof gj_ps[0])

/* ---- Lab 1: docs/labs/01-lost-cycles.md ---- */

static void test_labs_lost_cycles(void)
{
  lab_t lab;
  lab_follow(&lab, "01-lost-cycles.md");
  csv_t *m100 = csv_load(&lab, "lab1-matmul100.csv");
  csv_t *mn = csv_load(&lab, "lab1-matmul-n.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(m100);
  CU_ASSERT_PTR_NOT_NULL_FATAL(mn);

  /* 1a "At n = 100 the speedup is below 1 at every p from 2 to 8" */
  for (int p = 2; p <= 8; p++)
    CU_ASSERT(NUM(m100, "speedup", "p=%d", p) < 1);

  /* 1b "At n = 100, p = 3, communication is the largest overhead (Ovh_comm 1.83), idling second (0.42) ... 3 / (1 +
   * 2.25) = 0.924 is the speedup of the table" */
  double comm = NUM(m100, "ovh_comm", "p=3"), idle = NUM(m100, "ovh_idle", "p=3");
  CU_ASSERT(comm > idle && idle > NUM(m100, "ovh_ctrl", "p=3") && idle > NUM(m100, "ovh_anomaly", "p=3"));
  CU_ASSERT_DOUBLE_EQUAL(NUM(m100, "speedup", "p=3"), 3 / (1 + comm + idle), 1e-6);

  /* 1c "Idling appears already at p = 2" (the master's eager sends leave it waiting for the shifted block) */
  CU_ASSERT(NUM(m100, "ovh_idle", "p=2") > 0.1);
  CU_ASSERT(idle > 0.1);

  /* 1d "at p = 3, rank 0 has the largest comm ratio and the smallest idle ratio" (terminal, per-process table) */
  const char *table = strstr(lab.out[0], "Per process, p = 3");
  CU_ASSERT_PTR_NOT_NULL_FATAL(table);
  table = strstr(table, "work (s)"); /* the header, after the title (which may wrap) */
  CU_ASSERT_PTR_NOT_NULL_FATAL(table);
  table = strchr(table, '\n') + 1;
  double ratios[3][2] = {{0}};
  for (int rank = 0; rank < 3; rank++) {
    int r;
    double work, ctrl;
    CU_ASSERT_EQUAL(sscanf(table, "%d %lf %lf %lf %lf", &r, &work, &ctrl, &ratios[rank][0], &ratios[rank][1]), 5);
    CU_ASSERT_EQUAL(r, rank);
    table = strchr(table, '\n') + 1;
  }
  for (int rank = 1; rank < 3; rank++)
    CU_ASSERT(ratios[0][0] > ratios[rank][0] && ratios[0][1] < ratios[rank][1]);

  /* 1e "`ctrl` and `anomaly` are zero at every point" */
  for (size_t row = 1; row < m100->rows; row++)
    CU_ASSERT(fabs(strtod(cell(m100, row, "ovh_ctrl"), NULL)) < 1e-9 &&
              fabs(strtod(cell(m100, row, "ovh_anomaly"), NULL)) < 1e-9);
  for (size_t row = 1; row < mn->rows; row++)
    CU_ASSERT(fabs(strtod(cell(mn, row, "ovh_ctrl"), NULL)) < 1e-9 &&
              fabs(strtod(cell(mn, row, "ovh_anomaly"), NULL)) < 1e-9);

  /* 1f "From n = 400 on, multiplying n by 4 multiplies the granularity by about 4 (between 3.5 and 5) at every p > 1.
   * From n = 100 to 400 it gains less at p = 2" */
  static const int ps[] = {2, 3, 4, 8};
  CU_ASSERT(NUM(mn, "granularity", "n=400 p=2") / NUM(mn, "granularity", "n=100 p=2") < 3.5);
  for (int n = 400; n < 6400; n *= 4)
    for (size_t i = 0; i < 4; i++) {
      double gain = NUM(mn, "granularity", "n=%d p=%d", 4 * n, ps[i]) / NUM(mn, "granularity", "n=%d p=%d", n, ps[i]);
      CU_ASSERT(gain > 3.5 && gain < 5);
    }

  /* 1g "At p = 3 the speedup is below the paper's 2.55 at n = 1600 (2.44) and above it at n = 6400 (2.84)" */
  CU_ASSERT(NUM(mn, "speedup", "n=1600 p=3") < 2.55);
  CU_ASSERT(NUM(mn, "speedup", "n=6400 p=3") > 2.55);

  /* 1h "At n = 100 the dominant component is communication at every p > 1; at n = 6400 it is processing at every p" */
  for (size_t i = 0; i < 4; i++) {
    CU_ASSERT_STRING_EQUAL(TEXT(mn, "dominant", "n=100 p=%d", ps[i]), "communication");
    CU_ASSERT_STRING_EQUAL(TEXT(mn, "dominant", "n=6400 p=%d", ps[i]), "processing");
  }
  CU_ASSERT_STRING_EQUAL(TEXT(mn, "dominant", "n=6400 p=1"), "processing");
  csv_free(m100);
  csv_free(mn);
  lab_free(&lab);
}

/* ---- Lab 2: docs/labs/02-broadcast-bottleneck.md ---- */

static void test_labs_broadcast_bottleneck(void)
{
  lab_t lab;
  lab_follow(&lab, "02-broadcast-bottleneck.md");
  csv_t *gj = csv_load(&lab, "lab2-gj256.csv");
  csv_t *bn = csv_load(&lab, "lab2-bottleneck.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(bn);
#define GJ(column, bcast, p) NUM(gj, column, "broadcast=%s p=%d", bcast, p)

  if (gj) { /* NULL under a sanitizer only */
    /* 2a "At p = 1 and 2 both broadcasts take the same time; from p = 4 on the neighbour broadcast is faster at every
     * p" */
    for (size_t i = 0; i < GJ_PS; i++) {
      double one = GJ("t_par_s", "one-to-all", gj_ps[i]), nb = GJ("t_par_s", "neighbour", gj_ps[i]);
      if (gj_ps[i] <= 2) {
        CU_ASSERT_DOUBLE_EQUAL(one, nb, 1e-9 * nb);
      } else {
        CU_ASSERT(nb < one);
      }
    }

    /* 2b "One-to-all is fastest at p = 8 (17.7 s), and at p = 128 it is slower than the sequential run" */
    for (size_t i = 0; i < GJ_PS; i++)
      CU_ASSERT(gj_ps[i] == 8 || GJ("t_par_s", "one-to-all", gj_ps[i]) > GJ("t_par_s", "one-to-all", 8));
    CU_ASSERT(GJ("speedup", "one-to-all", 128) < 1);

    /* 2c "The neighbour broadcast's speedup peaks at p = 64 (12.7) and falls at p = 128" */
    for (size_t i = 0; i < GJ_PS; i++)
      CU_ASSERT(gj_ps[i] == 64 || GJ("speedup", "neighbour", gj_ps[i]) < GJ("speedup", "neighbour", 64));

    /* 2d "For every p from 4, one-to-all's extra idling over the neighbour version is larger than its extra
     * communication" */
    for (size_t i = 2; i < GJ_PS; i++) {
      double idle = GJ("ovh_idle", "one-to-all", gj_ps[i]) - GJ("ovh_idle", "neighbour", gj_ps[i]);
      double comm = GJ("ovh_comm", "one-to-all", gj_ps[i]) - GJ("ovh_comm", "neighbour", gj_ps[i]);
      CU_ASSERT(idle > comm);
    }
  }

  /* 2e "The communication/computation ratio is below 1 at p = 24 and above 1 at p = 32" */
  CU_ASSERT(NUM(bn, "comm_comp_ratio", "p=24") < 1);
  CU_ASSERT(NUM(bn, "comm_comp_ratio", "p=32") > 1);

  /* 2f "The communication B-ratio is below 1 at p = 64 and above 1 at p = 128" */
  CU_ASSERT(NUM(bn, "b_communication", "p=64") < 1);
  CU_ASSERT(NUM(bn, "b_communication", "p=128") > 1);

  /* 2g "Memory is the dominant component up to p = 16, communication from p = 24 on" */
  for (size_t row = 1; row < bn->rows; row++)
    CU_ASSERT_STRING_EQUAL(cell(bn, row, "dominant"),
                           strtol(cell(bn, row, "p"), NULL, 10) <= 16 ? "memory" : "communication");

  /* 2h "From p = 24 on, communication is the dominant component (2.54 s at p = 24, 3.25 s at p = 128, above io's
   * 1.98 s) while input is the largest single sub-component (1.97 s at every p, above the broadcast's 1.64 s)" */
  static const char *const subs[] = {"cpu_s",        "fpu_s",          "intmem_s",    "extmem_s",
                                     "link_init_s",  "distribution_s", "broadcast_s", "collection_s",
                                     "other_comm_s", "output_s",       NULL};
  for (size_t row = 1; row < bn->rows; row++) {
    if (strtol(cell(bn, row, "p"), NULL, 10) < 24)
      continue;
    double input = strtod(cell(bn, row, "input_s"), NULL);
    CU_ASSERT(strtod(cell(bn, row, "communication_s"), NULL) > strtod(cell(bn, row, "io_s"), NULL));
    CU_ASSERT_STRING_EQUAL(cell(bn, row, "cause"), "broadcast");
    CU_ASSERT_DOUBLE_EQUAL(input, 1.97, 0.005);
    for (size_t k = 0; subs[k]; k++)
      CU_ASSERT(input > strtod(cell(bn, row, subs[k]), NULL));
  }
  CU_ASSERT_DOUBLE_EQUAL(NUM(bn, "communication_s", "p=24"), 2.54, 0.005);
  CU_ASSERT_DOUBLE_EQUAL(NUM(bn, "communication_s", "p=128"), 3.25, 0.005);
  CU_ASSERT_DOUBLE_EQUAL(NUM(bn, "broadcast_s", "p=64"), 1.64, 0.005);
#undef GJ
  csv_free(gj);
  csv_free(bn);
  lab_free(&lab);
}

/* ---- Lab 3: docs/labs/03-grid-shape.md ---- */

static int power_of_two(int x)
{
  return (x & (x - 1)) == 0;
}

static void test_labs_grid_shape(void)
{
  lab_t lab;
  lab_follow(&lab, "03-grid-shape.md");
  csv_t *grids = csv_load(&lab, "lab3-pdgemm.csv");
  if (!grids) { /* a sanitizer build: the normal build asserts this lab */
    lab_free(&lab);
    return;
  }
#define T(P, p) NUM(grids, "t_par_s", "grid_rows=%d p=%d", P, p)

  /* 3a "At p = 32 the fastest grids are 4 x 8 and 8 x 4 (3.580 s, a tie), the slowest 1 x 32 and 32 x 1" and 3b "At
   * every p, the best grid is a most compact one (smallest |P - Q| among the grids of p) and the worst is a single
   * row or column" and 3g "At every p the model chooses the best simulated grid or its transpose" */
  for (int p = 2; p <= 32; p++) {
    int best = 0, worst = 0, model = 0, compact = p;
    for (int P = 1; P <= p; P++) {
      if (p % P != 0)
        continue;
      if (!best || T(P, p) < T(best, p))
        best = P;
      if (!worst || T(P, p) > T(worst, p))
        worst = P;
      double m = NUM(grids, "t_model_s", "grid_rows=%d p=%d", P, p);
      if (!isnan(m) && (!model || m < NUM(grids, "t_model_s", "grid_rows=%d p=%d", model, p)))
        model = P;
      compact = abs(P - p / P) < compact ? abs(P - p / P) : compact;
    }
    CU_ASSERT_EQUAL(abs(best - p / best), compact);
    CU_ASSERT(worst == 1 || worst == p);
    CU_ASSERT(model == best || model == p / best);
    if (p == 32) {
      CU_ASSERT(best == 4 || best == 8);
      CU_ASSERT_DOUBLE_EQUAL(T(4, 32), T(8, 32), 1e-9);
    }
  }

  /* 3c "P x Q and Q x P take the same time on every grid with P, Q <= 10 ... 11 x 2 to 16 x 2 part from 2 x 11 to
   * 2 x 16" */
  for (size_t row = 1; row < grids->rows; row++) {
    int P = (int)strtol(cell(grids, row, "grid_rows"), NULL, 10), p = (int)strtol(cell(grids, row, "p"), NULL, 10);
    if (P <= 10 && p / P <= 10)
      CU_ASSERT_DOUBLE_EQUAL(T(P, p), T(p / P, p), 1e-9 * T(P, p));
  }
  for (int P = 11; P <= 16; P++)
    CU_ASSERT(T(P, 2 * P) > T(2, 2 * P) * (1 + 1e-9));

  /* 3d "On 1 x Q, T_par rises from Q = 4 to 5, from 8 to 9 and from 16 to 17" */
  for (int q = 4; q <= 16; q *= 2)
    CU_ASSERT(T(1, q + 1) > T(1, q));

  /* 3e "The model is never above the simulation, and is exact (to 1e-9) on every grid whose P and Q are powers of
   * two where it prints a time", "On 16 x 2 and 2 x 16 it prints -" and 3f "The largest |diff| is on 3 x 7 and
   * 7 x 3" */
  double largest = 0;
  for (size_t row = 1; row < grids->rows; row++) {
    int P = (int)strtol(cell(grids, row, "grid_rows"), NULL, 10), p = (int)strtol(cell(grids, row, "p"), NULL, 10);
    double t = num_at(grids, row, "t_par_s"), m = num_at(grids, row, "t_model_s");
    CU_ASSERT_EQUAL(isnan(m) != 0, p == 32 && (P == 16 || P == 2));
    if (isnan(m))
      continue;
    CU_ASSERT(m <= t * (1 + 1e-9));
    if (power_of_two(P) && power_of_two(p / P))
      CU_ASSERT_DOUBLE_EQUAL(m, t, 1e-9 * t);
    largest = fmax(largest, fabs(num_at(grids, row, "model_diff")));
  }
  CU_ASSERT_DOUBLE_EQUAL(fabs(NUM(grids, "model_diff", "grid_rows=3 p=21")), largest, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(fabs(NUM(grids, "model_diff", "grid_rows=7 p=21")), largest, 1e-12);
#undef T
  csv_free(grids);
  lab_free(&lab);
}

/* ---- Lab 4: docs/labs/04-protocol-controller.md ---- */

/* The 13 interval lengths (s) of the `nth` (0-based) "first_page_request" of a JSON output; 0, or -1. */
static int first_page_intervals(const char *json, int nth, double intervals[13])
{
  const char *at = json;
  for (int i = 0; at && i <= nth; i++)
    at = strstr(at + (i > 0), "\"first_page_request\"");
  at = at ? strstr(at, "\"intervals\": [") : NULL;
  if (!at)
    return -1;
  char *end = (char *)at + strlen("\"intervals\": [");
  for (int k = 0; k < 13; k++) {
    const char *start = end;
    intervals[k] = strtod(start, &end);
    if (end == start)
      return -1;
    end += strspn(end, ", \n");
  }
  return 0;
}

static void test_labs_protocol_controller(void)
{
  lab_t lab;
  lab_follow(&lab, "04-protocol-controller.md");
  if (SANITIZED) { /* its one command, dsm-gj, takes 25 s there: the normal build asserts 4a to 4e */
    lab_free(&lab);
    return;
  }
  csv_t *dsm = csv_load(&lab, "lab4-dsm-gj.csv");
  char *json = read_output(lab.root, "lab4-dsm-gj.json");
  const char *out = lab.out[0];
  CU_ASSERT_PTR_NOT_NULL_FATAL(dsm);
  CU_ASSERT_PTR_NOT_NULL_FATAL(json);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  const char *without = strstr(out, "==== controller = no");
  CU_ASSERT_PTR_NOT_NULL_FATAL(without);

  /* 4a "The controller saves more than half of the time: 0.658 s against 1.571 s, 58%" */
  double saved = 1 - NUM(dsm, "t_par_s", "controller=yes") / NUM(dsm, "t_par_s", "controller=no");
  CU_ASSERT(saved > 0.5 && saved < 0.6);

  /* 4b "Per node, the PP's Extra time is more than ten times larger without the controller" and "Prste falls too" */
  const char *per_node = strstr(out, "PP per node (ms), with -> without:");
  double extra[2] = {0}, prste[2] = {0};
  CU_ASSERT_PTR_NOT_NULL_FATAL(per_node);
  CU_ASSERT_EQUAL(sscanf(strstr(per_node, "Extra "), "Extra %lf -> %lf", &extra[0], &extra[1]), 2);
  CU_ASSERT_EQUAL(sscanf(strstr(per_node, "Prste "), "Prste %lf -> %lf", &prste[0], &prste[1]), 2);
  CU_ASSERT(extra[1] > 10 * extra[0]);
  CU_ASSERT(prste[1] > prste[0]);

  /* 4c "With the controller, the 13 intervals of the first page request add up to its wait (274.52 us), and the
   * longest is interval 8, CPRWait" and 4d "Without the controller the same request waits more than three times as
   * long (1046 us), and interval 8 is the longest again; intervals 6 and 13 are zero" */
  double waits[2] = {0};
  for (int run = 0; run < 2; run++) {
    const char *request = strstr(run ? without : out, "The first page request");
    double intervals[13], sum = 0;
    CU_ASSERT_PTR_NOT_NULL_FATAL(request);
    CU_ASSERT_EQUAL(sscanf(strstr(request, "waited "), "waited %lf us", &waits[run]), 1);
    CU_ASSERT_EQUAL_FATAL(first_page_intervals(json, run, intervals), 0);
    int longest = 0;
    for (int k = 0; k < 13; k++) {
      sum += intervals[k];
      longest = intervals[k] > intervals[longest] ? k : longest;
    }
    CU_ASSERT_DOUBLE_EQUAL(sum * 1e6, waits[run], 0.01);
    CU_ASSERT_EQUAL(longest + 1, 8);
    if (run == 1)
      CU_ASSERT(intervals[5] == 0 && intervals[12] == 0);
  }
  CU_ASSERT(waits[1] > 3 * waits[0]);

  /* 4e "With the controller, barriers dominate the waiting; without, diff requests; in both runs the dominant
   * category is CPRWait" */
  const char *dominant = strstr(out, "operation: barrier requests");
  CU_ASSERT(dominant && dominant < without);
  CU_ASSERT_PTR_NOT_NULL(strstr(without, "operation: diff requests"));
  const char *category = strstr(out, "category:  CPRWait");
  CU_ASSERT(category && category < without);
  CU_ASSERT_PTR_NOT_NULL(strstr(without, "category:  CPRWait"));
  free(json);
  csv_free(dsm);
  lab_free(&lab);
}

/* ---- Lab 5: docs/labs/05-design-your-machine.md ---- */

static void test_labs_design_your_machine(void)
{
  static const char *const machines[] = {"t800-mesh-16x8.xml", "t800-torus-16x8.xml", "t800-hypercube-7.xml",
                                         "t800-switch-128.xml"};
  static const int ps[] = {4, 16, 64, 128};
  lab_t lab;
  lab_follow(&lab, "05-design-your-machine.md");
  csv_t *mine = csv_load(&lab, "lab5-my-machine.csv");
  csv_t *topo = csv_load(&lab, "lab5-topology.csv");
#define TOPO(column, machine, bcast, p) NUM(topo, column, "platform=%s broadcast=%s p=%d", machine, bcast, p)

  if (mine) { /* NULL under a sanitizer only */
    /* 5d "On the fat tree the neighbour broadcast is the fastest at p = 16 and 64, and the pipelined chain is slower
     * than it at p = 64 with more than twice its Ovh_comm" */
    for (int p = 16; p <= 64; p *= 4) {
      double nb = NUM(mine, "t_par_s", "broadcast=neighbour p=%d", p);
      CU_ASSERT(nb < NUM(mine, "t_par_s", "broadcast=binomial p=%d", p));
      CU_ASSERT(nb < NUM(mine, "t_par_s", "broadcast=pipelined-chain p=%d", p));
    }
    CU_ASSERT(NUM(mine, "ovh_comm", "broadcast=pipelined-chain p=64") >
              2 * NUM(mine, "ovh_comm", "broadcast=neighbour p=64"));
  }

  if (topo) { /* NULL under a sanitizer only */
    /* 5a "On each of the four topologies the neighbour broadcast is faster than the binomial tree at every p from
     * 4" */
    for (size_t m = 0; m < 4; m++)
      for (size_t i = 0; i < 4; i++)
        CU_ASSERT(TOPO("t_par_s", machines[m], "neighbour", ps[i]) < TOPO("t_par_s", machines[m], "binomial", ps[i]));

    /* 5b "Mesh and torus give the same T_par up to p = 16; from p = 64 the torus is faster" */
    for (size_t i = 0; i < 4; i++)
      for (int b = 0; b < 2; b++) {
        const char *bcast = b ? "binomial" : "neighbour";
        double mesh = TOPO("t_par_s", machines[0], bcast, ps[i]), torus = TOPO("t_par_s", machines[1], bcast, ps[i]);
        if (ps[i] <= 16) {
          CU_ASSERT_DOUBLE_EQUAL(mesh, torus, 1e-9 * mesh);
        } else {
          CU_ASSERT(torus < mesh);
        }
      }

    /* 5c "At p = 64 and 128 the switch with the neighbour broadcast is the fastest point; at p = 128 the mesh is the
     * slowest of the four with the neighbour broadcast, the hypercube just ahead of it" */
    for (int p = 64; p <= 128; p *= 2)
      for (size_t row = 1; row < topo->rows; row++)
        if (strtol(cell(topo, row, "p"), NULL, 10) == p)
          CU_ASSERT(TOPO("t_par_s", machines[3], "neighbour", p) <= num_at(topo, row, "t_par_s"));
    for (size_t m = 1; m < 4; m++)
      CU_ASSERT(TOPO("t_par_s", machines[m], "neighbour", 128) <= TOPO("t_par_s", machines[0], "neighbour", 128));
    for (size_t m = 1; m < 4; m++)
      CU_ASSERT(m == 2 ||
                TOPO("t_par_s", machines[m], "neighbour", 128) <= TOPO("t_par_s", machines[2], "neighbour", 128));

    /* 5e "At p = 64 with the neighbour broadcast the fat tree (6.80 s) is slower than the mesh (6.17 s)" */
    if (mine)
      CU_ASSERT(NUM(mine, "t_par_s", "broadcast=neighbour p=64") > TOPO("t_par_s", machines[0], "neighbour", 64));
  }
  csv_t *kinds = csv_load(&lab, "lab5-machines.csv");
  if (kinds) { /* NULL under a sanitizer only */
    /* 5f "At p = 8 memory dominates on the T800 and on NCP2, communication on icluster, processing on the
     * present-day cluster. NCP2 has the best efficiency at p = 8 (above 90%) and icluster the worst (below 50%)" */
    static const char *const platforms[] = {"t800-mesh-128.xml", "icluster-fe-32.xml", "ncp2-myrinet-8.xml",
                                            "modern-switch-64.xml"};
    static const char *const dominant[] = {"memory", "communication", "memory", "processing"};
    for (size_t m = 0; m < 4; m++) {
      CU_ASSERT_STRING_EQUAL(TEXT(kinds, "dominant", "platform=%s p=8", platforms[m]), dominant[m]);
      if (m != 2)
        CU_ASSERT(NUM(kinds, "efficiency", "platform=%s p=8", platforms[2]) >
                  NUM(kinds, "efficiency", "platform=%s p=8", platforms[m]));
      if (m != 1)
        CU_ASSERT(NUM(kinds, "efficiency", "platform=%s p=8", platforms[1]) <
                  NUM(kinds, "efficiency", "platform=%s p=8", platforms[m]));
    }
    CU_ASSERT(NUM(kinds, "efficiency", "platform=%s p=8", platforms[2]) > 0.9);
    CU_ASSERT(NUM(kinds, "efficiency", "platform=%s p=8", platforms[1]) < 0.5);
  }
  csv_free(kinds);

  /* 5g "the neighbour broadcast is the fastest on both topologies ...: on the fat tree the pipelined chain takes more
   * than 10 times as long (0.158 s against 0.0144 s) and the binomial tree more than twice; with the neighbour
   * broadcast the fat tree is 2.6 times slower than the mesh (0.0144 s against 0.0056 s) ... the dominant component
   * from p = 16" */
  csv_t *today[] = {csv_load(&lab, "lab5-today-mesh.csv"), csv_load(&lab, "lab5-today-fattree.csv")};
  CU_ASSERT_PTR_NOT_NULL_FATAL(today[0]);
  CU_ASSERT_PTR_NOT_NULL_FATAL(today[1]);
#define TODAY(m, bcast) NUM(today[m], "t_par_s", "broadcast=%s p=64", bcast)
  for (size_t m = 0; m < 2; m++) {
    CU_ASSERT(TODAY(m, "neighbour") < TODAY(m, "binomial") && TODAY(m, "neighbour") < TODAY(m, "pipelined-chain"));
    for (size_t row = 1; row < today[m]->rows; row++)
      if (strtol(cell(today[m], row, "p"), NULL, 10) >= 16)
        CU_ASSERT_STRING_EQUAL(cell(today[m], row, "dominant"), "communication");
  }
  CU_ASSERT(TODAY(1, "pipelined-chain") > 10 * TODAY(1, "neighbour"));
  CU_ASSERT(TODAY(1, "binomial") > 2 * TODAY(1, "neighbour"));
  CU_ASSERT_DOUBLE_EQUAL(TODAY(1, "pipelined-chain"), 0.158, 0.0005);
  CU_ASSERT_DOUBLE_EQUAL(TODAY(1, "neighbour"), 0.0144, 0.00005);
  CU_ASSERT_DOUBLE_EQUAL(TODAY(0, "neighbour"), 0.0056, 0.00005);
  CU_ASSERT_DOUBLE_EQUAL(TODAY(1, "neighbour") / TODAY(0, "neighbour"), 2.6, 0.05);
#undef TODAY
  csv_free(today[0]);
  csv_free(today[1]);
#undef TOPO
  csv_free(mine);
  csv_free(topo);
  lab_free(&lab);
}

/* ---- simrun --help, the man page and the user guide ---- */

/* Whether `doc` holds `option` as a whole word: not followed by a letter, a '-' or a roff "\-" ("--per" is not
 * "--per-process"). */
static int has_option(const char *doc, const char *option)
{
  size_t len = strlen(option);
  for (const char *at = doc; (at = strstr(at, option)); at++) {
    char next = at[len];
    if (!(next >= 'a' && next <= 'z') && next != '-' && next != '\\')
      return 1;
  }
  return 0;
}

/* Every "--option" of `help` must appear in `doc` (the man page's "\-\-" counts as "--"). */
static void assert_options_documented(const char *help, const char *doc, const char *doc_name)
{
  for (const char *c = help; (c = strstr(c, "--")); c += 2) {
    size_t len = 2 + strspn(c + 2, "abcdefghijklmnopqrstuvwxyz-");
    if (len == 2)
      continue;
    char option[64], escaped[128];
    snprintf(option, sizeof option, "%.*s", (int)len, c);
    size_t e = 0;
    for (size_t i = 0; option[i] && e + 2 < sizeof escaped; i++) {
      if (option[i] == '-')
        escaped[e++] = '\\';
      escaped[e++] = option[i];
    }
    escaped[e] = '\0';
    int found = has_option(doc, option) || has_option(doc, escaped);
    if (!found)
      fprintf(stderr, "\n%s does not document %s\n", doc_name, option);
    CU_ASSERT(found);
  }
}

/* ---- Lab 6: docs/labs/06-amdahl-gustafson.md ---- */

/* Karp and Flatt's experimentally determined serial fraction of speedup S on p processors. */
static double karp_flatt(double speedup, int p)
{
  return (1 / speedup - 1.0 / p) / (1 - 1.0 / p);
}

static void test_labs_amdahl_gustafson(void)
{
  lab_t lab;
  lab_follow(&lab, "06-amdahl-gustafson.md");
  csv_t *sc = csv_load(&lab, "lab6-scaled.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
  static const int ps[] = {1, 2, 4, 8, 16, 32, 64};
  double fixed[7], scaled[7], t_par[7];
  for (size_t i = 0; i < 7; i++) {
    size_t row = row_of(sc, "p=%d fixed_size=0", ps[i]);
    scaled[i] = num_at(sc, row, "speedup");
    fixed[i] = num_at(sc, row, "fixed_speedup");
    t_par[i] = num_at(sc, row, "t_par_s");
    /* the fixed-size figure is the n = 64 point's own speedup at that p */
    CU_ASSERT_DOUBLE_EQUAL(fixed[i], NUM(sc, "speedup", "p=%d n=64", ps[i]), 1e-12);
  }
  /* 6a "The fixed-size speedup (n = 64) peaks at p = 16 (3.31) and falls after it, to 2.23 at p = 64" */
  for (size_t i = 0; i < 7; i++)
    CU_ASSERT(ps[i] == 16 || fixed[i] < fixed[4]);
  CU_ASSERT(fixed[5] > fixed[6]);
  CU_ASSERT(fixed[4] > 3.2 && fixed[4] < 3.4 && fixed[6] > 2.1 && fixed[6] < 2.35);

  /* 6b "The scaled speedup is above the fixed-size one at every p > 1 and grows at every doubling of p, to 12.2" */
  for (size_t i = 1; i < 7; i++)
    CU_ASSERT(scaled[i] > fixed[i] && scaled[i] > scaled[i - 1]);
  CU_ASSERT(scaled[6] > 11.5 && scaled[6] < 13);

  /* 6c "Karp and Flatt's e of the fixed-size speedups grows at every doubling of p, from 0.21 at p = 2 to 0.44 at
   * p = 64; that of the scaled speedups falls at every doubling, from 0.17 to 0.068" */
  for (size_t i = 2; i < 7; i++) {
    CU_ASSERT(karp_flatt(fixed[i], ps[i]) > karp_flatt(fixed[i - 1], ps[i - 1]));
    CU_ASSERT(karp_flatt(scaled[i], ps[i]) < karp_flatt(scaled[i - 1], ps[i - 1]));
  }
  CU_ASSERT_DOUBLE_EQUAL(karp_flatt(fixed[1], 2), 0.21, 0.005);
  CU_ASSERT_DOUBLE_EQUAL(karp_flatt(fixed[6], 64), 0.44, 0.005);
  CU_ASSERT_DOUBLE_EQUAL(karp_flatt(scaled[1], 2), 0.17, 0.005);
  CU_ASSERT_DOUBLE_EQUAL(karp_flatt(scaled[6], 64), 0.068, 0.0005);

  /* 6d "Idling is the largest overhead at every p >= 4 in both sweeps" */
  for (size_t row = 1; row < sc->rows; row++) {
    if (strtod(cell(sc, row, "p"), NULL) < 4)
      continue;
    double idle = strtod(cell(sc, row, "ovh_idle"), NULL);
    CU_ASSERT(idle > strtod(cell(sc, row, "ovh_comm"), NULL) && idle > strtod(cell(sc, row, "ovh_ctrl"), NULL));
  }

  /* 6e "The scaled T_par grows with p: 6.4 s at p = 64, 4.8 times p = 1's 1.35 s" */
  for (size_t i = 1; i < 7; i++)
    CU_ASSERT(t_par[i] > t_par[i - 1]);
  CU_ASSERT_DOUBLE_EQUAL(t_par[6] / t_par[0], 4.8, 0.05);
  csv_free(sc);
  lab_free(&lab);
}

/* ---- Lab 7: docs/labs/07-contention.md ---- */

static void test_labs_contention(void)
{
  lab_t lab;
  csv_t *mesh, *sw;
  lab_tables(&lab, "07-contention.md", "lab7-mesh.csv", "lab7-switch.csv", &mesh, &sw);
#define AT(csv, column, net, rows, p) NUM(csv, column, "network=%s grid_rows=%d p=%d", net, rows, p)
  /* 7a "At p = 1, at p = 4 (on either grid) and on the 1 x 32 grid, both networks give the same T_par on both
   * machines, to 1e-9" */
  const csv_t *both[] = {mesh, sw};
  static const int same[][2] = {{1, 1}, {1, 4}, {4, 4}, {1, 32}};
  for (size_t m = 0; m < 2; m++)
    for (size_t i = 0; i < 4; i++) {
      double flow = AT(both[m], "t_par_s", "simgrid", same[i][0], same[i][1]);
      CU_ASSERT_DOUBLE_EQUAL(AT(both[m], "t_par_s", "analytic", same[i][0], same[i][1]), flow, 1e-9 * flow);
    }
  /* 7b "by 42% on the mesh (1.043 s against 0.734 s) and by 18% on the switch (0.852 s against 0.724 s)" */
  double mesh_flow = AT(mesh, "t_par_s", "simgrid", 4, 32), mesh_alone = AT(mesh, "t_par_s", "analytic", 4, 32);
  double sw_flow = AT(sw, "t_par_s", "simgrid", 4, 32), sw_alone = AT(sw, "t_par_s", "analytic", 4, 32);
  CU_ASSERT_DOUBLE_EQUAL(mesh_flow / mesh_alone, 1.42, 0.005);
  CU_ASSERT_DOUBLE_EQUAL(sw_flow / sw_alone, 1.18, 0.005);
  CU_ASSERT_DOUBLE_EQUAL(mesh_flow, 1.043, 0.0005);
  CU_ASSERT_DOUBLE_EQUAL(sw_flow, 0.852, 0.0005);
  /* 7c "Under the analytic network the mesh and the switch are within 2% ...; under the flow model the mesh is 22%
   * slower than the switch" */
  CU_ASSERT(fabs(mesh_alone / sw_alone - 1) < 0.02);
  CU_ASSERT_DOUBLE_EQUAL(mesh_flow / sw_flow, 1.22, 0.005);
  /* 7d "Ovh_comm 5.58 against 3.95, Ovh_idle 4.81 against 3.06" */
  CU_ASSERT_DOUBLE_EQUAL(AT(mesh, "ovh_comm", "simgrid", 4, 32), 5.58, 0.005);
  CU_ASSERT_DOUBLE_EQUAL(AT(mesh, "ovh_comm", "analytic", 4, 32), 3.95, 0.005);
  CU_ASSERT_DOUBLE_EQUAL(AT(mesh, "ovh_idle", "simgrid", 4, 32), 4.81, 0.005);
  CU_ASSERT_DOUBLE_EQUAL(AT(mesh, "ovh_idle", "analytic", 4, 32), 3.06, 0.005);
  /* 7e "The 4 x 8 grid beats the 1 x 32 grid at p = 32 under both networks, and the 1 x 32 grid is slower than one
   * node" */
  static const char *const nets[] = {"simgrid", "analytic"};
  for (size_t m = 0; m < 2; m++)
    for (size_t k = 0; k < 2; k++) {
      CU_ASSERT(AT(both[m], "t_par_s", nets[k], 4, 32) < AT(both[m], "t_par_s", nets[k], 1, 32));
      CU_ASSERT(AT(both[m], "speedup", nets[k], 1, 32) < 1);
    }
#undef AT
  csv_free(mesh);
  csv_free(sw);
  lab_free(&lab);
}

/* ---- Lab 8: docs/labs/08-load-imbalance.md ---- */

static void test_labs_load_imbalance(void)
{
  lab_t lab;
  csv_t *im, *pr;
  lab_tables(&lab, "08-load-imbalance.md", "lab8-imbalance.csv", "lab8-imbalance-processes.csv", &im, &pr);
  static const int levels[] = {0, 50, 100, 200};
  static const double idle[] = {0.07, 0.58, 1.09, 2.11};
  for (size_t i = 0; i < 4; i++) {
    int x = levels[i];
    /* 8a "The overall anomaly is 0 at every imbalance" */
    CU_ASSERT(fabs(NUM(im, "ovh_anomaly", "imbalance=%d p=4", x)) < 1e-9);
    /* 8b "rank 0's imbalance is imbalance / 400 of T_seq ... each other rank's about -imbalance / 1200, with a true
     * anomaly of 0 everywhere" */
    CU_ASSERT_DOUBLE_EQUAL(NUM(pr, "rank_imbalance", "imbalance=%d p=4 rank=0", x), x / 400.0, 1e-9);
    for (int rank = 1; rank < 4; rank++)
      CU_ASSERT_DOUBLE_EQUAL(NUM(pr, "rank_imbalance", "imbalance=%d p=4 rank=%d", x, rank), -x / 1200.0, 1e-3);
    for (int rank = 0; rank < 4; rank++)
      CU_ASSERT(fabs(NUM(pr, "rank_anomaly", "imbalance=%d p=4 rank=%d", x, rank)) < 1e-9);
    /* 8c "Idling grows with the imbalance (Ovh_idle 0.07, 0.58, 1.09, 2.11) while communication does not" */
    CU_ASSERT_DOUBLE_EQUAL(NUM(im, "ovh_idle", "imbalance=%d p=4", x), idle[i], 0.005);
    CU_ASSERT(NUM(im, "ovh_comm", "imbalance=%d p=4", x) <= NUM(im, "ovh_comm", "imbalance=0 p=4") + 1e-9);
    /* 8d "The speedup stays below p / (1 + imbalance / 100) at every imbalance" */
    CU_ASSERT(NUM(im, "speedup", "imbalance=%d p=4", x) < 4 / (1 + x / 100.0));
  }
  /* 8c "at imbalance = 100 the idle ratio of ranks 1 to 3 (0.36) is over 30 times rank 0's (0.010)" */
  for (int rank = 1; rank < 4; rank++)
    CU_ASSERT(NUM(pr, "rank_ovh_idle", "imbalance=100 p=4 rank=%d", rank) >
              30 * NUM(pr, "rank_ovh_idle", "imbalance=100 p=4 rank=0"));
  csv_free(im);
  csv_free(pr);
  lab_free(&lab);
}

/* ---- Lab 9: docs/labs/09-heterogeneity.md ---- */

static void test_labs_heterogeneity(void)
{
  lab_t lab;
  csv_t *mx, *pr;
  lab_tables(&lab, "09-heterogeneity.md", "lab9-mixed.csv", "lab9-mixed-processes.csv", &mx, &pr);
#define RANK(column, x, rank) NUM(pr, column, "imbalance=%d p=4 rank=%d", x, rank)
  /* 9a "With the even split, rank 0 on the fast node computes for 14.2 s and each other rank for 28.4 s, twice as
   * long; rank 0's idle ratio (0.25) is over 5 times each other rank's (0.046)" */
  CU_ASSERT_DOUBLE_EQUAL(RANK("rank_work_s", 0, 0), 14.2, 0.05);
  for (int rank = 1; rank < 4; rank++) {
    CU_ASSERT_DOUBLE_EQUAL(RANK("rank_work_s", 0, rank), 2 * RANK("rank_work_s", 0, 0), 1e-6);
    CU_ASSERT(RANK("rank_ovh_idle", 0, 0) > 5 * RANK("rank_ovh_idle", 0, rank));
  }
  /* 9b "With imbalance = 60 the four ranks' work is equal (22.75 s each, within 0.1%), yet T_par rises from 35.8 s to
   * 43.6 s and Ovh_idle from 0.39 to 1.12; with imbalance = 100 T_par is 49.8 s" */
  for (int rank = 0; rank < 4; rank++)
    CU_ASSERT_DOUBLE_EQUAL(RANK("rank_work_s", 60, rank), 22.75, 0.001 * 22.75);
  CU_ASSERT_DOUBLE_EQUAL(NUM(mx, "t_par_s", "imbalance=0 p=4"), 35.8, 0.05);
  CU_ASSERT_DOUBLE_EQUAL(NUM(mx, "t_par_s", "imbalance=60 p=4"), 43.6, 0.05);
  CU_ASSERT_DOUBLE_EQUAL(NUM(mx, "t_par_s", "imbalance=100 p=4"), 49.8, 0.05);
  CU_ASSERT_DOUBLE_EQUAL(NUM(mx, "ovh_idle", "imbalance=0 p=4"), 0.39, 0.005);
  CU_ASSERT_DOUBLE_EQUAL(NUM(mx, "ovh_idle", "imbalance=60 p=4"), 1.12, 0.005);
  /* 9c "1.28 times longer per step, 1.22 in T_par" */
  CU_ASSERT_DOUBLE_EQUAL(NUM(mx, "t_par_s", "imbalance=60 p=4") / NUM(mx, "t_par_s", "imbalance=0 p=4"), 1.22, 0.005);
#undef RANK
  csv_free(mx);
  csv_free(pr);
  lab_free(&lab);
}

/* ---- Lab 10: docs/labs/10-logp-hockney.md ---- */

/* Hockney's lambda and tau fitted from the 8-byte and 1 MiB rows of a ping-pong's message table, in seconds. */
static void two_point_fit(const csv_t *pp, double *lambda, double *tau)
{
  double t8 = NUM(pp, "mean_s", "bytes=8"), t1m = NUM(pp, "mean_s", "bytes=1048576");
  *tau = (t1m - t8) / (1048576 - 8);
  *lambda = t8 - 8 * *tau;
}

static void test_labs_logp_hockney(void)
{
  lab_t lab;
  csv_t *pp, *bcast;
  lab_tables(&lab, "10-logp-hockney.md", "lab10-pingpong-messages.csv", "lab10-broadcast.csv", &pp, &bcast);
  /* 10a "The two-point fit from 8 bytes and 1 MiB gives lambda = 124.04 us and tau = 0.084274 us/B ... and predicts
   * every other size of the table to 1e-6 relative ... 1024 bytes: 210.337 us; n_1/2 = lambda / tau = 1472 bytes" */
  double lambda, tau;
  two_point_fit(pp, &lambda, &tau);
  CU_ASSERT_DOUBLE_EQUAL(lambda * 1e6, 124.04, 0.005);
  CU_ASSERT_DOUBLE_EQUAL(tau * 1e6, 0.084274, 0.0000005);
  for (size_t row = 1; row < pp->rows; row++) {
    double bytes = strtod(cell(pp, row, "bytes"), NULL), mean = strtod(cell(pp, row, "mean_s"), NULL);
    CU_ASSERT_DOUBLE_EQUAL(mean, lambda + bytes * tau, 1e-6 * mean);
  }
  CU_ASSERT_DOUBLE_EQUAL(NUM(pp, "mean_s", "bytes=1024") * 1e6, 210.337, 0.0005);
  CU_ASSERT_DOUBLE_EQUAL(lambda / tau, 1472, 0.5);
  /* 10b "LogP's L is the time of one 8-byte word, lambda + 8 tau = 124.714 us, and g is 8 tau = 0.674 us" (the report's
   * line) */
  CU_ASSERT_PTR_NOT_NULL(strstr(lab.out[0], "L 124.714 us, o 0"));
  CU_ASSERT_PTR_NOT_NULL(strstr(lab.out[0], "g 0.674192 us per 8-byte word"));
  CU_ASSERT_DOUBLE_EQUAL((lambda + 8 * tau) * 1e6, 124.714, 0.0005);
  /* 10c "The binomial tree takes ceil(log2 p) (lambda + 131072 tau) to 1e-6: 11.17 ms, 33.51 ms and 55.85 ms at p = 2,
   * 8 and 32; the chain (p - 1) (lambda + 131072 tau): 11.17 ms, 78.19 ms and 346.27 ms" */
  static const int ps[] = {2, 8, 32}, rounds[] = {1, 3, 5};
  static const double tree_ms[] = {11.17, 33.51, 55.85}, chain_ms[] = {11.17, 78.19, 346.27};
  double message = lambda + 131072 * tau;
  for (size_t i = 0; i < 3; i++) {
    double tree = NUM(bcast, "t_par_s", "broadcast=binomial p=%d", ps[i]);
    double chain = NUM(bcast, "t_par_s", "broadcast=neighbour p=%d", ps[i]);
    CU_ASSERT_DOUBLE_EQUAL(tree, rounds[i] * message, 1e-6 * tree);
    CU_ASSERT_DOUBLE_EQUAL(chain, (ps[i] - 1) * message, 1e-6 * chain);
    CU_ASSERT_DOUBLE_EQUAL(tree * 1e3, tree_ms[i], 0.005);
    CU_ASSERT_DOUBLE_EQUAL(chain * 1e3, chain_ms[i], 0.005);
  }
  /* The probe part, on the project's samples (docs/labs/lab10-samples.csv) */
  csv_t *here = csv_load(&lab, "lab10-here-pingpong-messages.csv");
  csv_t *here_bcast = csv_load(&lab, "lab10-here-broadcast.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(here);
  CU_ASSERT_PTR_NOT_NULL_FATAL(here_bcast);
  /* 10d "the two-point line (lambda = 0.1106 us, tau = 7.640e-5 us/B) predicts the sizes up to 2048 bytes within 7.5%
   * and misses those above: 4096 bytes take 2.158 us against 0.424 us predicted (-80.4%), 131072 bytes 11.648 us
   * against 10.125 us (-13.1%)" */
  two_point_fit(here, &lambda, &tau);
  CU_ASSERT_DOUBLE_EQUAL(lambda * 1e6, 0.1106, 0.00005);
  CU_ASSERT_DOUBLE_EQUAL(tau * 1e6, 7.640e-5, 0.0005e-5);
  for (size_t row = 1; row < here->rows; row++) {
    double bytes = strtod(cell(here, row, "bytes"), NULL), mean = strtod(cell(here, row, "mean_s"), NULL);
    if (bytes <= 2048)
      CU_ASSERT(fabs(lambda + bytes * tau - mean) <= 0.075 * mean);
  }
  CU_ASSERT_DOUBLE_EQUAL(NUM(here, "mean_s", "bytes=4096") * 1e6, 2.158, 0.0005);
  CU_ASSERT_DOUBLE_EQUAL((lambda + 4096 * tau) * 1e6, 0.424, 0.0005);
  CU_ASSERT_DOUBLE_EQUAL(NUM(here, "mean_s", "bytes=131072") * 1e6, 11.648, 0.0005);
  CU_ASSERT_DOUBLE_EQUAL((lambda + 131072 * tau) * 1e6, 10.125, 0.0005);
  /* 10e "The tree at p = 2 on the probed machine takes one 128 KiB message's time, 11.648 us, the ping-pong's row to
   * 1e-9; the report's Hockney line (lambda 1.85146 us, tau 7.46899e-05 us/B) gives it to 0.1%" */
  double tree = NUM(here_bcast, "t_par_s", "broadcast=binomial p=2");
  CU_ASSERT_DOUBLE_EQUAL(tree, NUM(here, "mean_s", "bytes=131072"), 1e-9 * tree);
  CU_ASSERT_PTR_NOT_NULL(strstr(lab.out[3], "Hockney lambda 1.85146 us, tau"));
  CU_ASSERT_PTR_NOT_NULL(strstr(lab.out[3], "7.46899e-05 us/B"));
  CU_ASSERT_DOUBLE_EQUAL(tree, (1.85146 + 131072 * 7.46899e-05) * 1e-6, 1e-3 * tree);
  csv_free(here);
  csv_free(here_bcast);
  csv_free(pp);
  csv_free(bcast);
  lab_free(&lab);
}

static void test_labs_help_documented(void)
{
  static const char *const helps[][2] = {{"--help", NULL}, {"platform", "--help"}};
  char *man = read_file_text(SIMRUN_SOURCE_DIR "/docs/simrun.1");
  char *guide = read_file_text(SIMRUN_SOURCE_DIR "/docs/user-guide.md");
  CU_ASSERT_PTR_NOT_NULL_FATAL(man);
  CU_ASSERT_PTR_NOT_NULL_FATAL(guide);
  for (size_t i = 0; i < 2; i++) {
    const char *args[3] = {helps[i][0], helps[i][1], NULL};
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    assert_options_documented(run.out, man, "docs/simrun.1");
    assert_options_documented(run.out, guide, "docs/user-guide.md");
    run_free(&run);
  }
  free(man);
  free(guide);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_labs_lost_cycles", test_labs_lost_cycles},
      {"test_labs_broadcast_bottleneck", test_labs_broadcast_bottleneck},
      {"test_labs_grid_shape", test_labs_grid_shape},
      {"test_labs_protocol_controller", test_labs_protocol_controller},
      {"test_labs_design_your_machine", test_labs_design_your_machine},
      {"test_labs_amdahl_gustafson", test_labs_amdahl_gustafson},
      {"test_labs_contention", test_labs_contention},
      {"test_labs_load_imbalance", test_labs_load_imbalance},
      {"test_labs_heterogeneity", test_labs_heterogeneity},
      {"test_labs_logp_hockney", test_labs_logp_hockney},
      {"test_labs_help_documented", test_labs_help_documented},
      {NULL, NULL},
  };
  return tu_run("labs", cases);
}
