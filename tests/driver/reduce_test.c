/* reduce_test.c — compiled sum/max/min reductions in f16, bf16 and i32, of
 * one source and of several (Wave's `sum([a, b], dim)`), over a dim the
 * lanes' tile overhangs (N = 813 in a window of 832; 1000 in 4 waves' 1024
 * for the block reductions), on gfx942 and gfx90a.
 *
 * Max, min and i32 sums are exact in any order, so the kernels must PASS
 * against the interpreter at the default tolerances. A 16-bit sum rounds at
 * every step, so its result depends on the order: the compiled kernel adds
 * in Wave's order (each lane's elements in coordinate order, then a
 * butterfly across the lanes), the interpreter in one chain up the
 * coordinates. Two tests pin the compiled order down: with integer inputs
 * (every partial sum exact) the result must equal the interpreter's bit
 * for bit, and with the --seed inputs it must equal, bit for bit, Wave's
 * order computed here in C from the inputs the run wrote out. */
#include <stdlib.h>
#include <string.h>

#include "../../util/dtype.h"
#include "../../util/npy.h"
#include "../test.h"

static CmdResult wavecc(const char *args)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s", test_root(), test_bin(), args);
	return run_cmd(cmd, NULL);
}

static const char *mcpu_of(int i) { return i % 2 ? "gfx90a" : "gfx942"; }

/* Exact in any order: must PASS at the default tolerances. */
static const char *const exact[] = {"reduce_max_f16",  "reduce_min_bf16", "reduce_max2_bf16",
				    "reduce_min2_f16", "reduce_sum_i32",  "reduce_max_i32",
				    "reduce_min2_i32", "reduce_block_max_f16", "reduce_block_min_bf16"};

START_TEST(order_free_reductions_pass)
{
	char args[512];
	snprintf(args, sizeof args, "run tests/driver/data/%s.json --mcpu %s --seed %d", exact[_i / 2], mcpu_of(_i),
		40 + _i);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* 16-bit sums: the kernel, its dtype and whether it sums [a, b] (else a*b). */
typedef struct {
	const char *file;
	DType t;
	bool two;
} SumCase;

static const SumCase sums[] = {
	{"tests/driver/wave/reduce_sum.json", DT_F16, false},
	{"tests/driver/data/reduce_sum_bf16.json", DT_BF16, false},
	{"tests/driver/data/reduce_sum2_f16.json", DT_F16, true},
};

enum { M = 111, N = 813, VS = 832, LANE_ELEMS = VS / 64 };

static double rnd(DType t, double x)
{
	uint16_t h;
	dtype_store(t, &h, 0, x);
	return dtype_load(t, &h, 0);
}

/* Kernels summing 16-bit values, run on integer inputs: the kernel, its
 * dtype, M, N and how many inputs it reads (a, or a and b). */
typedef struct {
	const char *file;
	DType t;
	int m, n, ninputs;
} IntCase;

static const IntCase int_sums[] = {
	{"tests/driver/wave/reduce_sum.json", DT_F16, M, N, 2},
	{"tests/driver/data/reduce_sum_bf16.json", DT_BF16, M, N, 2},
	{"tests/driver/data/reduce_sum2_f16.json", DT_F16, M, N, 2},
	/* a max and a sum of one f16 source, each with an init, in a loop
	 * whose 128-wide tile overhangs N = 527 */
	{"tests/driver/data/reduce_max_sum_f16_loop.json", DT_F16, 256, 527, 1},
	/* a block sum over 4 waves (test_block_reduce_sum in f16), N = 1000 */
	{"tests/driver/data/reduce_block_sum_f16.json", DT_F16, 16, 1000, 2},
};

/* Integer inputs in {-1, 0, 1}: every partial sum of a row is an integer
 * of magnitude at most 2 * 813 < 2^11, exact in f16 whatever the order.
 * bf16 holds integers exactly only up to 2^8: there only every fourth
 * column is nonzero (204 of them per row). */
static void write_ints(const char *path, DType t, int m, int n, unsigned seed)
{
	uint16_t *v = xcalloc((size_t)(m * n), sizeof *v);
	for (int i = 0; i < m * n; i++) {
		seed = seed * 1103515245u + 12345u;
		bool zero = t == DT_BF16 && i % n % 4 != 0;
		dtype_store(t, v, (uint64_t)i, zero ? 0.0 : (double)((int)(seed >> 16) % 3 - 1));
	}
	char err[256];
	int64_t shape[2] = {m, n};
	ck_assert_msg(npy_write(path, t, 2, shape, v, err, sizeof err) == 0, "%s", err);
	free(v);
}

START_TEST(sum_of_integers_matches_interpreter)
{
	const IntCase *c = &int_sums[_i / 2];
	char name[64], in[2][600], args[2048];
	snprintf(name, sizeof name, "reduce_int_%d", _i);
	const char *dir = test_tmpdir(name);
	for (int k = 0; k < c->ninputs; k++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%c.npy", dir, 'a' + k);
		write_ints(path, c->t, c->m, c->n, 1u + 6u * (unsigned)k + (unsigned)_i);
		snprintf(in[k], sizeof in[k], "--in %c=%s", 'a' + k, path);
	}
	snprintf(args, sizeof args, "run %s -D M=%d -D N=%d --mcpu %s %s %s --atol 0 --rtol 0", c->file, c->m, c->n,
		mcpu_of(_i), in[0], c->ninputs > 1 ? in[1] : "");
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

static double *load_npy(const char *path, DType t, int64_t count)
{
	NpyArray arr;
	char err[256];
	ck_assert_msg(npy_read(path, &arr, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq((int64_t)arr.count, count);
	double *v = xcalloc((size_t)count, sizeof *v);
	for (int64_t i = 0; i < count; i++)
		v[i] = dtype_load(t, arr.data, (uint64_t)i);
	npy_free(&arr);
	return v;
}

/* Row m's sum in Wave's order: lane l holds coordinates [13 l, 13 l + 13)
 * (zeros past N, as the masked reads give), folded up; then six
 * xor-butterfly stages over the 64 lanes. Every step rounds to t. */
static double wave_order(const SumCase *c, const double *a, const double *b, int m)
{
	double lane[64];
	for (int l = 0; l < 64; l++) {
		double acc = 0;
		for (int j = 0; j < LANE_ELEMS; j++) {
			int n = l * LANE_ELEMS + j;
			double x = 0;
			if (n < N)
				x = rnd(c->t, c->two ? a[m * N + n] + b[m * N + n] : a[m * N + n] * b[m * N + n]);
			acc = j ? rnd(c->t, acc + x) : x;
		}
		lane[l] = acc;
	}
	for (int s = 1; s < 64; s *= 2) {
		double next[64];
		for (int l = 0; l < 64; l++)
			next[l] = rnd(c->t, lane[l] + lane[l ^ s]);
		memcpy(lane, next, sizeof lane);
	}
	return lane[0];
}

START_TEST(sum_follows_wave_order)
{
	const SumCase *c = &sums[_i / 2];
	char name[64], args[2048], pa[512], pb[512], pc[512];
	snprintf(name, sizeof name, "reduce_order_%d", _i);
	const char *dir = test_tmpdir(name);
	snprintf(pa, sizeof pa, "%s/a.npy", dir);
	snprintf(pb, sizeof pb, "%s/b.npy", dir);
	snprintf(pc, sizeof pc, "%s/c.npy", dir);
	/* the interpreter's single chain differs from Wave's order by up to a
	 * few units: the comparison that matters is the one below */
	snprintf(args, sizeof args, "run %s -D M=%d -D N=%d --mcpu %s --seed %d --atol 100 --out a=%s --out b=%s --out c=%s",
		c->file, M, N, mcpu_of(_i), 60 + _i, pa, pb, pc);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
	double *a = load_npy(pa, c->t, M * N), *b = load_npy(pb, c->t, M * N), *got = load_npy(pc, c->t, M);
	int bad = 0, first = -1;
	for (int m = 0; m < M; m++)
		if (got[m] != wave_order(c, a, b, m) && bad++ == 0)
			first = m;
	ck_assert_msg(bad == 0, "%s on %s: %d of %d rows differ from Wave's order, first row %d: got %.9g, want %.9g",
		c->file, mcpu_of(_i), bad, M, first, first < 0 ? 0 : got[first],
		first < 0 ? 0 : wave_order(c, a, b, first));
	free(a);
	free(b);
	free(got);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compile/reduce");
	TCase *tc = tcase_create("reduce");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, order_free_reductions_pass, 0, (int)(2 * ARRAY_LEN(exact)));
	tcase_add_loop_test(tc, sum_of_integers_matches_interpreter, 0, (int)(2 * ARRAY_LEN(int_sums)));
	tcase_add_loop_test(tc, sum_follows_wave_order, 0, (int)(2 * ARRAY_LEN(sums)));
	suite_add_tcase(s, tc);
	return run_suite(s);
}
