/* dtype.c — the element-type table and exact float conversions (also the
 * OCP MX minifloats f8/f6/f4 and the e8m0 scale; f4 packed two per byte).
 * f32 -> f16/bf16 round to nearest even on the bit patterns, so results match
 * the GPU's v_cvt_f16_f32 (RNE mode) and NumPy's astype. */
#include <math.h>
#include <string.h>

#include "dtype.h"
#include "util.h"

const DTypeInfo dtype_info[DT_COUNT] = {
#define X(e, name, size, npy, cls) {name, size, npy, cls},
	DTYPES(X)
#undef X
};

DType dtype_from_name(const char *name)
{
	for (int i = 0; i < DT_COUNT; i++)
		if (strcmp(dtype_info[i].name, name) == 0)
			return (DType)i;
	return DT_NONE;
}

static uint32_t f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static float bits_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

float dtype_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h >> 15) << 31;
	uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
	if (exp == 0x1f)
		return bits_f32(sign | 0x7f800000u | (man << 13)); /* inf / nan */
	if (exp == 0) {
		/* zero or subnormal: man * 2^-24, exact in f32 */
		float v = (float)man * 0x1p-24f;
		return sign ? -v : v;
	}
	return bits_f32(sign | ((exp + 112) << 23) | (man << 13));
}

uint16_t dtype_f32_to_f16(float f)
{
	uint32_t u = f32_bits(f);
	uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
	uint32_t exp = (u >> 23) & 0xff, man = u & 0x7fffff;
	if (exp == 0xff) /* inf or nan (keep a quiet nan) */
		return sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0);
	int e = (int)exp - 127 + 15;
	if (e >= 0x1f)
		return sign | 0x7c00;
	if (e <= 0) {
		/* subnormal half (or zero): shift the full significand */
		if (e < -10)
			return sign;
		uint32_t m = man | 0x800000;
		int shift = 14 - e;
		uint32_t half = m >> shift;
		uint32_t rem = m & ((1u << shift) - 1), mid = 1u << (shift - 1);
		if (rem > mid || (rem == mid && (half & 1)))
			half++;
		return sign | (uint16_t)half;
	}
	uint32_t half = ((uint32_t)e << 10) | (man >> 13);
	uint32_t rem = man & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (half & 1)))
		half++; /* may carry into the exponent, up to inf: correct */
	return sign | (uint16_t)half;
}

float dtype_bf16_to_f32(uint16_t h)
{
	return bits_f32((uint32_t)h << 16);
}

uint16_t dtype_f32_to_bf16(float f)
{
	uint32_t u = f32_bits(f);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x40); /* quiet nan */
	u += 0x7fff + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

/* ---- minifloats: the 8-bit floats and OCP's f6 and f4 ----
 * Sign in the top bit of an n-bit code, then the exponent, then m mantissa
 * bits; exponent field 0 holds subnormals. Four kinds of specials:
 * e4m3fnuz (bias 8) and e5m2fnuz (bias 16), the gfx942 formats, have no
 * infinity and no negative zero, and 0x80 is their only NaN; OCP e4m3fn
 * (bias 7) has no infinity and NaN at S.1111.111 (max 448); OCP e5m2 (bias
 * 15) is IEEE-like; OCP's f6e2m3fn (bias 1), f6e3m2fn (bias 3) and
 * f4e2m1fn (bias 1) have neither NaN nor infinity (all codes finite).
 * Conversion rounds to nearest even. Past the largest finite value by half
 * an ulp or more, f8 becomes NaN (infinity for e5m2), as LLVM's APFloat does
 * for these formats (a clamped hardware conversion saturates instead;
 * wavecc does not compile f8 conversions yet); f6 and f4 saturate to their
 * largest magnitude, as the OCP MX spec has conversions to them do, and NaN
 * (which they cannot hold) becomes +0. */
typedef enum { MF_FNUZ, MF_FN, MF_IEEE, MF_FINITE } MfKind;

typedef struct {
	int nbits, mbits, bias;
	MfKind kind;
} Mf;

static Mf mf_of(DType t)
{
	switch (t) {
	case DT_F8E4M3FNUZ: return (Mf){8, 3, 8, MF_FNUZ};
	case DT_F8E5M2FNUZ: return (Mf){8, 2, 16, MF_FNUZ};
	case DT_F8E4M3FN: return (Mf){8, 3, 7, MF_FN};
	case DT_F6E2M3FN: return (Mf){6, 3, 1, MF_FINITE};
	case DT_F6E3M2FN: return (Mf){6, 2, 3, MF_FINITE};
	case DT_F4E2M1FN: return (Mf){4, 1, 1, MF_FINITE};
	default: return (Mf){8, 2, 15, MF_IEEE}; /* DT_F8E5M2 */
	}
}

/* 2^e, exactly, for the exponents of these formats (|e| < 1000): the bits
 * of a double, not ldexp (the conversions run per element in the
 * interpreter) */
static double pow2(int e)
{
	uint64_t b = (uint64_t)(1023 + e) << 52;
	double d;
	memcpy(&d, &b, sizeof d);
	return d;
}

static double mf_decode(Mf k, unsigned c)
{
	unsigned sbit = 1u << (k.nbits - 1), mag = sbit - 1;
	int ebits = k.nbits - 1 - k.mbits, emax = (1 << ebits) - 1;
	unsigned e = (c >> k.mbits) & (unsigned)emax, m = c & ((1u << k.mbits) - 1);
	double sign = (c & sbit) ? -1.0 : 1.0;
	if (k.kind == MF_FNUZ && c == sbit)
		return NAN;
	if (k.kind == MF_FN && (c & mag) == mag)
		return NAN;
	if (k.kind == MF_IEEE && (int)e == emax)
		return m ? NAN : sign * INFINITY;
	double v = e ? (1.0 + (double)m * pow2(-k.mbits)) * pow2((int)e - k.bias) : (double)m * pow2(1 - k.bias - k.mbits);
	return sign * v;
}

static unsigned mf_encode(Mf k, double x)
{
	unsigned sbit = 1u << (k.nbits - 1), mag = sbit - 1;
	unsigned nan = k.kind == MF_FNUZ ? sbit : mag;
	if (isnan(x))
		return k.kind == MF_FINITE ? 0 : nan;
	bool neg = signbit(x);
	double a = fabs(x);
	/* the largest finite code and the ulp just below it */
	unsigned top = mag;
	while (!isfinite(mf_decode(k, top)))
		top--;
	double maxv = mf_decode(k, top), ulp = maxv - mf_decode(k, top - 1);
	unsigned c;
	if (a >= maxv + ulp / 2 && k.kind != MF_FINITE) { /* top is odd: a tie rounds away, too */
		if (k.kind != MF_IEEE)
			return nan;
		c = (unsigned)((1 << (k.nbits - 1 - k.mbits)) - 1) << k.mbits; /* e5m2 infinity */
	} else if (a >= maxv) {
		c = top; /* f6 and f4 saturate */
	} else {
		/* codes 0..top increase in value: the nearest is lo, the largest
		 * not above a, or lo + 1; a tie goes to the even code */
		unsigned lo = 0, hi = top;
		while (lo < hi) {
			unsigned mid = (lo + hi + 1) / 2;
			if (mf_decode(k, mid) <= a)
				lo = mid;
			else
				hi = mid - 1;
		}
		c = lo;
		if (lo < top) {
			double below = a - mf_decode(k, lo), above = mf_decode(k, lo + 1) - a;
			if (above < below || (above == below && !((lo + 1) & 1)))
				c = lo + 1;
		}
	}
	if (neg && !(k.kind == MF_FNUZ && c == 0))
		c |= sbit;
	return c;
}

/* ---- f8e8m0fnu, the MX scale: 2^(c - 127), 0xff NaN ---- */
static double e8m0_decode(unsigned c) { return c == 0xff ? NAN : pow2((int)c - 127); }

/* The nearest power of two in [2^-127, 2^127] (no zero, no sign: zero,
 * negative and tiny values give 2^-127; infinity 2^127); a value halfway
 * between 2^e and 2^(e+1), 1.5 * 2^e, goes to the even code. */
static unsigned e8m0_encode(double x)
{
	if (isnan(x))
		return 0xff;
	if (!(x > 0))
		return 0;
	if (isinf(x))
		return 0xfe;
	int e;
	double f = frexp(x, &e); /* x = f * 2^e, f in [0.5, 1): between 2^(e-1) and 2^e */
	int lo = e - 1;
	if (f > 0.75 || (f == 0.75 && !((lo + 127 + 1) & 1)))
		lo++;
	if (lo < -127)
		return 0;
	if (lo > 127)
		return 0xfe;
	return (unsigned)(lo + 127);
}

double dtype_load(DType t, const void *buf, uint64_t i)
{
	if (t == DT_F4E2M1FN)
		return mf_decode(mf_of(t), (((const unsigned char *)buf)[i / 2] >> (4 * (i % 2))) & 0xf);
	const unsigned char *p = (const unsigned char *)buf + i * (uint64_t)dtype_size(t);
	union {
		uint16_t u16;
		int16_t i16;
		uint32_t u32;
		int32_t i32;
		uint64_t u64;
		int64_t i64;
		float f32;
		double f64;
	} v;
	memcpy(&v, p, (size_t)dtype_size(t));
	switch (t) {
	case DT_F16: return dtype_f16_to_f32(v.u16);
	case DT_BF16: return dtype_bf16_to_f32(v.u16);
	case DT_F32: return v.f32;
	case DT_F64: return v.f64;
	case DT_I1: return p[0] != 0;
	case DT_I8: return (int8_t)p[0];
	case DT_U8: return p[0];
	case DT_I16: return v.i16;
	case DT_U16: return v.u16;
	case DT_I32: return v.i32;
	case DT_U32: return v.u32;
	case DT_I64: return (double)v.i64;
	case DT_U64: return (double)v.u64;
	case DT_F8E4M3FNUZ: case DT_F8E5M2FNUZ: case DT_F8E4M3FN: case DT_F8E5M2: return mf_decode(mf_of(t), p[0]);
	case DT_F6E2M3FN: case DT_F6E3M2FN: return mf_decode(mf_of(t), p[0] & 0x3f);
	case DT_F8E8M0FNU: return e8m0_decode(p[0]);
	default: die("dtype_load: dtype %d not supported", (int)t);
	}
}

static int64_t to_int(double v)
{
	if (isnan(v))
		return 0;
	if (v >= 9.2e18)
		return INT64_MAX;
	if (v <= -9.2e18)
		return INT64_MIN;
	return (int64_t)v;
}

void dtype_store(DType t, void *buf, uint64_t i, double v)
{
	if (t == DT_F4E2M1FN) {
		unsigned char *q = (unsigned char *)buf + i / 2;
		unsigned sh = 4 * (unsigned)(i % 2), c = mf_encode(mf_of(t), v);
		*q = (unsigned char)((*q & ~(0xfu << sh)) | (c << sh));
		return;
	}
	unsigned char *p = (unsigned char *)buf + i * (uint64_t)dtype_size(t);
	uint16_t h;
	float f;
	int64_t n = to_int(v);
	switch (t) {
	case DT_F16: h = dtype_f32_to_f16((float)v); memcpy(p, &h, 2); return;
	case DT_BF16: h = dtype_f32_to_bf16((float)v); memcpy(p, &h, 2); return;
	case DT_F32: f = (float)v; memcpy(p, &f, 4); return;
	case DT_F64: memcpy(p, &v, 8); return;
	case DT_I1: p[0] = v != 0; return;
	case DT_I8: case DT_U8: p[0] = (unsigned char)n; return;
	case DT_I16: case DT_U16: h = (uint16_t)n; memcpy(p, &h, 2); return;
	case DT_I32: case DT_U32: { uint32_t w = (uint32_t)n; memcpy(p, &w, 4); return; }
	case DT_I64: case DT_U64: memcpy(p, &n, 8); return;
	case DT_F8E4M3FNUZ: case DT_F8E5M2FNUZ: case DT_F8E4M3FN: case DT_F8E5M2: case DT_F6E2M3FN:
	case DT_F6E3M2FN:
		p[0] = (unsigned char)mf_encode(mf_of(t), v);
		return;
	case DT_F8E8M0FNU: p[0] = (unsigned char)e8m0_encode(v); return;
	default: die("dtype_store: dtype %d not supported", (int)t);
	}
}
