/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A scaled sweep's table (stu_scaled.h): at each p, Gustafson's scaled speedup and efficiency (the problem grown with
 * p, against T_seq of the same problem) beside Amdahl's fixed-size ones (the zip's first problem at every p). */
#include "rep_report.h"
#include "stu_scaled.h"

#include <math.h>
#include <string.h>

/* The values of the parameters zipped with p at `point`, such as "n = 91". */
static void zip_label(const stu_study_t *study, const stu_point_t *point, char *buf, size_t len)
{
  const scn_scenario_t *s = study->scenario;
  size_t p_index = scn_role_index(s, SCN_ROLE_PROCESSES);
  size_t used = 0;
  buf[0] = '\0';
  for (size_t j = 0; j < s->nparams && used < len; j++)
    if (j != p_index && s->params[j].zip == s->params[p_index].zip)
      used +=
          (size_t)snprintf(buf + used, len - used, "%s%s = %s", used ? ", " : "", s->params[j].name, point->values[j]);
}

/* What the fixed-size speedups are measured on: the zip's first values. */
static void print_heading(FILE *out, const stu_study_t *study)
{
  const scn_scenario_t *s = study->scenario;
  size_t p_index = scn_role_index(s, SCN_ROLE_PROCESSES);
  fprintf(out, "\nScaled sweep (docs/scenarios.md): scaled speedup S and efficiency E (Gustafson: T_seq of the grown "
               "problem / T_par)\nbeside the fixed-size ones (Amdahl: the first problem,");
  for (size_t j = 0, first = 1; j < s->nparams; j++)
    if (j != p_index && s->params[j].zip == s->params[p_index].zip) {
      fprintf(out, "%s%s = %s", first ? " " : ", ", s->params[j].name, s->params[j].values[0]);
      first = 0;
    }
  fprintf(out, ", at every p); '-': the skeleton refuses that problem at that p\n");
  fprintf(out, "%6s  %-24s %11s %9s %9s %9s %9s\n", "p", "problem", "T_par (s)", "scaled S", "scaled E", "fixed S",
          "fixed E");
}

static void print_cell(FILE *out, double value, const char *format)
{
  if (isfinite(value))
    fprintf(out, format, value);
  else
    fprintf(out, "%10s", "-");
}

void rep_print_scaled(FILE *out, const stu_study_t *study)
{
  stu_scaled_t at;
  int heading = 0;
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_point_t *point = &study->points[i];
    if (stu_scaled_of(study, point, &at) != 0)
      continue;
    if (!heading++)
      print_heading(out, study);
    char problem[128];
    zip_label(study, point, problem, sizeof problem);
    fprintf(out, "%6d  %-24s %11.3f", point->p, problem, point->t_par);
    print_cell(out, at.speedup, " %9.3f");
    print_cell(out, 100 * at.efficiency, " %8.1f%%");
    print_cell(out, at.fixed_speedup, " %9.3f");
    print_cell(out, 100 * at.fixed_efficiency, " %8.1f%%");
    fputc('\n', out);
  }
}
