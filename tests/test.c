/* test.c — shared helpers for the Check suites (see test.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);
	return v && *v ? v : dflt;
}

const char *test_bin(void) { return env_or("WAVECC_BIN", "build/wavecc"); }
const char *test_root(void) { return env_or("WAVECC_ROOT", "."); }
const char *test_build(void) { return env_or("WAVECC_BUILD", "build"); }

const char *test_tmpdir(const char *name)
{
	char cmd[4096], path[2048];
	snprintf(path, sizeof path, "%s/tests/tmp/%s", test_build(), name);
	const char *dir = intern(path);
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	if (system(cmd) != 0)
		die("cannot create %s", dir);
	return dir;
}

static char *slurp_fd(int fd)
{
	Buf b = {0};
	char tmp[4096];
	ssize_t n;
	while ((n = read(fd, tmp, sizeof tmp)) > 0)
		buf_putn(&b, tmp, (size_t)n);
	buf_cstr(&b);
	return b.data;
}

CmdResult run_cmd(const char *cmd, const char *input)
{
	CmdResult r = {0};
	char in[] = "/tmp/wavecc-test-in-XXXXXX";
	char out[] = "/tmp/wavecc-test-out-XXXXXX";
	char er[] = "/tmp/wavecc-test-err-XXXXXX";
	int fi = mkstemp(in), fo = mkstemp(out), fe = mkstemp(er);
	if (fi < 0 || fo < 0 || fe < 0)
		die("mkstemp failed");
	if (input && write(fi, input, strlen(input)) < 0)
		die("write failed");
	close(fi);
	Buf full = {0};
	buf_printf(&full, "(%s) <'%s' >'%s' 2>'%s'", cmd, in, out, er);
	int st = system(buf_cstr(&full));
	buf_free(&full);
	if (st == -1)
		die("system() failed");
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	lseek(fo, 0, SEEK_SET);
	lseek(fe, 0, SEEK_SET);
	r.out = slurp_fd(fo);
	r.err = slurp_fd(fe);
	close(fo);
	close(fe);
	unlink(in);
	unlink(out);
	unlink(er);
	return r;
}

void cmd_result_free(CmdResult *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

bool have_program(const char *name)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "command -v '%s' >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
