/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The table of platform properties (sim_prop.h): docs/properties.md's table of every property is the table, row for
 * row; every shipped platform passes the probe's check of its properties; a property simrun does not know, or one where
 * it would be ignored, is refused at its file and line; each row's example is a legal value and its range's ends hold.
 */
#include "sim_error.h"
#include "sim_prop.h"
#include "sim_run.h"
#include "tu.h"

#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* `text` with each '|' written "\|", as a Markdown table cell needs (a word property's range, "send | receive"). */
static void cell(const char *text, char *buf, size_t len)
{
  size_t n = 0;
  for (; *text && n + 3 < len; text++) {
    if (*text == '|')
      buf[n++] = '\\';
    buf[n++] = *text;
  }
  buf[n] = '\0';
}

/* The doc's line for `prop`, as docs/properties.md writes it. */
static void doc_line(const sim_prop_t *prop, char *buf, size_t len)
{
  char raw[64];
  char range[128];
  sim_prop_range_text(prop, raw, sizeof raw);
  cell(raw, range, sizeof range);
  snprintf(buf, len, "| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |", prop->name, sim_prop_scope_text(prop),
           sim_prop_type_text(prop), range, prop->unit, prop->fallback, prop->example ? prop->example : "(left out)",
           prop->reader, prop->meaning);
}

/* Every row of the doc's table (the lines starting "| `simrun:") is the table's row of that name, and every row of the
 * table is in the doc. */
static void test_sim_prop_doc_matches_table(void)
{
  FILE *in = fopen(SIMRUN_SOURCE_DIR "/docs/properties.md", "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(in);
  int seen[SIM_PROP_COUNT] = {0};
  char line[2048];
  char want[2048];
  while (fgets(line, sizeof line, in)) {
    line[strcspn(line, "\n")] = '\0';
    if (strncmp(line, "| `simrun:", 10) != 0)
      continue;
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(line + 3, "`"), line + 3);
    int id = sim_prop_find(name);
    if (id < 0) {
      fprintf(stderr, "docs/properties.md: %s is not in the table (src/sim/sim_prop_table.h)\n", name);
      CU_FAIL("a row the table does not have");
      continue;
    }
    seen[id]++;
    doc_line(sim_prop_row((sim_prop_id_t)id), want, sizeof want);
    if (strcmp(line, want) != 0)
      fprintf(stderr, "docs/properties.md says\n  %s\nthe table says\n  %s\n", line, want);
    CU_ASSERT_STRING_EQUAL(line, want);
  }
  fclose(in);
  for (int i = 0; i < SIM_PROP_COUNT; i++) {
    if (seen[i] != 1)
      fprintf(stderr, "docs/properties.md has %d rows of %s\n", seen[i], sim_prop_name((sim_prop_id_t)i));
    CU_ASSERT_EQUAL(seen[i], 1);
  }
}

/* Each row's example is legal; a number just past either end of its range is not (by hand from the rows). */
static void test_sim_prop_values_by_row(void)
{
  char err[256];
  for (int i = 0; i < SIM_PROP_COUNT; i++) {
    const sim_prop_t *prop = sim_prop_row((sim_prop_id_t)i);
    if (prop->example && sim_prop_check_value(prop, prop->example, err, sizeof err) != 0)
      fprintf(stderr, "%s: example %s: %s\n", prop->name, prop->example, err);
    CU_ASSERT_TRUE(!prop->example || sim_prop_check_value(prop, prop->example, err, sizeof err) == 0);
  }
  const sim_prop_t *small = sim_prop_row(SIM_PROP_COMM_SMALL_US);
  CU_ASSERT_EQUAL(sim_prop_check_value(small, "-81.5 1.33 93.04 0.05", err, sizeof err), 0);
  CU_ASSERT_EQUAL(sim_prop_check_value(small, "1 2 3", err, sizeof err), SIM_EPLATFORM);
  CU_ASSERT_STRING_EQUAL(err, "expected 4 numbers in [-1e12, 1e12], written in decimal digits");
  CU_ASSERT_EQUAL(sim_prop_check_value(small, "0x10 1 1 1", err, sizeof err), SIM_EPLATFORM);
  const sim_prop_t *clock = sim_prop_row(SIM_PROP_CLOCK_HZ);
  CU_ASSERT_EQUAL(sim_prop_check_value(clock, "0", err, sizeof err), SIM_EPLATFORM);
  CU_ASSERT_EQUAL(sim_prop_check_value(clock, "1e18", err, sizeof err), 0);
  CU_ASSERT_EQUAL(sim_prop_check_value(clock, "1.1e18", err, sizeof err), SIM_EPLATFORM);
  const sim_prop_t *page = sim_prop_row(SIM_PROP_DSM_PAGE_BYTES);
  CU_ASSERT_EQUAL(sim_prop_check_value(page, "4096", err, sizeof err), 0);
  CU_ASSERT_EQUAL(sim_prop_check_value(page, "3000", err, sizeof err), SIM_EPLATFORM);
  CU_ASSERT_EQUAL(sim_prop_check_value(page, "128", err, sizeof err), SIM_EPLATFORM);
  const sim_prop_t *pairs = sim_prop_row(SIM_PROP_LINK_INIT_BY_P);
  CU_ASSERT_EQUAL(sim_prop_check_value(pairs, "2 0.001 4 0.004", err, sizeof err), 0);
  CU_ASSERT_EQUAL(sim_prop_check_value(pairs, "2 0.001 2 0.004", err, sizeof err), SIM_EPLATFORM);
  CU_ASSERT_EQUAL(sim_prop_check_value(pairs, "2 0.001 4", err, sizeof err), SIM_EPLATFORM);
  CU_ASSERT_EQUAL(sim_prop_check_value(sim_prop_row(SIM_PROP_FORWARD_BUFFERS), "3", err, sizeof err), SIM_EPLATFORM);
  CU_ASSERT_EQUAL(sim_prop_check_value(sim_prop_row(SIM_PROP_ROW), "1.5", err, sizeof err), SIM_EPLATFORM);
  CU_ASSERT_EQUAL(sim_prop_check_value(sim_prop_row(SIM_PROP_PLACEMENT), "grey", err, sizeof err), SIM_EPLATFORM);
  CU_ASSERT_STRING_EQUAL(err, "expected gray");
}

/* Every shipped platform's properties pass the probe (names, places, values). */
static void test_sim_prop_shipped_platforms_pass(void)
{
  glob_t found;
  CU_ASSERT_EQUAL_FATAL(glob(SIMRUN_SOURCE_DIR "/platforms/*.xml", 0, NULL, &found), 0);
  CU_ASSERT_EQUAL_FATAL(glob(SIMRUN_SOURCE_DIR "/platforms/generated/*.xml", GLOB_APPEND, NULL, &found), 0);
  CU_ASSERT_TRUE(found.gl_pathc >= 9);
  for (size_t i = 0; i < found.gl_pathc; i++) {
    size_t hosts = 0;
    char err[1024] = "";
    int rc = sim_run_probe(found.gl_pathv[i], &hosts, err, sizeof err);
    if (rc != 0)
      fprintf(stderr, "%s\n", err);
    CU_ASSERT_EQUAL(rc, 0);
  }
  globfree(&found);
}

/* Probes a two-host platform whose root zone carries `root` and host a carries `host` (XML prop lines); the message
 * into err. */
static int probe(const char *root, const char *host, char *err, size_t errlen)
{
  char path[] = "prop-XXXXXX";
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  FILE *out = fdopen(fd, "w");
  fprintf(out,
          "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<platform version=\"4.1\">\n  <zone id=\"pair\" routing=\"Full\">\n%s\n"
          "    <host id=\"a\" speed=\"1Gf\">\n%s\n    </host>\n    <host id=\"b\" speed=\"1Gf\"/>\n"
          "    <link id=\"l\" bandwidth=\"100MBps\" latency=\"10us\"/>\n"
          "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n  </zone>\n</platform>\n",
          root, host);
  fclose(out);
  size_t hosts = 0;
  int rc = sim_run_probe(path, &hosts, err, errlen);
  char *at = strstr(err, path); /* the temporary name, as "FILE" */
  if (at)
    memmove(at + 4, at + strlen(path), strlen(at + strlen(path)) + 1), memcpy(at, "FILE", 4);
  unlink(path);
  return rc;
}

/* An unknown name (a typo), a root-zone property on a host, and a value out of its range are each one line with the
 * file and line; the same property, right, passes. */
static void test_sim_prop_probe_refuses_what_would_be_ignored(void)
{
  char err[1024];
  CU_ASSERT_EQUAL(probe("    <prop id=\"simrun:eager-bytes\" value=\"100\"/>", "", err, sizeof err), 0);
  CU_ASSERT_EQUAL(probe("    <prop id=\"simrun:eager-byte\" value=\"100\"/>", "", err, sizeof err), SIM_EPLATFORM);
  CU_ASSERT_STRING_EQUAL(err,
                         "FILE:5: property simrun:eager-byte = \"100\" (on zone 'pair'): simrun has no such property "
                         "(docs/properties.md lists them all); fix the name or remove it");
  CU_ASSERT_EQUAL(probe("", "      <prop id=\"simrun:eager-bytes\" value=\"100\"/>", err, sizeof err), SIM_EPLATFORM);
  CU_ASSERT_STRING_EQUAL(err,
                         "FILE:7: property simrun:eager-bytes = \"100\" (on host 'a'): it is read from a root zone "
                         "only, so here it would be ignored; move it there");
  CU_ASSERT_EQUAL(probe("    <prop id=\"simrun:dsm-word-bytes\" value=\"3\"/>", "", err, sizeof err), SIM_EPLATFORM);
  CU_ASSERT_STRING_EQUAL(err,
                         "FILE:5: property simrun:dsm-word-bytes = \"3\" (on zone 'pair'): expected a power of two "
                         "in [1, 8], written in decimal digits; fix the value");
}

/* Every whole name "simrun:NAME" the sources (and the shipped platforms) spell is a row of the table: what a writer
 * that does not use the table yet (simrun machine probe, simrun characterise) or a message names exists. */
static void test_sim_prop_sources_name_rows(void)
{
  glob_t found;
  CU_ASSERT_EQUAL_FATAL(glob(SIMRUN_SOURCE_DIR "/src/*/*.[ch]", 0, NULL, &found), 0);
  CU_ASSERT_EQUAL_FATAL(glob(SIMRUN_SOURCE_DIR "/src/*/*.cpp", GLOB_APPEND, NULL, &found), 0);
  CU_ASSERT_EQUAL_FATAL(glob(SIMRUN_SOURCE_DIR "/platforms/*.xml", GLOB_APPEND, NULL, &found), 0);
  int names = 0;
  for (size_t i = 0; i < found.gl_pathc; i++) {
    FILE *in = fopen(found.gl_pathv[i], "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    char line[4096];
    while (fgets(line, sizeof line, in))
      for (const char *at = strstr(line, "\"simrun:"); at; at = strstr(at + 1, "\"simrun:")) {
        size_t len = strspn(at + 8, "abcdefghijklmnopqrstuvwxyz0123456789-");
        if (len == 0 || at[8 + len] != '"') /* "simrun: error", "simrun:cycles-%s" */
          continue;
        char name[128];
        snprintf(name, sizeof name, "simrun:%.*s", (int)len, at + 8);
        names++;
        if (sim_prop_find(name) < 0)
          fprintf(stderr, "%s names %s, which is not in src/sim/sim_prop_table.h\n", found.gl_pathv[i], name);
        CU_ASSERT_TRUE(sim_prop_find(name) >= 0);
      }
    fclose(in);
  }
  CU_ASSERT_TRUE(names > 100);
  globfree(&found);
}

int main(void)
{
  const tu_case_t cases[] = {
      {"doc_matches_table", test_sim_prop_doc_matches_table},
      {"values_by_row", test_sim_prop_values_by_row},
      {"shipped_platforms_pass", test_sim_prop_shipped_platforms_pass},
      {"probe_refuses_what_would_be_ignored", test_sim_prop_probe_refuses_what_would_be_ignored},
      {"sources_name_rows", test_sim_prop_sources_name_rows},
      {NULL, NULL},
  };
  return tu_run("sim_prop", cases);
}
