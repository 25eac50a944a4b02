/* The --html page: self-contained (nothing fetched), holding the terminal report's text and every picture of --svg,
 * and working in a real browser: headless Chromium runs its script without errors, describes an interval, and draws a
 * timeline whose screenshot is not uniform where the blank page's is. A missing chromium fails the suite. */
#include "tu.h"
#include "tu_cli.h"

#define SCENARIO   DATA "gj-small.xml"
#define PNG_REGION SIMRUN_SOURCE_DIR "/tests/png_region.py"
#define WINDOW     "--window-size=1000,700"

/* Runs simrun on the small Gauss-Jordan sweep with --per-process 4, --svg pics and --html page.html in a fresh folder
 * (its path in dir); *run keeps what it printed. Returns the page (the caller frees it). */
static char *html_run(char *dir, size_t size, cli_run_t *run)
{
  const char *args[] = {"-q",    "--no-cache", SCENARIO, "--per-process", "4",
                        "--svg", "pics",       "--html", "page.html",     NULL};
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
 * of pictures, which names this page instead of the --svg folder. */
static void assert_report_inline(const char *page, const char *report)
{
  char line[4096];
  size_t checked = 0;
  for (const char *c = report; *c;) {
    size_t len = strcspn(c, "\n");
    snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), c);
    if (len > 0 && !strpbrk(line, "<>&") && strncmp(line, "Pictures: ", 10) != 0) {
      CU_ASSERT_PTR_NOT_NULL(strstr(page, line));
      checked++;
    }
    c += len + (c[len] == '\n');
  }
  CU_ASSERT(checked > 20);
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

/* Runs headless Chromium on file `url` with `extra` (up to 3 arguments, NULL-ended) and a fresh profile. */
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
  for (size_t i = 0; extra[i] && i < 3; i++)
    args[n++] = extra[i];
  args[n++] = url;
  CU_ASSERT_EQUAL_FATAL(run_program(dir, program, args, run), 0);
  CU_ASSERT_EQUAL(run->status, 0);
  snprintf(command, sizeof command, "rm -rf '%s'", profile);
  CU_ASSERT_EQUAL(system(command), 0);
}

/* The number of distinct pixels of screenshot `png` inside box (x, y, w, h), or -1. */
static long region_colours(const char *png, const int box[4])
{
  char command[4096];
  snprintf(command, sizeof command, "python3 '%s' '%s' %d %d %d %d", PNG_REGION, png, box[0], box[1], box[2], box[3]);
  FILE *pipe = popen(command, "r");
  long colours = -1;
  if (pipe && fscanf(pipe, "%ld", &colours) != 1)
    colours = -1;
  if (pipe && pclose(pipe) != 0)
    colours = -1;
  return colours;
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
  CU_ASSERT_FATAL(inner[2] > 100 && inner[3] > 100 && inner[0] + inner[2] <= 1000 && inner[1] + inner[3] <= 700);
  snprintf(probe, sizeof probe, "%s#blank", url);
  CU_ASSERT_EQUAL(screenshot_colours(dir, probe, "blank.png", inner), 1);
  CU_ASSERT(screenshot_colours(dir, url, "page.png", inner) >= 4); /* white and at least three categories */
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
                             {"test_rep_html_bad_path", test_rep_html_bad_path},
                             {NULL, NULL}};
  return tu_run("rep_html", cases);
}
