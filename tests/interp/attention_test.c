/* attention_test.c — the interpreter on the attention examples against a
 * naive attention computed here in double:
 *   s[b,m,j] = sum_k1 q[b,m,k1] * k[b,j,k1]
 *   c[b,m,n] = sum_j 2^(s[b,m,j] - max_j s) * v[b,n,j] / sum_j 2^(s - max)
 * (Wave's kernels use exp2; the host pre-scales q by log2(e)/sqrt(K1), which
 * the test leaves out since it does not change the kernel.)
 *
 * Vanilla attention runs the online softmax inside an iterate over K2;
 * decode attention splits K2 across waves and workgroups in phase 0 and
 * combines the U partial results in phase 1 (the test passes phase 0's
 * outputs to phase 1 through the library, as the two launches would).
 *
 * Tolerance: the kernels round the probabilities to f16 before the second
 * mma (relative error up to 2^-11 each), so 2e-3 absolute plus 2e-3
 * relative on outputs of magnitude below 1.
 *
 * The transcribed Wave templates (tests/driver/wave/, the attention files) are
 * checked against a second reference, softmax(Q·Kᵀ·scale)·V in natural
 * exponentials with scale = 1/sqrt(head size), over any of their memory
 * layouts (BHSD, BSHD, V transposed or not), with the causal mask, the
 * sliding window (m - j <= window) and the custom row mask; testAttentionBias's
 * additive score bias and testAttentionSoftCap's cap·tanh(score/cap), both in
 * the kernels' base-2 units converted to natural ones (scale ln 2); ALiBi's
 * slope·min(j - m, 0); T5's relative position bias; the f8 kernels within
 * Wave's rmse bounds. Prefill attention against per-sequence attention over
 * packed sequences; backward_attention_test.py's kernels against the
 * analytic gradients of softmax(scale·Q·Kᵀ)·V. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../passes/graph/analysis.h"
#include "harness.h"

static double *reference(const InterpArg *q, const InterpArg *k, const InterpArg *v, int64_t B, int64_t M,
	int64_t N, int64_t K1, int64_t K2)
{
	double *ref = xcalloc((size_t)(B * M * N), sizeof(double));
	double *s = xmalloc(sizeof(double) * (size_t)K2);
	for (int64_t b = 0; b < B; b++)
		for (int64_t m = 0; m < M; m++) {
			double mx = -INFINITY, den = 0;
			for (int64_t j = 0; j < K2; j++) {
				s[j] = 0;
				for (int64_t c = 0; c < K1; c++)
					s[j] += el(q, (uint64_t)((b * M + m) * K1 + c)) * el(k, (uint64_t)((b * K2 + j) * K1 + c));
				mx = fmax(mx, s[j]);
			}
			for (int64_t j = 0; j < K2; j++) {
				s[j] = exp2(s[j] - mx);
				den += s[j];
			}
			for (int64_t n = 0; n < N; n++) {
				double acc = 0;
				for (int64_t j = 0; j < K2; j++)
					acc += s[j] * el(v, (uint64_t)((b * N + n) * K2 + j));
				ref[(b * M + m) * N + n] = acc / den;
			}
		}
	free(s);
	return ref;
}

START_TEST(vanilla_attention_online_softmax)
{
	Example ex;
	ex_open(&ex, "attention", NULL);
	InterpArg *q = ex_arg(&ex, "q"), *k = ex_arg(&ex, "k"), *v = ex_arg(&ex, "v"), *c = ex_arg(&ex, "c");
	int64_t B = q->shape[0], M = q->shape[1], K1 = q->shape[2], K2 = k->shape[1], N = v->shape[1];
	ck_assert_int_gt(K2, 64); /* more than one loop step */
	fill(q, 31, -0.5, 0.5, 1.0 / 256);
	fill(k, 32, -0.5, 0.5, 1.0 / 256);
	fill(v, 33, -1, 1, 1.0 / 256);
	ex_run(&ex);
	double *ref = reference(q, k, v, B, M, N, K1, K2);
	expect_close("attention", c, ref, 2e-3, 2e-3);
	free(ref);
	ex_close(&ex);
}
END_TEST

START_TEST(masked_attention_unaligned_k2)
{
	/* The vanilla_attention template's bias mask (self_index, apply_expr
	 * `x < K2`, select between 0 and -1e6) on K2 = 100 with BLOCK_K2 = 64:
	 * the second step's last 28 keys read zero and must be masked out. */
	Example ex;
	ex_open(&ex, "attention_masked", NULL);
	InterpArg *q = ex_arg(&ex, "q"), *k = ex_arg(&ex, "k"), *v = ex_arg(&ex, "v"), *c = ex_arg(&ex, "c");
	int64_t B = q->shape[0], M = q->shape[1], K1 = q->shape[2], K2 = k->shape[1], N = v->shape[1];
	ck_assert_int_eq(K2, 100);
	fill(q, 34, -0.5, 0.5, 1.0 / 256);
	fill(k, 35, -0.5, 0.5, 1.0 / 256);
	fill(v, 36, -1, 1, 1.0 / 256);
	ex_run(&ex);
	double *ref = reference(q, k, v, B, M, N, K1, K2);
	expect_close("masked attention", c, ref, 2e-3, 2e-3);
	free(ref);
	ex_close(&ex);
}
END_TEST

START_TEST(decode_attention_two_phases)
{
	Example p0, p1;
	ex_open(&p0, "decode_attention_phase0", NULL);
	ex_open(&p1, "decode_attention_phase1", NULL);
	InterpArg *q = ex_arg(&p0, "q"), *k = ex_arg(&p0, "k"), *v = ex_arg(&p0, "v");
	InterpArg *o0 = ex_arg(&p0, "output"), *m0 = ex_arg(&p0, "output_max");
	InterpArg *l1 = ex_arg(&p1, "logits"), *lm1 = ex_arg(&p1, "logits_max"), *out = ex_arg(&p1, "output");
	int64_t B = q->shape[0], M = q->shape[1], K1 = q->shape[2], K2 = k->shape[1], N = v->shape[1];
	ck_assert_int_eq(o0->shape[0], 8); /* U = K2 / (BLOCK_K2 / K_WAVES) splits */
	ck_assert_int_eq(l1->count, o0->count);
	ck_assert_int_eq(lm1->count, m0->count);
	fill(q, 41, -0.5, 0.5, 1.0 / 256);
	fill(k, 42, -0.5, 0.5, 1.0 / 256);
	fill(v, 43, -1, 1, 1.0 / 256);
	fill(o0, 44, 50, 51, 1);
	fill(m0, 45, 50, 51, 1);
	ex_run(&p0);
	memcpy(l1->data, o0->data, o0->count * sizeof(float));
	memcpy(lm1->data, m0->data, m0->count * sizeof(float));
	ex_run(&p1);
	double *ref = reference(q, k, v, B, M, N, K1, K2);
	expect_close("decode attention", out, ref, 2e-3, 2e-3);
	free(ref);
	ex_close(&p0);
	ex_close(&p1);
}
END_TEST

/* Element strides of a 4-d (b, h, row, col) view of an argument; a dim
 * the layout lacks has stride 0. hdiv > 1: the argument holds one head
 * per hdiv query heads (GQA's K and V: head h reads kv head h / hdiv). */
typedef struct View {
	const InterpArg *a;
	int64_t sb, sh, sr, sc;
	int64_t hdiv;
} View;

/* A view with its argument's elements read once (as el() reads them), for
 * the reference's inner loops. */
typedef struct Loaded {
	const View *v;
	double *val;
} Loaded;

static Loaded view_load(const View *v)
{
	Loaded l = {v, xmalloc(sizeof(double) * (size_t)(v->a->count ? v->a->count : 1))};
	for (uint64_t i = 0; i < v->a->count; i++)
		l.val[i] = el(v->a, i);
	return l;
}

static double at(const Loaded *l, int64_t b, int64_t h, int64_t r, int64_t c)
{
	const View *v = l->v;
	int64_t kh = v->hdiv > 1 ? h / v->hdiv : h;
	return l->val[b * v->sb + kh * v->sh + r * v->sr + c * v->sc];
}

typedef struct Sdpa {
	int64_t B, H, M, N, D, K2;
	bool causal;
	int64_t window;               /* < 0: none */
	const InterpArg *row_mask;    /* [B, M]: nonzero masks the whole row; or NULL */
	double scale;                 /* 0: 1/sqrt(D) */
	const InterpArg *bias;        /* [B, M, K2] added to the scaled scores, times
	                                 bias_scale; or NULL */
	double bias_scale;
	double softcap;               /* > 0: scores become softcap·tanh(score/softcap) */
	const InterpArg *alibi;       /* [B] slopes: adds slope·min(j - m, 0), times
	                                 bias_scale; or NULL */
	const InterpArg *rpe;         /* [max_rpe + 1]: T5's rpe[m - j] for 0 <= m - j <
	                                 max_rpe, else rpe[max_rpe], times bias_scale */
	int64_t max_rpe;
} Sdpa;

/* ln 2: converts the kernels' base-2 scores to natural ones (M_LN2 is not C11) */
static const double LN2 = 0.69314718055994530942;

/* One scaled score with the bias and soft cap Wave's tests put on it. */
static double score(const Sdpa *p, double dot, int64_t b, int64_t m, int64_t j)
{
	double s = dot * (p->scale != 0 ? p->scale : 1.0 / sqrt((double)p->D));
	if (p->bias)
		s += p->bias_scale * el(p->bias, (uint64_t)((b * p->M + m) * p->K2 + j));
	if (p->alibi)
		s += p->bias_scale * el(p->alibi, (uint64_t)b) * (double)(j < m ? j - m : 0);
	if (p->rpe)
		s += p->bias_scale * el(p->rpe, (uint64_t)(m - j >= 0 && m - j < p->max_rpe ? m - j : p->max_rpe));
	if (p->softcap > 0)
		s = p->softcap * tanh(s / p->softcap);
	return s;
}

/* softmax((q·kᵀ) / sqrt(D) + mask) · v; a row with no key left is 0 (the
 * BSHD template's guard against 0/0). Output in the (b, h, m, n) order of
 * `out` strides, flattened by the caller's View of the result. */
static double *sdpa(const Sdpa *p, const View *qv, const View *kv, const View *vv, const View *o, size_t count)
{
	Loaded ql = view_load(qv), kl = view_load(kv), vl = view_load(vv), *q = &ql, *k = &kl, *v = &vl;
	double *ref = xcalloc(count, sizeof(double));
	double *w = xmalloc(sizeof(double) * (size_t)p->K2);
	for (int64_t b = 0; b < p->B; b++)
		for (int64_t h = 0; h < p->H; h++)
			for (int64_t m = 0; m < p->M; m++) {
				bool row_off = p->row_mask && el(p->row_mask, (uint64_t)(b * p->M + m)) != 0;
				double mx = -INFINITY, den = 0;
				for (int64_t j = 0; j < p->K2; j++) {
					bool keep = !row_off && (!p->causal || m >= j) && (p->window < 0 || m - j <= p->window);
					w[j] = -INFINITY;
					if (!keep)
						continue;
					double acc = 0;
					for (int64_t d = 0; d < p->D; d++)
						acc += at(q, b, h, m, d) * at(k, b, h, j, d);
					w[j] = score(p, acc, b, m, j);
					mx = fmax(mx, w[j]);
				}
				for (int64_t j = 0; j < p->K2; j++) {
					w[j] = w[j] == -INFINITY ? 0 : exp(w[j] - mx);
					den += w[j];
				}
				for (int64_t n = 0; n < p->N; n++) {
					double acc = 0;
					for (int64_t j = 0; den > 0 && j < p->K2; j++)
						acc += w[j] * at(v, b, h, j, n);
					ref[b * o->sb + h * o->sh + m * o->sr + n * o->sc] = den > 0 ? acc / den : 0;
				}
			}
	free(w);
	free(ql.val), free(kl.val), free(vl.val);
	return ref;
}

/* A transcribed Wave kernel (tests/driver/wave/FILE), its text with the
 * first occurrence of `from` replaced by `to` (a register's value: the
 * sliding window), its symbols overridden as `wavecc run -D` does. */
typedef struct WaveKernel {
	Kernel *k, *bound;
	Interp in;
	Diag d;
} WaveKernel;

/* wk_open with values for the kernel's dynamic symbols, in their order */
static void wk_open_dyn(WaveKernel *w, const char *file, const char *from, const char *to, int n,
	const char *const *name, const int64_t *val, const int64_t *dyn)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/tests/driver/wave/%s", test_root(), file);
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s: cannot open", path);
	Buf text = {0};
	char chunk[4096];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_putn(&text, chunk, got);
	fclose(f);
	Buf edited = {0};
	const char *hit = from ? strstr(buf_cstr(&text), from) : NULL;
	ck_assert_msg(!from || hit, "%s: no '%s'", file, from);
	if (hit) {
		buf_putn(&edited, text.data, (size_t)(hit - text.data));
		buf_puts(&edited, to);
		buf_puts(&edited, hit + strlen(from));
	} else
		buf_putn(&edited, text.data, text.len);
	diag_init(&w->d);
	w->k = load_kernel_text(buf_cstr(&edited), edited.len, path, &w->d);
	ck_assert_msg(w->k != NULL, "%s does not load", path);
	w->bound = subst_bound_view(w->k, n, name, val, &w->d);
	ck_assert_msg(w->bound != NULL, "%s: the overrides do not apply", path);
	ck_assert_msg(interp_init(&w->in, w->bound, dyn, &w->d) == 0, "%s: interp_init failed", path);
	buf_free(&text);
	buf_free(&edited);
}

static void wk_open(WaveKernel *w, const char *file, const char *from, const char *to, int n, const char *const *name,
	const int64_t *val)
{
	wk_open_dyn(w, file, from, to, n, name, val, NULL);
}

static InterpArg *wk_arg(WaveKernel *w, const char *name)
{
	InterpArg *a = interp_arg(&w->in, name);
	ck_assert_msg(a != NULL, "no argument %s", name);
	return a;
}

static void wk_run_close(WaveKernel *w, const char *what, const double *ref, const InterpArg *c)
{
	ck_assert_msg(interp_run(&w->in) == 0, "%s: interp_run failed (see the diagnostics above)", what);
	expect_close(what, c, ref, 2e-3, 2e-3);
	interp_free(&w->in);
	kernel_view_free(w->bound);
	kernel_free(w->k);
}

START_TEST(wave_vanilla_causal_sliding_window)
{
	/* templates/vanilla_attention.py, causal, V transposed [B, N, K2], its
	 * i64 mask; the window brought down from 1024 to 40 so that it masks
	 * (at Wave's shapes m - j never exceeds 1023), K2 = 200 unaligned */
	const char *name[] = {"B", "M", "K2"};
	const int64_t val[] = {2, 128, 200};
	WaveKernel w;
	wk_open(&w, "vanilla_attention_causal_sw_32x32x8.json", "\"value\": 1024", "\"value\": 40", 3, name, val);
	InterpArg *q = wk_arg(&w, "q"), *k = wk_arg(&w, "k"), *v = wk_arg(&w, "v"), *c = wk_arg(&w, "c");
	int64_t B = 2, M = 128, N = 128, D = 64, K2 = 200;
	fill(q, 51, -2, 2, 1.0 / 64);
	fill(k, 52, -2, 2, 1.0 / 64);
	fill(v, 53, -1, 1, 1.0 / 256);
	Sdpa p = {B, 1, M, N, D, K2, true, 40, NULL, 0, NULL, 0, 0, NULL, NULL, 0};
	View qv = {q, M * D, 0, D, 1, 0}, kv = {k, K2 * D, 0, D, 1, 0}, vv = {v, N * K2, 0, 1, K2, 0}, ov = {c, M * N, 0, N, 1, 0};
	double *ref = sdpa(&p, &qv, &kv, &vv, &ov, c->count);
	wk_run_close(&w, "vanilla causal sliding window", ref, c);
	free(ref);
}
END_TEST

START_TEST(wave_vanilla_v_mapping)
{
	/* testAttentionPure's kernel: V [B, K2, N] read through v_mapping */
	const char *name[] = {"B", "K2"};
	const int64_t val[] = {1, 100};
	WaveKernel w;
	wk_open(&w, "vanilla_attention_16x16x16.json", NULL, NULL, 2, name, val);
	InterpArg *q = wk_arg(&w, "q"), *k = wk_arg(&w, "k"), *v = wk_arg(&w, "v"), *c = wk_arg(&w, "c");
	int64_t M = 128, N = 128, D = 64, K2 = 100;
	fill(q, 54, -2, 2, 1.0 / 64);
	fill(k, 55, -2, 2, 1.0 / 64);
	fill(v, 56, -1, 1, 1.0 / 256);
	Sdpa p = {1, 1, M, N, D, K2, false, -1, NULL, 0, NULL, 0, 0, NULL, NULL, 0};
	View qv = {q, 0, 0, D, 1, 0}, kv = {k, 0, 0, D, 1, 0}, vv = {v, 0, 0, N, 1, 0}, ov = {c, 0, 0, N, 1, 0};
	double *ref = sdpa(&p, &qv, &kv, &vv, &ov, c->count);
	wk_run_close(&w, "vanilla, V through v_mapping", ref, c);
	free(ref);
}
END_TEST

START_TEST(wave_bhsd_causal)
{
	/* get_bhsd_attention_kernel, causal: q [B, H, M, D] scaled in f16 */
	const char *name[] = {"B", "H"};
	const int64_t val[] = {1, 2};
	WaveKernel w;
	wk_open(&w, "bhsd_attention_causal_32x32x8.json", NULL, NULL, 2, name, val);
	InterpArg *q = wk_arg(&w, "q"), *k = wk_arg(&w, "k"), *v = wk_arg(&w, "v"), *c = wk_arg(&w, "c");
	int64_t H = 2, M = 128, N = 128, D = 128, K2 = 128;
	fill(q, 57, -2, 2, 1.0 / 64);
	fill(k, 58, -2, 2, 1.0 / 64);
	fill(v, 59, -1, 1, 1.0 / 256);
	Sdpa p = {1, H, M, N, D, K2, true, -1, NULL, 0, NULL, 0, 0, NULL, NULL, 0};
	View qv = {q, 0, M * D, D, 1, 0}, kv = {k, 0, K2 * D, D, 1, 0}, vv = {v, 0, K2 * N, N, 1, 0}, ov = {c, 0, M * N, N, 1, 0};
	double *ref = sdpa(&p, &qv, &kv, &vv, &ov, c->count);
	wk_run_close(&w, "BHSD causal", ref, c);
	free(ref);
}
END_TEST

START_TEST(wave_bshd_custom_mask)
{
	/* get_bshd_attention_kernel with the custom row mask: [B, S, H, D]
	 * layouts, K2 = 100 unaligned; masked rows give 0 */
	const char *name[] = {"H", "K2"};
	const int64_t val[] = {2, 100};
	WaveKernel w;
	wk_open(&w, "bshd_attention_custom_mask_16x16x16.json", NULL, NULL, 2, name, val);
	InterpArg *q = wk_arg(&w, "q"), *k = wk_arg(&w, "k"), *v = wk_arg(&w, "v"), *c = wk_arg(&w, "c");
	InterpArg *mask = wk_arg(&w, "custom_mask");
	int64_t H = 2, M = 128, N = 128, D = 64, K2 = 100;
	fill(q, 60, -2, 2, 1.0 / 64);
	fill(k, 61, -2, 2, 1.0 / 64);
	fill(v, 62, -1, 1, 1.0 / 256);
	fill(mask, 63, 0, 2, 1);
	int64_t on = 0;
	for (uint64_t i = 0; i < mask->count; i++)
		on += el(mask, i) != 0;
	ck_assert_msg(on > 0 && on < (int64_t)mask->count, "the row mask should mask some rows, not all");
	Sdpa p = {1, H, M, N, D, K2, false, -1, mask, 0, NULL, 0, 0, NULL, NULL, 0};
	View qv = {q, 0, D, H * D, 1, 0}, kv = {k, 0, D, H * D, 1, 0}, vv = {v, 0, N, H * N, 1, 0}, ov = {c, 0, N, H * N, 1, 0};
	double *ref = sdpa(&p, &qv, &kv, &vv, &ov, c->count);
	wk_run_close(&w, "BSHD custom mask", ref, c);
	free(ref);
}
END_TEST

START_TEST(wave_gqa_bshd)
{
	/* templates/gqa_vanilla_attention.py: 34 query heads over 2 kv heads,
	 * K and V read through H_KV = j // 32 (the template's head_ratio at
	 * Wave's 32 heads over 1), so heads 32 and 33 take kv head 1; H_KV a
	 * non-primary workgroup dim on H's workgroup id, N_KV = 100 unaligned */
	const char *name[] = {"H", "H_KV", "N_Q", "N_KV", "D_KV"};
	const int64_t val[] = {34, 2, 128, 100, 128};
	WaveKernel w;
	wk_open(&w, "gqa_bshd_attention_16x16x16.json", NULL, NULL, 5, name, val);
	InterpArg *q = wk_arg(&w, "q"), *k = wk_arg(&w, "k"), *v = wk_arg(&w, "v"), *c = wk_arg(&w, "c");
	int64_t H = 34, HKV = 2, M = 128, N = 128, D = 256, K2 = 100;
	fill(q, 64, -2, 2, 1.0 / 64);
	fill(k, 65, -2, 2, 1.0 / 64);
	fill(v, 66, -1, 1, 1.0 / 256);
	Sdpa p = {1, H, M, N, D, K2, false, -1, NULL, 0, NULL, 0, 0, NULL, NULL, 0};
	View qv = {q, 0, D, H * D, 1, 0}, kv = {k, 0, D, HKV * D, 1, 32}, vv = {v, 0, N, HKV * N, 1, 32},
	     ov = {c, 0, N, H * N, 1, 0};
	double *ref = sdpa(&p, &qv, &kv, &vv, &ov, c->count);
	/* the heads on kv head 1 must differ from those on kv head 0, or the
	 * check would not see a wrong kv head */
	ck_assert(fabs(ref[32 * N] - ref[0]) > 1e-3 || fabs(ref[33 * N + 1] - ref[1]) > 1e-3);
	wk_run_close(&w, "GQA BSHD", ref, c);
	free(ref);
}
END_TEST

/* Extend attention (templates/extend_attention.py): per sequence s, the
 * queries q[qo_indptr[s] + m] attend the prefix keys held in the KV cache at
 * rows kv_indices[kv_indptr[s] + j] (all of them) and the sequence's own
 * new keys k[qo_indptr[s] + j] (causal: j <= m), with the logit cap:
 * softmax(cap·tanh(q·kᵀ/sqrt(D)/cap))·v in natural exponentials. */
typedef struct Extend {
	int nseq;
	const int64_t *prefix, *ext; /* per sequence */
	int64_t H, HKV, D;
	double cap;
	bool causal;
	bool custom_mask; /* the kernel's custom_mask: sequence s's row m keeps
	                     key c (prefix keys first) where
	                     custom_mask[mask_offsets[s] + m·(prefix + ext) + c] != 0 */
} Extend;

static double *extend_reference(const Extend *p, WaveKernel *w)
{
	InterpArg *q = wk_arg(w, "q"), *k = wk_arg(w, "k"), *v = wk_arg(w, "v"), *kc = wk_arg(w, "k_cache");
	InterpArg *vc = wk_arg(w, "v_cache"), *qo = wk_arg(w, "qo_indptr"), *kvp = wk_arg(w, "kv_indptr");
	InterpArg *idx = wk_arg(w, "kv_indices"), *c = wk_arg(w, "c");
	InterpArg *cm = p->custom_mask ? wk_arg(w, "custom_mask") : NULL;
	InterpArg *moff = p->custom_mask ? wk_arg(w, "mask_offsets") : NULL;
	double *ref = xcalloc(c->count, sizeof(double));
	int64_t H = p->H, D = p->D, hdiv = p->H / p->HKV;
	double *a = xmalloc(sizeof(double) * 4096);
	const InterpArg **kr = xmalloc(sizeof(*kr) * 4096), **vr = xmalloc(sizeof(*vr) * 4096);
	int64_t *row = xmalloc(sizeof(int64_t) * 4096);
	for (int s = 0; s < p->nseq; s++) {
		int64_t q0 = (int64_t)el(qo, (uint64_t)s), p0 = (int64_t)el(kvp, (uint64_t)s);
		int64_t mrow = p->prefix[s] + p->ext[s], m0 = p->custom_mask ? (int64_t)el(moff, (uint64_t)s) : 0;
		for (int64_t m = 0; m < p->ext[s]; m++) {
			/* the keys this query sees, in order: prefix, then new */
			int64_t n = 0;
			for (int64_t j = 0; j < p->prefix[s]; j++) {
				if (p->custom_mask && el(cm, (uint64_t)(m0 + m * mrow + j)) == 0)
					continue;
				kr[n] = kc;
				vr[n] = vc;
				row[n++] = (int64_t)el(idx, (uint64_t)(p0 + j));
			}
			for (int64_t j = 0; j < p->ext[s] && (!p->causal || j <= m); j++) {
				if (p->custom_mask && el(cm, (uint64_t)(m0 + m * mrow + p->prefix[s] + j)) == 0)
					continue;
				kr[n] = k;
				vr[n] = v;
				row[n++] = q0 + j;
			}
			ck_assert(n <= 4096);
			for (int64_t h = 0; h < H; h++) {
				int64_t kh = h / hdiv;
				double mx = -INFINITY, den = 0;
				for (int64_t j = 0; j < n; j++) {
					double dot = 0;
					for (int64_t d = 0; d < D; d++)
						dot += el(q, (uint64_t)(((q0 + m) * H + h) * D + d)) *
						       el(kr[j], (uint64_t)((row[j] * p->HKV + kh) * D + d));
					a[j] = p->cap * tanh(dot / sqrt((double)D) / p->cap);
					mx = fmax(mx, a[j]);
				}
				for (int64_t j = 0; j < n; j++) {
					a[j] = exp(a[j] - mx);
					den += a[j];
				}
				for (int64_t e = 0; e < D; e++) {
					double acc = 0;
					for (int64_t j = 0; j < n; j++)
						acc += a[j] * el(vr[j], (uint64_t)((row[j] * p->HKV + kh) * D + e));
					ref[((q0 + m) * H + h) * D + e] = acc / den;
				}
			}
		}
	}
	free(a);
	free(kr);
	free(vr);
	free(row);
	return ref;
}

/* i32 element i of a (the index buffers the test lays out). */
static void set_i32(InterpArg *a, uint64_t i, int64_t v)
{
	ck_assert(a->dtype == DT_I32 && i < a->count);
	((int32_t *)a->data)[i] = (int32_t)v;
}

/* Two sequences (prefixes 37 and 70, new tokens 50 and 90: unaligned to
 * BLOCK_N_KV 32 and BLOCK_N_Q 64, the second spanning two workgroups) of 2
 * query heads on 1 kv head, head size 128. The buffers that share N_KV
 * (k and v: 140 new tokens, the caches: 247 rows, kv_indices: 107 prefix
 * rows) are padded to the largest, and q and c (140 new tokens) to 160
 * rows, which must stay 0 (a write past a sequence's new tokens would land
 * there); the prefix rows are scattered over the cache (kv_indices a
 * stride-7 walk), so a wrong row would show. */
static void extend_case(const char *file, bool causal)
{
	static const int64_t prefix[] = {37, 70}, ext[] = {50, 90};
	/* N_Q, N_KV, S, EXT_IDX, KV_START_IDX (set in the kernel, the launch
	 * value unused), MAX_EXTEND_SEQ_LEN */
	const int64_t dyn[] = {160, 247, 3, 0, 0, 90};
	WaveKernel w;
	wk_open_dyn(&w, file, NULL, NULL, 0, NULL, NULL, dyn);
	fill(wk_arg(&w, "q"), 70, -2, 2, 1.0 / 64);
	fill(wk_arg(&w, "k"), 71, -2, 2, 1.0 / 64);
	fill(wk_arg(&w, "v"), 72, -1, 1, 1.0 / 256);
	fill(wk_arg(&w, "k_cache"), 73, -2, 2, 1.0 / 64);
	fill(wk_arg(&w, "v_cache"), 74, -1, 1, 1.0 / 256);
	InterpArg *qo = wk_arg(&w, "qo_indptr"), *kvp = wk_arg(&w, "kv_indptr"), *idx = wk_arg(&w, "kv_indices");
	for (int s = 0; s <= 2; s++) {
		set_i32(qo, (uint64_t)s, s == 0 ? 0 : ext[0] + (s == 2 ? ext[1] : 0));
		set_i32(kvp, (uint64_t)s, s == 0 ? 0 : prefix[0] + (s == 2 ? prefix[1] : 0));
	}
	for (int64_t i = 0; i < prefix[0] + prefix[1]; i++)
		set_i32(idx, (uint64_t)i, (7 * i + 3) % 247);
	Extend p = {2, prefix, ext, 2, 1, 128, 30.0, causal, false};
	double *ref = extend_reference(&p, &w);
	wk_run_close(&w, causal ? "extend attention, causal" : "extend attention", ref, wk_arg(&w, "c"));
	free(ref);
}

/* The custom-mask variant with a mask that is neither causal nor full: row
 * m of each sequence keeps the prefix keys and new keys whose position
 * plus m is not a multiple of 3, and always its first key, so that every
 * row keeps some. Its 10 dynamic symbols: N_Q, N_KV, S, EXT_IDX,
 * KV_START_IDX, MAX_EXTEND_SEQ_LEN, MASK_LEN, SEQ_LEN, MASK_START_IDX,
 * PREFIX_LEN (the last three set in the kernel). */
static void extend_mask_case(const char *file)
{
	static const int64_t prefix[] = {37, 70}, ext[] = {50, 90};
	const int64_t dyn[] = {160, 247, 3, 0, 0, 90, 18750, 0, 0, 0};
	WaveKernel w;
	wk_open_dyn(&w, file, NULL, NULL, 0, NULL, NULL, dyn);
	fill(wk_arg(&w, "q"), 75, -2, 2, 1.0 / 64);
	fill(wk_arg(&w, "k"), 76, -2, 2, 1.0 / 64);
	fill(wk_arg(&w, "v"), 77, -1, 1, 1.0 / 256);
	fill(wk_arg(&w, "k_cache"), 78, -2, 2, 1.0 / 64);
	fill(wk_arg(&w, "v_cache"), 79, -1, 1, 1.0 / 256);
	InterpArg *qo = wk_arg(&w, "qo_indptr"), *kvp = wk_arg(&w, "kv_indptr"), *idx = wk_arg(&w, "kv_indices");
	InterpArg *cm = wk_arg(&w, "custom_mask"), *moff = wk_arg(&w, "mask_offsets");
	int64_t at = 0;
	for (int s = 0; s <= 2; s++) {
		set_i32(qo, (uint64_t)s, s == 0 ? 0 : ext[0] + (s == 2 ? ext[1] : 0));
		set_i32(kvp, (uint64_t)s, s == 0 ? 0 : prefix[0] + (s == 2 ? prefix[1] : 0));
		set_i32(moff, (uint64_t)s, at);
		for (int64_t m = 0; s < 2 && m < ext[s]; m++)
			for (int64_t c = 0; c < prefix[s] + ext[s]; c++, at++)
				dtype_store(cm->dtype, cm->data, (uint64_t)at, c == 0 || (c < prefix[s] ? c + m : c + 2 * m) % 3 != 0);
	}
	ck_assert(at == 18750);
	for (int64_t i = 0; i < prefix[0] + prefix[1]; i++)
		set_i32(idx, (uint64_t)i, (7 * i + 3) % 247);
	Extend p = {2, prefix, ext, 2, 1, 128, 30.0, false, true};
	double *ref = extend_reference(&p, &w);
	wk_run_close(&w, "extend attention, custom mask", ref, wk_arg(&w, "c"));
	free(ref);
}

START_TEST(wave_extend_custom_mask)
{
	extend_mask_case("extend_attention_custom_mask_16x16x16.json");
	extend_mask_case("extend_attention_custom_mask_32x32x8.json");
}
END_TEST

START_TEST(wave_extend)
{
	extend_case("extend_attention_16x16x16.json", false);
}
END_TEST

START_TEST(wave_extend_causal)
{
	extend_case("extend_attention_causal_32x32x8.json", true);
}
END_TEST

/* Prefill attention (templates/prefill_attention.py): sequences packed
 * along the token dim, sequence s at rows off[s] .. off[s] + len[s] of q,
 * k, v and c; each query attends every key of its own sequence only, in
 * the kernel's base-2 units (Wave's host scales q by log2(e)/sqrt(D)):
 *   c[off + m, h] = sum_j 2^(s_mj - max) v[off + j, h / hdiv] / sum_j 2^(s_mj - max)
 * with s_mj = q[off + m, h] · k[off + j, h / hdiv]. */
static double *prefill_reference(int nseq, const int64_t *off, const int64_t *len, int64_t H, int64_t HKV,
	int64_t D, WaveKernel *w)
{
	InterpArg *q = wk_arg(w, "q"), *k = wk_arg(w, "k"), *v = wk_arg(w, "v"), *c = wk_arg(w, "c");
	double *ref = xcalloc(c->count, sizeof(double));
	double *a = xmalloc(sizeof(double) * 4096);
	for (int s = 0; s < nseq; s++)
		for (int64_t m = 0; m < len[s]; m++)
			for (int64_t h = 0; h < H; h++) {
				int64_t kh = h / (H / HKV), qm = off[s] + m;
				double mx = -INFINITY, den = 0;
				ck_assert(len[s] <= 4096);
				for (int64_t j = 0; j < len[s]; j++) {
					double dot = 0;
					for (int64_t d = 0; d < D; d++)
						dot += el(q, (uint64_t)((qm * H + h) * D + d)) *
						       el(k, (uint64_t)(((off[s] + j) * HKV + kh) * D + d));
					a[j] = dot;
					mx = fmax(mx, dot);
				}
				for (int64_t j = 0; j < len[s]; j++) {
					a[j] = exp2(a[j] - mx);
					den += a[j];
				}
				for (int64_t e = 0; e < D; e++) {
					double acc = 0;
					for (int64_t j = 0; j < len[s]; j++)
						acc += a[j] * el(v, (uint64_t)(((off[s] + j) * HKV + kh) * D + e));
					ref[(qm * H + h) * D + e] = acc / den;
				}
			}
	free(a);
	return ref;
}

START_TEST(wave_prefill)
{
	/* three sequences of 50, 130 and 64 tokens (unaligned to the 64-row
	 * tiles, the second over three workgroups) packed into 244 rows, 4
	 * query heads on 2 kv heads, head size 64 */
	static const int64_t off[] = {0, 50, 180}, len[] = {50, 130, 64};
	const char *name[] = {"H", "H_KV", "HEAD_RATIO", "D_Q", "D_KV", "S", "MAX_SEQ_LEN"};
	const int64_t val[] = {4, 2, 2, 64, 64, 3, 130};
	const int64_t dyn[] = {244, 244, 0}; /* N_Q, N_KV, OFFSET (set in the kernel) */
	WaveKernel w;
	wk_open_dyn(&w, "prefill_attention_16x16x16.json", NULL, NULL, 7, name, val, dyn);
	fill(wk_arg(&w, "q"), 80, -2, 2, 1.0 / 64);
	fill(wk_arg(&w, "k"), 81, -2, 2, 1.0 / 64);
	fill(wk_arg(&w, "v"), 82, -1, 1, 1.0 / 256);
	InterpArg *o = wk_arg(&w, "offsets"), *l = wk_arg(&w, "sequence_lengths");
	for (int s = 0; s < 3; s++) {
		set_i32(o, (uint64_t)s, off[s]);
		set_i32(l, (uint64_t)s, len[s]);
	}
	double *ref = prefill_reference(3, off, len, 4, 2, 64, &w);
	wk_run_close(&w, "prefill attention", ref, wk_arg(&w, "c"));
	free(ref);
}
END_TEST

/* backward_attention_test.py's kernels: the forward pass and the gradients
 * of o = softmax(scale·q·kᵀ)·v for an upstream gradient do, derived by
 * hand and computed here in double (no finite differences):
 *   p = exp(s - lse), s = scale·q·kᵀ, lse = log sum_j exp(s)
 *   D = rowsum(do ∘ o), dp = do·vᵀ, ds = p ∘ (dp - D)
 *   dv = pᵀ·do, dk = scale·dsᵀ·q, dq = scale·ds·k
 * The kernels take lse and D as f16 inputs (Wave's test passes the torch
 * reference's), set here from the reference (rounded to f16); with q, k in
 * [-1, 1) the scores stay small, so those roundings and p's and ds's f16
 * stores keep every output within Wave's 3e-3, where a wrong operand order
 * or layout errs by O(0.1). */
typedef struct Grad {
	int64_t B, M, N, K1, K2;
	double scale;
	double *s, *p, *o, *lse, *D, *dp, *ds, *dq, *dk, *dv;
} Grad;

static void grad_reference(Grad *g, const InterpArg *q, const InterpArg *k, const InterpArg *v, const InterpArg *dout)
{
	int64_t B = g->B, M = g->M, N = g->N, K1 = g->K1, K2 = g->K2;
	size_t mk = (size_t)(B * M * K2);
	g->s = xcalloc(mk, sizeof(double));
	g->p = xcalloc(mk, sizeof(double));
	g->dp = xcalloc(mk, sizeof(double));
	g->ds = xcalloc(mk, sizeof(double));
	g->o = xcalloc((size_t)(B * M * N), sizeof(double));
	g->lse = xcalloc((size_t)(B * M), sizeof(double));
	g->D = xcalloc((size_t)(B * M), sizeof(double));
	g->dq = xcalloc((size_t)(B * M * K1), sizeof(double));
	g->dk = xcalloc((size_t)(B * K2 * K1), sizeof(double));
	g->dv = xcalloc((size_t)(B * K2 * N), sizeof(double));
	for (int64_t b = 0; b < B; b++)
		for (int64_t m = 0; m < M; m++) {
			int64_t bm = b * M + m;
			double mx = -INFINITY, sum = 0;
			for (int64_t j = 0; j < K2; j++) {
				double dot = 0;
				for (int64_t d = 0; d < K1; d++)
					dot += el(q, (uint64_t)(bm * K1 + d)) * el(k, (uint64_t)((b * K2 + j) * K1 + d));
				g->s[bm * K2 + j] = g->scale * dot;
				mx = fmax(mx, g->scale * dot);
			}
			for (int64_t j = 0; j < K2; j++)
				sum += exp(g->s[bm * K2 + j] - mx);
			g->lse[bm] = mx + log(sum);
			for (int64_t j = 0; j < K2; j++)
				g->p[bm * K2 + j] = exp(g->s[bm * K2 + j] - g->lse[bm]);
			for (int64_t n = 0; n < N; n++) {
				double acc = 0;
				for (int64_t j = 0; j < K2; j++)
					acc += g->p[bm * K2 + j] * el(v, (uint64_t)((b * K2 + j) * N + n));
				g->o[bm * N + n] = acc;
				g->D[bm] += el(dout, (uint64_t)(bm * N + n)) * acc;
			}
			for (int64_t j = 0; j < K2; j++) {
				double acc = 0;
				for (int64_t n = 0; n < N; n++)
					acc += el(dout, (uint64_t)(bm * N + n)) * el(v, (uint64_t)((b * K2 + j) * N + n));
				g->dp[bm * K2 + j] = acc;
				g->ds[bm * K2 + j] = g->p[bm * K2 + j] * (acc - g->D[bm]);
			}
		}
	for (int64_t b = 0; b < B; b++)
		for (int64_t m = 0; m < M; m++)
			for (int64_t j = 0; j < K2; j++) {
				int64_t at = (b * M + m) * K2 + j;
				for (int64_t n = 0; n < N; n++)
					g->dv[(b * K2 + j) * N + n] += g->p[at] * el(dout, (uint64_t)((b * M + m) * N + n));
				for (int64_t d = 0; d < K1; d++) {
					g->dk[(b * K2 + j) * K1 + d] += g->scale * g->ds[at] * el(q, (uint64_t)((b * M + m) * K1 + d));
					g->dq[(b * M + m) * K1 + d] += g->scale * g->ds[at] * el(k, (uint64_t)((b * K2 + j) * K1 + d));
				}
			}
}

static void grad_free(Grad *g)
{
	double *all[] = {g->s, g->p, g->o, g->lse, g->D, g->dp, g->ds, g->dq, g->dk, g->dv};
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		free(all[i]);
}

/* One backward_attention_test.py kernel at (B, M, N, K1, K2) = (2, 32, 32,
 * 32, 64): q, k, v, do filled here, lse and D (where the kernel takes
 * them) set from the reference; the outputs it writes checked. */
static void backward_case(const char *file)
{
	const char *name[] = {"B", "M", "N", "K1", "K2"};
	const int64_t val[] = {2, 32, 32, 32, 64};
	WaveKernel w;
	wk_open(&w, file, NULL, NULL, 5, name, val);
	Grad g = {2, 32, 32, 32, 64, 1.0 / sqrt(32.0), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
	InterpArg *q = wk_arg(&w, "q"), *k = wk_arg(&w, "k");
	InterpArg *v = interp_arg(&w.in, "v"), *dout = interp_arg(&w.in, "do");
	fill(q, 90, -1, 1, 1.0 / 64);
	fill(k, 91, -1, 1, 1.0 / 64);
	if (v)
		fill(v, 92, -1, 1, 1.0 / 256);
	if (dout)
		fill(dout, 93, -1, 1, 1.0 / 256);
	/* the reference needs v and do: the dv kernel has no v (a stand-in
	 * filled alike, unused by it); the forward kernel's v is [B, N, K2]
	 * (Wave passes v transposed), so it computes from a copy */
	InterpArg vt = {0}, dt = {0};
	double *vbuf = NULL, *dbuf = NULL;
	if (!v || v->shape[1] == g.N) {
		vbuf = xcalloc((size_t)(g.B * g.K2 * g.N), sizeof(double));
		vt = (InterpArg){.dtype = DT_F64, .count = (uint64_t)(g.B * g.K2 * g.N), .data = vbuf};
		for (int64_t b = 0; b < g.B; b++)
			for (int64_t j = 0; j < g.K2; j++)
				for (int64_t n = 0; n < g.N; n++)
					vbuf[(b * g.K2 + j) * g.N + n] =
						v ? el(v, (uint64_t)((b * g.N + n) * g.K2 + j)) : (double)((7 * j + n) % 13) / 16 - 0.375;
	}
	if (!dout) {
		dbuf = xcalloc((size_t)(g.B * g.M * g.N), sizeof(double));
		dt = (InterpArg){.dtype = DT_F64, .count = (uint64_t)(g.B * g.M * g.N), .data = dbuf};
	}
	grad_reference(&g, q, k, vbuf ? &vt : v, dbuf ? &dt : dout);
	InterpArg *lse = interp_arg(&w.in, "lse"), *D = interp_arg(&w.in, "D");
	bool fwd = interp_arg(&w.in, "o") != NULL;
	for (int64_t i = 0; !fwd && lse && i < g.B * g.M; i++)
		dtype_store(lse->dtype, lse->data, (uint64_t)i, g.lse[i]);
	for (int64_t i = 0; D && i < g.B * g.M; i++)
		dtype_store(D->dtype, D->data, (uint64_t)i, g.D[i]);
	InterpArg *sc = wk_arg(&w, "scale");
	dtype_store(sc->dtype, sc->data, 0, g.scale);
	ck_assert_msg(interp_run(&w.in) == 0, "%s: interp_run failed", file);
	struct {
		const char *arg;
		const double *ref;
	} out[] = {{"s", g.s}, {"o", g.o}, {"lse", g.lse}, {"p", g.p}, {"dp", g.dp}, {"ds", g.ds}, {"dq", g.dq},
		{"dk", g.dk}, {"dv", g.dv}};
	int checked = 0;
	for (size_t i = 0; i < sizeof out / sizeof out[0]; i++) {
		InterpArg *a = interp_arg(&w.in, out[i].arg);
		if (!a || (a == lse && !fwd) || (a == v && !fwd))
			continue;
		char what[160];
		snprintf(what, sizeof what, "%s: %s", file, out[i].arg);
		expect_close(what, a, out[i].ref, 3e-3, 3e-3); /* Wave test's cmp_params */
		checked++;
	}
	ck_assert_msg(checked >= 3, "%s: only %d outputs checked", file, checked);
	interp_free(&w.in);
	kernel_view_free(w.bound);
	kernel_free(w.k);
	grad_free(&g);
	free(vbuf);
	free(dbuf);
}

START_TEST(wave_backward)
{
	static const char *const files[] = {"attention_fwd_16x16x16.json", "attention_fwd_32x32x8.json",
		"attention_bwd_dv_16x16x16.json", "attention_bwd_dk_32x32x8.json", "attention_bwd_dq_16x16x16.json",
		"attention_bwd_16x16x16.json", "attention_bwd_32x32x8.json"};
	backward_case(files[_i]);
}
END_TEST

START_TEST(wave_vanilla_bias)
{
	/* testAttentionBias: f32 bias [B, M, K2] read in the scores' layout
	 * and added before the softmax. The kernel works in base 2 (Wave's host
	 * scales q by log2(e)/sqrt(D) and the bias by log2(e)), so in natural
	 * units the scores are q·k·ln 2 + bias·ln 2. K2 = 256: four loop steps */
	const char *name[] = {"B", "K2"};
	const int64_t val[] = {2, 256};
	WaveKernel w;
	wk_open(&w, "vanilla_attention_bias_16x16x16.json", NULL, NULL, 2, name, val);
	InterpArg *q = wk_arg(&w, "q"), *k = wk_arg(&w, "k"), *v = wk_arg(&w, "v"), *c = wk_arg(&w, "c");
	InterpArg *bias = wk_arg(&w, "bias");
	int64_t B = 2, M = 128, N = 128, D = 64, K2 = 256;
	fill(q, 67, -0.5, 0.5, 1.0 / 64);
	fill(k, 68, -0.5, 0.5, 1.0 / 64);
	fill(v, 69, -1, 1, 1.0 / 256);
	fill(bias, 70, -4, 4, 1.0 / 1024);
	Sdpa p = {B, 1, M, N, D, K2, false, -1, NULL, LN2, bias, LN2, 0, NULL, NULL, 0};
	View qv = {q, M * D, 0, D, 1, 0}, kv = {k, K2 * D, 0, D, 1, 0}, vv = {v, N * K2, 0, 1, K2, 0}, ov = {c, M * N, 0, N, 1, 0};
	double *ref = sdpa(&p, &qv, &kv, &vv, &ov, c->count);
	/* the bias must move the result, or a dropped bias would pass */
	Sdpa nob = p;
	nob.bias = NULL;
	double *plain = sdpa(&nob, &qv, &kv, &vv, &ov, c->count);
	ck_assert(fabs(plain[0] - ref[0]) > 1e-2 || fabs(plain[N + 1] - ref[N + 1]) > 1e-2);
	free(plain);
	wk_run_close(&w, "vanilla with bias", ref, c);
	free(ref);
}
END_TEST

START_TEST(wave_vanilla_softcap)
{
	/* testAttentionSoftCap: x = cap·tanh(x / cap) with cap = 15·log2(e) in
	 * the kernel's base-2 units, i.e. 15·tanh(s / 15) on the natural
	 * scores s = q·k·ln 2; q and k in [-2, 2) make |s / 15| reach past 1,
	 * where tanh is far from linear */
	const char *name[] = {"B", "K2"};
	const int64_t val[] = {2, 256};
	WaveKernel w;
	wk_open(&w, "vanilla_attention_softcap_32x32x8.json", NULL, NULL, 2, name, val);
	InterpArg *q = wk_arg(&w, "q"), *k = wk_arg(&w, "k"), *v = wk_arg(&w, "v"), *c = wk_arg(&w, "c");
	int64_t B = 2, M = 128, N = 128, D = 64, K2 = 256;
	fill(q, 71, -2, 2, 1.0 / 64);
	fill(k, 72, -2, 2, 1.0 / 64);
	fill(v, 73, -1, 1, 1.0 / 256);
	Sdpa p = {B, 1, M, N, D, K2, false, -1, NULL, LN2, NULL, 0, 15, NULL, NULL, 0};
	View qv = {q, M * D, 0, D, 1, 0}, kv = {k, K2 * D, 0, D, 1, 0}, vv = {v, N * K2, 0, 1, K2, 0}, ov = {c, M * N, 0, N, 1, 0};
	double *ref = sdpa(&p, &qv, &kv, &vv, &ov, c->count);
	Sdpa nocap = p;
	nocap.softcap = 0;
	double *plain = sdpa(&nocap, &qv, &kv, &vv, &ov, c->count);
	ck_assert(fabs(plain[0] - ref[0]) > 1e-2 || fabs(plain[N + 1] - ref[N + 1]) > 1e-2);
	free(plain);
	wk_run_close(&w, "vanilla with soft cap", ref, c);
	free(ref);
}
END_TEST

/* The root mean square of got - ref: Wave's f8 tests bound it, since f8
 * rounding (3 mantissa bits) puts single elements far off. */
static double rmse(const InterpArg *got, const double *ref)
{
	double sq = 0;
	for (uint64_t i = 0; i < got->count; i++)
		sq += (el(got, i) - ref[i]) * (el(got, i) - ref[i]);
	return sqrt(sq / (double)got->count);
}

START_TEST(wave_vanilla_f8)
{
	/* testAttentionF8: q, k, v and the probabilities cast to f8e4m3fnuz;
	 * Wave's bound: rmse <= 0.006 against scaled_dot_product_attention.
	 * The kernel takes q pre-scaled by log2(e)/sqrt(D) (Wave's host does
	 * it), so the natural scores are q·k·ln 2 here. The same kernel in f16
	 * (vanilla_attention_vt without its mask) meets 2e-3 elementwise; the
	 * f8 one must stay within the rmse but not within that, or the casts
	 * would not be in effect. Inputs of about Wave's spreads (randn q, k, v,
	 * q times 0.18): q in [-0.3, 0.3), k and v in [-1.75, 1.75) */
	const char *name[] = {"B", "K2"};
	const int64_t val[] = {1, 256};
	WaveKernel w;
	wk_open(&w, "vanilla_attention_f8_16x16x32.json", NULL, NULL, 2, name, val);
	InterpArg *q = wk_arg(&w, "q"), *k = wk_arg(&w, "k"), *v = wk_arg(&w, "v"), *c = wk_arg(&w, "c");
	int64_t M = 128, N = 128, D = 64, K2 = 256;
	fill(q, 74, -0.3, 0.3, 1.0 / 512);
	fill(k, 75, -1.75, 1.75, 1.0 / 64);
	fill(v, 76, -1.75, 1.75, 1.0 / 64);
	Sdpa p = {1, 1, M, N, D, K2, false, -1, NULL, LN2, NULL, 0, 0, NULL, NULL, 0};
	View qv = {q, 0, 0, D, 1, 0}, kv = {k, 0, 0, D, 1, 0}, vv = {v, 0, 0, 1, K2, 0}, ov = {c, 0, 0, N, 1, 0};
	double *ref = sdpa(&p, &qv, &kv, &vv, &ov, c->count);
	ck_assert_msg(interp_run(&w.in) == 0, "f8 attention: interp_run failed");
	double e = rmse(c, ref), worst = 0;
	for (uint64_t i = 0; i < c->count; i++)
		worst = fmax(worst, fabs(el(c, i) - ref[i]));
	ck_assert_msg(e <= 0.006, "f8 attention: rmse %g > 0.006", e);
	ck_assert_msg(worst > 2e-3, "f8 attention: worst error %g, as close as f16: are the casts lost?", worst);
	interp_free(&w.in);
	kernel_view_free(w.bound);
	kernel_free(w.k);
	free(ref);
}
END_TEST

START_TEST(wave_gqa_causal_f8)
{
	/* testCausalGQABSHDAttentionF8 (use_fp8 in templates/gqa_vanilla_attention.py):
	 * q, k, v integers in [-128, 128] cast to f8, scores scaled by
	 * q_scale·k_scale/sqrt(D), the probabilities offset by log2(240) and
	 * clamped at 240 before their cast, the result scaled by v_scale;
	 * Wave's bound: rmse < 0.04 against the attention of q·q_scale,
	 * k·k_scale, v·v_scale. Causal with the window at 40 (Wave's 1024
	 * never masks at this length), N_Q = N_KV = 200 */
	const double qs = 0.02578124962747097, ks = 0.02363281324505806, vs = 0.010286458767950535;
	const char *name[] = {"H", "N_Q", "N_KV"};
	const int64_t val[] = {2, 200, 200};
	WaveKernel w;
	wk_open(&w, "gqa_bshd_attention_causal_sw_f8_32x32x16.json", "\"value\": 1024", "\"value\": 40", 3, name, val);
	InterpArg *q = wk_arg(&w, "q"), *k = wk_arg(&w, "k"), *v = wk_arg(&w, "v"), *c = wk_arg(&w, "c");
	int64_t H = 2, M = 200, N = 256, D = 256, K2 = 200;
	fill(q, 77, -128, 129, 1);
	fill(k, 78, -128, 129, 1);
	fill(v, 79, -128, 129, 1);
	Sdpa p = {1, H, M, N, D, K2, true, 40, NULL, qs * ks / 16, NULL, 0, 0, NULL, NULL, 0};
	View qv = {q, 0, D, H * D, 1, 0}, kv = {k, 0, D, D, 1, 32}, vv = {v, 0, N, N, 1, 32}, ov = {c, 0, N, H * N, 1, 0};
	double *ref = sdpa(&p, &qv, &kv, &vv, &ov, c->count);
	double spread = 0;
	for (uint64_t i = 0; i < c->count; i++) {
		ref[i] *= vs;
		spread = fmax(spread, fabs(ref[i]));
	}
	ck_assert_msg(spread > 0.1, "the reference is nearly 0 (%g): the check would be empty", spread);
	ck_assert_msg(interp_run(&w.in) == 0, "GQA f8 attention: interp_run failed");
	double e = rmse(c, ref);
	ck_assert_msg(e < 0.04, "GQA f8 attention: rmse %g >= 0.04", e);
	interp_free(&w.in);
	kernel_view_free(w.bound);
	kernel_free(w.k);
	free(ref);
}
END_TEST

START_TEST(wave_alibi)
{
	/* alibi_attention_test.py: slopes m[B] read once before the loop, the
	 * bias m[b]·min(j - i, 0) from self_index(M) (one element per thread,
	 * broadcast) and self_index(K2) in i64, cast to f32. Wave's host
	 * scales q by log2(e)/sqrt(D) and the slopes by log2(e): natural
	 * scores are (q·k + bias)·ln 2 */
	const char *name[] = {"B"};
	const int64_t val[] = {2};
	WaveKernel w;
	wk_open(&w, "alibi_attention_16x16x16.json", NULL, NULL, 1, name, val);
	InterpArg *q = wk_arg(&w, "q"), *k = wk_arg(&w, "k"), *v = wk_arg(&w, "v"), *c = wk_arg(&w, "c");
	InterpArg *m = wk_arg(&w, "m");
	int64_t B = 2, M = 128, N = 128, D = 128, K2 = 128;
	fill(q, 80, -0.3, 0.3, 1.0 / 512);
	fill(k, 81, -1.75, 1.75, 1.0 / 64);
	fill(v, 82, -1, 1, 1.0 / 256);
	fill(m, 83, 0.25, 0.75, 1.0 / 64);
	Sdpa p = {B, 1, M, N, D, K2, false, -1, NULL, LN2, NULL, LN2, 0, m, NULL, 0};
	View qv = {q, M * D, 0, D, 1, 0}, kv = {k, K2 * D, 0, D, 1, 0}, vv = {v, N * K2, 0, 1, K2, 0}, ov = {c, M * N, 0, N, 1, 0};
	double *ref = sdpa(&p, &qv, &kv, &vv, &ov, c->count);
	Sdpa plain_p = p;
	plain_p.alibi = NULL;
	double *plain = sdpa(&plain_p, &qv, &kv, &vv, &ov, c->count);
	ck_assert(fabs(plain[5 * N] - ref[5 * N]) > 1e-2 || fabs(plain[9 * N + 1] - ref[9 * N + 1]) > 1e-2);
	free(plain);
	wk_run_close(&w, "ALiBi", ref, c);
	free(ref);
}
END_TEST

START_TEST(wave_t5_rpe)
{
	/* t5_rpe_attention_test.py: rpe [MAX_RPE + 1] read at
	 * Piecewise((m - k2, 0 <= m - k2 < MAX_RPE), (MAX_RPE, True)), m and k2
	 * two i64 self_index values as the mapping's dynamic values, added to
	 * the scores; Wave's host scales q by log2(e)/sqrt(D) and rpe by
	 * log2(e). MAX_RPE 10 and 128 (Wave's two), K2 = 256: two loop steps;
	 * the bias must move the result or a dropped read would pass */
	static const int64_t max_rpe[] = {10, 128};
	for (int t = 0; t < 2; t++) {
		const char *name[] = {"B", "K2", "MAX_RPE", "RPE"};
		const int64_t val[] = {2, 256, max_rpe[t], max_rpe[t] + 1};
		WaveKernel w;
		wk_open(&w, t ? "t5_rpe_attention_32x32x8.json" : "t5_rpe_attention_16x16x16.json", NULL, NULL, 4, name,
			val);
		InterpArg *q = wk_arg(&w, "q"), *k = wk_arg(&w, "k"), *v = wk_arg(&w, "v"), *c = wk_arg(&w, "c");
		InterpArg *rpe = wk_arg(&w, "rpe");
		int64_t B = 2, M = 128, N = 128, D = 128, K2 = 256;
		fill(q, 84, -0.3, 0.3, 1.0 / 512);
		fill(k, 85, -1.75, 1.75, 1.0 / 64);
		fill(v, 86, -1, 1, 1.0 / 256);
		fill(rpe, 87, -3, 3, 1.0 / 64);
		Sdpa p = {B, 1, M, N, D, K2, false, -1, NULL, LN2, NULL, LN2, 0, NULL, rpe, max_rpe[t]};
		View qv = {q, M * D, 0, D, 1, 0}, kv = {k, K2 * D, 0, D, 1, 0}, vv = {v, N * K2, 0, 1, K2, 0},
		     ov = {c, M * N, 0, N, 1, 0};
		double *ref = sdpa(&p, &qv, &kv, &vv, &ov, c->count);
		Sdpa plain_p = p;
		plain_p.rpe = NULL;
		double *plain = sdpa(&plain_p, &qv, &kv, &vv, &ov, c->count);
		double moved = 0;
		for (uint64_t i = 0; i < c->count; i++)
			moved = fmax(moved, fabs(plain[i] - ref[i]));
		ck_assert_msg(moved > 0.05, "T5 RPE: the bias moves the result by %g only", moved);
		free(plain);
		wk_run_close(&w, "T5 RPE", ref, c);
		free(ref);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("interp.attention");
	TCase *tc = tcase_create("examples");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, vanilla_attention_online_softmax);
	tcase_add_test(tc, masked_attention_unaligned_k2);
	tcase_add_test(tc, decode_attention_two_phases);
	tcase_add_test(tc, wave_vanilla_causal_sliding_window);
	tcase_add_test(tc, wave_vanilla_v_mapping);
	tcase_add_test(tc, wave_bhsd_causal);
	tcase_add_test(tc, wave_bshd_custom_mask);
	tcase_add_test(tc, wave_gqa_bshd);
	tcase_add_test(tc, wave_extend);
	tcase_add_test(tc, wave_extend_causal);
	tcase_add_test(tc, wave_vanilla_bias);
	tcase_add_test(tc, wave_vanilla_softcap);
	tcase_add_test(tc, wave_vanilla_f8);
	tcase_add_test(tc, wave_gqa_causal_f8);
	tcase_add_test(tc, wave_alibi);
	tcase_add_test(tc, wave_t5_rpe);
	tcase_add_test(tc, wave_prefill);
	tcase_add_test(tc, wave_extend_custom_mask);
	tcase_add_loop_test(tc, wave_backward, 0, 7);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
