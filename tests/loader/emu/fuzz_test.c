/* fuzz_test.c — random machine code never crashes the host: seeded random
 * words (biased toward valid format prefixes) run as kernels with a small
 * instruction cap, with a writable buffer mapped; every launch must return
 * (0 or -1 with a message). Run under ASan/UBSan by `make check-asan`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../loader/emu/emu_int.h"
#include "emu_harness.h"

static uint32_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 32);
}

/* A random instance of table row `id` (gfx942 opcode), random fields. */
static int row_words(uint64_t *sd, uint32_t w[2])
{
	int id;
	do
		id = 1 + (int)(rnd(sd) % (I_COUNT - 1));
	while (isa_info[id].op942 < 0);
	const IsaInfo *r = &isa_info[id];
	uint32_t op = (uint32_t)r->op942, x = rnd(sd);
	w[1] = rnd(sd);
	if (rnd(sd) & 1) /* keep register numbers small so more instructions get executed */
		x &= 0xffe7e7e7u, w[1] &= 0x1fc3f3fu;
	switch (r->fmt) {
	case FMT_SOP1: w[0] = 0xBE800000u | (x & 0x7F00FFu) | op << 8; return 1;
	case FMT_SOP2: w[0] = 0x80000000u | op << 23 | (x & 0x7FFFFFu); return 1;
	case FMT_SOPK: w[0] = 0xB0000000u | op << 23 | (x & 0x7FFFFFu); return 1;
	case FMT_SOPC: w[0] = 0xBF000000u | op << 16 | (x & 0xFFFFu); return 1;
	case FMT_SOPP: w[0] = 0xBF800000u | op << 16 | (x & 0xFu); return 1;
	case FMT_SMEM: w[0] = 0xC0000000u | op << 18 | (x & 0x3FFFFu); return 2;
	case FMT_VOP1: w[0] = 0x7E000000u | op << 9 | (x & 0x1FE01FFu); return 1;
	case FMT_VOP2: w[0] = op << 25 | (x & 0x1FFFFFFu); return 1;
	case FMT_VOPC: w[0] = 0x7C000000u | op << 17 | (x & 0x1FFFFu); return 1;
	case FMT_VOP3: w[0] = 0xD0000000u | op << 16 | (x & 0xFFFFu); return 2;
	case FMT_VOP3P: w[0] = 0xD3800000u | op << 16 | (x & 0xFFFFu); return 2;
	case FMT_DS: w[0] = 0xD8000000u | op << 17 | (x & 0x201FFFFu); return 2;
	case FMT_MUBUF: w[0] = 0xE0000000u | op << 18 | (x & 0x3FFFFu); return 2;
	case FMT_FLAT: w[0] = 0xDC000000u | op << 18 | (x & 0x203FFFu) | (strncmp(r->name, "global", 6) ? 0 : 2u << 14); return 2;
	default: w[0] = x; return 1;
	}
}

/* A kernel of the words code (n of them) in its own memory, as
 * random_code_is_contained runs them: the launch's return, err its message. */
static int launch_words(const uint32_t *code, int n, int prog, uint32_t *buf, size_t buf_size, char *err, size_t len)
{
	EmuMemory *m = emu_mem_new();
	ck_assert_int_eq(emu_mem_map_at(m, H_CODE_ADDR, (void *)code, (size_t)n * 4, false, "code"), 0);
	uint64_t b = emu_mem_map(m, buf, buf_size, 256, true, "buf");
	uint8_t kernarg[64];
	for (int i = 0; i < 8; i++)
		memcpy(kernarg + 8 * i, &b, 8);
	EmuLaunch l = {0};
	l.arch = (prog & 1) ? EMU_GFX90A : EMU_GFX942;
	l.kd.vgpr_alloc = (prog % 3) ? 256 : 64 + 8 * (uint32_t)(prog % 8);
	l.kd.accum_offset = (prog % 3) ? 128 : 32;
	l.kd.sgpr_private_segment_buffer = l.kd.sgpr_dispatch_ptr = l.kd.sgpr_queue_ptr = -1;
	l.kd.sgpr_dispatch_id = l.kd.sgpr_flat_scratch_init = l.kd.sgpr_private_segment_size = -1;
	l.kd.sgpr_kernarg_ptr = 0, l.kd.sgpr_wgid[0] = 2, l.kd.sgpr_wgid[1] = l.kd.sgpr_wgid[2] = -1;
	l.kd.sgpr_wg_info = -1;
	l.kd.group_segment_fixed_size = 256;
	l.kd_addr = H_CODE_ADDR;
	l.kernarg_addr = emu_mem_map(m, kernarg, sizeof kernarg, 16, false, "kernarg");
	l.grid[0] = l.grid[1] = l.grid[2] = 1;
	l.wg_size[0] = 128, l.wg_size[1] = l.wg_size[2] = 1;
	l.max_instructions = 300;
	int rc = emu_launch(m, &l, NULL, err, len);
	emu_mem_free(m);
	return rc;
}

/* v_swap_b32 with a literal (src0 255) for its source: a register number
 * 255 - 256 that wrapped past the VGPR bound check once crashed the host. */
START_TEST(swap_with_a_literal_is_reported)
{
	uint32_t code[] = {0x7E000000u | (uint32_t)isa_info[I_V_SWAP_B32].op942 << 9 | 1u << 17 | 255u, 0x12345678u,
		0xBF810000u /* s_endpgm */};
	uint32_t buf[64];
	char err[512];
	ck_assert_int_eq(launch_words(code, 3, 0, buf, sizeof buf, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "v_swap_b32"), "%s", err);
}
END_TEST

START_TEST(random_code_is_contained)
{
	static const uint32_t prefixes[] = {0xBE800000, 0x80000000, 0xB0000000, 0xBF000000, 0xBF800000, 0xC0000000,
					    0x7E000000, 0x7C000000, 0x00000000, 0xD0000000, 0xD3800000, 0xD8000000,
					    0xE0000000, 0xDC000000};
	static const uint32_t masks[] = {0x007FFFFF, 0x3FFFFFFF, 0x0FFFFFFF, 0x007FFFFF, 0x007FFFFF, 0x03FFFFFF,
					 0x01FFFFFF, 0x01FFFFFF, 0x7FFFFFFF, 0x03FFFFFF, 0x007FFFFF, 0x03FFFFFF,
					 0x03FFFFFF, 0x03FFFFFF};
	uint64_t seed = 42;
	uint32_t buf[1024];
	int failed = 0, ok = 0;
	for (int prog = 0; prog < 1500; prog++) {
		enum { N = 48 };
		uint32_t *code = xmalloc(N * 4);
		for (int i = 0; i < N; i++) {
			uint32_t k = rnd(&seed) % 15;
			if (prog % 4 != 0 && i + 1 < N) {
				uint32_t w[2];
				int n = row_words(&seed, w);
				code[i] = w[0];
				if (n == 2)
					code[++i] = w[1];
				continue;
			}
			code[i] = k < 14 ? prefixes[k] | (rnd(&seed) & masks[k]) : rnd(&seed);
		}
		char err[512];
		int rc = launch_words(code, N, prog, buf, sizeof buf, err, sizeof err);
		ck_assert(rc == 0 || rc == -1);
		if (rc) {
			if (getenv("EMU_FUZZ_VERBOSE"))
				fprintf(stderr, "%s\n", err);
			ck_assert_uint_gt(strlen(err), 10);
			failed++;
		} else
			ok++;
		free(code);
	}
	ck_assert_int_gt(failed, 0);
	ck_assert_int_eq(failed + ok, 1500);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("emu_fuzz");
	TCase *tc = tcase_create("fuzz");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, random_code_is_contained);
	tcase_add_test(tc, swap_with_a_literal_is_reported);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
