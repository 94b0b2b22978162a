/* cmd_sym.c — `wavecc sym`: simplify one expression per stdin line.
 *
 *   wavecc sym [--assume FILE] [--bench N] < exprs.txt
 *
 * Each input line gives one output line, in order: the simplified
 * expression; a blank line for a blank or `#` line; `error: col N: msg` for
 * a line that does not parse (the exit status is then 1, after every line is
 * processed). --assume FILE holds one relation per line in the same syntax.
 * --bench N repeats the whole input N times, each round in a fresh context,
 * and prints the best round's parse+simplify time per expression (µs) on
 * stderr; the output is printed once. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../ir/sym/sym.h"
#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: wavecc sym [--assume FILE] [--bench N] [-v] [--version] [-h] < EXPRS\n"
		     "  Simplify one SymPy-syntax expression per input line; see docs/sym.md.\n"
		     "  Standard input and FILE are read up to " READ_FILE_MAX_TEXT ".\n"
		     "  --assume FILE  one relation per line (`$T0 < 256`, `Mod(K, 256) == 0`, ...)\n"
		     "  --bench N      repeat the input N times; print the best round's\n"
		     "                 parse+simplify time per expression (us) on stderr\n");
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static bool skip_line(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	return *s == 0 || *s == '#';
}

/* One round over all lines in a fresh context; fills out (if non-NULL).
 * Returns the number of lines that failed. */
static int run_round(char **lines, size_t n, const char *assume_text, const char *assume_path, Buf *out,
	size_t *nexprs)
{
	SymCtx *c = sym_ctx_new();
	SymAssume *a = sym_assume_new(c);
	if (assume_text) {
		SymParseError pe;
		int line;
		if (sym_assume_parse(a, assume_text, &pe, &line) < 0) {
			sym_ctx_free(c);
			err_at((Loc){assume_path, line, pe.col}, "%s", pe.msg);
		}
	}
	int bad = 0;
	*nexprs = 0;
	for (size_t i = 0; i < n; i++) {
		if (skip_line(lines[i])) {
			if (out)
				buf_putc(out, '\n');
			continue;
		}
		(*nexprs)++;
		SymParseError pe;
		Sym *e = sym_parse(c, lines[i], &pe);
		if (!e) {
			bad++;
			if (out)
				buf_printf(out, "error: col %d: %s\n", pe.col, pe.msg);
			continue;
		}
		Sym *s = sym_simplify(c, e, a);
		if (out) {
			if (sym_is_error(s)) {
				bad++;
				buf_printf(out, "error: %s\n", sym_error_msg(s));
			} else {
				sym_print(out, s);
				buf_putc(out, '\n');
			}
		}
	}
	sym_ctx_free(c);
	return bad;
}

int cmd_sym(int argc, char **argv)
{
	const char *assume = NULL, *bench = NULL;
	bool verbose = false;
	int rc;
	for (int i = 1; i < argc; i++) {
		if (opt_common(argv[i], "sym", usage, &rc))
			return rc;
		if (strcmp(argv[i], "-v") == 0) {
			verbose = true;
			continue;
		}
		if (opt_value(argc, argv, &i, "--assume", &assume) || opt_value(argc, argv, &i, "--bench", &bench))
			continue;
		usage_err("sym: unknown argument '%s'", argv[i]);
	}
	opt_version_only(verbose, "-"); /* the input is always stdin */
	long long rounds = bench ? opt_int("--bench", bench) : 0;
	if (bench && (rounds < 1 || rounds > 1000000))
		usage_err("--bench needs a count from 1 to 1000000");
	char *assume_text = NULL;
	if (assume) {
		assume_text = read_file(assume, NULL);
		if (!assume_text)
			err_at((Loc){assume, 0, 0}, "cannot read: %s", file_strerror(errno));
	}
	/* read all of stdin, split into lines */
	Buf in = {0};
	char chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
		if (got > READ_FILE_MAX - in.len) {
			buf_free(&in);
			free(assume_text);
			err("standard input: %s", file_strerror(EFBIG));
		}
		buf_putn(&in, chunk, got);
	}
	Vec(char *) lines = {0};
	char *s = (char *)buf_cstr(&in);
	size_t len = in.len;
	for (size_t start = 0; start < len;) {
		char *nl = memchr(s + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - s) : len;
		s[end] = 0;
		/* a NUL byte would silently cut the line: make it a parse error */
		char *nul = memchr(s + start, 0, end - start);
		if (nul)
			*nul = '\x01';
		vec_push(&lines, s + start);
		start = end + 1;
	}
	Buf out = {0};
	size_t nexprs = 0;
	int bad = run_round(lines.data, lines.len, assume_text, assume, &out, &nexprs);
	fwrite(out.data ? out.data : "", 1, out.len, stdout);
	if (rounds > 0) {
		double best = -1;
		for (long long r = 0; r < rounds; r++) {
			double t0 = now_us();
			run_round(lines.data, lines.len, assume_text, assume, NULL, &nexprs);
			double t = now_us() - t0;
			if (best < 0 || t < best)
				best = t;
		}
		fprintf(stderr, "sym bench: %zu expressions, best of %lld rounds: %.2f us/expression\n", nexprs, rounds,
			nexprs ? best / (double)nexprs : 0.0);
	}
	buf_free(&out);
	buf_free(&in);
	vec_free(&lines);
	free(assume_text);
	return bad ? 1 : 0;
}
