/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Installing as a Debian package would (README.md "Installing"): this build installed into a fresh prefix, then used
 * from another folder as a user would: the man page's examples and labs 2 and 5's commands run with the installed
 * simrun and its share/simrun, and a program is built against the installed tracer through its pkg-config file and its
 * CMake package. */
#include "tu.h"
#include "tu_cli.h"

/* Runs `command` with /bin/sh in folder `dir`; its exit status (printing what it said when it failed). */
static int shell(const char *dir, const char *command)
{
  const char *args[] = {"-c", command, NULL};
  cli_run_t run;
  if (run_program(dir, "/bin/sh", args, &run) != 0)
    return -1;
  if (run.status != 0)
    fprintf(stderr, "\n%s: exit status %d\n%s%s", command, run.status, run.out, run.err);
  int status = run.status;
  run_free(&run);
  return status;
}

/* The man page's examples (the lines of its EXAMPLES section) that need neither mpirun nor traced runs, with \- as -:
 * up to `max` commands into lines (each of `size` bytes); their number. */
static size_t man_examples(char lines[][512], size_t max)
{
  char *man = read_output(SIMRUN_SOURCE_DIR "/docs", "simrun.1");
  CU_ASSERT_PTR_NOT_NULL_FATAL(man);
  static const char heading[] = ".SH EXAMPLES\n.nf\n";
  const char *at = strstr(man, heading), *end = at ? strstr(at, ".fi\n") : NULL;
  CU_ASSERT_FATAL(at && end);
  size_t n = 0;
  for (at += sizeof heading - 1; at < end && n < max; at += strcspn(at, "\n") + 1) {
    size_t len = strcspn(at, "\n"), k = 0;
    const char *analyse = strstr(at, "analyse");
    if (strncmp(at, "simrun ", 7) != 0 || (analyse && analyse < at + len))
      continue;
    for (size_t i = 0; i < len && k + 1 < sizeof lines[n]; i++)
      if (!(at[i] == '\\' && at[i + 1] == '-'))
        lines[n][k++] = at[i];
    lines[n++][k] = '\0';
  }
  free(man);
  return n;
}

static void test_install_and_use(void)
{
  char prefix[1024], work[1024], command[8192];
  CU_ASSERT_EQUAL_FATAL(make_folder(prefix, sizeof prefix), 0);
  CU_ASSERT_EQUAL_FATAL(make_folder(work, sizeof work), 0);
  snprintf(command, sizeof command, "cmake --install '%s' --prefix '%s' >/dev/null", SIMRUN_BUILD_DIR, prefix);
  CU_ASSERT_EQUAL_FATAL(shell(work, command), 0);
  /* the man page's examples, from a folder that holds nothing: the scenarios come from share/simrun */
  char examples[8][512];
  size_t n = man_examples(examples, 8);
  CU_ASSERT(n >= 3);
  for (size_t i = 0; i < n; i++) {
    /* the broadcast study's 72 points take 17 s of CPU: its first shard of 12 proves the same paths in 1.5 s */
    /* `simrun machine probe` measures this machine: while the suite loads it, the probe may refuse its own fit (exit 1,
     * with the reason). Either way the installed simrun found its probe program, which is what is tested here. */
    if (strstr(examples[i], "machine probe"))
      snprintf(
          command, sizeof command,
          "'%s/bin/'%s >/dev/null 2>probe.err || grep -q 'nothing written (measure again when the machine is quieter' "
          "probe.err",
          prefix, examples[i]);
    else
      snprintf(command, sizeof command, "'%s/bin/'%s%s >/dev/null", prefix, examples[i],
               strstr(examples[i], "bcast-t800") ? " --shard 1/12" : "");
    CU_ASSERT_EQUAL(shell(work, command), 0);
  }
  snprintf(command, sizeof command, "test -s torus.xml && test -s bcast.csv && test -s bcast.json && test -d pictures");
  CU_ASSERT_EQUAL(shell(work, command), 0);
  /* lab 2's commands, build/simrun being the installed simrun. Under a sanitizer, where each takes 10 to 15 s, the
   * normal build runs them: the man page's examples above already ran gj256 twice from the install */
  static const char *const lab[] = {"scenarios/gj256.xml -j 2 --svg lab2 --csv lab2-gj256.csv",
                                    "scenarios/gj256-bottleneck.xml -j 2 --svg lab2 --csv lab2-bottleneck.csv"};
  for (size_t i = 0; i < 2 && !SANITIZED; i++) {
    snprintf(command, sizeof command, "'%s/bin/simrun' %s >/dev/null", prefix, lab[i]);
    CU_ASSERT_EQUAL(shell(work, command), 0);
  }
  /* lab 5's first two: the machine a student designs is written and run in the student's folder, not in the
   * install's share/ folder, which a user cannot write (2 s of CPU) */
  static const char *const lab5[] = {"platform fattree 2:7 --preset t800 -o lab5-fattree.xml",
                                     "docs/labs/my-machine.xml --set platform=lab5-fattree.xml -j 2 --svg lab5 "
                                     "--csv lab5-my-machine.csv"};
  for (size_t i = 0; i < 2; i++) {
    snprintf(command, sizeof command, "'%s/bin/simrun' %s >/dev/null", prefix, lab5[i]);
    CU_ASSERT_EQUAL(shell(work, command), 0);
  }
  CU_ASSERT_EQUAL(shell(work, "grep -q lab5-fattree.xml lab5-my-machine.csv && test -s lab5/my-machine-time.svg"), 0);
  /* lab 6: a scaled sweep from the install's docs/labs (about 1 s) */
  snprintf(command, sizeof command,
           "'%s/bin/simrun' docs/labs/gj-scaled.xml -j 2 --svg lab6 --csv lab6-scaled.csv >/dev/null && "
           "grep -q fixed_speedup lab6-scaled.csv && test -s lab6/gj-scaled-speedup.svg",
           prefix);
  CU_ASSERT_EQUAL(shell(work, command), 0);
  /* the tracer: a program labelling a phase, built through pkg-config and through find_package */
  snprintf(command, sizeof command,
           "printf '#include <mpi.h>\\n#include <simrun_phase.h>\\nint main(int c, char **v) { MPI_Init(&c, &v); "
           "simrun_phase_begin(\"x\"); simrun_phase_end(); MPI_Finalize(); return 0; }\\n' > t.c && "
           "PKG_CONFIG_PATH='%s/lib/pkgconfig' && export PKG_CONFIG_PATH && "
           "'%s' t.c $(pkg-config --cflags --libs simrun-trace) -o t-pc && "
           "printf 'cmake_minimum_required(VERSION 3.18)\\nproject(t C)\\nfind_package(simrun-trace REQUIRED)\\n"
           "find_package(MPI REQUIRED)\\nadd_executable(t-cmake t.c)\\n"
           "target_link_libraries(t-cmake simrun::simrun-trace MPI::MPI_C)\\n' > CMakeLists.txt && "
           "cmake -S . -B b -DCMAKE_PREFIX_PATH='%s' >/dev/null && cmake --build b >/dev/null",
           prefix, SIMRUN_MPICC, prefix);
  CU_ASSERT_EQUAL(shell(work, command), 0);
  /* lab 1's part 2 from the install: examples/ copied out of share/simrun and the ring multiply built against the
   * installed tracer's header */
  snprintf(command, sizeof command,
           "cp -r '%s/share/simrun/examples' . && cd examples/ring-matmul && PKG_CONFIG_PATH='%s/lib/pkgconfig' && "
           "export PKG_CONFIG_PATH && '%s' -O2 $(pkg-config --cflags simrun-trace) ring_matmul.c -o ring_matmul",
           prefix, prefix, SIMRUN_MPICC);
  CU_ASSERT_EQUAL(shell(work, command), 0);
  /* libsimrun-span.so beside the tracer, for --untraced's time (docs/analyse.md, "Replaying") */
  snprintf(command, sizeof command, "test -s '%s/lib/libsimrun-span.so'", prefix);
  CU_ASSERT_EQUAL(shell(work, command), 0);
  snprintf(command, sizeof command, "rm -rf '%s' '%s'", prefix, work);
  CU_ASSERT_EQUAL(system(command), 0);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_install_and_use", test_install_and_use}, {NULL, NULL}};
  return tu_run("install", cases);
}
