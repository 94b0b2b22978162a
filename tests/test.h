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

/* Run `cmd` through /bin/sh with `input` (may be NULL) on stdin; capture
 * stdout and stderr. Returns the exit status (128+signal if killed). */
typedef struct {
	int status;
	char *out; /* heap, NUL-terminated */
	char *err;
} CmdResult;
CmdResult run_cmd(const char *cmd, const char *input);
void cmd_result_free(CmdResult *r);

/* True if a program is on PATH (for optional tools in tests). */
bool have_program(const char *name);

/* Run a suite with Check and return the exit status for main(). */
int run_suite(Suite *s);

#endif
