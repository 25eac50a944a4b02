/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The factor x factor view (rep_factors.h, issue 45 item 3): which combination of the swept factors is fastest at each
 * p, and by how much, as a table per p in the terminal and on the HTML page, and as bars of the speedup per
 * combination with their rank, a panel per p. The figures are the study's (stu_factors.h). */
#include "rep_factors.h"
#include "rep_html_tables.h"
#include "rep_summary.h"
#include "rep_units.h"
#include "stu_lost_cycles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CELL_WIDTH = 18 }; /* "%9s %7.2f" and the mark: T_par in its unit, speedup, '*' for the best */

/* A value as shown: a path by its last part. */
static const char *shown(const char *value)
{
  const char *slash = strrchr(value, '/');
  return slash ? slash + 1 : value;
}

/* The row's values of every factor but the last, "mesh-16x8.xml, 1024". */
static void row_label(const stu_study_t *study, const stu_factors_t *f, size_t row, char *buf, size_t len)
{
  buf[0] = '\0';
  for (size_t i = 0; i + 1 < f->nfactors; i++)
    rep_append(buf, len, "%s%s", i ? ", " : "", shown(stu_factors_value(study, f, i, row, 0)));
}

static const char *col_label(const stu_study_t *study, const stu_factors_t *f, size_t col)
{
  return shown(stu_factors_value(study, f, f->nfactors - 1, 0, col));
}

/* The factors' names, "platform x broadcast": the rows' joined, or the columns'. */
static void factor_names(const stu_study_t *study, const stu_factors_t *f, int columns, char *buf, size_t len)
{
  buf[0] = '\0';
  for (size_t i = columns ? f->nfactors - 1 : 0; i + !columns < f->nfactors; i++)
    rep_append(buf, len, "%s%s", buf[0] ? " x " : "", study->scenario->params[f->param[i]].name);
}

/* ---------- the view's rows as a table (rep_factors_schema) ---------- */

static const stu_factor_cell_t *cell_of(const rep_at_t *at)
{
  return at->item;
}

static rep_cell_t processes(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(at->point->p);
}

static rep_cell_t t_par(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(at->point->t_par);
}

static rep_cell_t speedup(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(stu_eppa(at->point)->speedup);
}

static rep_cell_t rank(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(cell_of(at)->rank);
}

static rep_cell_t best(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(cell_of(at)->best);
}

enum { FILES = REP_IN_FILES };

/* csv, json, head, unit, meaning, format, key, in, each, label, has, get */
static const rep_column_t columns[] = {
    {"p", "p", "p", "", "number of processes", REP_FMT_INT, 1, FILES, 0, NULL, NULL, processes},
    {"t_par_s", "t_par_s", "T_par", "s", "the point's T_par", REP_FMT_TIME, 0, FILES, 0, NULL, NULL, t_par},
    {"speedup", "speedup", "speedup", "", "its speedup", REP_FMT_FIXED3, 0, FILES, 0, NULL, NULL, speedup},
    {"rank", "rank", "rank", "", "1 + the points at that p faster beyond a tie", REP_FMT_INT, 0, FILES, 0, NULL, NULL,
     rank},
    {"best", "best", "best", "", "rank 1: the lowest T_par at that p", REP_FMT_FLAG, 0, FILES, 0, NULL, NULL, best},
};

const rep_schema_t rep_factors_schema = {"factors", columns, sizeof columns / sizeof columns[0], NULL};

rep_at_t rep_factors_at(const stu_study_t *study, const stu_factor_cell_t *cell)
{
  return (rep_at_t){study, cell->point, -1, cell};
}

/* ---------- the terminal ---------- */

/* The unit of the T_par at the k-th p (rep_units.h), the table's times in it and named after its p, with one digit
 * more than the report's other columns (4 significant at least): the table is there to rank close configurations. */
static rep_unit_t p_unit(const stu_factors_t *f, size_t k)
{
  double times[f->rows * f->cols + 1];
  size_t n = 0;
  for (size_t r = 0; r < f->rows; r++)
    for (size_t c = 0; c < f->cols; c++)
      if (stu_factors_cell(f, k, r, c)->point)
        times[n++] = stu_factors_cell(f, k, r, c)->point->t_par;
  rep_unit_t unit = rep_unit_pick(times, n);
  unit.decimals += unit.decimals < 6;
  return unit;
}

/* Appends the cell to `line`, right-aligned in `width` columns, its T_par in `unit`. */
static void print_cell(char *line, size_t len, const stu_factor_cell_t *cell, int width, const rep_unit_t *unit)
{
  char text[64] = "- ", time[32];
  if (cell->point) {
    rep_unit_format(time, sizeof time, cell->point->t_par, unit);
    snprintf(text, sizeof text, "%9s %7.2f%c", time, stu_eppa(cell->point)->speedup, cell->best ? '*' : ' ');
  }
  rep_append(line, len, "  %*s", width, text);
}

/* The line without its trailing blanks (an unmarked cell's room for the mark). */
static void put_line(FILE *out, char *line)
{
  size_t n = strlen(line);
  while (n > 0 && line[n - 1] == ' ')
    line[--n] = '\0';
  fprintf(out, "%s\n", line);
}

/* Columns [from, to) of the table at the k-th p. */
static void print_block(FILE *out, const stu_study_t *study, const stu_factors_t *f, size_t k, size_t from, size_t to,
                        int label_width, int col_width)
{
  char label[256], line[4096];
  rep_unit_t unit = p_unit(f, k);
  snprintf(label, sizeof label, "p = %d (%s)", f->p[k], unit.name);
  snprintf(line, sizeof line, "%-*s", label_width, label);
  for (size_t c = from; c < to; c++)
    rep_append(line, sizeof line, "  %*s ", col_width - 1, col_label(study, f, c));
  put_line(out, line);
  for (size_t r = 0; r < f->rows; r++) {
    row_label(study, f, r, label, sizeof label);
    snprintf(line, sizeof line, "%-*s", label_width, label);
    for (size_t c = from; c < to; c++)
      print_cell(line, sizeof line, stu_factors_cell(f, k, r, c), col_width, &unit);
    put_line(out, line);
  }
}

static void print_tables(FILE *out, const stu_study_t *study, const stu_factors_t *f, int width)
{
  char label[256];
  int label_width = (int)strlen("p = 1000000 (ms)"), col_width = CELL_WIDTH;
  for (size_t r = 0; r < f->rows; r++) {
    row_label(study, f, r, label, sizeof label);
    label_width = (int)strlen(label) > label_width ? (int)strlen(label) : label_width;
  }
  for (size_t c = 0; c < f->cols; c++)
    col_width = (int)strlen(col_label(study, f, c)) > col_width ? (int)strlen(col_label(study, f, c)) : col_width;
  size_t per = width - label_width >= col_width + 2 ? (size_t)(width - label_width) / (size_t)(col_width + 2) : 1;
  char rows[256], cols[128], held[128];
  factor_names(study, f, 0, rows, sizeof rows);
  factor_names(study, f, 1, cols, sizeof cols);
  rep_summary_held(study, held, sizeof held); /* the factors a rank holds equal (stu_factors.c), as the summary says */
  fprintf(out,
          "\nFactors at each p: rows %s, columns %s (- where no point ran).\nEach cell: T_par in the unit after "
          "its p, and speedup;\n* the best (lowest T_par%s%s; ties all marked).\n",
          rows, cols, held[0] ? " among equal " : "", held);
  for (size_t k = 0; k < f->np; k++)
    for (size_t from = 0; from < f->cols; from += per)
      print_block(out, study, f, k, from, from + per < f->cols ? from + per : f->cols, label_width, col_width);
}

void rep_factors_print(FILE *out, const stu_study_t *study, int width)
{
  stu_factors_t f;
  int rc = stu_factors_collect(study, &f);
  if (rc == 1)
    print_tables(out, study, &f, width);
  else if (rc < 0)
    fprintf(out, "\nNo factor x factor table: out of memory.\n");
  stu_factors_free(&f);
}

/* ---------- the HTML page ---------- */

static void html_text(FILE *out, const char *tag, const char *text)
{
  fprintf(out, "<%s>", tag);
  rep_html_escaped(out, text, strlen(text));
  fprintf(out, "</%s>", tag);
}

/* The table at the k-th p: a row per combination of the rows' factors, T_par (in the p's unit, as the terminal's) and
 * speedup under each column's value. */
static void html_table(FILE *out, const stu_study_t *study, const stu_factors_t *f, size_t k)
{
  char label[256];
  fprintf(out, "<div class=\"wide\"><table class=\"factors\"><tr><th rowspan=\"2\">p = %d</th>", f->p[k]);
  for (size_t c = 0; c < f->cols; c++) {
    fputs("<th colspan=\"2\">", out);
    rep_html_escaped(out, col_label(study, f, c), strlen(col_label(study, f, c)));
    fputs("</th>", out);
  }
  rep_unit_t unit = p_unit(f, k);
  char time[32];
  fputs("</tr>\n<tr>", out);
  for (size_t c = 0; c < f->cols; c++)
    fprintf(out, "<th>T_par (%s)</th><th>speedup</th>", unit.name);
  fputs("</tr>\n", out);
  for (size_t r = 0; r < f->rows; r++) {
    row_label(study, f, r, label, sizeof label);
    fputs("<tr>", out);
    html_text(out, "th", label);
    for (size_t c = 0; c < f->cols; c++) {
      const stu_factor_cell_t *cell = stu_factors_cell(f, k, r, c);
      const char *cls = cell->best ? "n best" : "n";
      if (cell->point) {
        rep_unit_format(time, sizeof time, cell->point->t_par, &unit);
        double speedup = stu_eppa(cell->point)->speedup;
        char title[48] = ""; /* the speedup as the terminal's factor table shows it, whole in the tooltip */
        if (isfinite(speedup))
          snprintf(title, sizeof title, " title=\"%.9g\"", speedup);
        fprintf(out, "<td class=\"%s\" title=\"%.9g s\">%s%s</td><td class=\"%s\"%s>%.2f</td>", cls, cell->point->t_par,
                time, cell->best ? " *" : "", cls, title, speedup);
      } else
        fputs("<td class=\"n\">-</td><td class=\"n\">-</td>", out);
    }
    fputs("</tr>\n", out);
  }
  fputs("</table></div>\n", out);
}

void rep_factors_html(FILE *out, const stu_study_t *study, const stu_factors_t *f)
{
  char rows[256], cols[128], held[128];
  factor_names(study, f, 0, rows, sizeof rows);
  factor_names(study, f, 1, cols, sizeof cols);
  rep_summary_held(study, held, sizeof held);
  fputs("<p>At each p, T_par and speedup for every combination of the swept factors: rows ", out);
  rep_html_escaped(out, rows, strlen(rows));
  fputs(", columns ", out);
  rep_html_escaped(out, cols, strlen(cols));
  fputs("; * and bold: the best (lowest T_par", out);
  if (held[0]) {
    fputs(" among equal ", out);
    rep_html_escaped(out, held, strlen(held));
  }
  fputs(", ties all marked); - no point there.</p>\n", out);
  for (size_t k = 0; k < f->np; k++)
    html_table(out, study, f, k);
}

/* ---------- the picture ---------- */

/* The bars of every panel: their names, the speedups (a stack per column, zero on the other columns' bars, NaN
 * without a point), the panels. */
typedef struct bar_data {
  char (*names)[128];
  const char **name;
  double *values;
  rep_stack_t *stacks;
  rep_bars_t *panels;
  char (*headings)[64];
  char x_label[300];
} bar_data_t;

static void bar_data_free(bar_data_t *d)
{
  free(d->names);
  free(d->name);
  free(d->values);
  free(d->stacks);
  free(d->panels);
  free(d->headings);
}

/* Fills the k-th panel: a bar per cell, rows' combinations in order, each with its columns. */
static void fill_panel(const stu_study_t *study, const stu_factors_t *f, bar_data_t *d, size_t k)
{
  size_t n = f->rows * f->cols;
  for (size_t c = 0; c < f->cols; c++) {
    double *values = d->values + (k * f->cols + c) * n;
    d->stacks[k * f->cols + c] = (rep_stack_t){col_label(study, f, c), rep_svg_series_colour(c), values};
    for (size_t b = 0; b < n; b++) {
      const stu_factor_cell_t *cell = &f->cells[k * n + b];
      values[b] = b % f->cols != c ? 0 : cell->point ? stu_eppa(cell->point)->speedup : NAN;
    }
  }
  snprintf(d->headings[k], sizeof d->headings[k], "p = %d", f->p[k]);
  d->panels[k] =
      (rep_bars_t){d->headings[k],         d->x_label,     "speedup", d->name, n, d->stacks + k * f->cols, f->cols,
                   REP_CHART_NOTE_ROW + 4, d->headings[k], NULL};
}

static int bar_data_make(const stu_study_t *study, const stu_factors_t *f, bar_data_t *d)
{
  size_t n = f->rows * f->cols;
  *d = (bar_data_t){.names = calloc(n, sizeof *d->names),
                    .name = calloc(n, sizeof *d->name),
                    .values = calloc(f->np * f->cols * n, sizeof *d->values),
                    .stacks = calloc(f->np * f->cols, sizeof *d->stacks),
                    .panels = calloc(f->np, sizeof *d->panels),
                    .headings = calloc(f->np, sizeof *d->headings)};
  if (!d->names || !d->name || !d->values || !d->stacks || !d->panels || !d->headings)
    return -1;
  factor_names(study, f, 0, d->x_label, sizeof d->x_label);
  rep_append(d->x_label, sizeof d->x_label, ", ");
  factor_names(study, f, 1, d->x_label + strlen(d->x_label), sizeof d->x_label - strlen(d->x_label));
  for (size_t b = 0; b < n; b++) {
    row_label(study, f, b / f->cols, d->names[b], sizeof d->names[b]);
    rep_append(d->names[b], sizeof d->names[b], ", %s", col_label(study, f, b % f->cols));
    d->name[b] = d->names[b];
  }
  for (size_t k = 0; k < f->np; k++)
    fill_panel(study, f, d, k);
  return 0;
}

/* Each bar's rank by T_par over it ("1" the best). */
static void annotate_ranks(rep_svg_t *svg, size_t panel, const rep_plot_t *plot, const void *arg)
{
  const stu_factors_t *f = arg;
  size_t n = f->rows * f->cols;
  rep_svg_text(svg, plot->left - 8, plot->top - 6, 11, REP_END, "rank");
  for (size_t b = 0; b < n; b++) {
    const stu_factor_cell_t *cell = &f->cells[panel * n + b];
    char text[16];
    if (!cell->point)
      continue;
    snprintf(text, sizeof text, "%d%s", cell->rank, cell->best ? "*" : "");
    rep_svg_text(svg, rep_plot_x(plot, (double)b), plot->top - 6, 11, REP_MIDDLE, text);
  }
}

int rep_factors_svg(FILE *out, const stu_study_t *study, const stu_factors_t *f)
{
  bar_data_t d;
  char title[512], subtitle[700], rows[256], cols[128], note[512];
  int rc = bar_data_make(study, f, &d);
  factor_names(study, f, 0, rows, sizeof rows);
  factor_names(study, f, 1, cols, sizeof cols);
  snprintf(title, sizeof title, "Factors: %s, %s x %s at each p", study->scenario->name, rows, cols);
  snprintf(note, sizeof note, "; bars: speedup, coloured by %s; over them, the rank by T_par (1* the best)", cols);
  rep_picture_subtitle(subtitle, sizeof subtitle, study, note);
  rc = rc ? rc : rep_bar_picture(out, title, subtitle, d.panels, f->np, annotate_ranks, f);
  bar_data_free(&d);
  return rc;
}

int rep_factors_picture(rep_pictures_t *pics)
{
  stu_factors_t f;
  int has = stu_factors_collect(pics->study, &f);
  rep_file_t *file = has == 1 ? rep_picture_open(pics, "factors", "") : NULL;
  int rc = has < 0 ? -1 : 0;
  if (file)
    rc = rep_picture_close(pics, file, rep_factors_svg(rep_file_stream(file), pics->study, &f));
  else if (has == 1)
    rc = -1;
  stu_factors_free(&f);
  return rc;
}
