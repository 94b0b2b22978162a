/* sym_test.c — the symbolic engine: canonical constructors, parser, printer
 * round trips, evaluation, substitution, assumptions, each simplification
 * rule (checked both for its printed result and, at random points, for
 * being an identity), bad input, and the `wavecc sym` command. */
#include <stdlib.h>
#include <string.h>

#include "../../../ir/sym/sym.h"
#include "../../test.h"

static SymCtx *C;
static SymAssume *A;

static void setup(void)
{
	C = sym_ctx_new();
	A = sym_assume_new(C);
}

static void teardown(void) { sym_ctx_free(C); }

static Sym *P(const char *s)
{
	SymParseError pe;
	Sym *e = sym_parse(C, s, &pe);
	ck_assert_msg(e != NULL, "parse of '%s' failed at col %d: %s", s, pe.col, pe.msg);
	return e;
}

static const char *str(Sym *e) { return sym_str(C, e); }

static void assume(const char *text)
{
	SymParseError pe;
	int line;
	ck_assert_msg(sym_assume_parse(A, text, &pe, &line) == 0, "assumption line %d: %s", line, pe.msg);
}

/* Simplify under A, check the result at random points, return its text. */
static const char *S(const char *in)
{
	Sym *e = P(in);
	Sym *s = sym_simplify(C, e, A);
	ck_assert_msg(!sym_is_error(s), "simplify of '%s' gave %s", in, sym_error_msg(s));
	SymCheck chk;
	uint64_t seed = 42;
	sym_check_equal(C, e, s, A, 200, &seed, &chk);
	ck_assert_msg(chk.mismatches == 0, "'%s' -> '%s' differs: %s", in, str(s), chk.detail);
	/* the printed result reads back as the same node */
	ck_assert_msg(P(str(s)) == s, "round trip of '%s'", str(s));
	return str(s);
}

#define ck_simp(in, out) ck_assert_str_eq(S(in), out)
#define ck_canon(in, out) ck_assert_str_eq(str(P(in)), out)

/* The parse error for `in`: its column and message. */
static int parse_err(const char *in, char *msg, size_t n)
{
	SymParseError pe;
	Sym *e = sym_parse(C, in, &pe);
	ck_assert_msg(e == NULL, "'%.40s' should not parse", in);
	ck_assert_int_gt(pe.col, 0);
	ck_assert_msg(pe.msg[0] != 0, "empty error message");
	if (msg)
		snprintf(msg, n, "%s", pe.msg);
	return pe.col;
}

START_TEST(canonical_constructors)
{
	ck_canon("x + x", "2*x");
	ck_canon("2*(x + y) - y", "2*x + y");
	ck_canon("x*x*x/y", "x**3/y");
	ck_canon("x - x", "0");
	ck_canon("3/4*x", "3*x/4");
	ck_canon("-x/2 + 1/3", "-x/2 + 1/3");
	ck_canon("Max(x, 3, Max(y, 4))", "Max(4, x, y)");
	ck_canon("Min(x, x)", "x");
	ck_canon("2**10", "1024");
	ck_canon("(2*a + 2)/k", "2*(a + 1)/k");
	ck_assert_ptr_eq(P("64/(5*a + 10)"), P("64/(5*(a + 2))")); /* random-test find */
	ck_canon("64/(5*a + 10)", "64/5/(a + 2)");
	ck_canon("floor(7/2) + ceiling(7/2) + Mod(-7, 3)", "9");
	ck_canon("xor(5, 3)", "6");
	/* hash-consing: equal expressions are one node */
	ck_assert_ptr_eq(P("a + b*c"), P("c*b + a"));
	ck_assert_ptr_eq(P("floor(x/4)"), P("x // 4"));
	ck_assert_ptr_ne(P("x + 1"), P("x + 2"));
	/* relations compare with 0, content divided out, leading sign + */
	ck_canon("x - y > 3", "x > y + 3");
	ck_canon("-x + 2 > 0", "x < 2");
	ck_canon("2*x >= 4*y", "x >= 2*y");
	ck_canon("Eq(x, 3)", "Eq(x, 3)");
	ck_canon("~(x > 3)", "x <= 3");
	ck_canon("3 > 2", "True");
	/* Piecewise drops false branches and ends at a true one */
	ck_canon("Piecewise((1, False), (x, y > 0), (2, True), (3, True))", "Piecewise((x, y > 0), (2, True))");
	ck_canon("Piecewise((x, True))", "x");
	ck_canon("Piecewise((x, y > 0), (x, True))", "x");
	ck_assert_uint_gt(sym_ctx_nodes(C), 10);
}
END_TEST

/* The first sym_simplify of a fresh context, without assumptions, read the
 * nodes' zeroed assumption fields as installed facts: ceiling(N/256) came
 * back as N/256 (found by the runtime grid of a dynamic copy). */
START_TEST(first_simplify_without_assumptions)
{
	SymCtx *c = sym_ctx_new();
	Sym *n = sym_symbol(c, "N");
	Sym *e = sym_ceil(c, sym_div(c, n, sym_int(c, 256)));
	ck_assert_str_eq(sym_str(c, sym_simplify(c, e, NULL)), "ceiling(N/256)");
	ck_assert_str_eq(sym_str(c, sym_simplify(c, sym_floor(c, sym_div(c, n, sym_int(c, 3))), NULL)), "floor(N/3)");
	ck_assert_int_eq(sym_multiple_of(c, n, NULL), 1);
	sym_ctx_free(c);
}
END_TEST

START_TEST(parser_syntax)
{
	Sym *e0;
	ck_canon("$T0 + $WG1", "$T0 + $WG1");
	ck_canon("x // 4 + x % 4", "floor(x/4) + Mod(x, 4)");
	ck_canon("x**2 * x ^ 2", "x**4");
	ck_canon("-x**2", "-x**2");
	ck_canon("2**-1*x", "x/2");
	ck_assert_ptr_eq(P("a > 0 & b >= 0"), P("(a > 0) & (b >= 0)"));
	ck_assert_ptr_eq(P("a > 0 | b < 1 & c > 2"), P("(a > 0) | ((b < 1) & (c > 2))"));
	ck_canon("~($A | $B)", "~(Ne($A, 0) | Ne($B, 0))");
	e0 = P("Piecewise((x, (y > 0) & (z < 3)), (0, True))");
	ck_assert_ptr_eq(P(str(e0)), e0);
	ck_assert_ptr_eq(sym_arg(e0, 1), P("(z < 3) & (y > 0)"));
	ck_canon("Ne(x, 1) & Eq(y, 2)", "Eq(y, 2) & Ne(x, 1)");
	ck_assert_ptr_eq(P("And(x > 1, y > 1) | Not(z > 1)"), P("(z <= 1) | ((y > 1) & (x > 1))"));
	ck_canon("  floor( x / 2 )  ", "floor(x/2)");
	Sym *e = P("Piecewise((x, y > 0), (0, True))");
	ck_assert_int_eq(sym_kind(e), SYM_PIECEWISE);
	ck_assert_int_eq(sym_nargs(e), 4);
	ck_assert_int_eq(sym_kind(sym_arg(e, 1)), SYM_GT);
	ck_assert_str_eq(sym_name(sym_arg(e, 0)), "x");
}
END_TEST

START_TEST(print_parse_round_trip)
{
	static const char *exprs[] = {
		"x/(4*y)",
		"-(x + 1)**2/y",
		"x**(-2)",
		"Piecewise((floor(x/Max(1, y)), (y > 0) & (x >= 3)), (Mod(x, 7), True))",
		"xor(Mod($T0, 8), floor(Mod($T0, 64)/16) + 4)",
		"~((x > 1) & (y < 2))",
		"Min(3, $T1 + 4*$T2 + floor($T0/64))",
		"2*x/3 - 5/7",
		"ceiling(_N_div_32/8) - 32*floor(ceiling(_N_div_32/8)/32) > 0",
		"Eq(Mod(K, 256), 0) | Ne(x, y)",
		"K*K**(64)/(x + 31)/(64)/(x + 31)/3", /* fuzzer find: big merged exponents */
		"r/470184984576/(q2 + 9992999999)", /* fuzzer find: printed as /(k*(sum)) it overflowed when read back */
		"(x > 0 & y > 0) | (z < 0 & Ne(x/y, 1))",
		/* fuzzer find: -1 times a product with a sum whose content is too
		 * big to divide out, printed `-(sum)*...`, read back as (-sum)*... */
		"K*(x + 64)/ 2// - K*K*(45 + x)/- K*(lx /232**2*(lx + 31)/232**2 +x31)/1",
		"3*(x31 + lx/2897022976)*(x + 45)",
	};
	for (size_t i = 0; i < ARRAY_LEN(exprs); i++) {
		Sym *e = P(exprs[i]);
		ck_assert_msg(P(str(e)) == e, "round trip of '%s' via '%s'", exprs[i], str(e));
	}
}
END_TEST

static SymRat ev(const char *s, int n, const char **names, const int64_t *vals, int *rc, const char **msg)
{
	Sym *e = P(s);
	Sym *syms[8];
	for (int i = 0; i < n; i++)
		syms[i] = sym_symbol(C, names[i]);
	SymRat r = {0, 1};
	*rc = sym_eval(C, e, n, syms, vals, &r, msg);
	return r;
}

START_TEST(eval_exact)
{
	const char *names[] = {"x", "y"};
	int64_t vals[] = {-7, 3};
	int rc;
	const char *msg = NULL;
	SymRat r = ev("floor(x/2)", 2, names, vals, &rc, &msg);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(r.p, -4);
	r = ev("Mod(x, y)", 2, names, vals, &rc, &msg);
	ck_assert_int_eq(r.p, 2);
	r = ev("Mod(-x, -y)", 2, names, vals, &rc, &msg); /* Python: 7 % -3 == -2 */
	ck_assert_int_eq(r.p, -2);
	r = ev("Mod(x, -y)", 2, names, vals, &rc, &msg);
	ck_assert_int_eq(r.p, -1);
	r = ev("ceiling(x/y) + x/y", 2, names, vals, &rc, &msg);
	ck_assert_int_eq(r.p, -13);
	ck_assert_int_eq(r.q, 3);
	r = ev("xor(y, 5) + Max(x, y) + Min(x, y)", 2, names, vals, &rc, &msg);
	ck_assert_int_eq(r.p, 6 + 3 - 7);
	r = ev("Piecewise((1, x > 0), (2, y > 0), (3, True))", 2, names, vals, &rc, &msg);
	ck_assert_int_eq(r.p, 2);
	r = ev("(x < 0) & Ne(y, 3)", 2, names, vals, &rc, &msg);
	ck_assert_int_eq(r.p, 0);
	/* a guarded division in an untaken branch is fine */
	int64_t z[] = {0, 0};
	r = ev("Piecewise((x/y, y > 0), (5, True))", 2, names, z, &rc, &msg);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(r.p, 5);
	/* errors */
	ev("x/y", 2, names, z, &rc, &msg);
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(msg, "division by zero");
	ev("Mod(x, y)", 2, names, z, &rc, &msg);
	ck_assert_str_eq(msg, "Mod by zero");
	ev("x + w", 2, names, vals, &rc, &msg);
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(msg, "unbound symbol");
	int64_t big[] = {INT64_MAX / 2, 3};
	ev("x*y", 2, names, big, &rc, &msg);
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(msg, "integer overflows 64 bits");
	ev("Piecewise((1, x > 0))", 2, names, vals, &rc, &msg);
	ck_assert_str_eq(msg, "no Piecewise branch applies");
}
END_TEST

START_TEST(subs_and_free_symbols)
{
	Sym *x = sym_symbol(C, "x"), *y = sym_symbol(C, "y");
	Sym *to = P("y + 1");
	Sym *r = sym_subs(C, P("floor((x - 1)/2) + x*y"), 1, &x, &to);
	ck_assert_str_eq(str(r), "floor(y/2) + y*(y + 1)");
	/* simultaneous: swap */
	Sym *from[2] = {x, y}, *swap[2] = {y, x};
	ck_assert_ptr_eq(sym_subs(C, P("x - 2*y"), 2, from, swap), P("y - 2*x"));
	Sym *fs[4];
	size_t n = sym_free_symbols(C, P("Mod($b, c) + floor(a/$b) + c"), fs, 4);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(sym_name(fs[0]), "$b");
	ck_assert_str_eq(sym_name(fs[1]), "a");
	ck_assert_str_eq(sym_name(fs[2]), "c");
	ck_assert_uint_eq(sym_free_symbols(C, P("3 + 4"), fs, 4), 0);
	ck_assert_uint_eq(sym_tree_size(P("x + 2*y")), 5);
}
END_TEST

START_TEST(assumption_forms)
{
	assume("# thread ids\n$T0 >= 0\n$T0 < 256\nBLOCK_M == 256\nMod(K, 256) == 0\nK >= 256\n\nN >= 1\n"
	       "M == 2*N + 1\nx + y < 10\n");
	SymBound b = sym_bounds(C, P("$T0"), A);
	ck_assert(b.has_lo && b.has_hi);
	ck_assert_int_eq(b.lo.p, 0);
	ck_assert_int_eq(b.hi.p, 255);
	b = sym_bounds(C, P("floor($T0/16)*2 + 1"), A);
	ck_assert_int_eq(b.hi.p, 31);
	ck_assert_int_eq(sym_multiple_of(C, P("K"), A), 256);
	ck_assert_int_eq(sym_multiple_of(C, P("3*K + 512"), A), 256);
	ck_simp("BLOCK_M*x", "256*x");
	ck_simp("M - 2*N", "1");
	ck_simp("x + y < 10", "True");
	ck_simp("x + y >= 10", "False");
	ck_simp("$T0 < 300", "True");
	/* substitution cycles are refused (kept as facts), never followed */
	assume("2*p == q\np == q + 1\n");
	ck_assert_str_eq(str(sym_simplify(C, P("q + p"), A)), "3*p");
	SymBound pb = sym_bounds(C, P("p + q"), A);
	ck_assert(!pb.has_lo && !pb.has_hi);
	/* bad assumptions */
	const char *why;
	ck_assert_int_eq(sym_assume_add(A, P("x + 1"), &why), -1);
	ck_assert_int_eq(sym_assume_add(A, P("$T0 > 300"), &why), -1);
	ck_assert_str_eq(why, "the assumption contradicts an earlier bound");
	SymParseError pe;
	int line;
	ck_assert_int_eq(sym_assume_parse(A, "a > 0\nb >\n", &pe, &line), -1);
	ck_assert_int_eq(line, 2);
}
END_TEST

START_TEST(rules_floor_mod)
{
	assume("$T0 >= 0\n$T0 < 256\nx >= 0\nMod(K, 256) == 0\nK >= 1\nd >= 1\n");
	ck_simp("floor(x/16)*16 + Mod(x, 16)", "x");
	ck_simp("3*floor(x/8)*8 + 3*Mod(x, 8) + 1", "3*x + 1");
	ck_simp("x - 4*floor(x/4)", "Mod(x, 4)");
	ck_simp("ceiling(y/8) - 32*floor(ceiling(y/8)/32) > 0", "Mod(ceiling(y/8), 32) > 0");
	ck_simp("2*floor(x/32) + Mod(floor(x/16), 2)", "floor(x/16)");
	ck_simp("d*floor(x/d) + Mod(x, d)", "x");
	/* elimination from bounds */
	ck_simp("Mod($T0, 256)", "$T0");
	ck_simp("Mod($T0 + 512, 256)", "$T0");
	ck_simp("floor($T0/256)", "0");
	ck_simp("floor(($T0 + 256)/256)", "1");
	ck_simp("floor(Mod($T0, 16)/16)", "0");
	/* integer parts come out, fractional parts below the step drop */
	ck_simp("floor($T0/64 + 2)", "floor($T0/64) + 2");
	ck_simp("floor(x/2 + 129/32)", "floor(x/2) + 4");
	ck_simp("floor((x + 181)/7) - 25", "floor(x/7 + 6/7)");
	ck_simp("Mod(x + 181, 7) + Mod(y - 3, 8)", "Mod(y + 5, 8) + Mod(x + 6, 7)");
	ck_simp("7*floor((y + 181)/7) + Mod(y + 181, 7) + 7*floor((y + 5)/7) + Mod(y + 5, 7)", "2*y + 186");
	ck_simp("floor(8*y + Mod($T0, 16)/32 + 1/2)", "8*y");
	/* the step is gcd(G, 1): with 3*x/2 a remainder up to 1/2 is safe, not 1 */
	ck_simp("floor(3*x/2 + Mod($T0, 4)/8)", "floor(3*x/2)");
	ck_simp("floor(3*x/2 + Mod($T0, 5)/4)", "floor(3*x/2 + Mod($T0, 5)/4)");
	/* power-of-two division and nested floors */
	ck_simp("floor(floor(x/2)/4)", "floor(x/8)");
	ck_simp("floor(floor(x/32)/d)", "floor(x/(32*d))");
	/* divisibility */
	ck_simp("floor(K/32)", "K/32");
	ck_simp("ceiling(K/64) + Mod(K, 128)", "K/64");
	ck_simp("Mod(K*y + 3, K/32)", "Mod(3, K/32)");
	ck_simp("Mod(64*y + x, 32)", "Mod(x, 32)");
	ck_simp("Mod(Mod(x, 64), 16)", "Mod(x, 16)");
	ck_simp("Mod(2*x, 1)", "0");
	ck_simp("ceiling(x)", "x");
	/* a power of a fractional value is not an integer (fuzzer find: Mod(4*f**2, 4) became 0) */
	ck_simp("Mod(4*Mod(x/6, y)**2, 4)", "Mod(4*Mod(x/6, y)**2, 4)");
	ck_simp("Mod(36*(x/6)**2, 1)", "0");
	ck_simp("Mod(4*x**2, 4)", "0");
}
END_TEST

START_TEST(rules_other)
{
	assume("$T0 >= 0\n$T0 < 256\nx >= 0\nn >= 1\n");
	/* like terms and common factors through expansion */
	ck_simp("K*(a + 64)/2 - K*(a + 32)/2", "16*K");
	ck_simp("x*(y + 1) - x*y", "x");
	ck_simp("K*a/2 + K*b/2", "K*(a + b)/2");
	ck_simp("x*floor(y/4) + 3*x*Mod(y, 4) + x", "x*(floor(y/4) + 3*Mod(y, 4) + 1)");
	/* Max / Min by bounds */
	ck_simp("Max(1, $T0 + 1)", "$T0 + 1");
	ck_simp("Min(300, $T0, 256)", "$T0");
	ck_simp("Max(x, -1)", "x");
	/* ... and by the bounds of their difference (the arguments' own overlap) */
	ck_simp("Min(4*$WG0 + 4, 4*$WG0)", "4*$WG0");
	ck_simp("Max(y + 3, y - 2, z)", "Max(z, y + 3)");
	ck_simp("Min(y, z)", "Min(y, z)");
	/* xor swizzles */
	ck_simp("xor(Mod($T0, 4), 8*floor($T0/8))", "8*floor($T0/8) + Mod($T0, 4)");
	ck_simp("xor(16*y + Mod($T0, 8), Mod(x, 4))", "16*y + xor(Mod($T0, 8), Mod(x, 4))");
	ck_simp("xor(x, 0) + xor(y, y)", "x");
	/* fuzzer find: a huge exponent took minutes in the lattice analysis */
	ck_simp("$T8**888344887768//4448877680//4444", "floor($T8**888344887768/19770812409920)");
	/* Piecewise: conditions decided, values know their condition */
	ck_simp("Piecewise((1, $T0 > 300), (2, True))", "2");
	ck_simp("Piecewise((floor(x/Max(1, n)), n > 0), (0, True))", "floor(x/n)");
	ck_simp("Piecewise((Max(1, Mod(y, 8)), Mod(y, 8) > 0), (7, True))",
		"Piecewise((Mod(y, 8), Mod(y, 8) > 0), (7, True))");
	ck_simp("Piecewise((5, y > 3), (Min(y, 3), True))", "Piecewise((5, y > 3), (y, True))");
	/* a false Or gives all its operands negated, a false Not(Or) nothing */
	ck_simp("Piecewise((1, (y > 5) | (z > 5)), (Min(y, 5) + Min(z, 5), True))",
		"Piecewise((1, (z > 5) | (y > 5)), (y + z, True))");
	ck_simp("Piecewise((1, ~((y > 5) | (z > 5))), (Max(y, 5), True))",
		"Piecewise((1, ~((z > 5) | (y > 5))), (Max(5, y), True))");
	ck_simp("Piecewise((Max(y, 5), ~(y < 5)), (0, True))", "Piecewise((y, y >= 5), (0, True))");
	/* a condition knows the earlier ones failed */
	ck_simp("Piecewise((1, y > 5), (2, y > 7), (3, True))", "Piecewise((1, y > 5), (3, True))");
	ck_simp("Piecewise((1, y > 5), (2, y <= 5), (3, True))", "Piecewise((1, y > 5), (2, True))");
	/* relations and booleans */
	ck_simp("(Mod($T0, 4) < 4) & (x >= 0)", "True");
	ck_simp("Eq(2*y + 1, 0)", "False");
	ck_simp("Ne(4*y + 2, 0)", "True");
	ck_simp("($T0 > 1000) | (y > 0)", "y > 0");
}
END_TEST

START_TEST(bad_input)
{
	char msg[256];
	static const char *bad[] = {"", "(", "x +", "1 2", "Mod(x)", "floor(x, y)", "x $", "@", "f(x)", "Piecewise(x)",
		"Piecewise((x, y > 0)", "x > y > z", "(x > 0) + 1", "floor(x > 0)", "1.5", "$", ")", "x ** ** 2",
		"Piecewise((x > 1, True))", "~($Tx > 0 & $88T8 >= 0)**8888" /* fuzzer find */, "2**(x > 1)"};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++)
		parse_err(bad[i], NULL, 0);
	ck_assert_int_eq(parse_err("x + @", msg, sizeof msg), 5);
	ck_assert_int_eq(parse_err("floor(x, y)", msg, sizeof msg), 1);
	ck_assert_str_eq(msg, "floor takes 1 argument, got 2");
	parse_err("g(x)", msg, sizeof msg);
	ck_assert_str_eq(msg, "unknown function 'g'");
	/* 64-bit overflow: literals and folded constants */
	parse_err("99999999999999999999", msg, sizeof msg);
	ck_assert_str_eq(msg, "integer literal overflows 64 bits");
	parse_err("9223372036854775807 + 1", msg, sizeof msg);
	ck_assert_str_eq(msg, "integer overflows 64 bits");
	parse_err("2**64", msg, sizeof msg);
	parse_err("3037000500*3037000500", msg, sizeof msg);
	/* fuzzer find: a coefficient that cannot absorb a sum's content
	 * overflows instead of leaving a second, non-canonical form */
	parse_err("-(MK/781629256 + 3)*floor(floor(x/8)/2)/(234488773464*K)", msg, sizeof msg);
	ck_assert_str_eq(msg, "integer overflows 64 bits");
	/* division and Mod by a constant zero */
	ck_assert_int_eq(parse_err("x + 1/0", msg, sizeof msg), 6);
	ck_assert_str_eq(msg, "division by zero");
	parse_err("Mod(x, 0)", msg, sizeof msg);
	ck_assert_str_eq(msg, "Mod by zero");
	parse_err("x // 0", msg, sizeof msg);
	parse_err("x % (y - y)", msg, sizeof msg);
	parse_err("0**-1", msg, sizeof msg);
	/* fuzzer find: an overflow inside a sum's content division left an
	 * error node inside a valid-looking tree */
	parse_err("$T88888848//8//-ccceeeeg6//2//K%(x )/2 - K*(MK*(Wx*8//-ccceeeeg6//2//K%(x )/2 - "
		  "K*(MK*(Wx*0+( 16)%x + 6)/2 - K*e%eeg6//2//K%(x )/2 - K*(MK*(Wx*0+( 16)%x + 6)/2 - K* + "
		  "3)/2344+ 3)/234+++48877344887760+( 16)%x + 6)/2 - K* + 3)/2344887768 + 3)/234488776880//44",
		msg, sizeof msg);
	ck_assert_str_eq(msg, "integer overflows 64 bits");
	/* nesting deep enough to exhaust a naive recursive parser */
	size_t n = 200000;
	char *deep = xmalloc(2 * n + 2);
	memset(deep, '(', n);
	deep[n] = 'x';
	memset(deep + n + 1, ')', n);
	deep[2 * n + 1] = 0;
	parse_err(deep, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "nested") != NULL, "got '%s'", msg);
	memset(deep, '-', 2 * n + 1);
	parse_err(deep, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "nested") != NULL, "got '%s'", msg);
	deep[0] = 'x';
	for (size_t i = 0; i < n - 1; i++)
		memcpy(deep + 1 + 2 * i, "^x", 2); /* x^x^x...: right-associative recursion */
	deep[2 * n - 1] = 0;
	parse_err(deep, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "nested") != NULL, "got '%s'", msg);
	for (size_t i = 0; i < n; i++)
		memcpy(deep + 2 * i, i % 2 ? "~(" : "f(", 2);
	deep[2 * n] = 0;
	parse_err(deep, msg, sizeof msg);
	/* the parser's span cache keeps the nesting bound: a 250-deep group
	 * parses, and parses again from the cache, but not under 7 more
	 * levels (near the top, where the cache is consulted) */
	char g[512], g2[1024];
	memset(g, '(', 250);
	g[250] = 'x';
	memset(g + 251, ')', 250);
	g[501] = 0;
	ck_assert_ptr_eq(P(g), P(g));
	snprintf(g2, sizeof g2, "(((((((%s)))))))", g);
	parse_err(g2, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "nested") != NULL, "got '%s'", msg);
	snprintf(g2, sizeof g2, "1 + (((%s)))", g);
	ck_assert_str_eq(str(P(g2)), "x + 1");
	free(deep);
	/* errors propagate through constructors as values */
	Sym *z = sym_div(C, P("x"), P("0"));
	ck_assert(sym_is_error(z));
	ck_assert_ptr_eq(sym_add(C, P("y"), z), z);
	ck_assert_ptr_eq(sym_floor(C, sym_mul(C, z, P("x"))), z);
	ck_assert(sym_is_error(sym_mul(C, P("x > 1"), P("y"))));
	ck_assert(sym_is_error(sym_rat(C, 1, 0)));
	ck_assert(sym_is_error(sym_int(C, INT64_MIN)));
	ck_assert_ptr_eq(sym_simplify(C, z, NULL), z);
	/* simplification that would overflow keeps the exact input instead */
	Buf nb = {0};
	buf_puts(&nb, "x");
	for (int i = 0; i < 60; i++) {
		Buf t = {0};
		buf_printf(&t, "floor((%s + 1)/3)", buf_cstr(&nb));
		buf_free(&nb);
		nb = t;
	}
	Sym *big = P(buf_cstr(&nb));
	ck_assert(!sym_is_error(sym_simplify(C, big, NULL)));
	buf_free(&nb);
}
END_TEST

/* A relation at the ends of int64 gives no strict integer bound (one past
 * INT64_MAX overflowed in sym_bounds.c: UBSan under make check-asan). */
START_TEST(bounds_at_int64_edges)
{
	static const char *in[] = {"Piecewise((x, x > 9223372036854775807), (0, True))",
		"Piecewise((x, -x > 9223372036854775807), (0, True))",
		"Piecewise((x, x >= 9223372036854775807), (0, True))"};
	for (size_t i = 0; i < ARRAY_LEN(in); i++) {
		Sym *e = P(in[i]);
		if (sym_is_error(e))
			continue;
		S(in[i]);
	}
	assume("x > 9223372036854775806");
	S("Piecewise((1, x > 9223372036854775807), (0, True))");
}
END_TEST

START_TEST(contexts_are_independent)
{
	SymCtx *c2 = sym_ctx_new();
	SymParseError pe;
	Sym *a = sym_parse(c2, "x + 1", &pe);
	ck_assert_ptr_ne(a, P("x + 1"));
	ck_assert_str_eq(sym_str(c2, a), str(P("x + 1")));
	sym_ctx_free(c2);
	sym_ctx_free(NULL);
}
END_TEST

/* ---- the CLI ---- */

static CmdResult sym_cli(const char *args, const char *input)
{
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "%s sym %s", test_bin(), args);
	return run_cmd(cmd, input);
}

START_TEST(cli_lines_in_order)
{
	CmdResult r = sym_cli("", "x + x\n\n# comment\nfloor(x/4)*4 + Mod(x, 4)\n(\n1/0\ny\n");
	ck_assert_int_eq(r.status, 1);
	ck_assert_str_eq(r.out, "2*x\n\n\nx\nerror: col 2: unexpected end of expression\nerror: col 2: division by "
				"zero\ny\n");
	cmd_result_free(&r);
	r = sym_cli("", "x\ny");
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "x\ny\n");
	cmd_result_free(&r);
	/* CRLF line ends are fine; a NUL byte is an error, not a cut line */
	r = sym_cli("", "x + 1\r\n");
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "x + 1\n");
	cmd_result_free(&r);
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "printf 'x\\000y\\n' | '%s' sym", test_bin());
	r = run_cmd(cmd, NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strncmp(r.out, "error: col 2", 12) == 0, "output: %s", r.out);
	cmd_result_free(&r);
}
END_TEST

START_TEST(cli_assume_and_bench)
{
	const char *dir = test_tmpdir("sym_cli");
	char path[2048], args[4096];
	snprintf(path, sizeof path, "%s/a.txt", dir);
	const char *a = "$T0 >= 0\n$T0 < 64\n";
	ck_assert_int_eq(write_file_atomic(path, a, strlen(a), 0644), 0);
	snprintf(args, sizeof args, "--assume %s --bench 3", path);
	CmdResult r = sym_cli(args, "Mod($T0, 64) + floor($T0/64)\n");
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "$T0\n");
	ck_assert_msg(strstr(r.err, "us/expression") != NULL, "stderr: %s", r.err);
	cmd_result_free(&r);
	/* a bad assumption file names its line */
	const char *b = "$T0 >= 0\n$T0 <\n";
	ck_assert_int_eq(write_file_atomic(path, b, strlen(b), 0644), 0);
	snprintf(args, sizeof args, "--assume %s", path);
	r = sym_cli(args, "x\n");
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "a.txt:2:") != NULL, "stderr: %s", r.err);
	cmd_result_free(&r);
	r = sym_cli("--assume /nonexistent/file", "x\n");
	ck_assert_int_eq(r.status, 1);
	cmd_result_free(&r);
	r = sym_cli("--bench 0", "x\n");
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
	r = sym_cli("--frob", "x\n");
	ck_assert_int_eq(r.status, 2);
	cmd_result_free(&r);
	r = sym_cli("--help", NULL);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "--assume") != NULL, "help: %s", r.out);
	cmd_result_free(&r);
}
END_TEST

START_TEST(cli_example_runs)
{
	char args[4096];
	snprintf(args, sizeof args, "--assume %s/examples/sym/gemm.assume < %s/examples/sym/gemm.txt", test_root(),
		test_root());
	CmdResult r = sym_cli(args, NULL);
	ck_assert_msg(r.status == 0, "status %d: %s%s", r.status, r.out, r.err);
	ck_assert_msg(strstr(r.out, "error") == NULL, "output: %s", r.out);
	cmd_result_free(&r);
}
END_TEST

static Suite *sym_suite(void)
{
	Suite *s = suite_create("sym");
	TCase *t = tcase_create("engine");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, canonical_constructors);
	tcase_add_test(t, first_simplify_without_assumptions);
	tcase_add_test(t, parser_syntax);
	tcase_add_test(t, print_parse_round_trip);
	tcase_add_test(t, eval_exact);
	tcase_add_test(t, subs_and_free_symbols);
	tcase_add_test(t, assumption_forms);
	tcase_add_test(t, rules_floor_mod);
	tcase_add_test(t, rules_other);
	tcase_add_test(t, bad_input);
	tcase_add_test(t, bounds_at_int64_edges);
	tcase_add_test(t, contexts_are_independent);
	suite_add_tcase(s, t);
	TCase *cli = tcase_create("cli");
	tcase_set_timeout(cli, 60);
	tcase_add_test(cli, cli_lines_in_order);
	tcase_add_test(cli, cli_assume_and_bench);
	tcase_add_test(cli, cli_example_runs);
	suite_add_tcase(s, cli);
	return s;
}

int main(void) { return run_suite(sym_suite()); }
