/* exact_outputs_test.c — end-to-end runs whose expected outputs are
 * computed here in plain C, for the paths outside mutation testing (issue
 * 27, tests/mutants/mutants.sh) found no suite pinning: a deliberate bug
 * there passed every other suite. Each case writes a small kernel graph,
 * gives it chosen inputs (--in), runs it on the emulator under the strict
 * modes (which must PASS against the interpreter too) and checks every
 * output element (--out) against C's own arithmetic, so a bug the compiler
 * and the interpreter share cannot pass either:
 *  - an i8 result written transposed (b[n][m] = a[m][n]): each lane's four
 *    bytes of a dword go to four rows, one buffer_store_byte each, bytes
 *    1-3 shifted down first by 8, 16 and 24 bits;
 *  - atomic_min of u32 values on both sides of 2^31 into global memory:
 *    buffer_atomic_umin, not smin (the interpreter's doubles agree with
 *    either only below 2^31). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/dtype.h"
#include "../../util/npy.h"
#include "../test.h"

static const char *const STRICT = "--memory late --races --canary --wave-order random --wg-order reverse "
				  "--fill garbage";

/* The 2-D kernel of the cases: b = cast(read a) to `dtype`, M x N, BLOCK_N
 * elements of N per wave (4 per lane), written through `write_mapping`
 * (a JSON object, or "" for none) to b of shape `b_shape`. */
static void write_kernel(const char *path, int m, int n, const char *dtype, const char *b_shape,
	const char *write_mapping)
{
	FILE *f = fopen(path, "w");
	ck_assert(f != NULL);
	fprintf(f,
		"{\"format\": \"wavecc-kernel/1\", \"name\": \"exact\",\n"
		" \"symbols\": {\"M\": %d, \"N\": %d, \"BLOCK_N\": 256},\n"
		" \"constraints\": [\n"
		"  {\"kind\": \"hardware\", \"threads_per_wave\": 64, \"vector_shapes\": {\"M\": 1, \"N\": \"BLOCK_N\"}},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": 1, \"workgroup_dim\": 1},\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": \"BLOCK_N\", \"workgroup_dim\": 0},\n"
		"  {\"kind\": \"wave\", \"dim\": \"M\", \"tile\": 1}, {\"kind\": \"wave\", \"dim\": \"N\", \"tile\": \"BLOCK_N\"}],\n"
		" \"arguments\": [\n"
		"  {\"name\": \"a\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", "
		"\"dtype\": \"f32\"},\n"
		"  {\"name\": \"b\", \"type\": \"memory\", \"shape\": %s, \"address_space\": \"global\", \"dtype\": \"%s\"}],\n"
		" \"graph\": [\n"
		"  {\"name\": \"read\", \"op\": \"read\", \"memory\": \"a\"},\n"
		"  {\"name\": \"cast\", \"op\": \"cast\", \"arg\": \"read\", \"dtype\": \"%s\"},\n"
		"  {\"name\": \"write\", \"op\": \"write\", \"register\": \"cast\", \"memory\": \"b\"%s%s}]}\n",
		m, n, b_shape, dtype, dtype, *write_mapping ? ", \"mapping\": " : "", write_mapping);
	fclose(f);
}

/* Run kernel k (in folder dir) on a (m x n floats); returns b's array
 * (npy_free it). */
static NpyArray run(const char *tag, const char *dir, const char *k, const float *a, int m, int n)
{
	char in[1024], out[1024], err[256];
	snprintf(in, sizeof in, "%s/a.npy", dir);
	snprintf(out, sizeof out, "%s/b.npy", dir);
	const int64_t shape[2] = {m, n};
	ck_assert_msg(npy_write(in, DT_F32, 2, shape, a, err, sizeof err) == 0, "%s", err);
	CmdResult r = test_wavecc("run '%s' --in a='%s' --out b='%s' %s", k, in, out, STRICT);
	ck_assert_msg(r.status == 0 && strstr(r.out, "PASS"), "%s: wavecc run failed (%d):\n%s%s", tag, r.status, r.out,
		r.err);
	cmd_result_free(&r);
	NpyArray b;
	ck_assert_msg(npy_read(out, &b, err, sizeof err) == 0, "%s", err);
	return b;
}

/* b[j][i] = (i8)a[i][j], N not a multiple of the block (a masked tail) */
START_TEST(i8_transposed_write)
{
	enum { M = 8, N = 300 };
	const char *dir = test_tmpdir("i8_transposed");
	char k[1024];
	snprintf(k, sizeof k, "%s/k.json", dir);
	write_kernel(k, M, N, "i8", "[\"N\", \"M\"]",
		"{\"iterators\": [\"i\", \"j\"], \"inputs\": {\"M\": \"i\", \"N\": \"j\"}, "
		"\"outputs\": {\"M\": \"i\", \"N\": \"j\"}}");
	float *a = xmalloc(sizeof(float) * M * N);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			a[i * N + j] = (float)((i * 37 + j * 11) % 255 - 127); /* exact in i8 */
	NpyArray b = run("i8_transposed", dir, k, a, M, N);
	char err[256];
	ck_assert_msg(npy_check(&b, "b", DT_I8, 2, (const int64_t[]){N, M}, err, sizeof err) == 0, "%s", err);
	const int8_t *got = b.data;
	int bad = 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int8_t want = (int8_t)a[i * N + j];
			if (got[j * M + i] != want && bad++ < 10)
				fprintf(stderr, "i8_transposed: b[%d][%d] = %d, expected %d\n", j, i, got[j * M + i], want);
		}
	ck_assert_int_eq(bad, 0);
	npy_free(&b);
	free(a);
}
END_TEST

/* c[0][j] = min(c[0][j], a[0..M)[j]) as unsigned 32-bit integers, every
 * row of a into row 0 of c (the rest of c as it was) */
START_TEST(u32_atomic_min)
{
	enum { M = 4, N = 64 };
	const char *dir = test_tmpdir("u32_atomic_min");
	char k[1024], ina[1024], inc[1024], out[1024], err[256];
	snprintf(k, sizeof k, "%s/k.json", dir);
	snprintf(ina, sizeof ina, "%s/a.npy", dir);
	snprintf(inc, sizeof inc, "%s/c.npy", dir);
	snprintf(out, sizeof out, "%s/out.npy", dir);
	FILE *f = fopen(k, "w");
	ck_assert(f != NULL);
	fprintf(f, "{\"format\": \"wavecc-kernel/1\", \"name\": \"umin\", \"symbols\": {\"M\": %d, \"N\": %d},\n"
		   " \"constraints\": [\n"
		   "  {\"kind\": \"hardware\", \"threads_per_wave\": 64, \"vector_shapes\": {\"M\": 1, \"N\": 64}},\n"
		   "  {\"kind\": \"workgroup\", \"dim\": \"M\", \"tile\": 1, \"workgroup_dim\": 1},\n"
		   "  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": 64, \"workgroup_dim\": 0},\n"
		   "  {\"kind\": \"wave\", \"dim\": \"M\", \"tile\": 1}, {\"kind\": \"wave\", \"dim\": \"N\", \"tile\": 64}],\n"
		   " \"arguments\": [\n"
		   "  {\"name\": \"a\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", "
		   "\"dtype\": \"u32\"},\n"
		   "  {\"name\": \"c\", \"type\": \"memory\", \"shape\": [\"M\", \"N\"], \"address_space\": \"global\", "
		   "\"dtype\": \"u32\"}],\n"
		   " \"graph\": [\n"
		   "  {\"name\": \"x\", \"op\": \"read\", \"memory\": \"a\"},\n"
		   "  {\"name\": \"m\", \"op\": \"atomic_min\", \"lhs\": \"x\", \"rhs\": \"c\", \"mapping\": {\"iterators\": "
		   "[\"i\", \"j\"], \"inputs\": {\"M\": \"i\", \"N\": \"j\"}, \"outputs\": {\"M\": 0, \"N\": \"j\"}}}]}\n",
		M, N);
	fclose(f);
	uint32_t a[M][N], c[M][N];
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			a[i][j] = 0x7ffffff0u + (uint32_t)i * 0x10000000u + (uint32_t)j * 0x1234567u;
			c[i][j] = 0x90000000u - (uint32_t)j;
		}
	const int64_t shape[2] = {M, N};
	ck_assert_msg(npy_write(ina, DT_U32, 2, shape, a, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_write(inc, DT_U32, 2, shape, c, err, sizeof err) == 0, "%s", err);
	CmdResult r = test_wavecc("run '%s' --in a='%s' --in c='%s' --out c='%s' %s", k, ina, inc, out, STRICT);
	ck_assert_msg(r.status == 0 && strstr(r.out, "PASS"), "u32_atomic_min: wavecc run failed (%d):\n%s%s", r.status,
		r.out, r.err);
	cmd_result_free(&r);
	NpyArray b;
	ck_assert_msg(npy_read(out, &b, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_check(&b, "c", DT_U32, 2, shape, err, sizeof err) == 0, "%s", err);
	const uint32_t *got = b.data;
	int bad = 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			uint32_t want = c[i][j];
			for (int r2 = 0; i == 0 && r2 < M; r2++)
				want = a[r2][j] < want ? a[r2][j] : want;
			if (got[i * N + j] != want && bad++ < 10)
				fprintf(stderr, "u32_atomic_min: c[%d][%d] = %#x, expected %#x\n", i, j, got[i * N + j], want);
		}
	ck_assert_int_eq(bad, 0);
	npy_free(&b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("exact_outputs");
	TCase *tc = tcase_create("exact");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, i8_transposed_write);
	tcase_add_test(tc, u32_atomic_min);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
