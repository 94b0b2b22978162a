/* test.h — helpers shared by the Check suites in tests/<folder>/.
 * The Makefile runs each suite with WAVECC_BIN (the wavecc binary under
 * test), WAVECC_ROOT (the source tree) and WAVECC_BUILD (the build folder,
 * for files a test generates) in the environment. */
#ifndef WAVECC_TEST_H
#define WAVECC_TEST_H

#include <check.h>

#include "../util/util.h"

/* Paths from the environment, with defaults for running a suite by hand. */
const char *test_bin(void);   /* WAVECC_BIN or "build/wavecc" */
const char *test_root(void);  /* WAVECC_ROOT or "." */
const char *test_build(void); /* WAVECC_BUILD or "build" */
/* A scratch directory under $(BUILD)/tests/tmp/<name>, created empty. */
const char *test_tmpdir(const char *name);
/* rm -rf DIR, in this process (a message on failure) */
void test_rmdir(const char *dir);

/* Run `cmd` through /bin/sh with `input` (may be NULL) on stdin; capture
 * stdout and stderr. Returns the exit status (128+signal if killed). */
typedef struct {
	int status;
	char *out; /* heap, NUL-terminated */
	char *err;
} CmdResult;
CmdResult run_cmd(const char *cmd, const char *input);
void cmd_result_free(CmdResult *r);
/* Run `wavecc ARGS` (printf-style) from the repository root. */
CmdResult test_wavecc(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* True if a program is on PATH (for optional tools in tests). */
bool have_program(const char *name);
/* A test that cannot run (a tool or a permission missing) says so and
 * returns: it prints "SKIP <what>: <why>" on stderr, which `make check`
 * lists after its summary (the suites whose logs hold one). With
 * WAVECC_REQUIRE_TOOLS=1 (.ci/run, after tools/setup.sh installed every
 * tool) it fails the test instead: a skip never passes for a run. */
void test_skip(const char *what, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* have_program(program), or test_skip(what, ...) naming it. */
bool test_need(const char *what, const char *program);

/* Match the `; CHECK: TEXT`, `; CHECK-NEXT: TEXT` and `; CHECK-NOT: TEXT`
 * lines of spec against output in order (the form of tests/passes/machine/data and
 * tests/isel/data): CHECK finds a later line containing TEXT, CHECK-NEXT the
 * line right after the previous match, CHECK-NOT forbids TEXT between the
 * previous match and the next (or the end). Fails the test naming file;
 * also on a `; WORD:` directive that is neither a check nor one a harness
 * reads (RUN, TARGET, DEFINE, BEFORE, REMOVED, LIMIT, INTERLEAVE, ERROR),
 * an empty check, more than 128 checks or a check text over 511 bytes. */
void test_match_checks(const char *file, const char *spec, const char *output);

/* Call fn(dir, name) for each file of test_root()/subdir whose name ends
 * in suffix, in name order; returns how many. */
int test_each_file(const char *subdir, const char *suffix, void (*fn)(const char *dir, const char *name));

/* Run a suite with Check and return the exit status for main(). */
int run_suite(Suite *s);

/* tcase_add_loop_test(tc, t, 0, n) for the iterations this run samples.
 * With WAVECC_TEST_SAMPLE=K (K > 1; make check-asan sets it) iteration i
 * runs when (i + i / K) % K == WAVECC_TEST_SAMPLE_AT % K: one in K, and
 * for loops whose iterations come in pairs per target (i % 2) a sample of
 * 2 takes each case once, on the targets in turn. Without it every
 * iteration runs. The others are not registered (no fork). */
void test_add_loop_sampled(TCase *tc, const TTest *t, int n);

#endif
