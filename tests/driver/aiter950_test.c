/* aiter950_test.c — AMD's own gfx950 code objects on the emulator: aiter's
 * hand-written FA v3 forward kernels (hsa/gfx950/fmha_v3_fwd/, bf16, head
 * dim 128, plain and causal) run through `wavecc run` with a launch
 * descriptor written here (the kernel arguments of aiter's
 * fmha_fwd_v3_args: each field in a 16-byte slot), and their output is
 * compared with attention computed here in float64. These kernels stage K
 * and V with buffer_load_dwordx4 ... lds, read V with ds_read_b64_tr_b16,
 * exchange halves with v_permlane16/32_swap_b32, pack with v_cvt_pk_bf16_f32
 * and multiply with v_mfma_f32_32x32x16_bf16, so a wrong model of any of
 * them gives wrong attention (the emulator's transpose taken as per-block
 * 4x4 transposes, the 128-bit DMA's dwords interleaved across lanes, or the
 * swap's rows exchanged the other way each give errors of 0.17 where the
 * tolerance here is 0.01).
 *
 * The code objects are AMD's, not in this repository: set WAVECC_AITER to an
 * aiter checkout (the folder holding hsa/gfx950/); without it every test
 * says so and passes. Nothing here ran on a GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/npy.h"
#include "../test.h"

enum { B = 1, H = 2, D = 128, TS_QO = 256 };

static const char *aiter_co(const char *name)
{
	static char path[4096];
	const char *dir = getenv("WAVECC_AITER");
	if (!dir || !*dir) {
		fprintf(stderr, "SKIP aiter950: WAVECC_AITER (an aiter checkout with hsa/gfx950/) is not set\n");
		return NULL;
	}
	snprintf(path, sizeof path, "%s/hsa/gfx950/fmha_v3_fwd/%s", dir, name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "SKIP aiter950: %s is missing\n", path);
		return NULL;
	}
	fclose(f);
	return path;
}

static uint16_t bf16_of(float x)
{
	uint32_t u;
	memcpy(&u, &x, 4);
	u += 0x7fffu + ((u >> 16) & 1u);
	return (uint16_t)(u >> 16);
}

static double f_of(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float x;
	memcpy(&x, &u, 4);
	return x;
}

/* Inputs uniform in [-1, 1) as bf16 from a fixed LCG. */
static void fill(uint16_t *p, size_t n, uint64_t *st)
{
	for (size_t i = 0; i < n; i++) {
		*st = *st * 6364136223846793005ull + 1442695040888963407ull;
		p[i] = bf16_of((float)((double)(*st >> 11) / 9007199254740992.0 * 2.0 - 1.0));
	}
}

/* The launch descriptor of one fmha_fwd_v3 kernel: [B, S, H, D] tensors
 * (aiter's bshd layout), strides in bytes, scale 1/sqrt(D), no LSE. */
static void write_launch(const char *path, const char *co, const char *kernel, int S, int gridx)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	int bpe = 2;
	fprintf(f, "{\"format\": \"wavecc-launch/1\", \"code_object\": \"%s\", \"kernel\": \"%s\", \"arch\": \"gfx950\",\n"
		   " \"workgroup_size\": [512, 1, 1], \"grid\": [%d, %d, %d], \"lds_bytes\": 163840, \"kernarg_size\": 512,\n"
		   " \"args\": [\n",
		co, kernel, gridx, H, B);
	static const char *const bufs[] = {"O", "Q", "K", "V"};
	for (int i = 0; i < 4; i++)
		fprintf(f, "  {\"name\": \"%s\", \"kind\": \"buffer\", \"dtype\": \"bf16\", \"shape\": [%d, %d, %d, %d], "
			   "\"offset\": %d, \"access\": \"%s\"},\n",
			bufs[i], B, S, H, D, 16 * i, i ? "read" : "write");
	fprintf(f, "  {\"name\": \"LSE\", \"kind\": \"buffer\", \"dtype\": \"f32\", \"shape\": [%d, %d, %d], \"offset\": 64, "
		   "\"access\": \"write\"},\n",
		B, H, S);
	fprintf(f, "  {\"name\": \"scalar\", \"kind\": \"scalar\", \"dtype\": \"f32\", \"offset\": 80, \"value\": %.9g}", 1 / sqrt(D));
	int row = H * D * bpe, head = D * bpe, batch = S * H * D * bpe;
	/* slots 6..26: seq_len, Seqs, Ts, Hs, Bs, gqa, k_Seqs, k_Hs, k_Bs, opt,
	 * lse, kv_seq_len, qk_head_dim, v_head_dim, q_head_num, v_Seqs, v_Hs,
	 * v_Bs, o_Seqs, o_Hs, o_Bs; slot 29 lse_Hs */
	const int v[] = {S, row, TS_QO * row, head, batch, 1, row, head, batch, 5, 0, S, D, D, H, row, head, batch, row,
		head, batch};
	for (int i = 0; i < (int)ARRAY_LEN(v); i++)
		fprintf(f, ",\n  {\"name\": \"s%d\", \"kind\": \"scalar\", \"dtype\": \"u32\", \"offset\": %d, \"value\": %d}",
			6 + i, 16 * (6 + i), v[i]);
	fprintf(f, ",\n  {\"name\": \"s29\", \"kind\": \"scalar\", \"dtype\": \"u32\", \"offset\": %d, \"value\": %d}]}\n",
		16 * 29, S * 4);
	fclose(f);
}

static void run_fwd(const char *co_name, const char *kernel, int S, bool causal, int gridx)
{
	const char *co = aiter_co(co_name);
	if (!co)
		return;
	const char *dir = test_tmpdir(causal ? "aiter950-causal" : "aiter950");
	char launch[4200], qp[4200], kp[4200], vp[4200], op[4200], err[256];
	snprintf(launch, sizeof launch, "%s/fwd.json", dir);
	write_launch(launch, co, kernel, S, gridx);
	size_t n = (size_t)B * S * H * D;
	uint16_t *q = xmalloc(n * 2), *k = xmalloc(n * 2), *v = xmalloc(n * 2);
	uint64_t st = 7;
	fill(q, n, &st);
	fill(k, n, &st);
	fill(v, n, &st);
	int64_t shape[4] = {B, S, H, D};
	snprintf(qp, sizeof qp, "%s/q.npy", dir);
	snprintf(kp, sizeof kp, "%s/k.npy", dir);
	snprintf(vp, sizeof vp, "%s/v.npy", dir);
	snprintf(op, sizeof op, "%s/o.npy", dir);
	ck_assert(npy_write(qp, DT_BF16, 4, shape, q, err, sizeof err) == 0);
	ck_assert(npy_write(kp, DT_BF16, 4, shape, k, err, sizeof err) == 0);
	ck_assert(npy_write(vp, DT_BF16, 4, shape, v, err, sizeof err) == 0);
	CmdResult r = test_wavecc("run %s --in Q=%s --in K=%s --in V=%s --out O=%s", launch, qp, kp, vp, op);
	ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
	cmd_result_free(&r);
	NpyArray o;
	ck_assert_msg(npy_read(op, &o, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(o.count, n);
	const uint16_t *got = o.data;
	double *p = xmalloc((size_t)S * sizeof *p), worst = 0, scale = 1 / sqrt(D);
	for (int h = 0; h < H; h++)
		for (int i = 0; i < S; i++) {
			double m = -INFINITY, sum = 0;
			int last = causal ? i : S - 1;
			for (int j = 0; j <= last; j++) {
				double s = 0;
				for (int d = 0; d < D; d++)
					s += f_of(q[((size_t)i * H + h) * D + d]) * f_of(k[((size_t)j * H + h) * D + d]);
				p[j] = s * scale;
				m = fmax(m, p[j]);
			}
			for (int j = 0; j <= last; j++)
				sum += p[j] = exp(p[j] - m);
			for (int d = 0; d < D; d++) {
				double want = 0;
				for (int j = 0; j <= last; j++)
					want += p[j] * f_of(v[((size_t)j * H + h) * D + d]);
				want /= sum;
				double e = fabs(f_of(got[((size_t)i * H + h) * D + d]) - want);
				worst = fmax(worst, e);
				ck_assert_msg(e <= 4e-3 + 1e-2 * fabs(want), "%s: O[0, %d, %d, %d] = %g, float64 %g", co_name, i, h,
					d, f_of(got[((size_t)i * H + h) * D + d]), want);
			}
		}
	fprintf(stderr, "%s: S %d, max abs err %g against float64\n", co_name, S, worst);
	npy_free(&o);
	free(p);
	free(q);
	free(k);
	free(v);
}

START_TEST(aiter_fa_v3_fwd_bf16) { run_fwd("fwd_hd128_bf16.co", "_ZN5aiter19fmha_fwd_hd128_bf16E", 256, false, 1); }
END_TEST

/* causal: aiter pairs a head and a tail block of 256 queries per workgroup
 * (get_grid_dim's tg_div 2), so 512 queries take one workgroup along x */
START_TEST(aiter_fa_v3_fwd_bf16_causal)
{
	run_fwd("fwd_hd128_bf16_causal.co", "_ZN5aiter26fmha_fwd_hd128_bf16_causalE", 512, true, 1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("driver/aiter950");
	TCase *tc = tcase_create("aiter950");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, aiter_fa_v3_fwd_bf16);
	tcase_add_test(tc, aiter_fa_v3_fwd_bf16_causal);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
