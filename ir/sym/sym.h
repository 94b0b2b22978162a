/* sym.h — the symbolic index-expression engine: exact integer/rational
 * expressions as a hash-consed DAG.
 *
 * Ownership: a SymCtx owns every node, assumption set and string it hands
 * out (one arena plus the hash-cons table); sym_ctx_free releases them all.
 * Contexts are independent (one per kernel); nodes of two contexts never mix.
 * Nodes are immutable and unique: two structurally equal expressions built in
 * one context are the same pointer, so `a == b` is structural equality.
 *
 * Constructors canonicalise: numbers fold, sums and products flatten, sort
 * and collect like terms, a number times a sum distributes, Piecewise drops
 * false branches. Deeper rewriting (bounds, assumptions, floor/Mod
 * identities) is sym_simplify's job.
 *
 * Error model: the engine never exits. A constructor that cannot build a
 * value (division or Mod by a constant zero, 64-bit overflow, a boolean used
 * as a number) returns an error node (SYM_ERROR) carrying a message; any
 * constructor given an error node returns it, so errors propagate to the
 * root. sym_parse returns NULL and fills a SymParseError (message + 1-based
 * column) for syntax errors and for inputs whose value is an error.
 * Evaluation reports errors through its return value.
 *
 * Values: symbols stand for integers. Numbers are rationals p/q with int64
 * p, q (q > 0, lowest terms); arithmetic is checked. Booleans (True, False,
 * relations, And/Or/Not) evaluate to 1/0.
 */
#ifndef WAVECC_SYM_H
#define WAVECC_SYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../util/util.h"

/* Node kinds. Arity: INT/RAT/SYMBOL/TRUE/FALSE/ERROR 0; ADD/MUL/MAX/MIN/AND/
 * OR n >= 2; POW 2 (base, integer exponent); FLOOR/CEIL/NOT 1; MOD/XOR 2;
 * relations 1 (the relation compares its one child with 0: `d > 0`);
 * PIECEWISE 2n (value0, cond0, value1, cond1, ...). */
#define SYM_KINDS(X) \
	X(SYM_INT, "int") \
	X(SYM_RAT, "rational") \
	X(SYM_SYMBOL, "symbol") \
	X(SYM_ADD, "Add") \
	X(SYM_MUL, "Mul") \
	X(SYM_POW, "Pow") \
	X(SYM_FLOOR, "floor") \
	X(SYM_CEIL, "ceiling") \
	X(SYM_MOD, "Mod") \
	X(SYM_MAX, "Max") \
	X(SYM_MIN, "Min") \
	X(SYM_XOR, "xor") \
	X(SYM_PIECEWISE, "Piecewise") \
	X(SYM_TRUE, "True") \
	X(SYM_FALSE, "False") \
	X(SYM_LT, "<") \
	X(SYM_LE, "<=") \
	X(SYM_GT, ">") \
	X(SYM_GE, ">=") \
	X(SYM_EQ, "==") \
	X(SYM_NE, "!=") \
	X(SYM_AND, "And") \
	X(SYM_OR, "Or") \
	X(SYM_NOT, "Not") \
	X(SYM_ERROR, "error")

typedef enum SymKind {
#define X(k, name) k,
	SYM_KINDS(X)
#undef X
	SYM_NKINDS
} SymKind;

/* A relation kind: LT..NE. */
static inline bool sym_kind_is_rel(SymKind k) { return k >= SYM_LT && k <= SYM_NE; }
/* A kind whose value is a boolean. */
static inline bool sym_kind_is_bool(SymKind k) { return k >= SYM_TRUE && k <= SYM_NOT; }

typedef struct SymCtx SymCtx;
typedef struct Sym Sym;
typedef struct SymAssume SymAssume;

/* An exact rational, q > 0, lowest terms. */
typedef struct SymRat {
	int64_t p, q;
} SymRat;

/* ---- sym_core.c: context, accessors, constructors ---- */
SymCtx *sym_ctx_new(void);
void sym_ctx_free(SymCtx *c);
size_t sym_ctx_nodes(const SymCtx *c); /* nodes built so far */

SymKind sym_kind(const Sym *e);
const char *sym_kind_name(SymKind k);
int sym_nargs(const Sym *e);
Sym *sym_arg(const Sym *e, int i);
bool sym_mentions(const Sym *e, const Sym *x); /* x is e or a subexpression of e (nodes are interned) */
bool sym_is_bool(const Sym *e);
bool sym_is_error(const Sym *e);
const char *sym_error_msg(const Sym *e); /* SYM_ERROR: the message */
const char *sym_name(const Sym *e);      /* SYM_SYMBOL: interned name */
bool sym_is_num(const Sym *e, SymRat *v); /* INT or RAT */
bool sym_is_int(const Sym *e, int64_t *v); /* INT */
/* Canonical total order (numbers, symbols by name, then by kind and a
 * structural hash). Deterministic across runs and contexts. */
int sym_cmp(const Sym *a, const Sym *b);

Sym *sym_int(SymCtx *c, int64_t v);
Sym *sym_rat(SymCtx *c, int64_t p, int64_t q); /* q == 0: error node */
Sym *sym_symbol(SymCtx *c, const char *name);
Sym *sym_error(SymCtx *c, const char *fmt, ...) PRINTF_LIKE(2, 3);
Sym *sym_true(SymCtx *c);
Sym *sym_false(SymCtx *c);

Sym *sym_add(SymCtx *c, Sym *a, Sym *b);
Sym *sym_addv(SymCtx *c, int n, Sym *const *args);
Sym *sym_sub(SymCtx *c, Sym *a, Sym *b);
Sym *sym_neg(SymCtx *c, Sym *a);
Sym *sym_mul(SymCtx *c, Sym *a, Sym *b);
Sym *sym_mulv(SymCtx *c, int n, Sym *const *args);
Sym *sym_div(SymCtx *c, Sym *a, Sym *b);      /* exact a/b */
Sym *sym_floordiv(SymCtx *c, Sym *a, Sym *b); /* floor(a/b), Python's // */
Sym *sym_pow(SymCtx *c, Sym *base, Sym *exp); /* exp must be an integer */
Sym *sym_floor(SymCtx *c, Sym *a);
Sym *sym_ceil(SymCtx *c, Sym *a);
Sym *sym_mod(SymCtx *c, Sym *a, Sym *b); /* a - b*floor(a/b) (Python %) */
Sym *sym_max(SymCtx *c, Sym *a, Sym *b);
Sym *sym_min(SymCtx *c, Sym *a, Sym *b);
Sym *sym_maxv(SymCtx *c, int n, Sym *const *args);
Sym *sym_minv(SymCtx *c, int n, Sym *const *args);
Sym *sym_xor(SymCtx *c, Sym *a, Sym *b); /* bitwise, on integers */
/* Piecewise((vals[0], conds[0]), ...): the first branch whose condition
 * holds. */
Sym *sym_piecewise(SymCtx *c, int n, Sym *const *vals, Sym *const *conds);
/* a OP b for OP in SYM_LT..SYM_NE. */
Sym *sym_rel(SymCtx *c, SymKind op, Sym *a, Sym *b);
Sym *sym_and(SymCtx *c, Sym *a, Sym *b);
Sym *sym_or(SymCtx *c, Sym *a, Sym *b);
Sym *sym_andv(SymCtx *c, int n, Sym *const *args);
Sym *sym_orv(SymCtx *c, int n, Sym *const *args);
Sym *sym_not(SymCtx *c, Sym *a);
/* A boolean from a number (x != 0); a boolean is returned unchanged. */
Sym *sym_to_bool(SymCtx *c, Sym *a);

/* ---- sym_parse.c ---- */
typedef struct SymParseError {
	int col; /* 1-based column in the parsed text */
	char msg[200];
} SymParseError;
/* Parse one expression (SymPy's printed syntax, see docs/sym.md). Returns
 * NULL and fills *err on a syntax error, excessive nesting, or a value that
 * is an error node (division by zero, overflow). */
Sym *sym_parse(SymCtx *c, const char *text, SymParseError *err);

/* ---- sym_print.c ---- */
/* Append e in SymPy syntax; sym_parse and SymPy's sympify read it back. */
void sym_print(Buf *b, const Sym *e);
/* e printed into the context's arena. */
const char *sym_str(SymCtx *c, const Sym *e);
/* Nodes in e as a tree (shared subterms counted each time they occur). */
size_t sym_tree_size(const Sym *e);
/* The free symbols of e, sorted by name; returns how many (may exceed cap,
 * only the first cap are stored). */
size_t sym_free_symbols(SymCtx *c, const Sym *e, Sym **out, size_t cap);

/* ---- sym_eval.c ---- */
/* Evaluate e exactly with syms[i] = vals[i] (symbols not listed are an
 * error). Booleans give 1/0. Returns 0 and *out, or -1 with *errmsg (a
 * static or context-owned string): unbound symbol, division by zero,
 * overflow, no Piecewise branch applies, xor of a non-integer. */
int sym_eval(SymCtx *c, const Sym *e, int n, Sym *const *syms, const int64_t *vals, SymRat *out,
	const char **errmsg);
/* Replace each symbol from[i] by to[i] (simultaneously) and rebuild through
 * the canonicalising constructors. */
Sym *sym_subs(SymCtx *c, Sym *e, int n, Sym *const *from, Sym *const *to);

/* ---- sym_bounds.c, sym_simp.c ---- */
/* An assumption set: facts about symbols that simplification may use.
 * Accepted forms (see docs/sym.md): `x OP k` / `k OP x` with a symbol x and
 * number k (bounds), `x == e` (substitution), `Mod(x, k) == 0`
 * (divisibility), and any other relation (used when the same relation is
 * asked). Owned by the context. */
SymAssume *sym_assume_new(SymCtx *c);
/* Add one relation (an And adds each part); returns 0, or -1 with *why
 * set if it is not a boolean, is False, or contradicts a bound already
 * known. A substitution that would make a cycle with earlier ones is kept
 * as a plain fact. */
int sym_assume_add(SymAssume *a, Sym *rel, const char **why);
/* Parse and add every non-blank, non-# line of text. Returns 0, or -1 with
 * *err filled and *line set (1-based). */
int sym_assume_parse(SymAssume *a, const char *text, SymParseError *err, int *line);

/* Simplify e under the assumptions (NULL: none). The result equals e for
 * every integer assignment of the symbols that satisfies the assumptions,
 * and is never larger than e (tree nodes); an error node only if e is one.
 * Results are cached per node until another assumption set is used or
 * this one changes, so simplifying many related expressions with one set
 * in one context is cheap. */
Sym *sym_simplify(SymCtx *c, Sym *e, const SymAssume *a);
/* Bounds of e's value under a (NULL: none), from interval analysis; a side
 * without a bound has has_lo / has_hi false. */
typedef struct SymBound {
	bool has_lo, has_hi;
	SymRat lo, hi;
} SymBound;
SymBound sym_bounds(SymCtx *c, Sym *e, const SymAssume *a);
/* A k >= 1 such that e is known to be an integer multiple of k under a
 * (1 if nothing better is known or e is not known to be an integer; 0 if e
 * is known to be 0). */
int64_t sym_multiple_of(SymCtx *c, Sym *e, const SymAssume *a);

/* ---- sym_check.c ---- */
typedef struct SymCheck {
	int checked;    /* points where both were compared */
	int skipped;    /* points where x could not be evaluated */
	int mismatches; /* points where they differ */
	char detail[512]; /* the first mismatch: the point and both values */
} SymCheck;
/* Compare x and y at npoints random integer points satisfying a (NULL:
 * none); *seed is the random state (updated). Points where x is undefined,
 * or where evaluating y overflows an intermediate, are skipped. Returns the
 * mismatches. */
int sym_check_equal(SymCtx *c, Sym *x, Sym *y, const SymAssume *a, int npoints, uint64_t *seed, SymCheck *out);

#endif
