/* mfma_test.c — emulator validation, matrix cores: GEMM tiles with
 * v_mfma_f32_16x16x16_f16, _32x32x8_f16, _16x16x16_bf16 and _32x32x8_bf16
 * plus f32, i8 and f64 shapes (clang-19 output of tests/validate/kernels/mfma.cl;
 * gfx942's i8 16x16x32 / 32x32x16 and fp8 16x16x32 / 32x32x16 from
 * kernels/mfma942.cl, gfx90a's i8 16x16x16 / 32x32x8 from kernels/mfma90a.cl)
 * on multi-workgroup grids, and the
 * project's LDS-staged GEMM reference kernel (kernels/gemm_lds.cl, 64x64
 * tiles, K steps of 32 through LDS), each checked against a naive C matmul;
 * all on gfx942 (also built for gfx942:sramecc-) and again for gfx90a.
 *
 * Every GEMM runs with small integer inputs, where every partial sum is exact
 * in f32 so the result must match exactly whatever the summation order, with
 * subnormal inputs in A (exact too), and with random values in [-1, 1],
 * where the accumulation order is the hardware's own and a tolerance of
 * K * 2^-22 (absolute; |a|,|b| <= 1) applies — a wrong lane layout gives
 * errors of order 1. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

/* bench/ref/gemm_lds_tiled.cl, the clang-19 side of `make bench-schedule`, at three of its tilings */
#define GEMM_TILED "gemm_tiled_128x128x64_2x2", "gemm_tiled_256x128x64_2x2", "gemm_tiled_128x256x64_4x2"

static const char *const kernels942[] = {"mfma", "mfma942", "gemm_bf16", "gemm_bf16_o0", "gemm_lds",
	GEMM_TILED, NULL};
static void setup_gfx942(void) { vk_compile_arch("validate_mfma", kernels942, "gfx942"); }

/* gfx942 with SRAM ECC off (`:sramecc-`): clang may use d16 loads that keep the other half, and the
 * emulator keeps it because the code object says so */
static void setup_noecc(void) { vk_compile_arch("validate_mfma_noecc", kernels942, "gfx942:sramecc-"); }

/* gfx90a: the same MFMAs under their gfx90a encodings (bf16_1k opcodes differ); instead of gfx942's
 * i8 16x16x32 / 32x32x16 it has i8 16x16x16 / 32x32x8 (mfma90a.cl), and no fp8 */
static void setup_gfx90a(void)
{
	static const char *const kernels[] = {"mfma", "mfma90a", "gemm_bf16", "gemm_bf16_o0", "gemm_lds",
		GEMM_TILED, NULL};
	vk_compile_arch("validate_mfma_gfx90a", kernels, "gfx90a");
}

static uint16_t f16_bits(float f)
{
	_Float16 h = (_Float16)f;
	uint16_t u;
	memcpy(&u, &h, 2);
	return u;
}

static float f16_val(uint16_t u)
{
	_Float16 h;
	memcpy(&h, &u, 2);
	return (float)h;
}

/* How inputs are drawn: small integers (every partial sum exact), subnormal
 * A values (f16: k*2^-24, bf16: k*2^-133; products and sums still exact, the
 * bf16 results are f32 denormals, kept under the kernels' denorm mode), or
 * random reals in [-1, 1]. */
typedef enum { FILL_INT, FILL_SUBNORMAL, FILL_REAL } Fill;

/* Fill 16-bit inputs (f16 or bf16 bits) and their float values. */
static void fill(VkRng *r, Fill how, bool bf16, uint16_t *bits, float *val, int count)
{
	for (int i = 0; i < count; i++) {
		float v = how == FILL_REAL        ? vk_float(r, -1, 1)
			  : how == FILL_SUBNORMAL ? ldexpf((float)vk_int(r, -8, 8), bf16 ? -133 : -24)
						  : (float)vk_int(r, -4, 4);
		bits[i] = bf16 ? vk_bf16(v) : f16_bits(v);
		val[i] = bf16 ? vk_bf16_f32(bits[i]) : f16_val(bits[i]);
	}
}

/* C[M][N] = A[M][K] * B (B[K][N], or B[N][K] when bt), in double. */
static void matmul(const float *A, const float *B, double *C, int M, int N, int K, bool bt)
{
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double s = 0;
			for (int k = 0; k < K; k++)
				s += (double)A[i * K + k] * (bt ? B[j * K + k] : B[k * N + j]);
			C[i * N + j] = s;
		}
}

static void run_mfma(const char *kernel, const char *co, const char *insn, bool bf16, int M, int N, int K)
{
	uint16_t *a = xcalloc((size_t)M * K, 2), *b = xcalloc((size_t)K * N, 2);
	float *av = xcalloc((size_t)M * K, 4), *bv = xcalloc((size_t)K * N, 4), *c = xcalloc((size_t)M * N, 4);
	double *want = xcalloc((size_t)M * N, 8);
	char desc[128], defs[64], what[160];
	snprintf(desc, sizeof desc, "%s.launch.json", kernel);
	snprintf(defs, sizeof defs, "M=%d N=%d K=%d", M, N, K);
	DType dt = bf16 ? DT_BF16 : DT_F16;
	static const char *const how_name[] = {"integer (exact)", "subnormal A (exact)", "random [-1,1]"};
	for (Fill how = FILL_INT; how <= FILL_REAL; how++) {
		VkRng r = {(uint64_t)(100 + how + 2 * M + 3 * N)};
		fill(&r, how, bf16, a, av, M * K);
		fill(&r, how == FILL_SUBNORMAL ? FILL_INT : how, bf16, b, bv, K * N);
		VkArg args[] = {{"A", dt, 2, {M, K}, a, VK_IN},
				{"B", dt, 2, {K, N}, b, VK_IN},
				{"C", DT_F32, 2, {M, N}, c, VK_OUT}};
		vk_run(desc, defs, args, ARRAY_LEN(args));
		matmul(av, bv, want, M, N, K, false);
		snprintf(what, sizeof what, "%s C[%d][%d], %s inputs", kernel, M, N, how_name[how]);
		vk_check_f32(what, c, want, (size_t)M * N, 0, how == FILL_REAL ? K * 0x1p-22 : 0);
	}
	const char *insns[] = {insn, NULL};
	vk_expect_insns(co, insns);
	free(a), free(b), free(av), free(bv), free(c), free(want);
}

START_TEST(mfma_f16_16x16x16)
{
	run_mfma("mfma_f16_16x16x16", "mfma", "v_mfma_f32_16x16x16_f16", false, 32, 48, 64);
}
END_TEST

START_TEST(mfma_f16_32x32x8)
{
	run_mfma("mfma_f16_32x32x8", "mfma", "v_mfma_f32_32x32x8_f16", false, 64, 64, 32);
	static const char *const insns[] = {"v_accvgpr_write_b32", NULL};
	vk_expect_insns("mfma", insns);
}
END_TEST

START_TEST(mfma_bf16_16x16x16)
{
	run_mfma("mfma_bf16_16x16x16", "mfma", "v_mfma_f32_16x16x16_bf16", true, 32, 48, 64);
}
END_TEST

START_TEST(mfma_bf16_32x32x8)
{
	run_mfma("mfma_bf16_32x32x8", "mfma", "v_mfma_f32_32x32x8_bf16", true, 64, 64, 32);
}
END_TEST

/* f32, f64 and i8 MFMAs (one value per lane for f32/f64; 4 or 8 bytes per
 * lane for i8): C[M][N] = A[M][K] * B[K][N] with K = 64, M x N = 32 x 48 for
 * 16x16 tiles and 64 x 96 for 32x32 ones (kernel CO on TARGET; its
 * instruction INSN checked in the disassembly). Integer inputs are exact for
 * all three (i8 over the whole range -128..127); random reals get K * 2^-22
 * (f32) or K * 2^-50 (f64). */
static void run_mfma_wide_on(const char *target, const char *co, const char *kernel, const char *insn, DType dt,
			     int M, int N)
{
	enum { MAXM = 64, MAXN = 96, K = 64 };
	static double av[MAXM * K], bv[K * MAXN], want[MAXM * MAXN], got[MAXM * MAXN];
	static float af[MAXM * K], bf[K * MAXN], cf[MAXM * MAXN];
	static double ad[MAXM * K], bd[K * MAXN], cd[MAXM * MAXN];
	static int8_t ai[MAXM * K], bi[K * MAXN];
	static int32_t ci[MAXM * MAXN];
	ck_assert(M <= MAXM && N <= MAXN);
	char desc[128], what[160], defs[64];
	snprintf(desc, sizeof desc, "%s.launch.json", kernel);
	snprintf(defs, sizeof defs, "M=%d N=%d K=%d", M, N, K);
	DType ct = dt == DT_I8 ? DT_I32 : dt;
	for (int real = 0; real <= (dt != DT_I8); real++) {
		VkRng r = {(uint64_t)(300 + real + dt)};
		for (int i = 0; i < M * K + K * N; i++) {
			double v = dt == DT_I8 ? vk_int(&r, -128, 127) : real ? vk_float(&r, -1, 1) : vk_int(&r, -4, 4);
			if (dt == DT_F32)
				v = (float)v;
			(i < M * K ? av : bv)[i < M * K ? i : i - M * K] = v;
		}
		for (int i = 0; i < M * K; i++)
			af[i] = (float)av[i], ad[i] = av[i], ai[i] = (int8_t)av[i];
		for (int i = 0; i < K * N; i++)
			bf[i] = (float)bv[i], bd[i] = bv[i], bi[i] = (int8_t)bv[i];
		void *a = dt == DT_F32 ? (void *)af : dt == DT_F64 ? (void *)ad : (void *)ai;
		void *b = dt == DT_F32 ? (void *)bf : dt == DT_F64 ? (void *)bd : (void *)bi;
		void *c = dt == DT_F32 ? (void *)cf : dt == DT_F64 ? (void *)cd : (void *)ci;
		VkArg args[] = {{"A", dt, 2, {M, K}, a, VK_IN}, {"B", dt, 2, {K, N}, b, VK_IN}, {"C", ct, 2, {M, N}, c, VK_OUT}};
		vk_run(desc, defs, args, ARRAY_LEN(args));
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				double s = 0;
				for (int k = 0; k < K; k++)
					s += av[i * K + k] * bv[k * N + j];
				want[i * N + j] = s;
				got[i * N + j] = dt == DT_F32 ? cf[i * N + j] : dt == DT_F64 ? cd[i * N + j] : ci[i * N + j];
			}
		double tol = !real ? 0 : dt == DT_F32 ? K * 0x1p-22 : K * 0x1p-50;
		size_t bad = 0, first = 0;
		for (size_t i = 0; i < (size_t)M * N; i++)
			if (!(fabs(got[i] - want[i]) <= tol) && bad++ == 0)
				first = i;
		snprintf(what, sizeof what, "%s C[%d][%d], %s inputs", kernel, M, N, real ? "random" : "integer (exact)");
		ck_assert_msg(bad == 0, "%s: %zu of %d outside %g; first at [%zu]: got %.17g want %.17g", what, bad, M * N, tol,
			      first, got[first], want[first]);
	}
	const char *insns[] = {insn, NULL};
	vk_expect_insns_on(target, co, insns);
}

/* A 16x16 shape of mfma.cl checked on gfx942. */
static void run_mfma_wide(const char *kernel, const char *insn, DType dt)
{
	run_mfma_wide_on("gfx942", "mfma", kernel, insn, dt, 32, 48);
}

START_TEST(mfma_f32_16x16x4) { run_mfma_wide("mfma_f32_16x16x4", "v_mfma_f32_16x16x4_f32", DT_F32); }
END_TEST

START_TEST(mfma_i8_16x16x32)
{
	run_mfma_wide_on("gfx942", "mfma942", "mfma_i8_16x16x32", "v_mfma_i32_16x16x32_i8", DT_I8, 32, 48);
}
END_TEST

START_TEST(mfma_i8_32x32x16)
{
	run_mfma_wide_on("gfx942", "mfma942", "mfma_i8_32x32x16", "v_mfma_i32_32x32x16_i8", DT_I8, 64, 96);
}
END_TEST

/* gfx90a's i8 forms (one dword of 4 bytes per lane); the disassembly check
 * uses gfx90a's spelling */
START_TEST(mfma_i8_16x16x16)
{
	run_mfma_wide_on("gfx90a", "mfma90a", "mfma_i8_16x16x16", "v_mfma_i32_16x16x16i8", DT_I8, 32, 48);
}
END_TEST

START_TEST(mfma_i8_32x32x8)
{
	run_mfma_wide_on("gfx90a", "mfma90a", "mfma_i8_32x32x8", "v_mfma_i32_32x32x8i8", DT_I8, 64, 96);
}
END_TEST

START_TEST(mfma_f64_16x16x4) { run_mfma_wide("mfma_f64_16x16x4", "v_mfma_f64_16x16x4_f64", DT_F64); }
END_TEST

/* fp8 (E4M3 FNUZ) x fp8 on gfx942, kernel KERNEL (C[M][N], K = 64) whose
 * instruction is INSN: integer-valued codes, then codes with exponents
 * 2^-2..2^1 (4 significant bits each, so every product and every partial sum
 * of 64 is exact in f32): both compared exactly. */
static void run_mfma_fp8(const char *kernel, const char *insn, int M, int N)
{
	enum { MAXM = 64, MAXN = 96, K = 64 };
	static uint8_t a[MAXM * K], b[K * MAXN];
	static float c[MAXM * MAXN];
	static double want[MAXM * MAXN];
	ck_assert(M <= MAXM && N <= MAXN);
	char desc[128], defs[64], what[160];
	snprintf(desc, sizeof desc, "%s.launch.json", kernel);
	snprintf(defs, sizeof defs, "M=%d N=%d K=%d", M, N, K);
	for (int real = 0; real <= 1; real++) {
		VkRng r = {(uint64_t)(400 + real)};
		for (int i = 0; i < M * K + K * N; i++) {
			uint8_t code = real ? (uint8_t)((vk_next(&r) & 0x80) | vk_int(&r, 6, 9) << 3 | vk_int(&r, 0, 7))
					    : vk_fnuz_encode(vk_int(&r, -4, 4), 3, 8);
			(i < M * K ? a : b)[i < M * K ? i : i - M * K] = code;
		}
		VkArg args[] = {{"A", DT_U8, 2, {M, K}, a, VK_IN}, {"B", DT_U8, 2, {K, N}, b, VK_IN},
				{"C", DT_F32, 2, {M, N}, c, VK_OUT}};
		vk_run(desc, defs, args, ARRAY_LEN(args));
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				double s = 0;
				for (int k = 0; k < K; k++)
					s += vk_fnuz_decode(a[i * K + k], 3, 8) * vk_fnuz_decode(b[k * N + j], 3, 8);
				want[i * N + j] = s;
			}
		snprintf(what, sizeof what, "%s C[%d][%d], %s (exact)", kernel, M, N, real ? "codes 2^-2..2^1" : "integers");
		vk_check_f32(what, c, want, (size_t)M * N, 0, 0);
	}
	const char *insns[] = {insn, NULL};
	vk_expect_insns("mfma942", insns);
}

START_TEST(mfma_fp8_16x16x32) { run_mfma_fp8("mfma_fp8_16x16x32", "v_mfma_f32_16x16x32_fp8_fp8", 32, 48); }
END_TEST

START_TEST(mfma_fp8_32x32x16) { run_mfma_fp8("mfma_fp8_32x32x16", "v_mfma_f32_32x32x16_fp8_fp8", 64, 96); }
END_TEST

/* A bf16 GEMM staged through LDS: 64x64 tiles, 2x2 waves of 32x32x8 MFMAs,
 * 128 x 192 x 48. The descriptor asks for 64 bytes of LDS beyond the static
 * size (dynamic LDS). */
START_TEST(gemm_bf16)
{
	run_mfma("gemm_bf16", "gemm_bf16", "v_mfma_f32_32x32x8_bf16", true, 128, 192, 48);
	static const char *const insns[] = {"ds_write_b16", "ds_read_u16", "ds_read2_b64", "s_barrier", NULL};
	vk_expect_insns("gemm_bf16", insns);
}
END_TEST

/* The same at -O0: scratch, lane and AGPR spills around the MFMAs and barriers. */
START_TEST(gemm_bf16_o0)
{
	run_mfma("gemm_bf16_o0", "gemm_bf16_o0", "v_mfma_f32_32x32x8_bf16", true, 128, 192, 48);
	vk_expect_insns("gemm_bf16_o0", vk_spill_insns);
}
END_TEST

/* The reference kernel: C[M][N] = A[M][K] * B[N][K]^T, 64x64 tiles, K steps of 32 through LDS. */
START_TEST(gemm_lds)
{
	enum { M = 128, N = 128, K = 64 };
	static uint16_t a[M * K], b[N * K];
	static float av[M * K], bv[N * K], c[M * N];
	static double want[M * N];
	for (int exact = 1; exact >= 0; exact--) {
		VkRng r = {(uint64_t)(200 + exact)};
		fill(&r, exact ? FILL_INT : FILL_REAL, false, a, av, M * K);
		fill(&r, exact ? FILL_INT : FILL_REAL, false, b, bv, N * K);
		VkArg args[] = {{"A", DT_F16, 2, {M, K}, a, VK_IN},
				{"B", DT_F16, 2, {N, K}, b, VK_IN},
				{"C", DT_F32, 2, {M, N}, c, VK_OUT}};
		vk_run("gemm_lds.launch.json", "M=128 N=128 K=64", args, ARRAY_LEN(args));
		matmul(av, bv, want, M, N, K, true);
		vk_check_f32(exact ? "gemm_lds C, integer inputs (exact)" : "gemm_lds C, random inputs", c, want,
			     M * N, 0, exact ? 0 : K * 0x1p-22);
	}
	static const char *const insns[] = {"v_mfma_f32_16x16x16_f16", "ds_write_b128", "ds_read2_b64",
					    "global_load_dwordx4", "s_barrier", NULL};
	vk_expect_insns("gemm_lds", insns);
}
END_TEST

/* bench/ref/gemm_lds_tiled.cl at each tiling of GEMM_TILED, on a grid of several workgroups (256x256x128: two or
 * four tiles, two K steps), integer then random inputs as gemm_lds. */
START_TEST(gemm_lds_tiled)
{
	static const char *const co[] = {GEMM_TILED};
	enum { M = 256, N = 256, K = 128 };
	static uint16_t a[M * K], b[N * K];
	static float av[M * K], bv[N * K], c[M * N];
	static double want[M * N];
	for (size_t i = 0; i < ARRAY_LEN(co); i++)
		for (int exact = 1; exact >= 0; exact--) {
			VkRng r = {(uint64_t)(300 + exact)};
			fill(&r, exact ? FILL_INT : FILL_REAL, false, a, av, M * K);
			fill(&r, exact ? FILL_INT : FILL_REAL, false, b, bv, N * K);
			memset(c, 0, sizeof c);
			VkArg args[] = {{"A", DT_F16, 2, {M, K}, a, VK_IN},
					{"B", DT_F16, 2, {N, K}, b, VK_IN},
					{"C", DT_F32, 2, {M, N}, c, VK_OUT}};
			char desc[128], what[160];
			snprintf(desc, sizeof desc, "%s.launch.json", co[i]);
			vk_run(desc, "M=256 N=256 K=128", args, ARRAY_LEN(args));
			matmul(av, bv, want, M, N, K, true);
			snprintf(what, sizeof what, "%s C, %s inputs", co[i], exact ? "integer (exact)" : "random");
			vk_check_f32(what, c, want, M * N, 0, exact ? 0 : K * 0x1p-22);
		}
	static const char *const insns[] = {"v_mfma_f32_16x16x16_f16", "ds_write_b128", "s_barrier", NULL};
	for (size_t i = 0; i < ARRAY_LEN(co); i++)
		vk_expect_insns(co[i], insns);
}
END_TEST

static TCase *cases(const char *arch, void (*setup)(void))
{
	TCase *tc = tcase_create(arch);
	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, mfma_f16_16x16x16);
	tcase_add_test(tc, mfma_f16_32x32x8);
	tcase_add_test(tc, mfma_bf16_16x16x16);
	tcase_add_test(tc, mfma_bf16_32x32x8);
	tcase_add_test(tc, mfma_f32_16x16x4);
	if (strncmp(arch, "gfx942", 6) == 0) {
		tcase_add_test(tc, mfma_i8_16x16x32);
		tcase_add_test(tc, mfma_i8_32x32x16);
		tcase_add_test(tc, mfma_fp8_16x16x32);
		tcase_add_test(tc, mfma_fp8_32x32x16);
	} else {
		tcase_add_test(tc, mfma_i8_16x16x16);
		tcase_add_test(tc, mfma_i8_32x32x8);
	}
	tcase_add_test(tc, gemm_bf16);
	tcase_add_test(tc, gemm_lds);
	tcase_add_test(tc, gemm_lds_tiled);
	/* once pending (WAVECC_VALIDATE_PENDING, README.md): the emulator's f64
	 * MFMA and clang's -O0 bf16 GEMM with its spills */
	tcase_add_test(tc, mfma_f64_16x16x4);
	tcase_add_test(tc, gemm_bf16_o0);
	return tc;
}

int main(void)
{
	Suite *s = suite_create("validate_mfma");
	suite_add_tcase(s, cases("gfx942", setup_gfx942));
	suite_add_tcase(s, cases("gfx942:sramecc-", setup_noecc));
	suite_add_tcase(s, cases("gfx90a", setup_gfx90a));
	return run_suite(s);
}
