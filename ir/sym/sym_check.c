/* sym_check.c — randomized equivalence checking of two expressions.
 *
 * Samples integer points that satisfy an assumption set and evaluates both
 * expressions exactly at each. A point is drawn symbol by symbol inside the
 * symbol's assumed bounds and on its assumed lattice (multiples of k), with
 * unbounded sides replaced by a window whose width varies per point (small
 * values find off-by-one bugs, large ones find missing range conditions);
 * symbols with an assumed value expression take it; the point is kept only
 * if every assumed relation holds there. Points where the first expression
 * cannot be evaluated (a guarded division outside its guard) are skipped;
 * if the first evaluates and the second does not, that is a mismatch
 * (unless the second only overflowed an intermediate: its evaluation order
 * differs, its value need not).
 * Used by the benchmark, the tests and the fuzzer. */
#include <string.h>

#include "sym_int.h"

static uint64_t rng(uint64_t *s)
{
	uint64_t x = *s ? *s : 0x9e3779b97f4a7c15ull;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static int64_t pick(uint64_t *s, int64_t lo, int64_t hi, int64_t mult)
{
	/* a multiple of mult in [lo, hi], or lo if there is none; in 128 bits,
	 * since lo and hi may be the ends of int64 */
	if (mult < 1)
		mult = 1;
	__int128 m = mult, l = lo, h = hi;
	__int128 a = l >= 0 ? (l + m - 1) / m : -((-l) / m);
	__int128 b = h >= 0 ? h / m : -((-h + m - 1) / m);
	if (b < a)
		return lo;
	unsigned __int128 span = (unsigned __int128)(b - a) + 1;
	/* bias towards the ends: they are where bugs live */
	uint64_t r = rng(s);
	__int128 k;
	switch (r % 8) {
	case 0: k = a; break;
	case 1: k = b; break;
	case 2: k = a + (__int128)((r >> 8) % (span < 4 ? span : 4)); break;
	default: k = a + (__int128)((r >> 8) % span); break;
	}
	return (int64_t)(k * m);
}

int sym_check_equal(SymCtx *c, Sym *x, Sym *y, const SymAssume *a, int npoints, uint64_t *seed, SymCheck *out)
{
	memset(out, 0, sizeof *out);
	sym_install(c, a);
	/* the symbols: those of x, y and of every assumption */
	SymVec syms = {0};
	Sym *buf[256];
	Sym *roots[2] = {x, y};
	for (int r = 0; r < 2; r++) {
		size_t n = sym_free_symbols(c, roots[r], buf, 256);
		for (size_t i = 0; i < n && i < 256; i++)
			vec_push(&syms, buf[i]);
	}
	size_t nfacts = a ? a->nfacts : 0;
	for (size_t f = 0; f < nfacts; f++) {
		size_t n = sym_free_symbols(c, a->facts[f], buf, 256);
		for (size_t i = 0; i < n && i < 256; i++)
			vec_push(&syms, buf[i]);
	}
	/* dedupe */
	size_t w = 0;
	for (size_t i = 0; i < syms.len; i++) {
		bool dup = false;
		for (size_t j = 0; j < w && !dup; j++)
			dup = syms.data[j] == syms.data[i];
		if (!dup)
			syms.data[w++] = syms.data[i];
	}
	syms.len = w;
	int64_t *vals = xcalloc(syms.len + 1, sizeof *vals);
	int tries = 0;
	while (out->checked < npoints && tries < npoints * 20) {
		tries++;
		uint64_t r = rng(seed);
		int64_t window = (int64_t[]){8, 64, 512, 4096}[r % 4];
		for (size_t i = 0; i < syms.len; i++) {
			Sym *s = syms.data[i];
			SymBound b = {0};
			int64_t mult = 1;
			if (s->a_epoch == c->a_epoch) {
				b = s->a_bnd;
				mult = s->a_mult;
			}
			/* saturating: bounds may sit at the ends of int64 */
			int64_t lo, hi, w;
			if (b.has_lo)
				lo = sym_rat_ceil(b.lo);
			else if (!b.has_hi)
				lo = -window / 2;
			else if (__builtin_sub_overflow(sym_rat_floor(b.hi), window, &lo))
				lo = INT64_MIN;
			if (b.has_hi)
				hi = sym_rat_floor(b.hi);
			else if (__builtin_mul_overflow(window, mult, &w) || __builtin_add_overflow(lo, w, &hi))
				hi = INT64_MAX;
			vals[i] = pick(seed, lo, hi, mult);
		}
		/* assumed values: evaluate in order (a few rounds for chains) */
		bool bad = false;
		for (int round = 0; round < 3; round++)
			for (size_t i = 0; i < syms.len; i++) {
				Sym *s = syms.data[i];
				if (s->a_epoch != c->a_epoch || !s->a_subst)
					continue;
				SymRat v;
				const char *msg;
				if (sym_eval(c, s->a_subst, (int)syms.len, syms.data, vals, &v, &msg) < 0 || v.q != 1)
					bad = true;
				else
					vals[i] = v.p;
			}
		for (size_t f = 0; f < nfacts && !bad; f++) {
			SymRat v;
			const char *msg;
			if (sym_eval(c, a->facts[f], (int)syms.len, syms.data, vals, &v, &msg) < 0 || v.p == 0)
				bad = true;
		}
		if (bad)
			continue;
		SymRat vx, vy;
		const char *mx, *my;
		if (sym_eval(c, x, (int)syms.len, syms.data, vals, &vx, &mx) < 0) {
			out->skipped++;
			if (out->skipped > npoints * 4)
				break;
			continue;
		}
		int ry = sym_eval(c, y, (int)syms.len, syms.data, vals, &vy, &my);
		if (ry < 0 && strcmp(my, "integer overflows 64 bits") == 0) {
			/* an intermediate of y's evaluation order overflowed, not a
			 * different value: skip the point */
			out->skipped++;
			continue;
		}
		out->checked++;
		if (ry < 0 || sym_rat_cmp(vx, vy) != 0) {
			if (out->mismatches++ == 0) {
				Buf d = {0};
				for (size_t i = 0; i < syms.len; i++)
					buf_printf(&d, "%s%s=%lld", i ? " " : "", syms.data[i]->u.name, (long long)vals[i]);
				if (ry < 0)
					buf_printf(&d, ": %lld/%lld vs error (%s)", (long long)vx.p, (long long)vx.q, my);
				else
					buf_printf(&d, ": %lld/%lld vs %lld/%lld", (long long)vx.p, (long long)vx.q,
						(long long)vy.p, (long long)vy.q);
				snprintf(out->detail, sizeof out->detail, "%s", buf_cstr(&d));
				buf_free(&d);
			}
		}
	}
	free(vals);
	vec_free(&syms);
	return out->mismatches;
}
