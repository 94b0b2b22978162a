/* fixed_vectors_test.c — end-to-end runs whose expected outputs are fixed
 * here, for what the interpreter shares with the emulator or the compiler:
 * `wavecc run K.json` compares two sides that both convert through
 * util/dtype.c and both evaluate index expressions through ir/sym, so a bug
 * there passes the compare. Each case writes a small kernel graph, gives it
 * chosen inputs (--in), runs it on the emulator under the strict modes
 * (which must PASS against the interpreter too) and checks the output's
 * bits (--out) against values written below:
 *  - f32 -> f16 and f32 -> bf16 casts: IEEE 754 round to nearest, ties to
 *    even, on exact ties, just past a tie, overflow to infinity, subnormal
 *    results and the normal/subnormal boundary, signed zero, infinities and
 *    NaN (f16 values as CPython's struct 'e' packs them, an implementation
 *    of its own; bf16 ones from the same rule on the top 16 bits);
 *  - f32 -> f8e4m3fnuz (gfx942's FNUZ encoding: bias 8, no negative zero,
 *    0x80 NaN), in range, as LLVM's APFloat encodes Float8E4M3FNUZ (round
 *    to nearest even; a cast to f8e5m2fnuz is not compiled yet);
 *  - read mappings with floor, ceiling, // and Mod of negative values
 *    (floor rounds toward minus infinity, Mod by a positive divisor is
 *    never negative, as sympy's and Wave's): b[j] = a[f(j)] with a[i] = i,
 *    the expected indices from C's own integer arithmetic (a read outside
 *    a gives 0). Not every form compiles: ceiling by 3, Mod by a negative
 *    divisor and floor of -j / 3 are rejected ("not compiled yet"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/dtype.h"
#include "../../util/npy.h"
#include "../test.h"

enum { N = 64 };

static const char *const STRICT = "--memory late --races --canary --wave-order random --wg-order reverse "
				  "--fill garbage";

/* A [1, N] kernel: b = cast(read a (through the mapping, if any)). */
static void write_kernel(const char *path, const char *out_dtype, const char *mapping)
{
	FILE *f = fopen(path, "w");
	ck_assert(f != NULL);
	fprintf(f,
		"{\"format\": \"wavecc-kernel/1\", \"name\": \"fixed\",\n"
		" \"symbols\": {\"M\": 1, \"N\": %d},\n"
		" \"constraints\": [\n"
		"  {\"kind\": \"hardware\", \"threads_per_wave\": 64, \"vector_shapes\": {\"M\": 1, \"N\": %d}},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": 1, \"workgroup_dim\": 1},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": %d, \"workgroup_dim\": 0},\n"
		"  {\"kind\": \"wave\", \"dim\": \"M\", \"tile\": 1}, {\"kind\": \"wave\", \"dim\": \"N\", \"tile\": %d}],\n"
		" \"arguments\": [\n"
		"  {\"name\": \"a\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", "
		"\"dtype\": \"f32\"},\n"
		"  {\"name\": \"b\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", "
		"\"dtype\": \"%s\"}],\n"
		" \"graph\": [\n"
		"  {\"name\": \"read\", \"op\": \"read\", \"memory\": \"a\"%s%s%s},\n"
		"  {\"name\": \"cast\", \"op\": \"cast\", \"arg\": \"read\", \"dtype\": \"%s\"},\n"
		"  {\"name\": \"write\", \"op\": \"write\", \"register\": \"cast\", \"memory\": \"b\"}]}\n",
		N, N, N, N, out_dtype, mapping ? ", \"mapping\": {\"iterators\": [\"i\", \"j\"], \"inputs\": {\"M\": \"i\", "
						  "\"N\": \""
					       : "",
		mapping ? mapping : "", mapping ? "\"}, \"outputs\": {\"M\": \"i\", \"N\": \"j\"}}" : "", out_dtype);
	fclose(f);
}

/* Run the kernel on input a (N floats); returns b's bytes (heap). */
static unsigned char *run(const char *tag, const char *out_dtype, const char *mapping, const float *a, size_t esize)
{
	const char *dir = test_tmpdir(tag);
	char k[1024], in[1024], out[1024], err[256];
	snprintf(k, sizeof k, "%s/k.json", dir);
	snprintf(in, sizeof in, "%s/a.npy", dir);
	snprintf(out, sizeof out, "%s/b.npy", dir);
	write_kernel(k, out_dtype, mapping);
	const int64_t shape[2] = {1, N};
	ck_assert_msg(npy_write(in, DT_F32, 2, shape, a, err, sizeof err) == 0, "%s", err);
	CmdResult r = test_wavecc("run '%s' --in a='%s' --out b='%s' %s", k, in, out, STRICT);
	ck_assert_msg(r.status == 0 && strstr(r.out, "PASS"), "%s: wavecc run failed (%d):\n%s%s", tag, r.status, r.out,
		r.err);
	cmd_result_free(&r);
	NpyArray b;
	ck_assert_msg(npy_read(out, &b, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(b.count, N);
	unsigned char *bytes = xmalloc(N * esize);
	memcpy(bytes, b.data, N * esize);
	npy_free(&b);
	return bytes;
}

static float from_bits(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

typedef struct {
	uint32_t in;   /* f32 bits */
	uint32_t want; /* result bits; 0xffffffff: any NaN */
} Vec;

/* f32 -> f16 */
static const Vec f16_vecs[] = {
	{0x3f800000, 0x3c00},             /* 1 */
	{0x3f801000, 0x3c00},             /* 1 + 2^-11: a tie, to the even 0x3c00 */
	{0x3f803000, 0x3c02},             /* 1 + 3·2^-11: a tie, to the even 0x3c02 */
	{0x3f801001, 0x3c01},             /* just past the tie */
	{0x3f800fff, 0x3c00},             /* just below it */
	{0x477fe000, 0x7bff},             /* 65504, the largest */
	{0x477fefff, 0x7bff},             /* below half an ulp past it */
	{0x477ff000, 0x7c00},             /* 65520: the tie rounds to infinity */
	{0x33800000, 0x0001},             /* 2^-24, the smallest subnormal */
	{0x33000000, 0x0000},             /* 2^-25: a tie, to zero */
	{0x33400000, 0x0001},             /* 1.5·2^-25 */
	{0x38800000, 0x0400},             /* 2^-14, the smallest normal */
	{0x387fe000, 0x0400},             /* 2^-14 - 2^-25: a tie between 0x3ff and 0x400 */
	{0x387fc000, 0x03ff},             /* 2^-14 - 2^-24, the largest subnormal */
	{0x80000000, 0x8000},             /* -0 */
	{0xbfc00000, 0xbe00},             /* -1.5 */
	{0x7f800000, 0x7c00},             /* inf */
	{0xff800000, 0xfc00},             /* -inf */
	{0x7fc00000, 0xffffffff},         /* NaN */
	{0x40490fd0, 0x4248},             /* 3.14159 */
};

/* f32 -> bf16: the top half, rounded to nearest even on the bottom half */
static const Vec bf16_vecs[] = {
	{0x3f800000, 0x3f80}, {0x3f808000, 0x3f80}, /* 1 + 2^-8: a tie, to even */
	{0x3f818000, 0x3f82},                       /* 1 + 3·2^-8: a tie, to even (up) */
	{0x3f808001, 0x3f81}, {0x3f807fff, 0x3f80}, {0x7f7fffff, 0x7f80}, /* the largest f32 rounds to infinity */
	{0x7f7f7fff, 0x7f7f}, {0x80000000, 0x8000}, {0xc0490fdb, 0xc049}, {0xff800000, 0xff80},
	{0x7fc00000, 0xffffffff},
};

/* f32 -> f8e4m3fnuz (bias 8, largest 240) */
static const Vec e4_vecs[] = {
	{0x3f800000, 0x40}, {0x3f880000, 0x40}, /* 1.0625: a tie between 1 and 1.125, to even */
	{0x3f980000, 0x42},                     /* 1.1875: a tie between 1.125 and 1.25, to even */
	{0x3f880001, 0x41},                     /* just past the tie */
	{0x43700000, 0x7f},                     /* 240 */
	{0x3a800000, 0x01},                     /* 2^-10, the smallest subnormal */
	{0xc0200000, 0xca},                     /* -2.5 */
	{0x00000000, 0x00}, {0xbf000000, 0xb8}, /* -0.5 */
};

static void check_cast(const char *tag, const char *dtype, const Vec *v, size_t n, size_t esize)
{
	float a[N];
	for (int i = 0; i < N; i++)
		a[i] = from_bits(v[(size_t)i % n].in);
	unsigned char *b = run(tag, dtype, NULL, a, esize);
	for (int i = 0; i < N; i++) {
		const Vec *e = &v[(size_t)i % n];
		uint32_t got = esize == 2 ? (uint32_t)(b[2 * i] | b[2 * i + 1] << 8) : b[i];
		uint32_t ex = strcmp(dtype, "bf16") ? 0x7c00 : 0x7f80; /* a NaN: exponent all ones, mantissa not 0 */
		if (e->want == 0xffffffff)
			ck_assert_msg((got & ex) == ex && (got & (ex ^ 0x7fff)) != 0, "%s: f32 %08x gives %04x, not a NaN",
				tag, e->in, got);
		else
			ck_assert_msg(got == e->want, "%s: f32 %08x (%a) gives %#x, expected %#x", tag, e->in,
				(double)from_bits(e->in), got, e->want);
	}
	free(b);
}

START_TEST(cast_f16)
{
	check_cast("fixed_f16", "f16", f16_vecs, sizeof f16_vecs / sizeof f16_vecs[0], 2);
}
END_TEST

START_TEST(cast_bf16)
{
	check_cast("fixed_bf16", "bf16", bf16_vecs, sizeof bf16_vecs / sizeof bf16_vecs[0], 2);
}
END_TEST

START_TEST(cast_f8)
{
	check_cast("fixed_e4", "f8e4m3fnuz", e4_vecs, sizeof e4_vecs / sizeof e4_vecs[0], 1);
}
END_TEST

/* C's integer floor division and sympy's Mod (the divisor's sign) */
static int64_t fdiv(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int64_t cdiv(int64_t a, int64_t b)
{
	return -fdiv(-a, b);
}

static int64_t fmod_floor(int64_t a, int64_t b)
{
	return a - b * fdiv(a, b);
}

typedef struct {
	const char *expr; /* the read mapping's index of N, over iterator j */
	int64_t (*want)(int64_t j);
} SymCase;

static int64_t w_floor(int64_t j) { return fdiv(j - 37, 4) + 10; }
static int64_t w_ceil(int64_t j) { return cdiv(j - 38, 4) + 13; }
static int64_t w_mod(int64_t j) { return fmod_floor(j - 37, 5) + 20; }
static int64_t w_floordiv(int64_t j) { return fdiv(j - 37, 8) + 13; }
static int64_t w_mod2(int64_t j) { return fmod_floor(j - 37, 16) + 3; }

static const SymCase sym_cases[] = {
	{"floor((j - 37) / 4) + 10", w_floor},
	{"ceiling((j - 38) / 4) + 13", w_ceil},
	{"Mod(j - 37, 5) + 20", w_mod},
	{"(j - 37) // 8 + 13", w_floordiv},
	{"Mod(j - 37, 16) + 3", w_mod2},
};

START_TEST(sym_index)
{
	const SymCase *c = &sym_cases[_i];
	float a[N];
	for (int i = 0; i < N; i++)
		a[i] = (float)i;
	char tag[32];
	snprintf(tag, sizeof tag, "fixed_sym%d", _i);
	unsigned char *b = run(tag, "f32", c->expr, a, 4);
	for (int j = 0; j < N; j++) {
		float got;
		memcpy(&got, b + 4 * j, 4);
		int64_t idx = c->want(j);
		float want = idx >= 0 && idx < N ? (float)idx : 0.0f; /* outside a: 0 */
		ck_assert_msg(got == want, "%s at j = %d: got a[%g], expected a[%lld]", c->expr, j, (double)got,
			(long long)idx);
	}
	free(b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver.fixed_vectors");
	TCase *tc = tcase_create("fixed_vectors");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, cast_f16);
	tcase_add_test(tc, cast_bf16);
	tcase_add_test(tc, cast_f8);
	tcase_add_loop_test(tc, sym_index, 0, (int)(sizeof sym_cases / sizeof sym_cases[0]));
	suite_add_tcase(s, tc);
	return run_suite(s);
}
