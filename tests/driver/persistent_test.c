/* persistent_test.c — Wave's persistent GEMMs (templates/gemm.py
 * get_persistent_gemm_kernel, get_persistent_reordering_kernel: a grid
 * constraint and a loop with a condition over output tiles whose offsets
 * the loop sets with set_symbol) checked against a GEMM computed here, not
 * only against the interpreter, which shares the kernel's reading of the
 * loop (docs/kernel-format.md, "Loops with a condition"): a tile no
 * workgroup took, or one two took with different offsets, would agree
 * there and fail here.
 *
 * Each case runs `wavecc run` (which must PASS against the interpreter)
 * with f16 inputs uniform in [-1, 1) made here and c zeros, as Wave's test
 * has it, then checks every element of c in double at Wave's tolerance
 * (atol 1e-2, rtol 1e-2) against a·bᵀ. Shapes: Wave's first (300³), with
 * Wave's workgroup counts and with fewer (each workgroup then loops over
 * several tiles, the reordering one's group height changing from trip to
 * trip), and taller Ms. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/dtype.h"
#include "../../util/npy.h"
#include "../test.h"
#include "ref_inputs.h"

typedef struct {
	const char *file; /* under tests/driver/wave/ */
	int M, N, K;
	int ctas; /* NUM_CTAS, 0: the file's */
	const char *mcpu;
} PersistCase;

static const PersistCase cases[] = {
	{"persistent_gemm_16x16x16_4x1.json", 300, 300, 300, 0, "gfx942"},
	{"persistent_gemm_16x16x16_4x1.json", 300, 300, 300, 4, "gfx90a"},
	{"persistent_gemm_32x32x8_2x2.json", 300, 300, 300, 5, "gfx942"},
	{"persistent_gemm_32x32x8_4x1.json", 600, 300, 128, 3, "gfx90a"},
	{"persistent_reordering_gemm_16x16x16_4x1.json", 300, 300, 300, 0, "gfx90a"},
	{"persistent_reordering_gemm_16x16x16_2x2.json", 300, 300, 300, 4, "gfx942"},
	{"persistent_reordering_gemm_32x32x8_2x2.json", 600, 300, 128, 5, "gfx942"},
	/* 18 tiles: the XCD-chunked start remaps workgroups 0-16 (Wave's
	 * template is a permutation of the tiles only with NUM_CTAS =
	 * TOTAL_TILES once that region is not empty: at 7 workgroups tiles
	 * 1, 3 and 5 would have none, in Wave's kernel as here) */
	{"persistent_reordering_gemm_32x32x8_4x1.json", 1100, 300, 64, 0, "gfx90a"},
};

START_TEST(persistent_against_gemm)
{
	const PersistCase *c = &cases[_i];
	char tag[64], what[256], ctas[32] = "";
	snprintf(tag, sizeof tag, "persistent_%d", _i);
	const char *dir = test_tmpdir(tag);
	if (c->ctas)
		snprintf(ctas, sizeof ctas, " -D NUM_CTAS=%d", c->ctas);
	snprintf(what, sizeof what, "%s -D M=%d -D N=%d -D K=%d%s on %s", c->file, c->M, c->N, c->K, ctas, c->mcpu);
	size_t na = (size_t)c->M * c->K, nb = (size_t)c->N * c->K, nc = (size_t)c->M * c->N;
	uint16_t *ha = malloc(na * 2), *hb = malloc(nb * 2);
	double *a = malloc(na * sizeof(double)), *b = malloc(nb * sizeof(double));
	float *zero = calloc(nc, sizeof(float));
	ck_assert(ha && hb && a && b && zero);
	ref_fill_f16(ha, a, na, 7u + (uint32_t)_i, 1);
	ref_fill_f16(hb, b, nb, 29u + (uint32_t)_i, 1);
	ref_write_npy(dir, "a", DT_F16, 2, (int64_t[]){c->M, c->K}, ha);
	ref_write_npy(dir, "b", DT_F16, 2, (int64_t[]){c->N, c->K}, hb);
	ref_write_npy(dir, "c0", DT_F32, 2, (int64_t[]){c->M, c->N}, zero);
	CmdResult r = test_wavecc("run tests/driver/wave/%s -D M=%d -D N=%d -D K=%d%s --mcpu %s --in a='%s/a.npy' "
				  "--in b='%s/b.npy' --in c='%s/c0.npy' --out c='%s/c.npy'",
		c->file, c->M, c->N, c->K, ctas, c->mcpu, dir, dir, dir, dir);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", what, r.status, r.out, r.err);
	cmd_result_free(&r);
	char path[1024], err[256];
	NpyArray out;
	snprintf(path, sizeof path, "%s/c.npy", dir);
	ck_assert_msg(npy_read(path, &out, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_check(&out, "c", DT_F32, 2, (int64_t[]){c->M, c->N}, err, sizeof err) == 0, "%s", err);
	const float *got = out.data;
	for (int m = 0; m < c->M; m++)
		for (int n = 0; n < c->N; n++) {
			double g = 0;
			for (int k = 0; k < c->K; k++)
				g += a[(size_t)m * c->K + k] * b[(size_t)n * c->K + k];
			double x = got[(size_t)m * c->N + n];
			ck_assert_msg(fabs(x - g) <= 1e-2 + 1e-2 * fabs(g), "%s: c[%d, %d] = %.6f, the GEMM %.6f", what, m, n,
				x, g);
		}
	npy_free(&out);
	free(ha), free(hb), free(a), free(b), free(zero);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver.persistent");
	TCase *tc = tcase_create("against_gemm");
	tcase_set_timeout(tc, 120);
	test_add_loop_sampled(tc, persistent_against_gemm, (int)ARRAY_LEN(cases));
	suite_add_tcase(s, tc);
	return run_suite(s);
}
