/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The terminal report's layout: the width (--width, COLUMNS, the terminal, 80), wrapped text and tables split into
 * column groups with their key columns repeated (rep_layout.h). */
#define _GNU_SOURCE /* vasprintf, open_memstream, strndup */
#include "rep_layout.h"
#include "bas_grow.h"
#include "bas_error.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int clamp_width(int width)
{
  return width < REP_WIDTH_MIN ? REP_WIDTH_MIN : width > REP_WIDTH_MAX ? REP_WIDTH_MAX : width;
}

int rep_width_pick(int option, const char *columns, int terminal)
{
  if (option > 0)
    return clamp_width(option);
  char *end = NULL;
  long value = columns && *columns ? strtol(columns, &end, 10) : 0;
  if (end && *end == '\0' && value >= REP_WIDTH_MIN && value <= REP_WIDTH_MAX)
    return (int)value;
  return terminal > 0 ? clamp_width(terminal) : 80;
}

/* Whether the word at `word` is a unit that a figure before it must keep on its line ("426 ms", "64 KiB"). */
static int is_unit(const char *word)
{
  static const char *const units[] = {"s", "ms", "us", "ns", "min", "h", "B", "KB", "MB", "GB", "KiB", "MiB", "GiB"};
  size_t len = strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
  for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
    if (len == strlen(units[u]) && strncmp(word, units[u], len) == 0)
      return 1;
  return 0;
}

/* Whether a line may break at text[k]: a space, not the one between a figure and its unit. */
static int breaks_at(const char *text, size_t k)
{
  return text[k] == ' ' && !(k > 0 && text[k - 1] >= '0' && text[k - 1] <= '9' && is_unit(text + k + 1));
}

/* The length of the next line of `text` within `room` columns: up to the last space that fits and does not part a
 * figure from its unit, or `room` when the first word is longer. */
static size_t line_length(const char *text, size_t room)
{
  size_t len = strlen(text);
  if (len <= room)
    return len;
  for (size_t k = room; k > 0; k--)
    if (breaks_at(text, k))
      return k;
  return room;
}

void rep_wrap(FILE *out, const char *text, int width, int indent)
{
  int first = 1;
  while (first || *text) {
    size_t room = (size_t)(first ? width : width - indent);
    size_t len = line_length(text, room);
    fprintf(out, "%*s%.*s\n", first ? 0 : indent, "", (int)len, text);
    text += len;
    while (*text == ' ')
      text++;
    first = 0;
  }
}

/* Whether a line is a table's: two spaces in a row after its indent (prose has single spaces). */
static int tabular(const char *line, size_t len)
{
  size_t lead = strspn(line, " ");
  for (size_t k = lead; k + 1 < len; k++)
    if (line[k] == ' ' && line[k + 1] == ' ')
      return 1;
  return 0;
}

/* A block of table lines printed from memory, each a borrowed span of the text. */
typedef struct span {
  const char *text;
  size_t len;
} span_t;

/* Whether column `pos` is blank in every line of the block (past a line's end counts as blank). */
static int blank_at(const span_t *lines, size_t count, size_t pos)
{
  for (size_t i = 0; i < count; i++)
    if (pos < lines[i].len && lines[i].text[pos] != ' ')
      return 0;
  return 1;
}

/* The end of the block's first column: the first position after its first text that is blank in every line. */
static size_t key_end(const span_t *lines, size_t count, size_t longest)
{
  size_t pos = 0;
  while (pos < longest && blank_at(lines, count, pos))
    pos++;
  while (pos < longest && !blank_at(lines, count, pos))
    pos++;
  return pos;
}

/* Where to cut the block within `width`: the last position at most `width` that is blank in every line and follows a
 * column's text, beyond `from`; 0 when there is none. */
static size_t cut_at(const span_t *lines, size_t count, size_t from, int width)
{
  for (size_t pos = (size_t)width; pos > from; pos--)
    if (blank_at(lines, count, pos) && !blank_at(lines, count, pos - 1))
      return pos;
  return 0;
}

static void print_trimmed(FILE *out, const char *key, size_t key_len, const char *text, size_t len)
{
  while (len > 0 && text[len - 1] == ' ')
    len--;
  fprintf(out, "%.*s%.*s\n", (int)key_len, key, (int)len, text);
}

/* Prints a table's lines split into groups of columns within `width`, the first column repeated; 0, or -1 when it
 * has no column boundary to cut at (then nothing is printed). */
static int split_block(FILE *out, const span_t *lines, size_t count, int width)
{
  size_t longest = 0;
  for (size_t i = 0; i < count; i++)
    longest = lines[i].len > longest ? lines[i].len : longest;
  size_t key = key_end(lines, count, longest);
  size_t cut = cut_at(lines, count, key, width);
  if (count < 2 || cut == 0)
    return -1;
  for (size_t i = 0; i < count; i++)
    print_trimmed(out, "", 0, lines[i].text, lines[i].len < cut ? lines[i].len : cut);
  fputc('\n', out);
  /* the rest, after the key column: as many more groups as it needs */
  char *rest = NULL;
  size_t len = 0;
  FILE *buf = open_memstream(&rest, &len);
  if (!buf)
    return 0;
  for (size_t i = 0; i < count; i++)
    print_trimmed(buf, lines[i].text, key, lines[i].len > cut ? lines[i].text + cut : "",
                  lines[i].len > cut ? lines[i].len - cut : 0);
  fclose(buf);
  rep_fit_lines(out, rest, width);
  free(rest);
  return 0;
}

/* The lines of `text` from `at`: a run of table lines (the first wider than `width`) into lines[], at most `max`. */
static size_t table_run(const char *at, span_t *lines, size_t max)
{
  size_t count = 0;
  while (*at && count < max) {
    size_t len = strcspn(at, "\n");
    if (len == 0 || !tabular(at, len))
      break;
    lines[count++] = (span_t){at, len};
    at += len + (at[len] == '\n');
  }
  return count;
}

void rep_fit_lines(FILE *out, const char *text, int width)
{
  enum { MAX_BLOCK = 4096 };
  span_t *lines = malloc(MAX_BLOCK * sizeof *lines);
  while (*text) {
    size_t len = strcspn(text, "\n");
    size_t count = len > (size_t)width && lines ? table_run(text, lines, MAX_BLOCK) : 0;
    if (count >= 2 && split_block(out, lines, count, width) == 0) {
      text = lines[count - 1].text + lines[count - 1].len;
      text += *text == '\n';
      continue;
    }
    if (len <= (size_t)width) {
      fprintf(out, "%.*s\n", (int)len, text);
    } else {
      char *line = strndup(text, len);
      int lead = (int)strspn(text, " ");
      if (line)
        rep_wrap(out, line, width, lead + 2 < width / 2 ? lead + 2 : 2);
      free(line);
    }
    text += len + (text[len] == '\n');
  }
  free(lines);
}

struct rep_cols {
  size_t ncols, nkeys;
  char **cells; /* row-major, the headers first */
  size_t count, cap;
};

rep_cols_t *rep_cols_new(size_t ncols, size_t nkeys)
{
  rep_cols_t *cols = calloc(1, sizeof *cols);
  if (cols) {
    cols->ncols = ncols;
    cols->nkeys = nkeys;
  }
  return cols;
}

void rep_cols_free(rep_cols_t *cols)
{
  if (!cols)
    return;
  for (size_t i = 0; i < cols->count; i++)
    free(cols->cells[i]);
  free(cols->cells);
  free(cols);
}

int rep_cols_add(rep_cols_t *cols, const char *fmt, ...)
{
  if (bas_reserve((void **)&cols->cells, &cols->cap, cols->count, sizeof *cols->cells, 64) != 0)
    return BAS_ENOMEM;
  va_list ap;
  va_start(ap, fmt);
  char *cell = NULL;
  int rc = vasprintf(&cell, fmt, ap);
  va_end(ap);
  if (rc < 0)
    return BAS_ENOMEM;
  cols->cells[cols->count++] = cell;
  return 0;
}

static const char *shown(const char *cell)
{
  return *cell == '<' ? cell + 1 : cell;
}

static int column_width(const rep_cols_t *cols, size_t c)
{
  size_t width = 0;
  for (size_t i = c; i < cols->count; i += cols->ncols)
    width = strlen(shown(cols->cells[i])) > width ? strlen(shown(cols->cells[i])) : width;
  return (int)width;
}

/* The gap before column c: two spaces before the first non-key column, else one (none before the first). */
static int gap(const rep_cols_t *cols, size_t c, size_t first_of_group)
{
  if (c == 0)
    return 0;
  return c == first_of_group && cols->nkeys > 0 ? 2 : 1;
}

static void print_cell(FILE *out, const rep_cols_t *cols, size_t row, size_t c, const int *widths, size_t from)
{
  size_t at = row * cols->ncols + c;
  const char *cell = at < cols->count ? cols->cells[at] : "";
  fprintf(out, "%*s%*s", gap(cols, c, from), "", *cell == '<' ? -widths[c] : widths[c], shown(cell));
}

/* One row of a group: the key columns, then columns from..to-1; no trailing spaces. */
static void print_row(FILE *out, const rep_cols_t *cols, size_t row, const int *widths, size_t from, size_t to,
                      const char *indent)
{
  char *line = NULL;
  size_t len = 0;
  FILE *buf = open_memstream(&line, &len);
  if (!buf)
    return;
  fputs(indent, buf);
  for (size_t c = 0; c < cols->nkeys; c++)
    print_cell(buf, cols, row, c, widths, from);
  for (size_t c = from; c < to; c++)
    print_cell(buf, cols, row, c, widths, from);
  fclose(buf);
  while (len > 0 && line[len - 1] == ' ')
    len--;
  fprintf(out, "%.*s\n", (int)len, line);
  free(line);
}

/* The end of the group of columns that starts at `from`: as many as fit in `room` beside the key columns (one at
 * least). */
static size_t group_end(const rep_cols_t *cols, const int *widths, size_t from, int room)
{
  int used = 0;
  for (size_t c = 0; c < cols->nkeys; c++)
    used += widths[c] + gap(cols, c, from);
  size_t c = from;
  while (c < cols->ncols && (c == from || used + widths[c] + gap(cols, c, from) <= room)) {
    used += widths[c] + gap(cols, c, from);
    c++;
  }
  return c;
}

void rep_cols_print(FILE *out, const rep_cols_t *cols, const char *indent, int width)
{
  int widths[cols->ncols];
  for (size_t c = 0; c < cols->ncols; c++)
    widths[c] = column_width(cols, c);
  size_t rows = (cols->count + cols->ncols - 1) / cols->ncols;
  int room = width - (int)strlen(indent);
  for (size_t from = cols->nkeys; from < cols->ncols || from == cols->nkeys;) {
    size_t to = group_end(cols, widths, from, room);
    if (from > cols->nkeys)
      fputc('\n', out);
    for (size_t r = 0; r < rows; r++)
      print_row(out, cols, r, widths, from, to, indent);
    if (to >= cols->ncols)
      break;
    from = to;
  }
}
