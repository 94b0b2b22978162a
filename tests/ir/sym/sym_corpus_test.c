/* sym_corpus_test.c — the fast form of `make bench`'s corpus check, so a
 * regression fails `make check`: every expression of the project's corpus
 * (tests/ir/sym/data/sym_corpus, made by tools/sym_corpus.py; or $SYM_CORPUS)
 * is simplified under the corpus assumptions; its printed result must read
 * back as the same node, equal the input at random points satisfying the
 * assumptions, and be no larger (tree nodes) than the recorded form in
 * corpus_expected.txt. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../ir/sym/sym.h"
#include "../../test.h"

static char *corpus_file(const char *name)
{
	char path[4096];
	const char *dir = getenv("SYM_CORPUS");
	if (dir && *dir)
		snprintf(path, sizeof path, "%s/%s", dir, name);
	else
		snprintf(path, sizeof path, "%s/tests/ir/sym/data/sym_corpus/%s", test_root(), name);
	return read_file(path, NULL);
}

/* Next non-blank line of *s (cut in place), without the timing prefix. */
static char *next_line(char **s)
{
	while (**s) {
		char *line = *s, *nl = strchr(line, '\n');
		if (nl) {
			*nl = 0;
			*s = nl + 1;
		} else
			*s += strlen(line);
		char *colon = strncmp(line, "simplify time: ", 15) == 0 ? strstr(line + 15, ": ") : NULL;
		if (colon)
			line = colon + 2;
		if (*line)
			return line;
	}
	return NULL;
}

START_TEST(corpus_equivalent_and_small)
{
	char *exprs = corpus_file("corpus.txt"), *expected = corpus_file("corpus_expected.txt"),
	     *assume = corpus_file("corpus_assumptions.txt");
	ck_assert_msg(exprs && expected && assume, "corpus files missing (tests/ir/sym/data/sym_corpus or $SYM_CORPUS)");
	SymCtx *c = sym_ctx_new();
	SymAssume *a = sym_assume_new(c);
	SymParseError pe;
	int line;
	ck_assert_int_eq(sym_assume_parse(a, assume, &pe, &line), 0);
	char *es = exprs, *xs = expected, *e_line;
	int n = 0, no_larger = 0;
	long in_nodes = 0, out_nodes = 0;
	uint64_t seed = 7;
	while ((e_line = next_line(&es))) {
		n++;
		Sym *e = sym_parse(c, e_line, &pe);
		ck_assert_msg(e != NULL, "corpus line %d: col %d: %s", n, pe.col, pe.msg);
		Sym *s = sym_simplify(c, e, a);
		ck_assert_msg(!sym_is_error(s), "corpus line %d: %s", n, sym_error_msg(s));
		const char *txt = sym_str(c, s);
		Sym *back = sym_parse(c, txt, &pe);
		ck_assert_msg(back == s, "corpus line %d: printed result does not read back: %s", n, txt);
		SymCheck chk;
		sym_check_equal(c, e, s, a, 12, &seed, &chk);
		ck_assert_msg(chk.mismatches == 0, "corpus line %d: result differs from input: %s", n, chk.detail);
		ck_assert_msg(chk.checked > 0, "corpus line %d: no point could be checked", n);
		char *x_line = next_line(&xs);
		ck_assert_msg(x_line != NULL, "corpus_expected.txt is shorter than corpus.txt");
		Sym *x = sym_parse(c, x_line, &pe);
		ck_assert_msg(x != NULL, "expected line %d: col %d: %s", n, pe.col, pe.msg);
		if (sym_tree_size(s) <= sym_tree_size(x))
			no_larger++;
		else
			printf("sym_corpus: line %d is larger than recorded: %s (recorded %s)\n", n, txt, x_line);
		in_nodes += (long)sym_tree_size(e);
		out_nodes += (long)sym_tree_size(s);
	}
	ck_assert_int_gt(n, 0);
	printf("sym_corpus: %d expressions, all equivalent, %d no larger than recorded; %ld tree nodes in, %ld out\n", n,
		no_larger, in_nodes, out_nodes);
	ck_assert_msg(no_larger == n, "%d of %d results larger than recorded", n - no_larger, n);
	ck_assert_msg(xs == NULL || next_line(&xs) == NULL, "corpus_expected.txt is longer than corpus.txt");
	sym_ctx_free(c);
	free(exprs);
	free(expected);
	free(assume);
}
END_TEST

static Suite *corpus_suite(void)
{
	Suite *s = suite_create("sym_corpus");
	TCase *t = tcase_create("corpus");
	tcase_set_timeout(t, 300);
	tcase_add_test(t, corpus_equivalent_and_small);
	suite_add_tcase(s, t);
	return s;
}

int main(void) { return run_suite(corpus_suite()); }
