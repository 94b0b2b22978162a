/* memory_test.c — the emulator's memory modes (loader/emu/emu.h,
 * EmuPolicy): late memory (a load's registers written at the covering
 * s_waitcnt, a store hidden from other waves until its wait), the race
 * detector, the canary on buffer stores dropped just past the end, and the
 * guard zones around mapped regions. Hand-written gfx942 snippets, each
 * wrong without a wait or barrier (the mode must flag it, the default mode
 * lets it pass) and right with it (the mode must pass it, with the right
 * values). */
#include <stdlib.h>
#include <string.h>

#include "emu_harness.h"

static void set_modes(Harness *h, bool late, bool races, bool canary)
{
	h->l.policy = (EmuPolicy){.memory = late ? EMU_MEMORY_LATE : EMU_MEMORY_NOW, .races = races, .canary = canary};
}

/* A snippet with "%s" replaced by `hole`. */
static void init_with(Harness *h, const char *fmt, const char *hole)
{
	char body[4096];
	snprintf(body, sizeof body, fmt, hole);
	h_init(h, body);
}

/* Run and expect failure with every one of the NULL-terminated substrings. */
static void expect_error(Harness *h, const char *const *want)
{
	ck_assert_msg(h_run(h) != 0, "the run should fail");
	for (int i = 0; want[i]; i++)
		ck_assert_msg(strstr(h->err, want[i]), "expected '%s' in: %s", want[i], h->err);
}

#define ERR(...) ((const char *const[]){__VA_ARGS__, NULL})

/* s6 = the wave's index in the workgroup, v0 = the work-item id x. */
#define WAVE_INDEX "v_and_b32 v0, 0x3ff, v0\n" \
		   "v_readfirstlane_b32 s6, v0\n" \
		   "s_lshr_b32 s6, s6, 6\n"

/* ---- late memory ---- */

static const char LDS_USE[] = "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
			      "v_and_b32 v0, 0x3ff, v0\n"
			      "v_lshlrev_b32 v1, 2, v0\n"
			      "v_add_u32 v2, 100, v0\n"
			      "ds_write_b32 v1, v2\n"
			      "ds_read_b32 v3, v1\n"
			      "%s\n"
			      "v_add_u32 v3, 1, v3\n"
			      "s_waitcnt lgkmcnt(0)\n"
			      "global_store_dword v1, v3, s[4:5]\n";

/* An LDS load used before its wait: the default mode cannot tell, late
 * memory names the load and the wait; with the wait both pass. */
START_TEST(late_lds_load)
{
	for (int wait = 0; wait < 2; wait++)
		for (int late = 0; late < 2; late++) {
			Harness h;
			init_with(&h, LDS_USE, wait ? "s_waitcnt lgkmcnt(0)" : "");
			uint32_t out[64] = {0};
			h_buffer(&h, out, sizeof out, 0, true);
			h.l.kd.group_segment_fixed_size = 256;
			set_modes(&h, late, false, false);
			if (late && !wait) {
				expect_error(&h, ERR("late memory: reads v3 before the ds_read_b32 v3, v1 at 0x",
						     "needs s_waitcnt lgkmcnt(0) before this instruction",
						     "(v_add_u32_e32 v3, 1, v3)", "wave 0"));
			} else {
				ck_assert_msg(h_run(&h) == 0, "%s", h.err);
				for (int l = 0; l < 64; l++)
					ck_assert_uint_eq(out[l], 101 + (uint32_t)l);
			}
			h_free(&h);
		}
}
END_TEST

static const char VM_ORDER[] = "s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
			       "v_and_b32 v0, 0x3ff, v0\n"
			       "v_lshlrev_b32 v1, 2, v0\n"
			       "s_waitcnt lgkmcnt(0)\n"
			       "global_load_dword v2, v1, s[4:5]\n"
			       "global_load_dword v3, v1, s[4:5] offset:256\n"
			       "s_waitcnt vmcnt(1)\n"
			       "v_add_u32 v4, 1, v2\n"
			       "%s\n"
			       "s_waitcnt vmcnt(0)\n"
			       "v_add_u32 v4, v4, v3\n"
			       "global_store_dword v1, v4, s[6:7]\n";

/* vmcnt returns in order: vmcnt(1) covers the older of two loads only. */
START_TEST(late_vmcnt_in_order)
{
	for (int bad = 0; bad < 2; bad++) {
		Harness h;
		init_with(&h, VM_ORDER, bad ? "v_add_u32 v4, v4, v3" : "");
		uint32_t in[128], out[64] = {0};
		for (int i = 0; i < 128; i++)
			in[i] = 1000u * (uint32_t)(i / 64) + (uint32_t)i;
		h_buffer(&h, in, sizeof in, 0, false);
		h_buffer(&h, out, sizeof out, 8, true);
		set_modes(&h, true, false, false);
		if (bad) {
			expect_error(&h, ERR("reads v3 before the global_load_dword v3, v1, s[4:5] offset:256",
					     "s_waitcnt vmcnt(0)"));
		} else {
			ck_assert_msg(h_run(&h) == 0, "%s", h.err);
			for (uint32_t l = 0; l < 64; l++)
				ck_assert_uint_eq(out[l], l + 1 + 1000 + l + 64);
		}
		h_free(&h);
	}
}
END_TEST

/* Writing a register a load has not returned yet is an error, unless the
 * writer is a later load of the same in-order counter (it returns after):
 * two global loads into v2, or two DS loads, leave the second's value; a
 * DS load after a global load into the same register does not. */
START_TEST(late_overwrite)
{
	static const struct {
		const char *a, *b, *err;
		uint32_t want; /* lane 0's result */
	} cases[] = {
		{"global_load_dword v2, v1, s[4:5]", "global_load_dword v2, v1, s[4:5] offset:256", NULL, 64},
		{"ds_read_b32 v2, v1", "ds_read_b32 v2, v1 offset:4", NULL, 7},
		{"global_load_dword v2, v1, s[4:5]", "ds_read_b32 v2, v1", "writes v2 before the global_load_dword v2", 0},
		{"global_load_dword v2, v1, s[4:5]", "v_mov_b32 v2, 5", "writes v2 before the global_load_dword v2", 0},
		{"s_load_dword s9, s[4:5], 0x0", "s_load_dword s9, s[4:5], 0x4", "writes s9 before the s_load_dword s9", 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char body[1024];
		snprintf(body, sizeof body,
			 "s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
			 "v_and_b32 v0, 0x3ff, v0\n"
			 "v_lshlrev_b32 v1, 2, v0\n"
			 "v_mov_b32 v3, 7\n"
			 "ds_write_b32 v1, v3 offset:4\n"
			 "s_waitcnt lgkmcnt(0)\n"
			 "%s\n%s\n"
			 "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
			 "global_store_dword v1, v2, s[6:7]\n",
			 cases[i].a, cases[i].b);
		Harness h;
		h_init(&h, body);
		uint32_t in[128], out[64] = {0};
		for (uint32_t k = 0; k < 128; k++)
			in[k] = k;
		h_buffer(&h, in, sizeof in, 0, false);
		h_buffer(&h, out, sizeof out, 8, true);
		h.l.kd.group_segment_fixed_size = 512;
		set_modes(&h, true, false, false);
		if (cases[i].err) {
			expect_error(&h, ERR(cases[i].err));
		} else {
			ck_assert_msg(h_run(&h) == 0, "case %zu: %s", i, h.err);
			ck_assert_uint_eq(out[0], cases[i].want);
		}
		h_free(&h);
	}
}
END_TEST

/* Two d16 loads into the halves of one register, both outstanding: with
 * SRAM ECC off each keeps the other half, merging when it returns, so the
 * register ends with both halves (clang's gfx942:sramecc- packing); with
 * it on the second load zeroes the low half. */
START_TEST(late_d16_halves)
{
	for (int preserve = 0; preserve < 2; preserve++) {
		Harness h;
		h_init(&h, "s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
			   "v_and_b32 v0, 0x3ff, v0\n"
			   "v_lshlrev_b32 v1, 2, v0\n"
			   "s_waitcnt lgkmcnt(0)\n"
			   "global_load_short_d16 v2, v1, s[4:5]\n"
			   "global_load_short_d16_hi v2, v1, s[4:5] offset:2\n"
			   "s_waitcnt vmcnt(0)\n"
			   "global_store_dword v1, v2, s[6:7]\n");
		uint32_t in[64], out[64] = {0};
		for (uint32_t k = 0; k < 64; k++)
			in[k] = 0x10001u * k + 0x30001u;
		h_buffer(&h, in, sizeof in, 0, false);
		h_buffer(&h, out, sizeof out, 8, true);
		h.l.d16 = preserve ? EMU_D16_PRESERVE : EMU_D16_CLOBBER;
		set_modes(&h, true, false, false);
		ck_assert_msg(h_run(&h) == 0, "%s", h.err);
		for (uint32_t k = 0; k < 64; k++)
			ck_assert_uint_eq(out[k], preserve ? in[k] : in[k] & 0xffff0000u);
		h_free(&h);
	}
}
END_TEST

/* lgkmcnt: DS loads return in order, SMEM out of order. With an SMEM load
 * outstanding, lgkmcnt(1) guarantees no DS load older than the last one
 * (the SMEM may have been the one to return) and no SMEM: only
 * lgkmcnt(0) does. */
START_TEST(late_lgkmcnt_smem_out_of_order)
{
	static const struct {
		const char *code, *err;
	} cases[] = {
		{"ds_read_b32 v3, v1\nds_read_b32 v4, v1\ns_waitcnt lgkmcnt(1)\nv_mov_b32 v5, v3", NULL},
		{"ds_read_b32 v3, v1\nds_read_b32 v4, v1\ns_waitcnt lgkmcnt(1)\nv_mov_b32 v5, v4",
		 "reads v4 before the ds_read_b32 v4, v1"},
		{"ds_read_b32 v3, v1\ns_load_dword s8, s[0:1], 0x10\ns_waitcnt lgkmcnt(1)\nv_mov_b32 v5, v3",
		 "needs s_waitcnt lgkmcnt(0)"},
		{"s_load_dword s8, s[0:1], 0x10\nds_read_b32 v3, v1\ns_waitcnt lgkmcnt(1)\ns_add_u32 s9, s8, 1",
		 "reads s8 before the s_load_dword s8"},
		{"s_load_dword s8, s[0:1], 0x10\nds_read_b32 v3, v1\ns_waitcnt lgkmcnt(0)\ns_add_u32 s9, s8, 1\n"
		 "v_mov_b32 v5, v3", NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Harness h;
		init_with(&h,
			  "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
			  "v_and_b32 v0, 0x3ff, v0\n"
			  "v_lshlrev_b32 v1, 2, v0\n"
			  "s_waitcnt lgkmcnt(0)\n"
			  "%s\n"
			  "s_waitcnt lgkmcnt(0)\n"
			  "global_store_dword v1, v5, s[4:5]\n",
			  cases[i].code);
		uint32_t out[64] = {0};
		h_buffer(&h, out, sizeof out, 0, true);
		h.l.kd.group_segment_fixed_size = 256;
		set_modes(&h, true, false, false);
		if (cases[i].err)
			expect_error(&h, ERR(cases[i].err));
		else
			ck_assert_msg(h_run(&h) == 0, "case %zu: %s", i, h.err);
		h_free(&h);
	}
}
END_TEST

static const char LDS_PUBLISH[] = "s_load_dwordx2 s[4:5], s[0:1], 0x0\n" WAVE_INDEX
				  "v_and_b32 v1, 63, v0\n"
				  "v_lshlrev_b32 v1, 2, v1\n"
				  "s_cmp_eq_u32 s6, 1\n"
				  "s_cbranch_scc0 skip\n"
				  "v_add_u32 v2, 1000, v0\n"
				  "ds_write_b32 v1, v2\n"
				  "%s\n"
				  "skip:\n"
				  "s_barrier\n"
				  "s_cmp_eq_u32 s6, 0\n"
				  "s_cbranch_scc0 end\n"
				  "ds_read_b32 v3, v1\n"
				  "s_waitcnt lgkmcnt(0)\n"
				  "global_store_dword v1, v3, s[4:5]\n"
				  "end:\n"
				  "s_endpgm\n";

/* Wave 1 writes LDS and reaches the barrier; wave 0 reads after it. Without
 * an lgkmcnt wait before the barrier the store may not have reached LDS:
 * late memory reports the read, naming the store and its missing wait. */
START_TEST(late_store_needs_wait_before_barrier)
{
	for (int wait = 0; wait < 2; wait++)
		for (int late = 0; late < 2; late++) {
			Harness h;
			init_with(&h, LDS_PUBLISH, wait ? "s_waitcnt lgkmcnt(0)" : "");
			uint32_t out[64] = {0};
			h_buffer(&h, out, sizeof out, 0, true);
			h.l.wg_size[0] = 128;
			h.l.kd.group_segment_fixed_size = 256;
			set_modes(&h, late, false, false);
			if (late && !wait) {
				expect_error(&h, ERR("late memory: reads LDS offset 0x0 (lane 0), written by wave 1's "
						     "ds_write_b32 v1, v2 at 0x",
						     "wave 1 has not executed s_waitcnt lgkmcnt(0)", "wave 0]"));
			} else {
				ck_assert_msg(h_run(&h) == 0, "%s", h.err);
				for (uint32_t l = 0; l < 64; l++)
					ck_assert_uint_eq(out[l], 1064 + l);
			}
			h_free(&h);
		}
}
END_TEST

/* Two waves store to the same global dwords with no wait: the same values
 * (a reduction's total each wave writes) are no error, different ones are
 * (which reaches memory last is not known). */
START_TEST(late_replicated_stores)
{
	for (int differ = 0; differ < 2; differ++) {
		Harness h;
		init_with(&h,
			  "s_load_dwordx2 s[4:5], s[0:1], 0x0\n" WAVE_INDEX
			  "v_and_b32 v1, 63, v0\n"
			  "v_lshlrev_b32 v1, 2, v1\n"
			  "v_mov_b32 v2, 41\n"
			  "%s\n"
			  "s_waitcnt lgkmcnt(0)\n"
			  "global_store_dword v1, v2, s[4:5]\n",
			  differ ? "v_add_u32 v2, s6, v2" : "");
		uint32_t out[64] = {0};
		h_buffer(&h, out, sizeof out, 0, true);
		h.l.wg_size[0] = 128;
		set_modes(&h, true, false, false);
		if (differ) {
			expect_error(&h, ERR("late memory: writes offset 0 of 'buf'", "written by wave 0's global_store_dword",
					     "vmcnt(0)", "wave 1]"));
		} else {
			ck_assert_msg(h_run(&h) == 0, "%s", h.err);
			ck_assert_uint_eq(out[5], 41);
		}
		h_free(&h);
	}
}
END_TEST

/* An LDS DMA (buffer_load_dword ... lds) writes LDS on vmcnt: even its own
 * wave may read that LDS only after vmcnt covers it. */
START_TEST(late_lds_dma)
{
	for (int wait = 0; wait < 2; wait++) {
		Harness h;
		init_with(&h,
			  "s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
			  "s_waitcnt lgkmcnt(0)\n"
			  "s_mov_b32 s8, s4\n"
			  "s_and_b32 s9, s5, 0xffff\n"
			  "s_mov_b32 s10, 256\n"
			  "s_mov_b32 s11, 0x20000\n"
			  "s_mov_b32 m0, 0\n"
			  "v_and_b32 v0, 0x3ff, v0\n"
			  "v_lshlrev_b32 v1, 2, v0\n"
			  "buffer_load_dword v1, s[8:11], 0 offen lds\n"
			  "%s\n"
			  "ds_read_b32 v3, v1\n"
			  "s_waitcnt lgkmcnt(0)\n"
			  "global_store_dword v1, v3, s[6:7]\n",
			  wait ? "s_waitcnt vmcnt(0)" : "");
		uint32_t in[64], out[64] = {0};
		for (uint32_t k = 0; k < 64; k++)
			in[k] = 3 * k + 1;
		h_buffer(&h, in, sizeof in, 0, false);
		h_buffer(&h, out, sizeof out, 8, true);
		h.l.kd.group_segment_fixed_size = 256;
		set_modes(&h, true, false, false);
		if (!wait) {
			expect_error(&h, ERR("reads LDS offset 0x0 (lane 0), written by wave 0's buffer_load_dword", "vmcnt(0)"));
		} else {
			ck_assert_msg(h_run(&h) == 0, "%s", h.err);
			for (uint32_t k = 0; k < 64; k++)
				ck_assert_uint_eq(out[k], 3 * k + 1);
		}
		h_free(&h);
	}
}
END_TEST

/* ---- races ---- */

static const char REUSE[] = "s_load_dwordx2 s[4:5], s[0:1], 0x0\n" WAVE_INDEX
			    "v_and_b32 v1, 63, v0\n"
			    "v_lshlrev_b32 v1, 2, v1\n"
			    "v_mov_b32 v4, 0\n"
			    "s_mov_b32 s7, 3\n"
			    "loop:\n"
			    "s_cmp_eq_u32 s6, 0\n"
			    "s_cbranch_scc0 reader\n"
			    "v_add_u32 v2, s7, v0\n"
			    "ds_write_b32 v1, v2\n"
			    "s_waitcnt lgkmcnt(0)\n"
			    "reader:\n"
			    "s_barrier\n"
			    "ds_read_b32 v3, v1\n"
			    "s_waitcnt lgkmcnt(0)\n"
			    "v_add_u32 v4, v4, v3\n"
			    "%s\n"
			    "s_sub_u32 s7, s7, 1\n"
			    "s_cmp_lg_u32 s7, 0\n"
			    "s_cbranch_scc1 loop\n"
			    "v_lshlrev_b32 v5, 2, v0\n"
			    "s_waitcnt vmcnt(0)\n"
			    "global_store_dword v5, v4, s[4:5]\n";

/* AMD's int8 GEMM pattern: wave 0 refills an LDS buffer that both waves read
 * after a barrier, with no barrier between the reads and the next refill.
 * The race detector reports the read and the write; with the second
 * barrier there is none. Both give the right sums in the default order. */
START_TEST(races_lds_buffer_reuse)
{
	for (int fixed = 0; fixed < 2; fixed++) {
		Harness h;
		init_with(&h, REUSE, fixed ? "s_barrier" : "");
		uint32_t out[128] = {0};
		char report[4096];
		h_buffer(&h, out, sizeof out, 0, true);
		h.l.wg_size[0] = 128;
		h.l.kd.group_segment_fixed_size = 256;
		h.l.report = report;
		h.l.report_len = sizeof report;
		set_modes(&h, false, true, false);
		ck_assert_msg(h_run(&h) == 0, "%s", h.err);
		for (uint32_t t = 0; t < 128; t++)
			ck_assert_uint_eq(out[t], 3 * (t % 64) + 6);
		if (fixed) {
			ck_assert_uint_eq(h.stats.races, 0);
			ck_assert_str_eq(report, "");
		} else {
			ck_assert_uint_ge(h.stats.races, 1);
			ck_assert_msg(strstr(report, "race on LDS offset 0x0: ds_read_b32 v3, v1 at 0x") &&
				      strstr(report, "wave 1 lane 0") && strstr(report, "and ds_write_b32 v1, v2 at 0x") &&
				      strstr(report, "wave 0 lane 0") && strstr(report, "no s_barrier between them"),
				      "%s", report);
		}
		h_free(&h);
	}
}
END_TEST

/* Wave 1 writes, wave 0 reads the same LDS with no barrier (the race
 * order_test shows changing with the wave order): reported, with both
 * instructions, under every wave order. */
START_TEST(races_lds_read_write)
{
	for (int order = 0; order < 3; order++) {
		Harness h;
		h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n" WAVE_INDEX
			   "v_and_b32 v1, 63, v0\n"
			   "v_lshlrev_b32 v1, 2, v1\n"
			   "s_cmp_eq_u32 s6, 1\n"
			   "s_cbranch_scc1 writer\n"
			   "ds_read_b32 v2, v1\n"
			   "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
			   "global_store_dword v1, v2, s[4:5]\n"
			   "s_endpgm\n"
			   "writer:\n"
			   "v_add_u32 v2, 1000, v0\n"
			   "ds_write_b32 v1, v2\n");
		uint32_t out[64];
		char report[4096];
		h_buffer(&h, out, sizeof out, 0, true);
		h.l.wg_size[0] = 128;
		h.l.kd.group_segment_fixed_size = 256;
		h.l.report = report;
		h.l.report_len = sizeof report;
		set_modes(&h, false, true, false);
		h.l.policy.waves = (EmuWaveOrder)order;
		ck_assert_msg(h_run(&h) == 0, "%s", h.err);
		ck_assert_uint_eq(h.stats.races, 1);
		ck_assert_msg(strstr(report, "ds_read_b32 v2, v1") && strstr(report, "ds_write_b32 v1, v2"), "%s", report);
		h_free(&h);
	}
}
END_TEST

/* Waves writing the two halves of one dword do not race (the records split
 * to bytes); a wave reading the half another wrote with no barrier does. */
START_TEST(races_sub_dword)
{
	for (int read = 0; read < 2; read++) {
		Harness h;
		init_with(&h,
			  "s_load_dwordx2 s[4:5], s[0:1], 0x0\n" WAVE_INDEX
			  "v_and_b32 v1, 63, v0\n"
			  "v_lshlrev_b32 v1, 2, v1\n"
			  "v_lshlrev_b32 v2, 1, v0\n"      /* wave 0 the low half, wave 1 the high */
			  "v_and_b32 v2, 0x80, v2\n"
			  "v_lshrrev_b32 v2, 6, v2\n"
			  "v_add_u32 v2, v1, v2\n"
			  "v_add_u32 v3, 0x100, v0\n"
			  "ds_write_b16 v2, v3\n"
			  "%s\n"
			  "s_waitcnt lgkmcnt(0)\n"
			  "s_barrier\n"
			  "ds_read_b32 v4, v1\n"
			  "s_waitcnt lgkmcnt(0)\n"
			  "global_store_dword v1, v4, s[4:5]\n",
			  read ? "s_cmp_eq_u32 s6, 0\ns_cbranch_scc0 1f\nds_read_u16 v5, v1 offset:2\n1:" : "");
		uint32_t out[64] = {0};
		char report[4096];
		h_buffer(&h, out, sizeof out, 0, true);
		h.l.wg_size[0] = 128;
		h.l.kd.group_segment_fixed_size = 256;
		h.l.report = report;
		h.l.report_len = sizeof report;
		set_modes(&h, false, true, false);
		ck_assert_msg(h_run(&h) == 0, "%s", h.err);
		ck_assert_uint_eq(out[3], (0x100u + 3) | (0x100u + 67) << 16);
		ck_assert_msg(h.stats.races == (uint64_t)read, "%llu races\n%s", (unsigned long long)h.stats.races, report);
		if (read)
			ck_assert_msg(strstr(report, "ds_write_b16 v2, v3") && strstr(report, "ds_read_u16 v5, v1 offset:2"),
				      "%s", report);
		h_free(&h);
	}
}
END_TEST

/* Two workgroups writing different values to the same global dwords race
 * (the hardware runs them concurrently); the same values (a result each
 * computes whole) do not, nor do writes to their own dwords or atomic
 * additions to shared ones. A wave reading what it wrote itself does not;
 * a workgroup reading what another wrote does. */
START_TEST(races_global_workgroups)
{
	static const struct {
		const char *code;
		uint64_t races;
	} cases[] = {
		{"v_add_u32 v3, s2, v0\nglobal_store_dword v1, v3, s[4:5]", 1},
		{"global_store_dword v1, v0, s[4:5]", 0},
		{"s_lshl_b32 s8, s2, 8\nv_add_u32 v1, s8, v1\nglobal_store_dword v1, v0, s[4:5]", 0},
		{"global_atomic_add v1, v0, s[4:5]", 0},
		{"s_lshl_b32 s8, s2, 8\nv_add_u32 v1, s8, v1\nglobal_store_dword v1, v0, s[4:5]\n"
		 "global_load_dword v2, v1, s[4:5]\ns_waitcnt vmcnt(0)\nglobal_store_dword v1, v2, s[4:5] offset:512",
		 0},
		{"v_add_u32 v0, 1, v0\nglobal_atomic_add v1, v0, s[4:5]\nglobal_load_dword v2, v1, s[4:5]", 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Harness h;
		init_with(&h,
			  "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
			  "v_and_b32 v0, 0x3ff, v0\n"
			  "v_lshlrev_b32 v1, 2, v0\n"
			  "s_waitcnt lgkmcnt(0)\n"
			  "%s\n",
			  cases[i].code);
		uint32_t out[384] = {0};
		char report[4096];
		h_buffer(&h, out, sizeof out, 0, true);
		h.l.grid[0] = 2;
		h.l.report = report;
		h.l.report_len = sizeof report;
		set_modes(&h, false, true, false);
		ck_assert_msg(h_run(&h) == 0, "case %zu: %s", i, h.err);
		ck_assert_msg(h.stats.races == cases[i].races, "case %zu: %llu races\n%s", i,
			      (unsigned long long)h.stats.races, report);
		if (cases[i].races)
			ck_assert_msg(strstr(report, "race on offset 0 of 'buf'") && strstr(report, "workgroup (0,0,0)") &&
				      strstr(report, "workgroup (1,0,0)") && strstr(report, "different workgroups"),
				      "%s", report);
		h_free(&h);
	}
}
END_TEST

/* ---- canary and guard zones ---- */

static const char BUFFER_STORE[] = "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
				   "s_waitcnt lgkmcnt(0)\n"
				   "s_mov_b32 s8, s4\n"
				   "s_and_b32 s9, s5, 0xffff\n"
				   "s_mov_b32 s10, 256\n"
				   "s_mov_b32 s11, 0x20000\n"
				   "v_and_b32 v0, 0x3ff, v0\n"
				   "v_lshlrev_b32 v1, 2, v0\n"
				   "v_add_u32 v1, %s, v1\n"
				   "v_mov_b32 v2, 5\n"
				   "buffer_store_dword v2, v1, s[8:11], 0 offen\n";

/* A buffer store one element past num_records is dropped by the range
 * check, silently on hardware and by default here; the canary reports it
 * with the buffer and the offset. A lane masked the way wavecc masks (its
 * offset at 2 GiB) is no error. */
START_TEST(canary_buffer_store)
{
	static const struct {
		const char *shift;
		bool canary, fails;
	} cases[] = {{"4", false, false}, {"4", true, true}, {"0", true, false}, {"0x80000000", true, false}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Harness h;
		init_with(&h, BUFFER_STORE, cases[i].shift);
		uint32_t out[64] = {0};
		h_buffer(&h, out, sizeof out, 0, true);
		set_modes(&h, false, false, cases[i].canary);
		if (cases[i].fails) {
			expect_error(&h, ERR("canary: a store to byte offset 256 of buffer 'buf' (num_records 256), 0 bytes "
					     "past its end, lane 63"));
		} else {
			ck_assert_msg(h_run(&h) == 0, "case %zu: %s", i, h.err);
			uint32_t want0 = strcmp(cases[i].shift, "0") == 0 ? 5 : 0;
			ck_assert_uint_eq(out[0], want0);
		}
		h_free(&h);
	}
}
END_TEST

/* A global store past a region's end (or before its start) faults in the
 * guard zone, and the message names the region and how far off it is. The
 * zone is as large as the region: a store a whole 2 MiB buffer past the
 * end of a 2 MiB buffer does not land in the next one. */
START_TEST(guard_zones_name_the_buffer)
{
	static const struct {
		const char *voff, *ioff, *want, *want2; /* want NULL: in bounds */
	} cases[] = {
		{"0x100", "0", NULL, NULL},
		{"0x200000", "0", "offset 2097152 of 'first' (2097152 bytes at 0x", "0 bytes past its end"},
		{"0x3fff00", "0x100", "offset 4194304 of 'first'", "2097152 bytes past its end"},
		{"0", "-4", "4 bytes before the start of 'first'", "address 0x"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char body[1024];
		snprintf(body, sizeof body,
			 "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
			 "s_waitcnt lgkmcnt(0)\n"
			 "v_mov_b32 v0, 7\n"
			 "v_mov_b32 v1, %s\n"
			 "s_mov_b64 exec, 1\n"
			 "global_store_dword v1, v0, s[4:5] offset:%s\n",
			 cases[i].voff, cases[i].ioff);
		Harness h;
		h_init(&h, body);
		size_t n = 2u << 20;
		uint8_t *a = calloc(n, 1), *b = calloc(n, 1);
		uint64_t at = emu_mem_map(h.mem, a, n, 256, true, "first");
		uint64_t bt = emu_mem_map(h.mem, b, n, 256, true, "second");
		ck_assert_uint_ge(bt - at, 2 * n); /* a whole buffer's guard between them */
		memcpy(h.kernarg, &at, 8);
		if (!cases[i].want) {
			ck_assert_msg(h_run(&h) == 0, "%s", h.err);
			ck_assert_uint_eq(a[0x100], 7);
		} else {
			expect_error(&h, ERR("memory write outside any mapped region", cases[i].want, cases[i].want2));
			size_t touched = 0;
			for (size_t k = 0; k < n; k++)
				touched += b[k] != 0;
			ck_assert_uint_eq(touched, 0);
		}
		free(a);
		free(b);
		h_free(&h);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("emu_memory");
	TCase *tc = tcase_create("memory");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, late_lds_load);
	tcase_add_test(tc, late_vmcnt_in_order);
	tcase_add_test(tc, late_overwrite);
	tcase_add_test(tc, late_d16_halves);
	tcase_add_test(tc, late_lgkmcnt_smem_out_of_order);
	tcase_add_test(tc, late_store_needs_wait_before_barrier);
	tcase_add_test(tc, late_replicated_stores);
	tcase_add_test(tc, late_lds_dma);
	tcase_add_test(tc, races_lds_buffer_reuse);
	tcase_add_test(tc, races_lds_read_write);
	tcase_add_test(tc, races_sub_dword);
	tcase_add_test(tc, races_global_workgroups);
	tcase_add_test(tc, canary_buffer_store);
	tcase_add_test(tc, guard_zones_name_the_buffer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
