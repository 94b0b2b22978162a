/* sym_random_test.c — property test: random index-like expressions (sums,
 * products, floor, ceiling, Mod, Max/Min, xor, Piecewise, relations over
 * bounded symbols, small constants and powers of two) are simplified under
 * assumptions and must equal their input at random points satisfying them,
 * print text that reads back as the same node, and never grow. The
 * generator is seeded, so a failure is reproducible; it names the case.
 * Longer hunts: SYM_RANDOM_N (cases, default 1500), SYM_RANDOM_DEPTH (extra
 * depth range, default 4), SYM_RANDOM_OFFSET (first case) in the
 * environment. */
#include <stdlib.h>
#include <string.h>

#include "../../../ir/sym/sym.h"
#include "../../test.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static const char *syms[] = {"$T0", "$T1", "$WG0", "K", "M", "x", "y"};
static const char assumptions[] = "$T0 >= 0\n$T0 < 256\n$T1 >= 0\n$T1 < 4\n$WG0 >= 0\nK >= 64\nMod(K, 64) == 0\n"
				  "M >= 1\nx >= 0\nx < 1000\ny >= 0\n";

static void gen(Buf *b, uint64_t *s, int depth);

static void gen_num(Buf *b, uint64_t *s)
{
	static const int nums[] = {0, 1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 5, 7, 12};
	uint64_t r = rnd(s);
	buf_printf(b, "%d", nums[r % ARRAY_LEN(nums)] * ((r >> 8) % 5 == 0 ? -1 : 1));
}

static void gen_pos(Buf *b, uint64_t *s)
{
	static const int d[] = {2, 4, 8, 16, 32, 64, 3, 5, 12};
	buf_printf(b, "%d", d[rnd(s) % ARRAY_LEN(d)]);
}

static void gen_cond(Buf *b, uint64_t *s, int depth)
{
	static const char *ops[] = {"<", "<=", ">", ">=", "==", "!="};
	uint64_t r = rnd(s);
	if (r % 11 == 0 && depth > 0) {
		buf_puts(b, "~(");
		gen_cond(b, s, depth - 1);
		buf_puts(b, ")");
		return;
	}
	if (r % 5 == 0 && depth > 0) {
		buf_puts(b, "(");
		gen_cond(b, s, depth - 1);
		buf_puts(b, r & 32 ? ") & (" : ") | (");
		gen_cond(b, s, depth - 1);
		buf_puts(b, ")");
		return;
	}
	buf_puts(b, "(");
	gen(b, s, depth - 1);
	buf_printf(b, " %s ", ops[(r >> 8) % ARRAY_LEN(ops)]);
	gen(b, s, depth - 1);
	buf_puts(b, ")");
}

static void gen(Buf *b, uint64_t *s, int depth)
{
	uint64_t r = rnd(s);
	if (depth <= 0 || r % 7 == 0) {
		if (r & 8)
			buf_puts(b, syms[(r >> 4) % ARRAY_LEN(syms)]);
		else
			gen_num(b, s);
		return;
	}
	switch ((r >> 3) % 15) {
	case 12:
		buf_puts(b, "floor((");
		gen(b, s, depth - 1);
		buf_puts(b, r & 16 ? ")/(y + 1))" : ")/K)");
		break;
	case 13:
		buf_puts(b, "(");
		gen(b, s, depth - 1);
		buf_puts(b, ")*3/");
		gen_pos(b, s);
		break;
	case 14:
		buf_puts(b, "ceiling((");
		gen(b, s, depth - 1);
		buf_puts(b, ")/");
		gen_pos(b, s);
		buf_puts(b, " + ");
		gen(b, s, depth - 1);
		buf_puts(b, "/4)");
		break;
	case 0:
	case 1:
		buf_puts(b, "(");
		gen(b, s, depth - 1);
		buf_puts(b, r & 1024 ? " - " : " + ");
		gen(b, s, depth - 1);
		buf_puts(b, ")");
		break;
	case 2:
		buf_puts(b, "(");
		gen(b, s, depth - 1);
		buf_puts(b, ")*");
		if (r & 2048)
			gen_pos(b, s);
		else
			gen(b, s, depth - 1);
		break;
	case 3:
	case 4:
		buf_puts(b, "floor((");
		gen(b, s, depth - 1);
		buf_puts(b, ")/");
		gen_pos(b, s);
		buf_puts(b, ")");
		break;
	case 5:
		buf_puts(b, "ceiling((");
		gen(b, s, depth - 1);
		buf_puts(b, ")/");
		gen_pos(b, s);
		buf_puts(b, ")");
		break;
	case 6:
	case 7:
		buf_puts(b, "Mod(");
		gen(b, s, depth - 1);
		buf_puts(b, ", ");
		if (r & 4096)
			buf_puts(b, "K");
		else
			gen_pos(b, s);
		buf_puts(b, ")");
		break;
	case 8:
		buf_puts(b, r & 1 ? "Max(" : "Min(");
		gen(b, s, depth - 1);
		buf_puts(b, ", ");
		gen(b, s, depth - 1);
		buf_puts(b, ")");
		break;
	case 9:
		buf_puts(b, "xor(Mod(floor(");
		gen(b, s, depth - 1);
		buf_puts(b, "), 64), ");
		gen_pos(b, s);
		buf_puts(b, "*floor($T0/");
		gen_pos(b, s);
		buf_puts(b, "))");
		break;
	case 10:
		buf_puts(b, "Piecewise((");
		gen(b, s, depth - 1);
		buf_puts(b, ", ");
		gen_cond(b, s, depth - 1);
		buf_puts(b, "), (");
		gen(b, s, depth - 1);
		buf_puts(b, ", True))");
		break;
	default:
		buf_puts(b, "floor(");
		gen(b, s, depth - 1);
		buf_puts(b, "/Max(1, ");
		gen(b, s, depth - 1);
		buf_puts(b, "))");
		break;
	}
}

START_TEST(random_expressions_simplify_soundly)
{
	SymCtx *c = sym_ctx_new();
	SymAssume *a = sym_assume_new(c);
	SymParseError pe;
	int line;
	ck_assert_int_eq(sym_assume_parse(a, assumptions, &pe, &line), 0);
	const char *en = getenv("SYM_RANDOM_N"), *ed = getenv("SYM_RANDOM_DEPTH"), *eo = getenv("SYM_RANDOM_OFFSET");
	int n = en ? atoi(en) : 1500, depth = ed && atoi(ed) > 0 ? atoi(ed) : 4, off = eo ? atoi(eo) : 0;
	int checked = 0;
	for (int i = 0; i < n; i++) {
		uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1 + off), s = seed;
		Buf b = {0};
		gen(&b, &s, 2 + (int)(rnd(&s) % (uint64_t)depth));
		Sym *e = sym_parse(c, buf_cstr(&b), &pe);
		ck_assert_msg(e != NULL, "case %d: '%s' does not parse: %s", i, buf_cstr(&b), pe.msg);
		Sym *r = sym_simplify(c, e, a);
		if (!sym_is_error(r)) {
			const char *txt = sym_str(c, r);
			ck_assert_msg(sym_parse(c, txt, &pe) == r, "case %d: '%s' does not read back", i, txt);
			ck_assert_uint_le(sym_tree_size(r), sym_tree_size(e));
			SymCheck chk;
			uint64_t ps = seed;
			sym_check_equal(c, e, r, a, 40, &ps, &chk);
			ck_assert_msg(chk.mismatches == 0, "case %d: '%s' -> '%s' differs: %s", i, buf_cstr(&b), txt,
				chk.detail);
			checked += chk.checked > 0;
		}
		buf_free(&b);
	}
	/* most cases must have been checkable at all */
	ck_assert_int_gt(checked, n / 2);
	sym_ctx_free(c);
}
END_TEST

static Suite *random_suite(void)
{
	Suite *s = suite_create("sym_random");
	TCase *t = tcase_create("random");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, random_expressions_simplify_soundly);
	suite_add_tcase(s, t);
	return s;
}

int main(void) { return run_suite(random_suite()); }
