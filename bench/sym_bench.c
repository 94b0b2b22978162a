/* sym_bench.c — the symbolic engine over the project's expression corpus.
 *
 *   sym_bench [DIR] [--rounds N] [--points N] [--seed S] [-v]
 *
 * DIR holds corpus.txt (one expression per line, optionally prefixed
 * `simplify time: SECONDS: ` with a reference tool's time),
 * corpus_assumptions.txt and corpus_expected.txt (the recorded forms, in
 * corpus order); default tests/ir/sym/data/sym_corpus from the current
 * directory (the repository root under `make bench`). Reports:
 *   - parse+simplify time per expression, best of N rounds, each round in a
 *     fresh context (as `wavecc sym --bench` measures it), and cold: each
 *     expression alone in a fresh context, nothing shared between lines;
 *   - equivalence: every output is compared with its input at --points
 *     random points satisfying the assumptions (sym_check_equal);
 *   - size: the share of outputs no larger, in tree nodes, than the
 *     recorded form (both parsed by our parser and counted the same way).
 * Exit status 1 if any output differs from its input or fails to parse. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../ir/sym/sym.h"

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

typedef Vec(char *) Lines;

/* Non-blank lines of a file; the `simplify time: Ts: ` prefix is cut and
 * its seconds summed into *sympy_s. */
static Lines read_lines(const char *path, double *sympy_s)
{
	char *text = read_file(path, NULL);
	if (!text) {
		fprintf(stderr, "sym_bench: cannot read %s: %s\n", path, strerror(errno));
		exit(2);
	}
	Lines v = {0};
	for (char *s = text; *s;) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		char *p = s;
		static const char pre[] = "simplify time: ";
		if (strncmp(p, pre, sizeof pre - 1) == 0) {
			char *end;
			double t = strtod(p + sizeof pre - 1, &end);
			if (sympy_s)
				*sympy_s += t;
			char *colon = strstr(end, ": ");
			p = colon ? colon + 2 : end;
		}
		while (*p == ' ')
			p++;
		if (*p)
			vec_push(&v, xstrdup(p));
		if (!nl)
			break;
		s = nl + 1;
	}
	free(text);
	return v;
}

static void free_lines(Lines *v)
{
	for (size_t i = 0; i < v->len; i++)
		free(v->data[i]);
	vec_free(v);
}

int main(int argc, char **argv)
{
	const char *dir = "tests/ir/sym/data/sym_corpus";
	int rounds = 10, points = 200, verbose = 0;
	uint64_t seed = 12345;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
			rounds = atoi(argv[++i]);
		else if (strcmp(argv[i], "--points") == 0 && i + 1 < argc)
			points = atoi(argv[++i]);
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "-v") == 0)
			verbose = 1;
		else if (argv[i][0] != '-')
			dir = argv[i];
		else {
			fprintf(stderr, "usage: sym_bench [DIR] [--rounds N] [--points N] [--seed S] [-v]\n");
			return 2;
		}
	}
	char path[4096];
	double sympy_s = 0;
	snprintf(path, sizeof path, "%s/corpus.txt", dir);
	Lines exprs = read_lines(path, &sympy_s);
	snprintf(path, sizeof path, "%s/corpus_expected.txt", dir);
	Lines expected = read_lines(path, NULL);
	snprintf(path, sizeof path, "%s/corpus_assumptions.txt", dir);
	char *assume_text = read_file(path, NULL);
	if (!assume_text) {
		fprintf(stderr, "sym_bench: cannot read %s: %s\n", path, strerror(errno));
		return 2;
	}
	size_t n = exprs.len;
	printf("sym bench: %zu expressions from %s\n", n, dir);

	/* timing: whole corpus per round, fresh context each round */
	double best = -1;
	for (int r = 0; r < rounds; r++) {
		double t0 = now_us();
		SymCtx *c = sym_ctx_new();
		SymAssume *a = sym_assume_new(c);
		SymParseError pe;
		int line;
		if (sym_assume_parse(a, assume_text, &pe, &line) < 0) {
			fprintf(stderr, "sym_bench: assumptions line %d: %s\n", line, pe.msg);
			return 1;
		}
		for (size_t i = 0; i < n; i++) {
			Sym *e = sym_parse(c, exprs.data[i], &pe);
			if (e)
				sym_simplify(c, e, a);
		}
		sym_ctx_free(c);
		double t = now_us() - t0;
		if (best < 0 || t < best)
			best = t;
	}

	/* cold: every expression alone in a fresh context (no sharing of
	 * parsed or simplified subterms between lines) */
	double best_cold = -1;
	for (int r = 0; r < (rounds + 1) / 2; r++) {
		double t = 0;
		for (size_t i = 0; i < n; i++) {
			SymCtx *c = sym_ctx_new();
			SymAssume *a = sym_assume_new(c);
			SymParseError pe;
			int line;
			sym_assume_parse(a, assume_text, &pe, &line);
			double t0 = now_us();
			Sym *e = sym_parse(c, exprs.data[i], &pe);
			if (e)
				sym_simplify(c, e, a);
			t += now_us() - t0;
			sym_ctx_free(c);
		}
		if (best_cold < 0 || t < best_cold)
			best_cold = t;
	}

	/* correctness and size, in one context */
	SymCtx *c = sym_ctx_new();
	SymAssume *a = sym_assume_new(c);
	SymParseError pe;
	int line;
	sym_assume_parse(a, assume_text, &pe, &line);
	int bad_parse = 0, bad_equiv = 0, smaller_or_eq = 0, compared = 0, unchecked = 0;
	size_t total_in = 0, total_out = 0, total_sympy = 0;
	long long checked_points = 0;
	for (size_t i = 0; i < n; i++) {
		Sym *e = sym_parse(c, exprs.data[i], &pe);
		if (!e) {
			bad_parse++;
			printf("  line %zu: parse error at col %d: %s\n", i + 1, pe.col, pe.msg);
			continue;
		}
		Sym *s = sym_simplify(c, e, a);
		SymCheck chk;
		sym_check_equal(c, e, s, a, points, &seed, &chk);
		checked_points += chk.checked;
		if (chk.checked == 0)
			unchecked++;
		if (chk.mismatches) {
			bad_equiv++;
			printf("  line %zu: NOT EQUIVALENT at %d of %d points; first: %s\n", i + 1, chk.mismatches,
				chk.checked, chk.detail);
			if (verbose) {
				Buf b = {0};
				sym_print(&b, s);
				printf("    out: %s\n", buf_cstr(&b));
				buf_free(&b);
			}
		}
		total_in += sym_tree_size(e);
		total_out += sym_tree_size(s);
		if (i < expected.len) {
			Sym *x = sym_parse(c, expected.data[i], &pe);
			if (!x) {
				printf("  expected line %zu: parse error at col %d: %s\n", i + 1, pe.col, pe.msg);
				continue;
			}
			compared++;
			total_sympy += sym_tree_size(x);
			if (sym_tree_size(s) <= sym_tree_size(x))
				smaller_or_eq++;
			else if (verbose) {
				Buf b = {0};
				sym_print(&b, s);
				printf("  line %zu: ours %zu nodes, recorded %zu\n    ours:  %s\n    recorded: %s\n", i + 1,
					sym_tree_size(s), sym_tree_size(x), buf_cstr(&b), expected.data[i]);
				buf_free(&b);
			}
		}
	}
	double us = n ? best / (double)n : 0;
	printf("  parse+simplify: %.2f us/expression (best of %d rounds, %.1f ms per round)\n", us, rounds,
		best / 1000.0);
	printf("  cold (each expression alone in a fresh context; context setup not counted): %.2f us/expression\n",
		n ? best_cold / (double)n : 0.0);
	if (sympy_s > 0)
		printf("  the reference tool's recorded simplify time (corpus.txt): %.0f us/expression\n",
			sympy_s * 1e6 / (double)n);
	printf("  equivalence: %lld points checked (%d per expression asked), %d expressions differ, %d unchecked, %d "
	       "parse errors\n",
		checked_points, points, bad_equiv, unchecked, bad_parse);
	printf("  size: %d of %d (%.1f%%) no larger than recorded; tree nodes: input %zu, ours %zu, recorded %zu\n",
		smaller_or_eq, compared, compared ? 100.0 * smaller_or_eq / compared : 0.0, total_in, total_out,
		total_sympy);
	sym_ctx_free(c);
	free(assume_text);
	free_lines(&exprs);
	free_lines(&expected);
	return bad_parse || bad_equiv ? 1 : 0;
}
