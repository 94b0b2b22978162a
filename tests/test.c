/* test.c — shared helpers for the Check suites (see test.h). */
#define _XOPEN_SOURCE 700 /* nftw */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
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

/* remove_tree's nftw callback: each entry after its contents (FTW_DEPTH) */
static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* rm -rf and mkdir -p in this process: a suite that makes a directory per
 * case (the emulator's, each assembly's) would otherwise start three
 * programs for it, and starting a program is what such a case spends most
 * of its time on */
static bool remove_tree(const char *dir)
{
	struct stat st;
	return lstat(dir, &st) != 0 || nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0;
}

static bool fresh_dir(const char *dir)
{
	if (!remove_tree(dir))
		return false;
	char path[2048];
	snprintf(path, sizeof path, "%s", dir);
	for (char *p = path + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(path, 0777) != 0 && errno != EEXIST)
				return false;
			*p = '/';
		}
	return mkdir(path, 0777) == 0;
}

const char *test_tmpdir(const char *name)
{
	char path[2048];
	/* WAVECC_TEST_TMP_TAG: a suffix that keeps the directories of
	 * processes running one suite's cases side by side apart (wave.test's
	 * shards) */
	const char *tag = getenv("WAVECC_TEST_TMP_TAG");
	snprintf(path, sizeof path, "%s/tests/tmp/%s%s", test_build(), name, tag ? tag : "");
	const char *dir = intern(path);
	if (!fresh_dir(dir))
		die("cannot create %s", dir);
	return dir;
}

void test_rmdir(const char *dir)
{
	if (!remove_tree(dir))
		fprintf(stderr, "cannot remove %s\n", dir);
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

void test_skip(const char *what, const char *fmt, ...)
{
	char why[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	const char *req = getenv("WAVECC_REQUIRE_TOOLS");
	if (req && *req && strcmp(req, "0"))
		ck_abort_msg("%s: %s, and WAVECC_REQUIRE_TOOLS is set: not skipped", what, why);
	fprintf(stderr, "SKIP %s: %s\n", what, why);
}

bool test_need(const char *what, const char *program)
{
	if (have_program(program))
		return true;
	test_skip(what, "%s is not on PATH (tools/setup.sh installs it)", program);
	return false;
}

int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

void test_add_loop_sampled(TCase *tc, const TTest *t, int n)
{
	const char *every = getenv("WAVECC_TEST_SAMPLE"), *at = getenv("WAVECC_TEST_SAMPLE_AT");
	int k = every ? atoi(every) : 1;
	if (k <= 1) {
		_tcase_add_test(tc, t, 0, 0, 0, n);
		return;
	}
	int a = at ? abs(atoi(at)) % k : 0;
	for (int i = 0; i < n; i++)
		if ((i + i / k) % k == a)
			_tcase_add_test(tc, t, 0, 0, i, i + 1);
}

typedef struct TestAnn {
	char kind[16];
	char text[512];
} TestAnn;

/* The lines of s (a copy with NULs at the ends). */
static size_t split_lines(char *s, char ***out)
{
	size_t n = 0, cap = 64;
	char **l = malloc(cap * sizeof *l);
	for (char *p = s; *p;) {
		if (n == cap)
			l = realloc(l, (cap *= 2) * sizeof *l);
		l[n++] = p;
		char *nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = 0;
		p = nl + 1;
	}
	*out = l;
	return n;
}

static bool is_word(const char *k, size_t kl, const char *w)
{
	return strlen(w) == kl && strncmp(k, w, kl) == 0;
}

/* The directives the file harnesses read themselves (mir_file_test.c,
 * isel_file_test.c). */
static bool known_directive(const char *k, size_t kl)
{
	static const char *const known[] = {"RUN", "TARGET", "DEFINE", "BEFORE", "REMOVED", "LIMIT", "CAP", "INTERLEAVE", "REACH", "LONG", "REGS", "SPILL",
		"ERROR"};
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (is_word(k, kl, known[i]))
			return true;
	return false;
}

void test_match_checks(const char *file, const char *spec, const char *output)
{
	/* the CHECK annotations of spec, in order */
	TestAnn a[128];
	size_t na = 0;
	for (const char *p = spec; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		const char *k = p;
		if (*k == ';') {
			k++;
			k += strspn(k, " ");
			size_t kl = strspn(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZ-");
			if (kl && k[kl] == ':' && (size_t)(k - p) + kl < n) {
				/* a directive: one of the check forms, or one a harness
				 * reads itself; anything else (a misspelt `CHEC:`) fails */
				bool check = is_word(k, kl, "CHECK") || is_word(k, kl, "CHECK-NEXT") ||
					     is_word(k, kl, "CHECK-NOT");
				ck_assert_msg(check || known_directive(k, kl), "%s: unknown directive '%.*s:' in '%.*s'", file,
					(int)kl, k, (int)n, p);
				const char *v = k + kl + 1;
				v += strspn(v, " ");
				size_t vl = n - (size_t)(v - p);
				while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\r'))
					vl--;
				if (check) {
					ck_assert_msg(vl > 0, "%s: an empty %.*s: matches every line", file, (int)kl, k);
					ck_assert_msg(na < sizeof a / sizeof *a, "%s: more than %zu check lines", file,
						sizeof a / sizeof *a);
					ck_assert_msg(vl < sizeof a[na].text, "%s: a check text longer than %zu bytes", file,
						sizeof a[na].text - 1);
					snprintf(a[na].kind, sizeof a[na].kind, "%.*s", (int)kl, k);
					snprintf(a[na].text, sizeof a[na].text, "%.*s", (int)vl, v);
					na++;
				}
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	char *copy = strdup(output), **lines;
	size_t n = split_lines(copy, &lines), at = 0; /* the line after the previous match */
	const TestAnn *nots[128];
	size_t nnots = 0;
	for (size_t i = 0; i < na; i++) {
		bool next = strcmp(a[i].kind, "CHECK-NEXT") == 0;
		if (strcmp(a[i].kind, "CHECK-NOT") == 0) {
			nots[nnots++] = &a[i];
			continue;
		}
		if (!next && strcmp(a[i].kind, "CHECK") != 0)
			continue;
		size_t j = at;
		while (j < n && !strstr(lines[j], a[i].text) && !next)
			j++;
		if (!(j < n && strstr(lines[j], a[i].text))) {
			/* the lines from the previous match on (Check's messages
			 * are bounded: not the whole output) */
			char ctx[3000] = "";
			size_t len = 0;
			for (size_t l = at; l < n && len + strlen(lines[l]) + 2 < sizeof ctx; l++)
				len += (size_t)snprintf(ctx + len, sizeof ctx - len, "%s\n", lines[l]);
			ck_abort_msg("%s: %s '%s' not found%s; from line %zu on:\n%s", file, a[i].kind, a[i].text,
				next ? " on the next line" : " after the previous match", at + 1, ctx);
		}
		for (size_t k = 0; k < nnots; k++)
			for (size_t l = at; l < j; l++)
				ck_assert_msg(!strstr(lines[l], nots[k]->text), "%s: CHECK-NOT '%s' found on line '%s'", file,
					nots[k]->text, lines[l]);
		nnots = 0;
		at = j + 1;
	}
	for (size_t k = 0; k < nnots; k++) /* trailing CHECK-NOTs: to the end */
		for (size_t l = at; l < n; l++)
			ck_assert_msg(!strstr(lines[l], nots[k]->text), "%s: CHECK-NOT '%s' found on line '%s'", file,
				nots[k]->text, lines[l]);
	free(lines);
	free(copy);
}

CmdResult test_wavecc(const char *fmt, ...)
{
	char args[8192], cmd[12288];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s", test_root(), test_bin(), args);
	return run_cmd(cmd, NULL);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int test_each_file(const char *subdir, const char *suffix, void (*fn)(const char *dir, const char *name))
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/%s", test_root(), subdir);
	DIR *d = opendir(dir);
	ck_assert_msg(d != NULL, "cannot open %s", dir);
	Vec(char *) names = {0};
	struct dirent *e;
	size_t ls = strlen(suffix);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l > ls && strcmp(e->d_name + l - ls, suffix) == 0)
			vec_push(&names, xstrdup(e->d_name));
	}
	closedir(d);
	if (names.len)
		qsort(names.data, names.len, sizeof *names.data, cmp_names);
	for (size_t i = 0; i < names.len; i++) {
		fn(dir, names.data[i]);
		free(names.data[i]);
	}
	int n = (int)names.len;
	vec_free(&names);
	return n;
}
