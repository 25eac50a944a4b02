/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The --html page: self-contained (nothing fetched), holding the terminal report's text and every picture of --svg,
 * and working in a real browser: headless Chromium runs its script without errors, describes an interval, and draws a
 * timeline whose screenshot is not uniform where the blank page's is. A missing chromium fails the suite. */
#include "tu.h"
#include "tu_cli.h"

#include <math.h>

#define SCENARIO   DATA "gj-small.xml"
#define PNG_REGION SIMRUN_SOURCE_DIR "/tests/png_region.py"
#define WINDOW     "--window-size=1000,1300"
#define WIDTH      1000
#define HEIGHT     1300

/* Runs simrun on the small Gauss-Jordan sweep with --per-process 4, --svg pics and --html page.html in a fresh folder
 * (its path in dir); *run keeps what it printed. Returns the page (the caller frees it). */
static char *html_run(char *dir, size_t size, cli_run_t *run)
{
  /* the whole report in one group of columns, as the page shows it (rep_print) */
  const char *args[] = {"-q", "--no-cache", "--full", "--width", "1000",      SCENARIO, "--per-process",
                        "4",  "--svg",      "pics",   "--html",  "page.html", NULL};
  run_ok(dir, size, args, run);
  return read_output(dir, "page.html");
}

static size_t count_text(const char *text, const char *what)
{
  size_t n = 0;
  for (const char *c = text; (c = strstr(c, what)); c += strlen(what))
    n++;
  return n;
}

/* Every line of the terminal report without characters that HTML escapes appears on the page as it is, but the count
 * of pictures, which names this page instead of the --svg folder, and lines with a path, which the page cuts to its
 * file name: no folder of this machine appears on the page. */
static void assert_report_inline(const char *page, const char *report)
{
  char line[4096];
  size_t checked = 0;
  for (const char *c = report; *c;) {
    size_t len = strcspn(c, "\n");
    snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), c);
    if (len > 0 && !strpbrk(line, "<>&") && strncmp(line, "Pictures: ", 10) != 0 && !strstr(line, " /")) {
      CU_ASSERT_PTR_NOT_NULL(strstr(page, line));
      checked++;
    }
    c += len + (c[len] == '\n');
  }
  CU_ASSERT(checked > 20);
  CU_ASSERT_PTR_NULL(strstr(page, SIMRUN_SOURCE_DIR));
}

/* The number in the first data row of the table after heading `section`, in the column headed `head` (a plain head or
 * a schema's, with its title and data-column): as shown, or with `exact` its tooltip's (the CSV's figure of a number
 * the page rounds); NAN when none. */
static double table_cell(const char *page, const char *section, const char *head, int exact)
{
  char mark[120];
  snprintf(mark, sizeof mark, "<h2 id=\"%s\">", section);
  const char *table = strstr(page, mark), *heads = table ? strstr(table, "<tr>") : NULL;
  const char *row = heads ? strstr(heads + 4, "<tr>") : NULL;
  snprintf(mark, sizeof mark, ">%s</th>", head);
  const char *at = heads ? strstr(heads, mark) : NULL;
  if (!row || !at || at > row)
    return NAN;
  size_t column = count_text(heads, "<th") - count_text(at, "<th") - 1; /* its own <th is before `at` */
  for (size_t k = 0; k <= column && row; k++)
    row = strstr(row + 1, "<td");
  const char *end = row ? strchr(row, '>') : NULL, *title = row ? strstr(row, " title=\"") : NULL;
  if (exact)
    return title && title < end ? strtod(title + 8, NULL) : NAN;
  return end ? strtod(end + 1, NULL) : NAN;
}

/* The time in the first data row of the bottleneck table under the head naming `name` in any unit ("cpu (us)"), in
 * seconds, and half its last digit in *half (the page shows times in their column's unit: rep_units.h); NAN when none.
 */
static double bottleneck_time(const char *page, const char *name, double *half)
{
  static const struct {
    const char *unit;
    double factor;
  } units[] = {{"s", 1}, {"ms", 1e3}, {"us", 1e6}, {"ns", 1e9}};
  char head[80];
  for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
    snprintf(head, sizeof head, "%s (%s)", name, units[u].unit);
    double x = table_cell(page, "bottlenecks", head, 0);
    if (isnan(x))
      continue;
    const char *at = strstr(strstr(page, "<h2 id=\"bottlenecks\">"), head); /* the cell's decimals: from its text */
    size_t column = count_text(strstr(page, "<h2 id=\"bottlenecks\">"), "<th") - count_text(at, "<th") - 1;
    const char *cell = strstr(strstr(at, "</tr>"), "<tr>");
    for (size_t k = 0; k <= column && cell; k++)
      cell = strstr(cell + 1, "<td");
    const char *text = cell ? strchr(cell, '>') + 1 : "", *dot = strchr(text, '.'), *end = strchr(text, '<');
    int decimals = dot && end && dot < end ? (int)(end - dot - 1) : 0;
    *half = 0.5 * pow(10, -decimals) / units[u].factor;
    return x / units[u].factor;
  }
  return NAN;
}

/* The bottleneck table holds together (seed 001 §3.5) within the rounding of its times: each component is the sum of
 * its sub-components shown, and each B-ratio is the component over the sum of the other three. */
static void assert_bottleneck_table(const char *page)
{
  static const char *const comps[] = {"processing", "memory", "communication", "io"};
  double c[4], h[4], sum = 0, rounding = 0;
  char head[80];
  for (int k = 0; k < 4; k++) {
    c[k] = bottleneck_time(page, comps[k], &h[k]);
    CU_ASSERT_FATAL(isfinite(c[k]));
    sum += c[k];
    rounding += h[k];
  }
  CU_ASSERT(c[0] > 0);
  double hc, hf, cpu = bottleneck_time(page, "cpu", &hc), fpu = bottleneck_time(page, "fpu", &hf);
  CU_ASSERT(fabs(cpu + fpu - c[0]) <= hc + hf + h[0] + 1e-12 * c[0]);
  for (int k = 0; k < 4; k++)
    if (sum - c[k] - rounding > 0) { /* the ratio of the rounded figures' extremes brackets the page's */
      snprintf(head, sizeof head, "B-ratio %s", comps[k]);
      double ratio = table_cell(page, "bottlenecks", head, 1), others = rounding - h[k];
      CU_ASSERT(ratio >= (c[k] - h[k]) / (sum - c[k] + others) * (1 - 1e-9));
      CU_ASSERT(ratio <= (c[k] + h[k]) / (sum - c[k] - others) * (1 + 1e-9));
    }
}

/* Every id="..." occurs once. */
static void assert_ids_unique(const char *page)
{
  char id[300];
  size_t ids = 0;
  for (const char *c = page; (c = strstr(c, " id=\"")); c += 5, ids++) {
    size_t len = strcspn(c + 5, "\"");
    snprintf(id, sizeof id, " id=\"%.*s\"", (int)(len < 200 ? len : 200), c + 5);
    CU_ASSERT_EQUAL(count_text(page, id), 1);
  }
  CU_ASSERT(ids > 10);
}

static void test_rep_html_page_self_contained(void)
{
  char dir[1024], pics[2048];
  cli_run_t run;
  char *page = html_run(dir, sizeof dir, &run);
  CU_ASSERT_PTR_NOT_NULL_FATAL(page);
  CU_ASSERT_NSTRING_EQUAL(page, "<!DOCTYPE html>", 15);
  /* nothing the browser would fetch: no sources, links, imports or URLs other than the SVG namespaces */
  const char *const fetches[] = {"src=", "href=\"h", "@import", "https:", "<link", "<iframe", NULL};
  for (size_t i = 0; fetches[i]; i++)
    CU_ASSERT_PTR_NULL(strstr(page, fetches[i]));
  CU_ASSERT_EQUAL(count_text(page, "http://"), count_text(page, "http://www.w3.org/"));
  CU_ASSERT_EQUAL(count_text(page, "url("), count_text(page, "url(#"));
  /* each picture's clip paths renamed apart: ids are unique in a document */
  CU_ASSERT_PTR_NULL(strstr(page, "id=\"clip"));
  assert_ids_unique(page);
  /* every picture --svg drew, inline, and the report's text */
  snprintf(pics, sizeof pics, "%s/pics", dir);
  int pictures = count_entries(pics);
  CU_ASSERT(pictures >= 5);
  CU_ASSERT_EQUAL(count_text(page, "<svg"), (size_t)pictures);
  assert_report_inline(page, run.out);
  /* the timelines of the per-process p = 4: one per broadcast algorithm, each run to choose from */
  CU_ASSERT_PTR_NOT_NULL(strstr(page, "var SIMRUN={categories:["));
  CU_ASSERT_EQUAL(count_text(page, "<option>"), 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(page, "<option>broadcast = neighbour, p = 4</option>"));
  CU_ASSERT_PTR_NOT_NULL(strstr(page, "<canvas id=\"timeline\">"));
  free(page);
  run_free(&run);
  char command[4200];
  snprintf(command, sizeof command, "rm -rf '%s'", dir);
  CU_ASSERT_EQUAL(system(command), 0);
}

/* The full path of program `name` on $PATH into `path`; 0, or -1 when it is not there. */
static int find_program(const char *name, char *path, size_t size)
{
  const char *dirs = getenv("PATH");
  for (const char *c = dirs ? dirs : "/usr/bin"; *c;) {
    size_t len = strcspn(c, ":");
    snprintf(path, size, "%.*s/%s", (int)len, c, name);
    if (access(path, X_OK) == 0)
      return 0;
    c += len + (c[len] == ':');
  }
  return -1;
}

/* Whether this build opens the pages in Chromium: the normal one. A sanitised build writes them with sanitised code
 * and checks their text, but the page's script and styles are the same text in every build, and Chromium itself is
 * not sanitised: its runs, 18 s of this suite's 20 in the normal build, would give the same verdict again. */
static int in_browser(const char *dir)
{
  if (!SANITIZED)
    return 1;
  fprintf(stderr, "\nthe page in Chromium: checked in the normal build (the same page text)\n");
  char command[1200];
  snprintf(command, sizeof command, "rm -rf '%s'", dir);
  CU_ASSERT_EQUAL(system(command), 0);
  return 0;
}

/* Runs headless Chromium on file `url` with `extra` (up to 4 arguments, NULL-ended) and a fresh profile. */
static void chromium(const char *dir, const char *url, const char *const *extra, cli_run_t *run)
{
  char program[4096], profile[2048], profile_arg[2100], command[2200];
  CU_ASSERT_EQUAL_FATAL(find_program("chromium", program, sizeof program), 0); /* install it: scripts/install-deps */
  snprintf(profile, sizeof profile, "%s/profile-XXXXXX", dir);
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(profile));
  snprintf(profile_arg, sizeof profile_arg, "--user-data-dir=%s", profile);
  const char *args[MAX_ARGS + 1] = {"--headless",
                                    "--no-sandbox",
                                    "--disable-gpu",
                                    "--disable-quic",
                                    "--no-first-run",
                                    "--disable-background-networking",
                                    "--disable-component-update",
                                    "--disable-sync",
                                    profile_arg,
                                    WINDOW,
                                    "--hide-scrollbars"};
  size_t n = 11;
  for (size_t i = 0; extra[i] && i < 4; i++)
    args[n++] = extra[i];
  args[n++] = url;
  CU_ASSERT_EQUAL_FATAL(run_program(dir, program, args, run), 0);
  CU_ASSERT_EQUAL(run->status, 0);
  snprintf(command, sizeof command, "rm -rf '%s'", profile);
  CU_ASSERT_EQUAL(system(command), 0);
}

/* What tests/png_region.py says of box (x, y, w, h) of screenshot `png` in `mode` ("": the number of distinct
 * pixels; "dark": the share of dark ones; "red": the red channel of the most frequent one), or -1. */
static double region_figure(const char *png, const int box[4], const char *mode)
{
  char command[4096];
  snprintf(command, sizeof command, "python3 '%s' '%s' %d %d %d %d %s", PNG_REGION, png, box[0], box[1], box[2], box[3],
           mode);
  FILE *pipe = popen(command, "r");
  double figure = -1;
  if (pipe && fscanf(pipe, "%lf", &figure) != 1)
    figure = -1;
  if (pipe && pclose(pipe) != 0)
    figure = -1;
  return figure;
}

static long region_colours(const char *png, const int box[4])
{
  return (long)region_figure(png, box, "");
}

/* Screenshots the page at `url` into `png` and counts the distinct pixels of `box`. */
static long screenshot_colours(const char *dir, const char *url, const char *png, const int box[4])
{
  char arg[2200], path[2200];
  snprintf(arg, sizeof arg, "--screenshot=%s/%s", dir, png);
  snprintf(path, sizeof path, "%s/%s", dir, png);
  const char *extra[] = {arg, NULL};
  cli_run_t run;
  chromium(dir, url, extra, &run);
  run_free(&run);
  return region_colours(path, box);
}

static void test_rep_html_in_chromium(void)
{
  char dir[1024], url[1200], probe[1300];
  cli_run_t run, browser;
  free(html_run(dir, sizeof dir, &run));
  run_free(&run);
  if (!in_browser(dir))
    return;
  /* the script runs to its end without an error; pointing 40 px into rank 0's row describes an interval of it */
  snprintf(url, sizeof url, "file://%s/page.html", dir);
  snprintf(probe, sizeof probe, "%s#probe=100,5", url);
  const char *dom[] = {"--enable-logging=stderr", "--v=0", "--dump-dom", NULL};
  chromium(dir, probe, dom, &browser);
  CU_ASSERT_PTR_NULL(strstr(browser.err, "Uncaught"));
  CU_ASSERT_PTR_NOT_NULL(strstr(browser.out, "data-ready=\"1\""));
  const char *tip = strstr(browser.out, "<div id=\"tip\">rank 0 [");
  CU_ASSERT_PTR_NOT_NULL(tip);
  CU_ASSERT(tip && strstr(tip, " s: ") && strstr(tip, ", phase "));
  /* the canvas's box, inset by its border, is uniform on the blank page and not on the drawn one */
  int box[4] = {0, 0, 0, 0};
  const char *at = strstr(browser.out, "data-timeline=\"");
  CU_ASSERT_FATAL(at && sscanf(at, "data-timeline=\"%d,%d,%d,%d\"", &box[0], &box[1], &box[2], &box[3]) == 4);
  run_free(&browser);
  int inner[4] = {box[0] + 2, box[1] + 2, box[2] - 4, box[3] - 4};
  CU_ASSERT_FATAL(inner[2] > 100 && inner[3] >= 590 && inner[0] + inner[2] <= WIDTH && inner[1] + inner[3] <= HEIGHT);
  snprintf(probe, sizeof probe, "%s#blank", url);
  CU_ASSERT_EQUAL(screenshot_colours(dir, probe, "blank.png", inner), 1);
  CU_ASSERT(screenshot_colours(dir, url, "page.png", inner) >= 4); /* white and at least three categories */
  char command[1200];
  snprintf(command, sizeof command, "rm -rf '%s'", dir);
  CU_ASSERT_EQUAL(system(command), 0);
}

/* The canvas's box on the page at `url` (data-timeline), inset by its border, into inner; the page's DOM in *dom; with
 * `png`, the same launch's screenshot of the page into dir/png (one Chromium start, 1.5 CPU s, fewer). */
static void timeline_box(const char *dir, const char *url, const char *png, int inner[4], cli_run_t *dom)
{
  char shot[2200];
  snprintf(shot, sizeof shot, "--screenshot=%s/%s", dir, png ? png : "");
  const char *args[] = {"--enable-logging=stderr", "--v=0", "--dump-dom", png ? shot : NULL, NULL};
  int box[4] = {0, 0, 0, 0};
  chromium(dir, url, args, dom);
  CU_ASSERT_PTR_NULL(strstr(dom->err, "Uncaught"));
  CU_ASSERT_PTR_NULL(strstr(dom->err, "CONSOLE"));
  const char *at = strstr(dom->out, "data-timeline=\"");
  CU_ASSERT_FATAL(at && sscanf(at, "data-timeline=\"%d,%d,%d,%d\"", &box[0], &box[1], &box[2], &box[3]) == 4);
  for (int k = 0; k < 4; k++)
    inner[k] = box[k] + (k < 2 ? 2 : -4);
}

/* gj128's one-to-all run at p = 16, 1950 messages: at full view their lines would blacken the states (28% of the
 * canvas was dark in simrun 0.1's page), so the page hides them and says so: under 2% of the canvas is dark (labels,
 * borders). Scripted input moves the view as a user's would: a wheel turn zooms time by 0.8 about the pointer, a drag
 * of 100 px to the right moves it by 100 / (width - 60) of the span earlier, shift and the wheel show 13 of the 16 rows
 * (16 x 0.8 rounded). The page has real tables (the bottleneck one consistent), a table of contents whose sections are
 * there in its order, and no number written with more than 9 significant digits. */
static void test_rep_html_readable_timeline(void)
{
  char dir[1024], url[1200], hash[1300], png[2100];
  const char *args[] = {
      "-q", "--no-cache", SIMRUN_SOURCE_DIR "/scenarios/gj128.xml", "--per-process", "16", "--html", "page.html", NULL};
  cli_run_t run, dom;
  run_ok(dir, sizeof dir, args, &run);
  run_free(&run);
  char *page = read_output(dir, "page.html");
  CU_ASSERT_PTR_NOT_NULL_FATAL(page);
  CU_ASSERT_EQUAL(count_text(page, "<table>"),
                  5); /* points, per process, bottlenecks, model, wait states (no references) */
  assert_bottleneck_table(page);
  const char *contents = strstr(page, "<nav>"), *end = contents ? strstr(contents, "</nav>") : NULL;
  CU_ASSERT_FATAL(contents && end);
  const char *last = end;
  for (const char *c = contents; (c = strstr(c, "<a href=\"#")) && c < end; c++) {
    char id[64], heading[80];
    CU_ASSERT_FATAL(sscanf(c, "<a href=\"#%63[^\"]", id) == 1);
    snprintf(heading, sizeof heading, "<h2 id=\"%s\">", id);
    const char *at = strstr(page, heading);
    CU_ASSERT(at && at > last); /* there, and after the one before */
    last = at ? at : last;
  }
  size_t run_of_digits = 0, longest = 0;
  for (const char *c = strstr(page, "var SIMRUN="); c && *c && strncmp(c, "</script>", 9) != 0; c++) {
    run_of_digits = *c >= '0' && *c <= '9' ? run_of_digits + 1 : (*c == '.' ? run_of_digits : 0);
    longest = run_of_digits > longest ? run_of_digits : longest;
  }
  CU_ASSERT(longest > 0 && longest <= 10); /* 9 significant digits, and a leading 0 */
  free(page);
  if (!in_browser(dir))
    return;
  int inner[4];
  snprintf(url, sizeof url, "file://%s/page.html", dir);
  timeline_box(dir, url, "page.png", inner, &dom);
  CU_ASSERT_PTR_NOT_NULL(strstr(dom.out, "1950 messages in view: hidden"));
  run_free(&dom);
  CU_ASSERT_FATAL(inner[3] >= 590 && inner[1] + inner[3] <= HEIGHT);
  snprintf(png, sizeof png, "%s/page.png", dir);
  CU_ASSERT(region_colours(png, inner) >= 4);
  double dark = region_figure(png, inner, "dark");
  CU_ASSERT(dark >= 0 && dark < 0.02);
  snprintf(hash, sizeof hash, "%s#selftest", url);
  timeline_box(dir, hash, NULL, inner, &dom);
  double span0 = 0, span1 = 0, moved = 0, rows0 = 0, rows1 = 0, width = 0;
  const char *at = strstr(dom.out, "data-selftest=\"");
  CU_ASSERT_FATAL(at && sscanf(at, "data-selftest=\"%lf,%lf,%lf,%lf,%lf,%lf\"", &span0, &span1, &moved, &rows0, &rows1,
                               &width) == 6);
  CU_ASSERT(fabs(span1 - 0.8 * span0) < 1e-9 * span0);
  CU_ASSERT(fabs(moved + 100 / width * span1) < 1e-9 * span0);
  CU_ASSERT(rows0 == 16 && rows1 == 13);
  run_free(&dom);
  char command[1200];
  snprintf(command, sizeof command, "rm -rf '%s'", dir);
  CU_ASSERT_EQUAL(system(command), 0);
}

/* tests/data/tracer/subpixel-polls: one rank, 10,000 iterations of 40 us of computation then 60 us of polls in 1 s,
 * about 11 iterations a pixel of the canvas. Each pixel column is 60% polls (control at p = 1: no partner to wait
 * for), so the row is control's orange (#f28e2b, red 242) alone, as the SVG timeline's columns draw it. Drawn interval
 * by interval at least a pixel wide (before), the row was compute-blue and orange in stripes and blends (Ray's
 * polling stretch looked like computation). */
static void test_rep_html_subpixel_majority(void)
{
  char dir[1024], url[1200], png[2100];
  const char *args[] = {"analyse", SIMRUN_SOURCE_DIR "/tests/data/tracer/subpixel-polls", "--html", "page.html", NULL};
  cli_run_t run, dom;
  run_ok(dir, sizeof dir, args, &run);
  run_free(&run);
  if (!in_browser(dir))
    return;
  int inner[4];
  snprintf(url, sizeof url, "file://%s/page.html", dir);
  timeline_box(dir, url, "page.png", inner, &dom);
  run_free(&dom);
  /* the row, inside: right of the 60-px labels, above the 20-px time axis, clear of the row's 1-px margins */
  int row[4] = {inner[0] + 62, inner[1] + 4, inner[2] - 66, inner[3] - 28};
  CU_ASSERT_FATAL(row[2] > 500 && row[3] > 300);
  snprintf(png, sizeof png, "%s/page.png", dir);
  CU_ASSERT_EQUAL(region_colours(png, row), 1);
  CU_ASSERT_EQUAL(region_figure(png, row, "red"), 242);
  char command[1200];
  snprintf(command, sizeof command, "rm -rf '%s'", dir);
  CU_ASSERT_EQUAL(system(command), 0);
}

/* The page's first section after its contents is the summary, and it is the terminal report's summary line for line
 * (issue 45 item 3: the same struct, rep_summary.h, at 80 columns as the terminal here, not a terminal). */
static void assert_summary_first(const char *dom, const char *terminal)
{
  const char *nav = strstr(dom, "</nav>"), *first = nav ? strstr(nav, "<h2 id=\"") : NULL;
  CU_ASSERT_FATAL(first != NULL);
  const char *summary = "<h2 id=\"summary\">";
  CU_ASSERT_EQUAL(strncmp(first, summary, strlen(summary)), 0);
  const char *start = strstr(terminal, "Summary ("), *end = start ? strstr(start, "\n\n") : NULL;
  const char *pre = strstr(first, "<pre>");
  CU_ASSERT_FATAL(start && end && pre);
  CU_ASSERT_EQUAL(strncmp(pre + 5, start, (size_t)(end - start + 1)), 0);
  CU_ASSERT_EQUAL(strncmp(pre + 5 + (end - start + 1), "</pre>", 6), 0);
}

/* gj256's two runs at p = 128 (131,325 and 127,060 intervals) are decimated for the page, which stays under 3 MB (13
 * MB whole); its 128 rows of (600 - 20) / 128 = 4.5 px are labelled every ceil(12 / 4.5) = 3rd, 43 labels; its
 * 25-column bottleneck table (2,601 px) scrolls in its own box, so the page is no wider than the 1000-px window; it
 * opens with the summary. */
static void test_rep_html_bounded_page(void)
{
  if (SANITIZED) { /* gj256 at p = 128 takes 20 s there; the page's writers, decimation (test_met_pixels) and summary
                    * (test_rep_summary) run under it in the cases above and in their own suites */
    fprintf(stderr, "\nbounded page: gj256 at p = 128 is too slow under a sanitizer; the normal build checks it\n");
    return;
  }
  char dir[1024], url[1200];
  const char *args[] = {"-q",    "--no-cache", SIMRUN_SOURCE_DIR "/scenarios/gj256.xml",
                        "--set", "p=128",      "--per-process",
                        "128",   "--html",     "page.html",
                        NULL};
  cli_run_t run, dom;
  run_ok(dir, sizeof dir, args, &run);
  char *page = read_output(dir, "page.html");
  CU_ASSERT_PTR_NOT_NULL_FATAL(page);
  CU_ASSERT(strlen(page) < 3 * 1024 * 1024);
  CU_ASSERT_EQUAL(count_text(page, "<p>Decimated for this page: the run of broadcast = "), 2);
  free(page);
  int inner[4], labels = 0, width = 0;
  snprintf(url, sizeof url, "file://%s/page.html", dir);
  timeline_box(dir, url, NULL, inner, &dom);
  const char *at = strstr(dom.out, "data-labels=\"");
  CU_ASSERT(at && sscanf(at, "data-labels=\"%d", &labels) == 1 && labels == 43);
  at = strstr(dom.out, "data-width=\"");
  CU_ASSERT(at && sscanf(at, "data-width=\"%d", &width) == 1 && width > 0 && width <= WIDTH);
  assert_summary_first(dom.out, run.out);
  run_free(&dom);
  run_free(&run);
  char command[1200];
  snprintf(command, sizeof command, "rm -rf '%s'", dir);
  CU_ASSERT_EQUAL(system(command), 0);
}

/* An unwritable page fails before any simulation, with one error line and nothing left behind. */
static void test_rep_html_bad_path(void)
{
  const cli_case_t c = {.args = {"-q", SCENARIO, "--html", "missing/page.html", NULL},
                        .status = 2,
                        .prefix = "--html 'missing/page.html': 'missing' does not exist",
                        .phrases = {"make that folder first", NULL}};
  expect_failure(&c);
}

int main(void)
{
  const tu_case_t cases[] = {{"test_rep_html_page_self_contained", test_rep_html_page_self_contained},
                             {"test_rep_html_in_chromium", test_rep_html_in_chromium},
                             {"test_rep_html_bounded_page", test_rep_html_bounded_page},
                             {"test_rep_html_readable_timeline", test_rep_html_readable_timeline},
                             {"test_rep_html_subpixel_majority", test_rep_html_subpixel_majority},
                             {"test_rep_html_bad_path", test_rep_html_bad_path},
                             {NULL, NULL}};
  return tu_run("rep_html", cases);
}
