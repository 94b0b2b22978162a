/* wave_ref_test.c — the Wave transcriptions of the GEMM family
 * (tests/driver/wave/: workgroup GEMMs, transposed operands, batched with a
 * permuted output, sequential batches (with an output sum), chained GEMMs, implicit-GEMM
 * convolutions in both layouts, im2col and im2col followed by an MMA) run
 * on the interpreter and compared with references written here in plain
 * double loops from the operation's textbook definition, not from the
 * transcription's index mappings:
 *   GEMM        c[m,n] = sum_k a[m,k] b[n,k]           (Wave's a·bᵀ)
 *   chained     c[b,n,m] = sum_k2 f16(sum_k1 q[b,m,k1] k[b,k2,k1]) v[b,n,k2]
 *   conv2d      out[n,f,y,x] = sum_{c,i,j} in[n,c,y·s+i,x·s+j] w[f,c,i,j]
 *               (torch.conv2d, no padding), NCHW/FCHW or NHWC/HWCF
 *   im2col      b[(n,y,x), (c,i,j)] = a[n,c,y·s+i,x·s+j]
 * `wavecc run` compares the emulator with the interpreter on the same
 * graphs (tests/driver/wave_test.c), so a transcription mistake the two
 * share fails here (as the attention files do in interp/attention_test.c
 * and split-K in driver/splitk_test.c).
 *
 * Inputs are multiples of 1/64 in [-2, 2) (exact in f16 and bf16; i8 gets
 * integers in [-8, 8)), so every product and partial sum is exact in f32 at
 * these sizes: the comparison is exact, except the chained GEMM, whose
 * first product is rounded to f16 before the second (the reference rounds
 * it too; the tolerance covers the second product's summation order). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../passes/graph/analysis.h"
#include "../../util/dtype.h"
#include "harness.h"

enum { REF_DEFS = 16 };

/* A transcription with its symbols overridden (as `wavecc run -D`). */
typedef struct Wk {
	Kernel *k, *bound;
	Interp in;
	Diag d;
} Wk;

/* defs: "NAME=VALUE NAME=VALUE ..." */
static void wk_open(Wk *w, const char *file, const char *defs)
{
	char path[1024], names[REF_DEFS][32];
	const char *name[REF_DEFS];
	int64_t val[REF_DEFS];
	int n = 0, used = 0;
	long long v;
	while (n < REF_DEFS && sscanf(defs + used, " %31[^=]=%lld", names[n], &v) == 2) {
		int len = 0;
		sscanf(defs + used, " %*[^=]=%*d%n", &len);
		used += len;
		name[n] = names[n];
		val[n++] = v;
	}
	snprintf(path, sizeof path, "%s/tests/driver/wave/%s", test_root(), file);
	diag_init(&w->d);
	w->k = load_kernel_file(path, &w->d);
	ck_assert_msg(w->k != NULL, "%s does not load", path);
	w->bound = subst_bound_view(w->k, n, name, val, &w->d);
	ck_assert_msg(w->bound != NULL, "%s: the overrides %s do not apply", path, defs);
	/* dynamic symbols (a loop's start) take their value from defs too */
	int64_t dyn[REF_DEFS] = {0};
	ck_assert_int_le(w->bound->dyn_syms.len, REF_DEFS);
	for (size_t j = 0; j < w->bound->dyn_syms.len; j++)
		for (int i = 0; i < n; i++)
			if (strcmp(sym_name(w->bound->dyn_syms.data[j]), name[i]) == 0)
				dyn[j] = val[i];
	ck_assert_msg(interp_init(&w->in, w->bound, dyn, &w->d) == 0, "%s: interp_init failed", path);
}

static InterpArg *wk_arg(Wk *w, const char *name)
{
	InterpArg *a = interp_arg(&w->in, name);
	ck_assert_msg(a != NULL, "no argument %s", name);
	return a;
}

static void wk_close(Wk *w)
{
	interp_free(&w->in);
	kernel_view_free(w->bound);
	kernel_free(w->k);
}

static void fill_in(InterpArg *a, unsigned seed)
{
	if (dtype_is_float(a->dtype))
		fill(a, seed, -2, 2, 1.0 / 64);
	else
		fill(a, seed, -8, 8, 1);
}

/* run, then compare out with ref (freed) */
static void run_check(Wk *w, const char *what, InterpArg *out, double *ref, double tol)
{
	fill(out, 99, 50, 51, 1); /* every element must be overwritten */
	ck_assert_msg(interp_run(&w->in) == 0, "%s: interp_run failed", what);
	expect_close(what, out, ref, tol, tol);
	free(ref);
}

/* ---- GEMMs: c[b][m][n] = sum_k a[b][m][k] b[b][n][k] over strides ---- */

typedef struct Gemm {
	const char *file, *defs;
	bool trans;   /* a is [K, M] and b [K, N] (gemm_transpose_ab) */
	bool permute; /* batched, c is [M, B, N] (batched_gemm_permute) */
} Gemm;

static const Gemm gemms[] = {
	{"wg_gemm_16x16x16.json", "M=128 N=128 K=96", false, false},
	{"wg_gemm_16x16x16.json", "M=17 N=23 K=32", false, false},
	{"wg_gemm_32x32x8.json", "M=128 N=64 K=64", false, false},
	{"wg_gemm_bf16_16x16x16.json", "M=64 N=128 K=64", false, false},
	{"wg_gemm_int_16x16x16_i8.json", "M=64 N=64 K=64", false, false},
	{"gemm_transpose_ab_16x16x16.json", "M=128 N=192 K=160", true, false},
	{"gemm_small_tiles_16x16x16.json", "M=32 N=32 K=32", false, false},
	{"dist_gemm_16x16x16.json", "M=128 N=128 K=64", false, false},
	{"explicit_shared_gemm.json", "M=64 N=128 K=64", false, false},
	{"reordered_gemm.json", "M=256 N=256 K=128", false, false},
	{"batched_gemm_permute.json", "B=3 M=64 N=32 K=48", false, true},
	{"sequential_batched_gemm.json", "B=3 M=64 N=64 K=64", false, false},
};

static void gemm_case(int i)
{
	const Gemm *g = &gemms[i];
	Wk w;
	wk_open(&w, g->file, g->defs);
	InterpArg *a = wk_arg(&w, "a"), *b = wk_arg(&w, "b"), *c = wk_arg(&w, "c");
	fill_in(a, 11);
	fill_in(b, 12);
	int r = a->rank;
	int64_t B = r == 3 ? a->shape[0] : 1;
	int64_t M = g->trans ? a->shape[r - 1] : a->shape[r - 2], K = g->trans ? a->shape[r - 2] : a->shape[r - 1];
	int64_t N = g->trans ? b->shape[r - 1] : b->shape[r - 2];
	ck_assert_int_eq((int64_t)c->count, B * M * N);
	double *ref = xcalloc((size_t)(B * M * N), sizeof(double));
	for (int64_t bb = 0; bb < B; bb++)
		for (int64_t m = 0; m < M; m++)
			for (int64_t n = 0; n < N; n++) {
				double s = 0;
				for (int64_t k = 0; k < K; k++) {
					uint64_t ai = (uint64_t)(g->trans ? k * M + m : (bb * M + m) * K + k);
					uint64_t bi = (uint64_t)(g->trans ? k * N + n : (bb * N + n) * K + k);
					s += el(a, ai) * el(b, bi);
				}
				ref[g->permute ? (m * B + bb) * N + n : (bb * M + m) * N + n] = s;
			}
	char what[160];
	snprintf(what, sizeof what, "%s %s", g->file, g->defs);
	run_check(&w, what, c, ref, 0);
	wk_close(&w);
}

START_TEST(gemm)
{
	gemm_case(_i);
}
END_TEST

/* ---- sequential batches with an output sum: c[b] = a[b]·b[b]ᵀ for b from
 * the loop's start, s[n][m] = sum_b c[b][m][n] (Wave's
 * testSequentialBatchedGemmWhileWithOutputSum, test_iteration_with_
 * condition_and_init_value: an [M, N] accumulator beside [B, ·, K]
 * operands inside the loop over B) ---- */

static const char *const seq_sum[][3] = {
	{"sequential_batched_gemm_while_sum.json", "B=3 M=64 N=64 K=64 INIT=0", "output_sum"},
	{"lit_iteration_with_condition_and_init_value.json", "init_value=0", "output_sum"},
};

START_TEST(seq_batched_sum)
{
	Wk w;
	wk_open(&w, seq_sum[_i][0], seq_sum[_i][1]);
	InterpArg *a = wk_arg(&w, "a"), *b = wk_arg(&w, "b"), *c = wk_arg(&w, "c"), *o = wk_arg(&w, seq_sum[_i][2]);
	fill_in(a, 61);
	fill_in(b, 62);
	int64_t B = a->shape[0], M = a->shape[1], K = a->shape[2], N = b->shape[1];
	double *cref = xcalloc((size_t)(B * M * N), sizeof(double)), *sref = xcalloc((size_t)(N * M), sizeof(double));
	for (int64_t bb = 0; bb < B; bb++)
		for (int64_t m = 0; m < M; m++)
			for (int64_t n = 0; n < N; n++) {
				double t = 0;
				for (int64_t k = 0; k < K; k++)
					t += el(a, (uint64_t)((bb * M + m) * K + k)) * el(b, (uint64_t)((bb * N + n) * K + k));
				cref[(bb * M + m) * N + n] = t;
				sref[n * M + m] += t;
			}
	fill(c, 99, 50, 51, 1);
	fill(o, 98, 50, 51, 1);
	ck_assert_msg(interp_run(&w.in) == 0, "%s: interp_run failed", seq_sum[_i][0]);
	expect_close(seq_sum[_i][0], c, cref, 0, 0);
	expect_close(seq_sum[_i][0], o, sref, 0, 0);
	free(cref);
	free(sref);
	wk_close(&w);
}
END_TEST

/* ---- chained GEMM: c[b][n][m] = sum_j f16(q[b,m,:]·k[b,j,:]) v[b][n][j] ---- */

static const char *const chained[] = {"chained_gemm_16x16x16.json", "chained_gemm_32x32x8.json"};

START_TEST(chained_gemm)
{
	Wk w;
	wk_open(&w, chained[_i], "B=2 M=64 N=64 K1=32 K2=64");
	InterpArg *q = wk_arg(&w, "q"), *k = wk_arg(&w, "k"), *v = wk_arg(&w, "v"), *c = wk_arg(&w, "c");
	int64_t B = q->shape[0], M = q->shape[1], K1 = q->shape[2], K2 = k->shape[1], N = v->shape[1];
	fill(q, 21, -1, 1, 1.0 / 32);
	fill(k, 22, -1, 1, 1.0 / 32);
	fill(v, 23, -1, 1, 1.0 / 32);
	double *ref = xcalloc((size_t)(B * N * M), sizeof(double));
	double *s = xmalloc(sizeof(double) * (size_t)K2);
	for (int64_t bb = 0; bb < B; bb++)
		for (int64_t m = 0; m < M; m++) {
			for (int64_t j = 0; j < K2; j++) {
				double t = 0;
				for (int64_t x = 0; x < K1; x++)
					t += el(q, (uint64_t)((bb * M + m) * K1 + x)) * el(k, (uint64_t)((bb * K2 + j) * K1 + x));
				s[j] = (double)dtype_f16_to_f32(dtype_f32_to_f16((float)t)); /* the kernel casts to f16 */
			}
			for (int64_t n = 0; n < N; n++) {
				double t = 0;
				for (int64_t j = 0; j < K2; j++)
					t += s[j] * el(v, (uint64_t)((bb * N + n) * K2 + j));
				ref[(bb * N + n) * M + m] = t;
			}
		}
	free(s);
	run_check(&w, chained[_i], c, ref, 1e-5);
	wk_close(&w);
}
END_TEST

/* ---- convolutions ---- */

typedef struct Conv {
	int64_t n, c, h, w, f, hf, wf, s; /* batch, channels, image, filters, filter size, stride */
	bool nhwc;                        /* NHWC/HWCF, else NCHW/FCHW */
} Conv;

static int64_t conv_x(const Conv *p, int64_t n, int64_t c, int64_t y, int64_t x)
{
	return p->nhwc ? ((n * p->h + y) * p->w + x) * p->c + c : ((n * p->c + c) * p->h + y) * p->w + x;
}

static int64_t conv_w(const Conv *p, int64_t f, int64_t c, int64_t i, int64_t j)
{
	return p->nhwc ? ((i * p->wf + j) * p->c + c) * p->f + f : ((f * p->c + c) * p->hf + i) * p->wf + j;
}

/* out[n][f][y][x] (or [n][y][x][f]) into ref, laid out as layout says
 * (rows_m: out is [M, F] with M = (n, x, y), x before y: Wave's
 * test_im2col_mma maps (i % SZ_OUT) % W_OUT to H, so its rows take the
 * output pixels column by column) */
static double *conv_ref(const Conv *p, const InterpArg *in, const InterpArg *wt, bool rows_m)
{
	int64_t ho = (p->h - p->hf) / p->s + 1, wo = (p->w - p->wf) / p->s + 1;
	double *ref = xcalloc((size_t)(p->n * p->f * ho * wo), sizeof(double));
	for (int64_t n = 0; n < p->n; n++)
		for (int64_t f = 0; f < p->f; f++)
			for (int64_t y = 0; y < ho; y++)
				for (int64_t x = 0; x < wo; x++) {
					double t = 0;
					for (int64_t c = 0; c < p->c; c++)
						for (int64_t i = 0; i < p->hf; i++)
							for (int64_t j = 0; j < p->wf; j++)
								t += el(in, (uint64_t)conv_x(p, n, c, y * p->s + i, x * p->s + j)) *
									el(wt, (uint64_t)conv_w(p, f, c, i, j));
					int64_t at = rows_m    ? ((n * wo + x) * ho + y) * p->f + f
						: p->nhwc ? ((n * ho + y) * wo + x) * p->f + f
							  : ((n * p->f + f) * ho + y) * wo + x;
					ref[at] = t;
				}
	return ref;
}

static const char *const igemm_files[] = {"igemm_conv_nhwc_shared.json", "igemm_conv_nhwc_global.json",
	"igemm_conv_nchw_shared.json", "igemm_conv_nchw_global.json"};
/* N, C, H, W, NF, HF, WF, stride: test_conv.py's _igemm_cases, and a
 * 3x3 filter on a 7x7 image. Square outputs only, as all of Wave's cases:
 * templates/conv.py enumerates the output pixels with (m % SZ_OUT) % W_OUT
 * as h_out and (m % SZ_OUT) // W_OUT as w_out, which covers the image only
 * when H_OUT = W_OUT (a 7x7 image with a 3x2 filter leaves elements
 * unwritten). */
static const Conv igemm_shapes[] = {
	{1, 10, 5, 5, 2, 2, 2, 2, false},
	{2, 3, 5, 5, 1, 2, 2, 1, false},
	{4, 10, 5, 5, 16, 2, 2, 2, false},
	{2, 4, 5, 5, 1, 2, 2, 3, false},
	{1, 4, 7, 7, 3, 3, 3, 2, false},
};

START_TEST(igemm_conv)
{
	const char *file = igemm_files[_i / 5];
	Conv p = igemm_shapes[_i % 5];
	p.nhwc = strstr(file, "nhwc") != NULL;
	char defs[256], what[320];
	snprintf(defs, sizeof defs, "N=%lld C=%lld H=%lld W=%lld NF=%lld HF=%lld WF=%lld stride=%lld", (long long)p.n,
		(long long)p.c, (long long)p.h, (long long)p.w, (long long)p.f, (long long)p.hf, (long long)p.wf,
		(long long)p.s);
	snprintf(what, sizeof what, "%s %s", file, defs);
	Wk w;
	wk_open(&w, file, defs);
	InterpArg *x = wk_arg(&w, "x"), *we = wk_arg(&w, "we"), *out = wk_arg(&w, "out");
	fill_in(x, 31);
	fill_in(we, 32);
	run_check(&w, what, out, conv_ref(&p, x, we, false), 0);
	wk_close(&w);
}
END_TEST

/* im2col followed by an MMA: out[(n,y,x)][f] */
START_TEST(im2col_mma)
{
	Conv p = {1, 4, 9, 9, 64, 2, 2, 1, false};
	Wk w;
	wk_open(&w, "im2col_mma.json", "N=1 C=4 H=9 W=9 NF=64 HF=2 WF=2 stride=1");
	InterpArg *x = wk_arg(&w, "x"), *we = wk_arg(&w, "we"), *out = wk_arg(&w, "out");
	fill_in(x, 41);
	fill_in(we, 42);
	run_check(&w, "im2col_mma.json", out, conv_ref(&p, x, we, true), 0);
	wk_close(&w);
}
END_TEST

/* im2col alone: b[(n,y,x)][(c,i,j)] = a[n][c][y·s+i][x·s+j] */
START_TEST(im2col)
{
	Wk w;
	wk_open(&w, "im2col.json", "");
	InterpArg *a = wk_arg(&w, "a"), *b = wk_arg(&w, "b");
	int64_t N = a->shape[0], C = a->shape[1], H = a->shape[2], W = a->shape[3], HF = 2, WF = 2, S = 1;
	int64_t HO = (H - HF) / S + 1, WO = (W - WF) / S + 1, M = b->shape[0], K = b->shape[1];
	ck_assert_int_eq(M, N * HO * WO);
	ck_assert_int_eq(K, C * HF * WF);
	fill_in(a, 51);
	double *ref = xcalloc((size_t)(M * K), sizeof(double));
	for (int64_t n = 0; n < N; n++)
		for (int64_t y = 0; y < HO; y++)
			for (int64_t x = 0; x < WO; x++)
				for (int64_t c = 0; c < C; c++)
					for (int64_t i = 0; i < HF; i++)
						for (int64_t j = 0; j < WF; j++)
							ref[((n * HO + y) * WO + x) * K + (c * HF + i) * WF + j] =
								el(a, (uint64_t)(((n * C + c) * H + y * S + i) * W + x * S + j));
	run_check(&w, "im2col.json", b, ref, 0);
	wk_close(&w);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("interp.wave_ref");
	TCase *tc = tcase_create("wave_ref");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, gemm, 0, (int)(sizeof gemms / sizeof gemms[0]));
	tcase_add_loop_test(tc, chained_gemm, 0, 2);
	tcase_add_loop_test(tc, seq_batched_sum, 0, 2);
	tcase_add_loop_test(tc, igemm_conv, 0, 4 * 5);
	tcase_add_test(tc, im2col_mma);
	tcase_add_test(tc, im2col);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
