/* sym_int.h — internals of the symbolic engine shared by ir/sym_*.c: the
 * node layout, the context, checked rational arithmetic. Not for other
 * stages: they use ir/sym/sym.h only.
 *
 * Nodes carry mutable caches (bounds, simplified form, evaluated value),
 * each tagged with the context epoch it was computed in; bumping the epoch
 * (new assumptions, new evaluation point) invalidates them all at once. */
#ifndef WAVECC_SYM_INT_H
#define WAVECC_SYM_INT_H

#include <stdlib.h>

#include "sym.h"

enum {
	SF_INT = 1,  /* integer-valued for every integer assignment */
	SF_BOOL = 2, /* a boolean */
	SF_SYMS = 4, /* contains a symbol */
};

struct Sym {
	uint8_t kind;
	uint8_t flags;
	uint16_t depth; /* tree height, saturating */
	uint32_t nargs;
	uint32_t id;
	uint32_t size; /* tree size, saturating */
	uint32_t mark; /* traversal mark (sym_free_symbols) */
	uint64_t hash; /* structural: independent of addresses */
	union {
		SymRat num;       /* INT, RAT */
		const char *name; /* SYMBOL (interned) */
		const char *msg;  /* ERROR */
	} u;
	/* caches */
	uint32_t b_epoch, s_epoch, v_epoch, a_epoch, m_epoch;
	Sym *memo; /* sym_subs */
	SymBound bnd;
	SymRat gran; /* lattice: value in gran*Z; q == 0: unknown (g_epoch) */
	uint32_t g_epoch;
	Sym *simp;
	SymRat val;
	bool val_err;
	/* SYMBOL only, valid when a_epoch is the context's assumption epoch */
	SymBound a_bnd;
	int64_t a_mult; /* known to be a multiple of this (>= 1) */
	Sym *a_subst;   /* equal to this expression, or NULL */
	Sym *args[];
};

typedef Vec(Sym *) SymVec;

typedef struct {
	uint64_t h; /* the node's hash, so probing rarely touches nodes */
	Sym *e;
} SymSlot;

struct SymCtx {
	Arena arena;
	SymSlot *table; /* hash-cons table, open addressing */
	size_t cap, count;
	uint32_t tick;    /* source of fresh epochs, never reused */
	uint32_t epoch;   /* current epoch of the bounds/simplify caches */
	uint32_t a_epoch; /* epoch of the installed assumptions */
	const SymAssume *installed;
	uint32_t installed_version;
	/* scoped facts (inside a Piecewise branch): extra bounds on terms */
	struct {
		Sym *t;
		SymBound b;
	} over[16];
	int nover;
	Sym *t, *f, *zero, *one, *neg_one;
	Sym *small[64]; /* integers -8..55 */
	/* direct-mapped caches in front of the table for the hottest lookups */
	Sym *numcache[256];
	Sym *symcache[128];
	/* parser: text of parenthesised spans already parsed -> node */
	struct SymSpan {
		uint64_t h;
		uint32_t len;
		uint32_t inner; /* nesting depth inside the span */
		const char *text;
		Sym *e;
	} *spans;
	size_t nspans, capspans;
};

static inline uint32_t sym_tick(SymCtx *c) { return ++c->tick; }

/* ---- numbers (sym_core.c) ---- */
bool sym_rat_norm(__int128 p, __int128 q, SymRat *r); /* false: overflow or q == 0 */
bool sym_rat_add(SymRat a, SymRat b, SymRat *r);
bool sym_rat_sub(SymRat a, SymRat b, SymRat *r);
bool sym_rat_mul(SymRat a, SymRat b, SymRat *r);
bool sym_rat_div(SymRat a, SymRat b, SymRat *r);
int sym_rat_cmp(SymRat a, SymRat b);
bool sym_rat_pow(SymRat b, int64_t e, SymRat *r); /* false: overflow or 0**negative */
int64_t sym_rat_floor(SymRat a);
int64_t sym_rat_ceil(SymRat a);
static inline SymRat rat_i(int64_t v) { return (SymRat){v, 1}; }
static inline bool rat_is_int(SymRat a) { return a.q == 1; }
int64_t sym_gcd64(int64_t a, int64_t b); /* of absolute values; gcd(0,0)=0 */

/* ---- node building (sym_core.c) ---- */
Sym *sym_num(SymCtx *c, SymRat v);
Sym *sym_symbol_n(SymCtx *c, const char *name, size_t n);
Sym *sym_node(SymCtx *c, SymKind k, int n, Sym *const *args); /* raw, no canonicalisation */
/* Split a term into numeric coefficient and the rest (1 for a number). */
SymRat sym_coef(const Sym *t, Sym **rest, SymCtx *c);
Sym *sym_scale(SymCtx *c, SymRat k, Sym *e); /* k*e */
Sym *sym_rel0(SymCtx *c, SymKind op, Sym *d); /* d OP 0 (sym_logic.c) */
/* The content of a sum: gcd of numerators over lcm of denominators, signed
 * like the leading term; {0, 0} if too big. */
SymRat sym_content(SymCtx *c, const Sym *d);
void sym_sort(Sym **v, size_t n); /* by sym_cmp */
/* The first error among args, or an error if one is a boolean; NULL if
 * they are all numbers' operands. */
Sym *sym_check_args(SymCtx *c, int n, Sym *const *args);
/* A node of e's kind with new children, through the canonical constructors. */
Sym *sym_rebuild(SymCtx *c, const Sym *e, Sym *const *args);
static inline bool sym_isnum(const Sym *e) { return e->kind == SYM_INT || e->kind == SYM_RAT; }

/* ---- sym_bounds.c: assumptions, interval bounds, lattices ---- */
struct SymAssume {
	SymCtx *c;
	uint32_t version; /* bumped by every sym_assume_add */
	struct SymInfo {
		Sym *sym;
		SymBound b;
		int64_t mult;
		Sym *subst;
	} *info;
	size_t ninfo, capinfo;
	Sym **facts;
	size_t nfacts, capfacts;
};
/* Make a (may be NULL) the assumptions the caches describe. */
void sym_install(SymCtx *c, const SymAssume *a);
SymBound sym_bnd(SymCtx *c, Sym *e);
SymBound sym_bound_add(SymBound x, SymBound y); /* interval sum */
SymRat sym_gran(SymCtx *c, Sym *e);
bool sym_is_fact(SymCtx *c, Sym *rel);
/* e is integer-valued under the assumptions. */
static inline bool sym_intval(SymCtx *c, Sym *e)
{
	if (e->flags & SF_INT)
		return true;
	SymRat g = sym_gran(c, e);
	return g.q == 1 || (g.q != 0 && g.p == 0);
}
/* For a relation `k*t + c0 OP 0` with one non-constant term t: the bound
 * it puts on t. False for other shapes (and for !=). */
bool sym_rel_bound(SymCtx *c, Sym *rel, Sym **term, SymBound *b);

#define SYM_MAX_DEPTH 2000 /* deeper trees are refused (recursion bound) */

#endif
