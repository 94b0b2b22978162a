/* dtype.c — the element-type table and exact float conversions.
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

/* ---- 8-bit floats ----
 * Four encodings, sign in bit 7: e4m3fnuz (bias 8) and e5m2fnuz (bias 16),
 * the gfx942 formats, have no infinity and no negative zero, and 0x80 is
 * their only NaN; OCP e4m3fn (bias 7) has no infinity and NaN at
 * S.1111.111; OCP e5m2 (bias 15) is IEEE-like. Exponent field 0 holds
 * subnormals. Conversion rounds to nearest even; a value past the largest
 * finite one by half an ulp or more becomes NaN (infinity for e5m2), as
 * LLVM's APFloat does for these formats (a clamped hardware conversion
 * saturates instead; wavecc does not compile f8 conversions yet). */
typedef struct {
	int mbits, bias;
	bool fnuz, ieee; /* fnuz: 0x80 NaN, no -0; ieee: e5m2's inf/NaN */
} F8;

static F8 f8_of(DType t)
{
	switch (t) {
	case DT_F8E4M3FNUZ: return (F8){3, 8, true, false};
	case DT_F8E5M2FNUZ: return (F8){2, 16, true, false};
	case DT_F8E4M3FN: return (F8){3, 7, false, false};
	default: return (F8){2, 15, false, true}; /* DT_F8E5M2 */
	}
}

/* 2^e, exactly, for the exponents of these formats (|e| < 32): the bits
 * of a double, not ldexp (the conversions run per element in the
 * interpreter) */
static double pow2(int e)
{
	uint64_t b = (uint64_t)(1023 + e) << 52;
	double d;
	memcpy(&d, &b, sizeof d);
	return d;
}

static double f8_decode(F8 k, unsigned c)
{
	int ebits = 7 - k.mbits, emax = (1 << ebits) - 1;
	unsigned e = (c >> k.mbits) & (unsigned)emax, m = c & ((1u << k.mbits) - 1);
	double sign = (c & 0x80) ? -1.0 : 1.0;
	if (k.fnuz && c == 0x80)
		return NAN;
	if (!k.fnuz && !k.ieee && (c & 0x7f) == 0x7f)
		return NAN;
	if (k.ieee && (int)e == emax)
		return m ? NAN : sign * INFINITY;
	double v = e ? (1.0 + (double)m * pow2(-k.mbits)) * pow2((int)e - k.bias) : (double)m * pow2(1 - k.bias - k.mbits);
	return sign * v;
}

static bool f8_finite_code(F8 k, unsigned c) { return isfinite(f8_decode(k, c)); }

static unsigned f8_encode(F8 k, double x)
{
	unsigned nan = k.fnuz ? 0x80 : 0x7f;
	if (isnan(x))
		return nan;
	bool neg = signbit(x);
	double a = fabs(x);
	/* the largest finite code and the ulp just below it */
	unsigned top = 0x7f;
	while (!f8_finite_code(k, top))
		top--;
	double maxv = f8_decode(k, top), ulp = maxv - f8_decode(k, top - 1);
	unsigned c;
	if (a >= maxv + ulp / 2) { /* top is odd: a tie rounds away, too */
		if (!k.ieee)
			return nan;
		c = 0x7c; /* e5m2 infinity */
	} else {
		/* codes 0..top increase in value: the nearest is lo, the largest
		 * not above a, or lo + 1; a tie goes to the even code */
		unsigned lo = 0, hi = top;
		while (lo < hi) {
			unsigned mid = (lo + hi + 1) / 2;
			if (f8_decode(k, mid) <= a)
				lo = mid;
			else
				hi = mid - 1;
		}
		c = lo;
		if (lo < top) {
			double below = a - f8_decode(k, lo), above = f8_decode(k, lo + 1) - a;
			if (above < below || (above == below && !((lo + 1) & 1)))
				c = lo + 1;
		}
	}
	if (neg && !(k.fnuz && c == 0))
		c |= 0x80;
	return c;
}

double dtype_load(DType t, const void *buf, uint64_t i)
{
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
	case DT_F8E4M3FNUZ: case DT_F8E5M2FNUZ: case DT_F8E4M3FN: case DT_F8E5M2: return f8_decode(f8_of(t), p[0]);
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
	case DT_F8E4M3FNUZ: case DT_F8E5M2FNUZ: case DT_F8E4M3FN: case DT_F8E5M2:
		p[0] = (unsigned char)f8_encode(f8_of(t), v);
		return;
	default: die("dtype_store: dtype %d not supported", (int)t);
	}
}
