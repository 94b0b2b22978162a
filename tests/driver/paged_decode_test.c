/* paged_decode_test.c — Wave's paged decode attention (tests/kernel/
 * attention/paged_attention_test.py::testPagedFlashDecoding, templates/
 * paged_decode_attention.py) compiled and run in its two launches, checked
 * the way the Wave test checks it: against paged attention computed here in
 * double (its ref_paged_attn: per sequence, the keys and values the block
 * table lists for it, softmax(q·kᵀ·scale), with logit_cap c:
 * softmax(c·tanh(q·kᵀ·scale / c)), times v; a kv head serves B / BH query
 * heads).
 *
 * wave_test.c runs each phase against the interpreter on random inputs;
 * this test chains the compiled kernels as the host does: phase 0 (the
 * sequence's tokens in U = 8 splits, one workgroup each per sequence and
 * group of query heads; each writes its split's normalised partial output
 * and m + log2(sum), or -1e6 for an empty split) writes .npy files that
 * phase 1 (the loop over the active splits) reads. A split read from the
 * wrong sequence's range, a wrong kv head, or a slot written by the wrong
 * workgroup changes the combined result.
 *
 * Inputs: request_indices as Wave's create_inputs makes them (tokens per
 * sequence jittered by up to a tenth), the block table a permutation of
 * the cache rows (Wave's is arange: a permutation also checks the
 * gather), q, k and v uniform in [-1, 1) rounded to the input dtype here,
 * so the reference sees the kernel's inputs exactly. The phase 0 files fix
 * the scale at Wave's sqrt(1 / 64) · log2(e) (head size 64: a Python
 * float baked into Wave's register), so the shapes here have head size 64.
 * Wave's tolerances: 1e-3 (f16), 1e-2 (bf16). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/dtype.h"
#include "../../util/npy.h"
#include "../test.h"
#include "ref_inputs.h"

enum { SPLITS = 8, HEAD = 64 };

typedef struct {
	const char *p0, *p1; /* phase 0 and phase 1 files */
	bool bf16;
	double cap;          /* logit_cap: the phase 0 file's */
	int B, BH, N, S, LEN; /* query heads, kv heads, head size kv, sequences, tokens */
} PagedCase;

/* testPagedFlashDecoding's shapes with head size 64: (16, 1, 64, 64, 32,
 * 2, 100), (16, 2, 64, 64, 32, 1, 100) (8 query heads a kv head: a
 * workgroup's 8 heads in a 16-wide MMA) and the small SEQ_LEN (16, 1, 64,
 * 64, 32, 2, 3) (splits left empty); f16 without and bf16 with logit_cap
 * 30, the two phase 0 files; and (64, 1, 64, 64, 32, 1, 100), Wave's 64
 * query heads a kv head at head size 64: four waves along B */
static const PagedCase cases[] = {
	{"paged_decode_phase0_f16", "paged_decode_phase1_f16", false, 0, 16, 1, 64, 2, 100},
	{"paged_decode_phase0_f16", "paged_decode_phase1_f16", false, 0, 16, 2, 64, 1, 100},
	{"paged_decode_phase0_f16", "paged_decode_phase1_f16", false, 0, 16, 1, 64, 2, 3},
	{"paged_decode_phase0_bf16_cap", "paged_decode_phase1_bf16", true, 30, 16, 1, 64, 2, 100},
	{"paged_decode_phase0_f16", "paged_decode_phase1_f16", false, 0, 64, 1, 64, 1, 100},
};

/* n values uniform in [-scale, scale) in the input dtype (bits into h,
 * values into d). */
static void fill(const PagedCase *c, uint16_t *h, double *d, size_t n, uint32_t seed, double scale)
{
	for (size_t i = 0; i < n; i++) {
		float u = (float)(((double)ref_lcg(&seed) / (double)(1u << 24) * 2 - 1) * scale);
		h[i] = c->bf16 ? dtype_f32_to_bf16(u) : dtype_f32_to_f16(u);
		d[i] = c->bf16 ? dtype_bf16_to_f32(h[i]) : dtype_f16_to_f32(h[i]);
	}
}

/* out[s, b, n]: softmax over the sequence's tokens t (rows table[t] of the
 * cache) of x_t = q[s, b]·k[row, b / (B / BH)] / sqrt(64), capped, times
 * v[row, b / (B / BH), n]. */
static double *reference(const PagedCase *c, const int32_t *req, const int32_t *table, const double *q,
	const double *k, const double *v)
{
	double *ref = calloc((size_t)c->S * c->B * c->N, sizeof(double));
	ck_assert(ref);
	int r = c->B / c->BH;
	for (int s = 0; s < c->S; s++) {
		int n = req[s + 1] - req[s];
		double *x = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
		ck_assert(x);
		for (int b = 0; b < c->B; b++) {
			int h = b / r;
			double mx = -INFINITY, den = 0;
			for (int t = 0; t < n; t++) {
				int64_t row = table[req[s] + t];
				double dot = 0;
				for (int e = 0; e < HEAD; e++)
					dot += q[((int64_t)s * c->B + b) * HEAD + e] * k[(row * c->BH + h) * HEAD + e];
				x[t] = dot / sqrt((double)HEAD);
				if (c->cap > 0)
					x[t] = c->cap * tanh(x[t] / c->cap);
				mx = fmax(mx, x[t]);
			}
			for (int t = 0; t < n; t++)
				den += x[t] = exp(x[t] - mx);
			for (int e = 0; e < c->N; e++) {
				double acc = 0;
				for (int t = 0; t < n; t++)
					acc += x[t] * v[((int64_t)table[req[s] + t] * c->BH + h) * c->N + e];
				ref[((int64_t)s * c->B + b) * c->N + e] = acc / den;
			}
		}
		free(x);
	}
	return ref;
}

static void run_phase(const char *args, const char *what, const char *mcpu)
{
	CmdResult r = test_wavecc("%s --mcpu %s", args, mcpu);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s on %s: status %d\n%s%s", what, mcpu, r.status,
		r.out, r.err);
	cmd_result_free(&r);
}

static void two_launches(const PagedCase *c, const char *mcpu, uint32_t seed, const char *tag)
{
	char args[4096], path[1024], err[256];
	const char *dir = test_tmpdir(tag);
	int tokens = c->S * c->LEN;
	/* Wave's create_inputs: running sums of LEN, the inner ones moved by
	 * randint(-d, d), d = LEN / 10 */
	int32_t *req = malloc(sizeof(int32_t) * (size_t)(c->S + 1)), *table = malloc(sizeof(int32_t) * (size_t)tokens);
	ck_assert(req && table);
	for (int i = 0; i <= c->S; i++) {
		req[i] = i * c->LEN;
		if (c->LEN / 10 > 0 && i > 0 && i < c->S)
			req[i] += (int32_t)(ref_lcg(&seed) % (uint32_t)(2 * (c->LEN / 10))) - c->LEN / 10;
	}
	for (int i = 0; i < tokens; i++)
		table[i] = i;
	for (int i = tokens - 1; i > 0; i--) { /* Fisher-Yates */
		int j = (int)(ref_lcg(&seed) % (uint32_t)(i + 1)), t = table[i];
		table[i] = table[j];
		table[j] = t;
	}
	size_t nq = (size_t)c->S * c->B * HEAD, nk = (size_t)tokens * c->BH * HEAD, nv = (size_t)tokens * c->BH * c->N;
	uint16_t *hq = malloc(nq * 2), *hk = malloc(nk * 2), *hv = malloc(nv * 2);
	double *q = malloc(nq * sizeof(double)), *k = malloc(nk * sizeof(double)), *v = malloc(nv * sizeof(double));
	ck_assert(hq && hk && hv && q && k && v);
	fill(c, hq, q, nq, seed + 61, 3); /* logits of deviation 1, as Wave's randn gives */
	fill(c, hk, k, nk, seed + 71, 1);
	fill(c, hv, v, nv, seed + 81, 1);
	DType in = c->bf16 ? DT_BF16 : DT_F16;
	ref_write_npy(dir, "q", in, 3, (int64_t[]){c->S, c->B, HEAD}, hq);
	ref_write_npy(dir, "k", in, 3, (int64_t[]){tokens, c->BH, HEAD}, hk);
	ref_write_npy(dir, "v", in, 3, (int64_t[]){tokens, c->BH, c->N}, hv);
	ref_write_npy(dir, "req", DT_I32, 1, (int64_t[]){c->S + 1}, req);
	ref_write_npy(dir, "table", DT_I32, 1, (int64_t[]){tokens}, table);

	/* B_WAVES = clamp(B / BH / 16, 1, 4), HEAD_BLOCK_SIZE = min(16 B_WAVES, B / BH) */
	int r = c->B / c->BH, waves = r / 16 < 1 ? 1 : r / 16 > 4 ? 4 : r / 16, block_b = r < 16 * waves ? r : 16 * waves;
	snprintf(args, sizeof args,
		"run tests/driver/wave/%s.json -D S=%d -D SP1=%d -D B=%d -D BH=%d -D N=%d -D BLOCK_B=%d -D B_WAVES=%d -D K2=%d "
		"-D N_KV=%d -D KV_START_IDX=0 -D SEQ_LEN=0 -D SPLIT_OFF=0 -D SPLIT_LEN=0 --in q='%s/q.npy' "
		"--in k='%s/k.npy' --in v='%s/v.npy' --in request_indices='%s/req.npy' --in kv_indices='%s/table.npy' "
		"--out output='%s/part.npy' --out output_max='%s/lse.npy'",
		c->p0, c->S, c->S + 1, c->B, c->BH, c->N, block_b, waves, tokens, tokens, dir, dir, dir, dir, dir, dir, dir);
	run_phase(args, "phase 0", mcpu);
	snprintf(args, sizeof args,
		"run tests/driver/wave/%s.json -D S=%d -D SP1=%d -D B=%d -D N=%d -D SPLITS_ACTIVE=%d "
		"--in logits='%s/part.npy' --in logits_max='%s/lse.npy' --in request_indices='%s/req.npy' "
		"--out output='%s/out.npy'",
		c->p1, c->S, c->S + 1, c->B, c->N, SPLITS, dir, dir, dir, dir);
	run_phase(args, "phase 1", mcpu);

	NpyArray out;
	snprintf(path, sizeof path, "%s/out.npy", dir);
	ck_assert_msg(npy_read(path, &out, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_check(&out, "output", in, 3, (int64_t[]){c->S, c->B, c->N}, err, sizeof err) == 0, "%s",
		err);
	double *ref = reference(c, req, table, q, k, v), tol = c->bf16 ? 1e-2 : 1e-3;
	const uint16_t *got = out.data;
	for (size_t i = 0; i < out.count; i++) {
		double g = c->bf16 ? dtype_bf16_to_f32(got[i]) : dtype_f16_to_f32(got[i]);
		ck_assert_msg(fabs(g - ref[i]) <= tol + tol * fabs(ref[i]),
			"%s (%d, %d, %d, %d, %d) on %s: output[%zu] = %.6f, reference %.6f", c->p0, c->B, c->BH, c->N,
			c->S, c->LEN, mcpu, i, g, ref[i]);
	}
	/* the inputs are not degenerate: the outputs are not all alike */
	ck_assert_msg(fabs(ref[0] - ref[out.count - 1]) > tol, "degenerate reference %g %g", ref[0], ref[out.count - 1]);
	npy_free(&out);
	free(ref);
	free(hq), free(hk), free(hv), free(q), free(k), free(v), free(req), free(table);
}

START_TEST(paged_two_launches)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	char tag[64];
	snprintf(tag, sizeof tag, "paged_%d_%s", _i, mcpu);
	two_launches(&cases[_i / 2], mcpu, 17u * (uint32_t)_i + 3u, tag);
}
END_TEST

/* A phase 0 output computed from the wrong kv head fails here: with two
 * kv heads (8 query heads each) the second head's queries read k and v of
 * head 1 only; checked by swapping the heads' v in the reference. */
START_TEST(reference_sees_the_kv_head)
{
	const PagedCase *c = &cases[1];
	int tokens = c->S * c->LEN;
	int32_t req[2] = {0, c->LEN}, *table = malloc(sizeof(int32_t) * (size_t)tokens);
	size_t nq = (size_t)c->S * c->B * HEAD, nk = (size_t)tokens * c->BH * HEAD, nv = (size_t)tokens * c->BH * c->N;
	double *q = malloc(nq * sizeof(double)), *k = malloc(nk * sizeof(double)), *v = malloc(nv * sizeof(double)),
	       *w = malloc(nv * sizeof(double));
	uint16_t *h = malloc(nk * 2);
	ck_assert(table && q && k && v && w && h);
	for (int i = 0; i < tokens; i++)
		table[i] = i;
	fill(c, h, q, nq, 5, 3);
	fill(c, h, k, nk, 6, 1);
	fill(c, h, v, nv, 7, 1);
	for (int t = 0; t < tokens; t++) /* w: v with the two heads swapped */
		for (int e = 0; e < c->N; e++) {
			w[((size_t)t * 2 + 0) * c->N + e] = v[((size_t)t * 2 + 1) * c->N + e];
			w[((size_t)t * 2 + 1) * c->N + e] = v[((size_t)t * 2 + 0) * c->N + e];
		}
	double *a = reference(c, req, table, q, k, v), *b = reference(c, req, table, q, k, w), most = 0;
	for (size_t i = 0; i < (size_t)c->B * c->N; i++)
		most = fmax(most, fabs(a[i] - b[i]));
	ck_assert_msg(most > 1e-2, "swapping the kv heads' values changes the reference by %g only", most);
	free(a), free(b), free(table), free(q), free(k), free(v), free(w), free(h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver.paged_decode");
	TCase *tc = tcase_create("two_launches");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, paged_two_launches, 0, (int)(2 * ARRAY_LEN(cases)));
	tcase_add_test(tc, reference_sees_the_kv_head);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
