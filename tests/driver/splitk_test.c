/* splitk_test.c — split-K GEMMs checked against a GEMM computed here, not
 * only against the interpreter (which shares the kernel's reading of the
 * format, so the two could agree on something that is no GEMM).
 *
 * Wave's split-K (wave_gemm_test.py::testSplitKGemm, templates/gemm.py
 * get_splitk_gemm_kernel) gives workgroup s of grid dim 2 the K loop of the
 * tiling constraint {start K_SPLIT_OFF = s*ceiling(K/S), iters
 * ceiling(K_SPLIT_LEN / BLOCK_K)}: it covers [start, start + iters*BLOCK_K),
 * bounded by K alone (Wave's TilingConstraint.get_index_bound), and
 * atomic_adds its partial product into c, which starts at zero as Wave's
 * test has it. Each case runs `wavecc run` on both targets with inputs made
 * here (f16 uniform in [-1, 1), c zeros), which must PASS against the
 * interpreter, and then c is checked in double at Wave's tolerance (atol
 * 1e-2, rtol 1e-3) against:
 *  - a plain GEMM, a·bᵀ over all of K, where the windows tile K: Wave's
 *    template at Wave's shapes (ceiling(K/S) a multiple of BLOCK_K), and
 *    splitk_gemm_exact.json (the window rounded up to a multiple of BLOCK_K,
 *    kernel-format.md's recipe) at shapes whose K is a multiple of neither
 *    S nor BLOCK_K, with splits past K's end (which run no trip);
 *  - where Wave's windows overlap (ceiling(K/S) not a multiple of BLOCK_K),
 *    the relation Wave's kernel computes: c = sum over k of mult(k)
 *    a[:, k]·b[:, k], mult(k) the number of splits whose covered range holds
 *    k (computed here from the template's formulas), and the test asserts
 *    that this is not the GEMM, so that such a case is never mistaken for
 *    a GEMM check. The 1024-cubed shapes run with WAVECC_WAVE_SLOW=1. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/dtype.h"
#include "../../util/npy.h"
#include "../test.h"
#include "ref_inputs.h"

enum { BLOCK_K = 32 };

typedef struct {
	const char *file; /* under tests/driver/wave/ */
	int M, N, K, S;
	bool gemm; /* the windows tile K: c is the GEMM; else the overlap relation */
} SplitCase;

static const SplitCase cases[] = {
	/* Wave's template at Wave's shapes: ceiling(K/S) = 128 and 64 */
	{"splitk_gemm.json", 256, 256, 256, 2, true},
	{"splitk_gemm.json", 256, 256, 256, 4, true},
	/* the windows rounded up to BLOCK_K: 96 (3 splits of 250), 32 (4 of 7
	 * splits of 100 run, 3 have a negative length), 32 (1 of 4 runs) */
	{"splitk_gemm_exact.json", 256, 256, 250, 3, true},
	{"splitk_gemm_exact.json", 64, 64, 100, 7, true},
	{"splitk_gemm_exact.json", 100, 70, 5, 4, true},
	{"splitk_gemm_exact.json", 256, 256, 256, 4, true},
	/* Wave's template where its windows overlap: ceiling(K/S) = 84, 15, 2 */
	{"splitk_gemm.json", 256, 256, 250, 3, false},
	{"splitk_gemm.json", 64, 64, 100, 7, false},
	{"splitk_gemm.json", 100, 70, 5, 4, false},
};
static const SplitCase slow_cases[] = {
	{"splitk_gemm.json", 1024, 1024, 1024, 2, true},
	{"splitk_gemm.json", 1024, 1024, 1024, 4, true},
};

/* How many splits' K loops cover each k < K, by the template's formulas:
 * split s starts at s*ceiling(K/S) (the file's K_PER_SPLIT for the exact
 * variant: rounded up to BLOCK_K) and runs ceiling(len / BLOCK_K) trips,
 * len = Min(K, (s+1)*per) - s*per, none when len <= 0; k >= K is out of
 * bounds. */
static void coverage(const SplitCase *c, int *mult)
{
	int per = (c->K + c->S - 1) / c->S;
	if (strcmp(c->file, "splitk_gemm_exact.json") == 0)
		per = (per + BLOCK_K - 1) / BLOCK_K * BLOCK_K;
	memset(mult, 0, sizeof(int) * (size_t)c->K);
	for (int s = 0; s < c->S; s++) {
		int off = s * per, end = (s + 1) * per < c->K ? (s + 1) * per : c->K, len = end - off;
		int trips = len > 0 ? (len + BLOCK_K - 1) / BLOCK_K : 0;
		for (int k = off; k < off + trips * BLOCK_K && k < c->K; k++)
			mult[k]++;
	}
}

/* Run the case on mcpu and check c against the GEMM (weights all 1) or the
 * overlap relation. */
static void check_case(const SplitCase *c, const char *mcpu, const char *tag)
{
	const char *dir = test_tmpdir(tag);
	char what[256];
	snprintf(what, sizeof what, "%s -D M=%d -D N=%d -D K=%d -D S=%d on %s", c->file, c->M, c->N, c->K, c->S, mcpu);
	size_t na = (size_t)c->M * c->K, nb = (size_t)c->N * c->K, nc = (size_t)c->M * c->N;
	uint16_t *ha = malloc(na * 2), *hb = malloc(nb * 2);
	double *a = malloc(na * sizeof(double)), *b = malloc(nb * sizeof(double));
	float *zero = calloc(nc, sizeof(float));
	int *mult = malloc(sizeof(int) * (size_t)c->K);
	ck_assert(ha && hb && a && b && zero && mult);
	ref_fill_f16(ha, a, na, 11u + (uint32_t)c->K, 1);
	ref_fill_f16(hb, b, nb, 23u + (uint32_t)c->S, 1);
	ref_write_npy(dir, "a", DT_F16, 2, (int64_t[]){c->M, c->K}, ha);
	ref_write_npy(dir, "b", DT_F16, 2, (int64_t[]){c->N, c->K}, hb);
	ref_write_npy(dir, "c0", DT_F32, 2, (int64_t[]){c->M, c->N}, zero);

	CmdResult r = test_wavecc("run tests/driver/wave/%s -D M=%d -D N=%d -D K=%d -D S=%d --mcpu %s --in a='%s/a.npy' "
				  "--in b='%s/b.npy' --in c='%s/c0.npy' --out c='%s/c.npy'",
		c->file, c->M, c->N, c->K, c->S, mcpu, dir, dir, dir, dir);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", what, r.status, r.out, r.err);
	cmd_result_free(&r);

	char path[1024], err[256];
	NpyArray out;
	snprintf(path, sizeof path, "%s/c.npy", dir);
	ck_assert_msg(npy_read(path, &out, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_check(&out, "c", DT_F32, 2, (int64_t[]){c->M, c->N}, err, sizeof err) == 0, "%s", err);
	coverage(c, mult);
	bool tiles = true;
	for (int k = 0; k < c->K; k++)
		tiles &= mult[k] == 1;
	ck_assert_msg(tiles == c->gemm, "%s: the windows %s K", what, tiles ? "tile" : "do not tile");
	const float *got = out.data;
	double worst_gemm = 0; /* the largest miss of the plain GEMM, scaled to its tolerance */
	for (int m = 0; m < c->M; m++)
		for (int n = 0; n < c->N; n++) {
			double g = 0, w = 0;
			for (int k = 0; k < c->K; k++) {
				double p = a[(size_t)m * c->K + k] * b[(size_t)n * c->K + k];
				g += p;
				w += mult[k] * p;
			}
			double x = got[(size_t)m * c->N + n];
			ck_assert_msg(fabs(x - w) <= 1e-2 + 1e-3 * fabs(w), "%s: c[%d, %d] = %.6f, %s %.6f", what, m, n, x,
				c->gemm ? "the GEMM" : "the overlap relation", w);
			worst_gemm = fmax(worst_gemm, fabs(x - g) / (1e-2 + 1e-3 * fabs(g)));
		}
	/* an overlapping case computes something else than the GEMM, visibly */
	if (!c->gemm)
		ck_assert_msg(worst_gemm > 10, "%s: the overlap relation is indistinguishable from the GEMM", what);
	npy_free(&out);
	free(ha), free(hb), free(a), free(b), free(zero), free(mult);
}

static void run_one(const SplitCase *set, int i, const char *what)
{
	const char *mcpu = i % 2 ? "gfx90a" : "gfx942";
	const SplitCase *c = &set[i / 2];
	char tag[64];
	snprintf(tag, sizeof tag, "%s_%d_%s", what, i / 2, mcpu);
	check_case(c, mcpu, tag);
}

START_TEST(splitk_against_gemm)
{
	run_one(cases, _i, "splitk");
}
END_TEST

START_TEST(splitk_against_gemm_slow)
{
	run_one(slow_cases, _i, "splitk_slow");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver.splitk");
	TCase *tc = tcase_create("against_gemm");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, splitk_against_gemm, 0, (int)(2 * ARRAY_LEN(cases)));
	suite_add_tcase(s, tc);
	const char *slow = getenv("WAVECC_WAVE_SLOW");
	if (slow && strcmp(slow, "1") == 0) {
		TCase *ts = tcase_create("slow");
		tcase_set_timeout(ts, 600);
		tcase_add_loop_test(ts, splitk_against_gemm_slow, 0, (int)(2 * ARRAY_LEN(slow_cases)));
		suite_add_tcase(s, ts);
	}
	return run_suite(s);
}
