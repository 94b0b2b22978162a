/* sym_rat.c — exact rationals with checked 64-bit parts: every operation
 * computes in 128 bits, reduces by the gcd, and reports overflow (false)
 * instead of wrapping, so the engine's numbers are exact or an error. */
#include "sym_int.h"

int64_t sym_gcd64(int64_t a, int64_t b)
{
	uint64_t x = a < 0 ? -(uint64_t)a : (uint64_t)a, y = b < 0 ? -(uint64_t)b : (uint64_t)b;
	while (y) {
		uint64_t t = x % y;
		x = y;
		y = t;
	}
	return (int64_t)x;
}

static __int128 gcd128(__int128 a, __int128 b)
{
	if (a < 0)
		a = -a;
	if (b < 0)
		b = -b;
	while (b) {
		__int128 t = a % b;
		a = b;
		b = t;
	}
	return a;
}

bool sym_rat_norm(__int128 p, __int128 q, SymRat *r)
{
	if (q == 1 && p <= INT64_MAX && p >= -INT64_MAX) {
		r->p = (int64_t)p;
		r->q = 1;
		return true;
	}
	if (q == 0)
		return false;
	if (p <= INT64_MAX && p >= -INT64_MAX && q <= INT64_MAX && q >= -INT64_MAX) {
		int64_t pp = (int64_t)p, qq = (int64_t)q;
		if (qq < 0)
			pp = -pp, qq = -qq;
		int64_t g = sym_gcd64(pp, qq);
		if (g > 1)
			pp /= g, qq /= g;
		r->p = pp;
		r->q = qq;
		return true;
	}
	if (q < 0)
		p = -p, q = -q;
	if (q != 1) {
		__int128 g = gcd128(p, q);
		if (g > 1)
			p /= g, q /= g;
	}
	if (p > INT64_MAX || p < -INT64_MAX || q > INT64_MAX)
		return false;
	r->p = (int64_t)p;
	r->q = (int64_t)q;
	return true;
}

bool sym_rat_add(SymRat a, SymRat b, SymRat *r)
{
	if (a.q == 1 && b.q == 1)
		return sym_rat_norm((__int128)a.p + b.p, 1, r);
	return sym_rat_norm((__int128)a.p * b.q + (__int128)b.p * a.q, (__int128)a.q * b.q, r);
}

bool sym_rat_sub(SymRat a, SymRat b, SymRat *r)
{
	return sym_rat_add(a, (SymRat){-b.p, b.q}, r);
}

bool sym_rat_mul(SymRat a, SymRat b, SymRat *r)
{
	return sym_rat_norm((__int128)a.p * b.p, (__int128)a.q * b.q, r);
}

bool sym_rat_div(SymRat a, SymRat b, SymRat *r)
{
	return sym_rat_norm((__int128)a.p * b.q, (__int128)a.q * b.p, r);
}

int sym_rat_cmp(SymRat a, SymRat b)
{
	__int128 x = (__int128)a.p * b.q, y = (__int128)b.p * a.q;
	return x < y ? -1 : x > y;
}

int64_t sym_rat_floor(SymRat a)
{
	int64_t f = a.p / a.q;
	if (a.p % a.q != 0 && a.p < 0)
		f--;
	return f;
}

int64_t sym_rat_ceil(SymRat a)
{
	int64_t f = a.p / a.q;
	if (a.p % a.q != 0 && a.p > 0)
		f++;
	return f;
}

/* Integer power of a rational, checked (square and multiply). */
bool sym_rat_pow(SymRat b, int64_t e, SymRat *r)
{
	if (e < 0) {
		if (b.p == 0)
			return false;
		b = b.p < 0 ? (SymRat){-b.q, -b.p} : (SymRat){b.q, b.p};
		e = -e;
	}
	SymRat acc = {1, 1};
	while (e > 0) {
		if (b.p == 0 || (b.q == 1 && (b.p == 1 || b.p == -1))) {
			if (b.p == 0)
				acc = (SymRat){0, 1};
			else if (b.p == -1 && (e & 1))
				acc.p = -acc.p;
			break;
		}
		if (e & 1 && !sym_rat_mul(acc, b, &acc))
			return false;
		e >>= 1;
		if (e && !sym_rat_mul(b, b, &b))
			return false;
	}
	*r = acc;
	return true;
}

