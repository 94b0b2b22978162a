/* format_ops_test.c — the ops added to kernel format 1 after its first
 * release (docs/kernel-format.md, "Additions"), end to end: `wavecc run`
 * compiles each kernel for gfx942 and gfx90a, runs it on the emulator and
 * compares with the interpreter; what is not compiled yet must be a located
 * error naming the op. The Wave tests that use these ops are in
 * wave_test.c. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/dtype.h"
#include "../../util/util.h"
#include "../test.h"

static CmdResult wavecc(const char *args)
{
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s", test_root(), test_bin(), args);
	return run_cmd(cmd, NULL);
}

static const char *const targets[] = {"gfx942", "gfx90a"};

/* Kernels that must PASS, each on both targets. */
static const char *const passing[] = {
	/* four condition elements per lane, with a result: each element
	 * selected by its own condition element (isel/control.c) */
	"tests/driver/data/conditional_ept4.json",
	/* a per-lane conditional with a result: b = mask > 0 ? a * a : a */
	"tests/driver/data/conditional_select.json",
	"tests/driver/data/conditional_select.json -D M=7 -D N=300 --seed 5",
	/* an i32 scalar kernel argument as an operand (apply_expr), the
	 * conditional on it: b = threshold > 10 ? a * 2.5 : a */
	"tests/driver/data/conditional_scalar_arg.json -D threshold=2",
	"tests/driver/data/conditional_scalar_arg.json -D threshold=50",
	"tests/driver/data/conditional_scalar_arg.json -D threshold=-7",
	/* a conditional on the loop variable around an MMA (a scalar branch in
	 * the K loop, LDS tiles staged outside it): only odd K tiles count */
	"tests/driver/data/gemm_conditional_tiles.json",
	"tests/driver/data/gemm_conditional_tiles.json -D M=100 -D N=70 -D K=96",
	/* the same with the shared reads inside the branch: their LDS tiles
	 * are staged (barriers and all) on the branch's side */
	"tests/driver/data/gemm_conditional_tiles_staged.json -D M=100 -D N=70 -D K=96",
	/* bitcasts of computed values and of a read with another use (not
	 * fused into a read): the dwords regrouped along the last dim, f16
	 * pairs into i32 and back, i32 into four i8; packed 16-bit runs, a
	 * partial last workgroup */
	"tests/driver/data/bitcast_f16_i32.json", "tests/driver/data/bitcast_f16_i32.json -D M=3 -D N=300",
	"tests/driver/data/bitcast_i32_f16.json", "tests/driver/data/bitcast_i32_f16.json -D M=3 -D N=300",
	"tests/driver/data/bitcast_i32_i8.json -D M=3 -D N=300",
	"tests/driver/data/bitcast_two_uses.json -D M=3 -D N=300",
};

START_TEST(passes)
{
	char args[1024];
	snprintf(args, sizeof args, "run %s --mcpu %s", passing[_i / 2], targets[_i % 2]);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

typedef struct {
	const char *args, *where, *what;
} Reject;

static const Reject rejects[] = {
	/* four condition elements per lane around another conditional */
	{"tests/driver/data/conditional_ept4_nested.json", "tests/driver/data/conditional_ept4_nested.json:116:9: error: ",
		"graph[3].body[1]: op 'conditional' inside the conditional 'sq', whose condition holds several elements per "
		"thread, is not compiled yet"},
	/* set_symbol with four offsets per lane (BLOCK_N 256): one binding of
	 * the symbol per lane cannot serve them */
	{"tests/driver/wave/set_symbol.json -D BLOCK_N=256 -D S=111", "tests/driver/wave/set_symbol.json:87:5: error: ",
		"graph[1]: set_symbol of i32 with 4 elements per thread: only one 32-bit element per thread is compiled "
		"yet"},
};

START_TEST(rejected_with_location)
{
	const Reject *x = &rejects[_i];
	char args[1024];
	snprintf(args, sizeof args, "run %s", x->args);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 1, "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	ck_assert_msg(strncmp(r.err, x->where, strlen(x->where)) == 0, "%s: want %s\ngot: %s", args, x->where, r.err);
	ck_assert_msg(strstr(r.err, x->what), "%s: want %s\ngot: %s", args, x->what, r.err);
	ck_assert_msg(!strstr(r.err, "internal error"), "%s: %s", args, r.err);
	cmd_result_free(&r);
}
END_TEST

/* An .npy file of a C-order array: descr such as "<i4", the shape. */
static void write_npy(const char *path, const char *descr, int rank, const int64_t *shape, const void *data,
	size_t bytes)
{
	char hdr[256];
	int n = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
	for (int i = 0; i < rank; i++)
		n += snprintf(hdr + n, sizeof hdr - (size_t)n, "%lld,%s", (long long)shape[i], i + 1 < rank ? " " : "");
	n += snprintf(hdr + n, sizeof hdr - (size_t)n, "), }");
	while ((10 + n + 1) % 64)
		hdr[n++] = ' ';
	hdr[n++] = '\n';
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(n & 255), (unsigned char)(n >> 8)};
	fwrite(pre, 1, 10, f);
	fwrite(hdr, 1, (size_t)n, f);
	fwrite(data, 1, bytes, f);
	fclose(f);
}

/* testPackedGemm with f16 data in i32 buffers (Wave passes a.view(int32)):
 * the emulator's c must match the interpreter's (wavecc run) and a host
 * GEMM of the f16 values computed here, for both MMA types and targets;
 * and testPackedNonTransposeGemm, whose b is b.view(int32).T: i32[K/2, N]
 * read through a transposing mapping before its bitcast. */
START_TEST(packed_gemm_f16_data)
{
	enum { M = 128, N = 192, K = 160 };
	const char *dir = test_tmpdir("format_ops");
	char pa[1024], pb[1024], pc[1024], args[4096];
	snprintf(pa, sizeof pa, "%s/a.npy", dir);
	snprintf(pb, sizeof pb, "%s/b.npy", dir);
	snprintf(pc, sizeof pc, "%s/c%d.npy", dir, _i);
	uint16_t *a = malloc(sizeof(uint16_t) * M * K), *b = malloc(sizeof(uint16_t) * N * K);
	uint32_t x = 12345;
	for (int i = 0; i < M * K + N * K; i++) {
		x = x * 1664525u + 1013904223u;
		uint16_t h = dtype_f32_to_f16((float)((int)(x >> 20) - 2048) / 2048.0f);
		if (i < M * K)
			a[i] = h;
		else
			b[i - M * K] = h;
	}
	bool nt = _i / 4; /* testPackedNonTransposeGemm: b's pairs as [K/2][N] */
	uint16_t *bt = malloc(sizeof(uint16_t) * N * K);
	for (int kp = 0; kp < K / 2; kp++)
		for (int n = 0; n < N; n++)
			for (int h = 0; h < 2; h++)
				bt[(kp * N + n) * 2 + h] = b[n * K + 2 * kp + h];
	int64_t sa[2] = {M, K / 2}, sb[2] = {N, K / 2}, sbt[2] = {K / 2, N};
	snprintf(pb, sizeof pb, "%s/b%d.npy", dir, nt);
	write_npy(pa, "<i4", 2, sa, a, sizeof(uint16_t) * M * K);
	write_npy(pb, "<i4", 2, nt ? sbt : sb, nt ? bt : b, sizeof(uint16_t) * N * K);
	free(bt);
	snprintf(args, sizeof args, "run tests/driver/wave/packed_%sgemm_%s.json -D M=%d -D N=%d -D K=%d --in a='%s' --in b='%s' "
		"--out c='%s' --mcpu %s", nt ? "nontranspose_" : "", _i / 2 % 2 ? "32x32x8" : "16x16x16", M, N, K, pa, pb, pc,
		targets[_i % 2]);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	cmd_result_free(&r);
	size_t len;
	char *c = read_file(pc, &len);
	ck_assert_ptr_nonnull(c);
	size_t hl = (size_t)(unsigned char)c[8] | (size_t)(unsigned char)c[9] << 8;
	ck_assert_uint_eq(len, 10 + hl + sizeof(float) * M * N);
	const float *cv = (const float *)(c + 10 + hl);
	double worst = 0;
	for (int m = 0; m < M; m++)
		for (int n = 0; n < N; n++) {
			double want = 0;
			for (int k = 0; k < K; k++)
				want += (double)dtype_f16_to_f32(a[m * K + k]) * dtype_f16_to_f32(b[n * K + k]);
			double d = fabs(cv[m * N + n] - want);
			worst = d > worst ? d : worst;
		}
	ck_assert_msg(worst < 1e-4, "%s: worst error %g against the host GEMM", args, worst);
	free(c);
	free(a);
	free(b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("format_ops");
	TCase *tc = tcase_create("run");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, passes, 0, (int)(2 * ARRAY_LEN(passing)));
	tcase_add_loop_test(tc, rejected_with_location, 0, (int)ARRAY_LEN(rejects));
	tcase_add_loop_test(tc, packed_gemm_f16_data, 0, 8);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
