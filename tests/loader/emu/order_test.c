/* order_test.c — EmuLaunch.policy (loader/emu/emu.h): the wave order inside
 * a workgroup (interleave, barrier, random), the workgroup order (forward,
 * reverse, random) and the initial fill (zero, garbage). Hand-written
 * gfx942 snippets whose results show the order they ran in or the state
 * they started from; the random modes are reproducible from their seed. */
#include <stdlib.h>
#include <string.h>

#include "emu_harness.h"

static void set_policy(Harness *h, EmuWaveOrder waves, EmuWgOrder wgs, EmuFill fill, uint64_t seed)
{
	h->l.policy = (EmuPolicy){.waves = waves, .wgs = wgs, .fill = fill, .seed = seed};
}

/* Map `out` for the kernarg pointer at offset 0; `items` work-items in x
 * per workgroup, `lds` bytes of LDS. */
static void setup(Harness *h, void *out, size_t size, uint32_t items, uint32_t lds)
{
	h_buffer(h, out, size, 0, true);
	h->l.wg_size[0] = items;
	h->l.kd.group_segment_fixed_size = lds;
	/* registers the waves can all hold on the 4 SIMDs (the emulator
	 * refuses a workgroup that could not launch) */
	uint32_t per_simd = ((items + 63) / 64 + 3) / 4, regs = 512 / (per_simd ? per_simd : 1) / 8 * 8;
	if (h->l.kd.vgpr_alloc > regs) {
		h->l.kd.vgpr_alloc = regs;
		h->l.kd.accum_offset = regs / 2;
	}
}

/* Run r of a sweep over the orders: the first two fixed orders (interleave,
 * barrier; forward, reverse), then random. */
static int order_of_run(int r) { return r < 2 ? r : 2; }

/* Run a ticket kernel (out[i]: the turn of wave or workgroup i among n,
 * from a counter the caller's kernel increments; `counter` reset before
 * each run when it is in global memory) under every order of one kind
 * (`wgs`: the workgroup order, else the wave order). The fixed orders give
 * 0..n-1 (reverse: n-1..0), a random one a permutation that the seed alone
 * decides, another for most seeds. */
static void check_tickets(Harness *h, uint32_t *out, uint32_t n, bool wgs, uint32_t *counter)
{
	uint32_t by_seed[4][16];
	for (int run = 0; run < 2 + 8; run++) {
		int mode = order_of_run(run);
		uint64_t seed = run < 2 ? 0 : (uint64_t)(run - 2) / 2; /* each random seed twice */
		if (wgs)
			set_policy(h, EMU_WAVES_INTERLEAVE, (EmuWgOrder)mode, EMU_FILL_ZERO, seed);
		else
			set_policy(h, (EmuWaveOrder)mode, EMU_WGS_FORWARD, EMU_FILL_ZERO, seed);
		if (counter)
			*counter = 0;
		memset(out, 0xff, n * sizeof *out);
		ck_assert_msg(h_run(h) == 0, "%s", h->err);
		uint32_t seen = 0;
		for (uint32_t i = 0; i < n; i++) {
			ck_assert_uint_lt(out[i], n);
			seen |= 1u << out[i];
			if (mode < 2)
				ck_assert_uint_eq(out[i], wgs && mode == 1 ? n - 1 - i : i);
		}
		ck_assert_uint_eq(seen, (1u << n) - 1);
		if (mode < 2)
			continue;
		if (run % 2 == 0)
			memcpy(by_seed[seed], out, n * sizeof *out);
		else
			ck_assert_msg(memcmp(by_seed[seed], out, n * sizeof *out) == 0, "seed %llu twice: the same order",
				      (unsigned long long)seed);
	}
	int differ = 0;
	for (int k = 1; k < 4; k++)
		differ += memcmp(by_seed[0], by_seed[k], n * sizeof *out) != 0;
	ck_assert_int_ge(differ, 2);
}

/* s6 = the wave's index in the workgroup, v0 = the work-item id x. */
#define WAVE_INDEX "v_and_b32 v0, 0x3ff, v0\n" \
		   "v_readfirstlane_b32 s6, v0\n" \
		   "s_lshr_b32 s6, s6, 6\n"

/* Wave 1 writes LDS, wave 0 reads the same dwords with no barrier between
 * (a race), a few instructions later than wave 1 writes: run to the barrier
 * (here the end) wave 0 reads the zeros LDS starts with; issuing one
 * instruction per wave in turn it reads wave 1's values. */
START_TEST(lds_race_depends_on_wave_order)
{
	Harness h;
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n" WAVE_INDEX
		   "v_and_b32 v1, 63, v0\n"
		   "v_lshlrev_b32 v1, 2, v1\n"
		   "s_cmp_eq_u32 s6, 1\n"
		   "s_cbranch_scc1 writer\n"
		   "s_nop 0\n"
		   "s_nop 0\n"
		   "s_nop 0\n"
		   "ds_read_b32 v2, v1\n"
		   "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
		   "global_store_dword v1, v2, s[4:5]\n"
		   "s_endpgm\n"
		   "writer:\n"
		   "v_add_u32 v2, 1000, v0\n"
		   "ds_write_b32 v1, v2\n");
	uint32_t out[64];
	setup(&h, out, sizeof out, 128, 256);
	bool saw[2] = {false, false};
	for (int run = 0; run < 2 + 32; run++) { /* random with 32 seeds */
		EmuWaveOrder o = (EmuWaveOrder)order_of_run(run);
		set_policy(&h, o, EMU_WGS_FORWARD, EMU_FILL_ZERO, (uint64_t)run);
		memset(out, 0xff, sizeof out);
		ck_assert_msg(h_run(&h) == 0, "%s", h.err);
		bool wrote = out[0] != 0;
		for (uint32_t l = 0; l < 64; l++)
			ck_assert_uint_eq(out[l], wrote ? 1064 + l : 0);
		if (o == EMU_WAVES_INTERLEAVE)
			ck_assert_msg(wrote, "interleave: wave 0 reads after wave 1 wrote");
		else if (o == EMU_WAVES_BARRIER)
			ck_assert_msg(!wrote, "barrier: wave 0 runs to its end before wave 1 starts");
		else
			saw[wrote] = true;
	}
	ck_assert_msg(saw[0] && saw[1], "random wave order: both outcomes over 32 seeds");
	h_free(&h);
}
END_TEST

/* Sixteen waves take tickets from an LDS counter (ds_add_rtn_u32, one lane
 * each): the tickets are the order the waves reached it. */
START_TEST(wave_order)
{
	Harness h;
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n" WAVE_INDEX
		   "s_mov_b64 exec, 1\n"
		   "v_mov_b32 v1, 0\n"
		   "v_mov_b32 v2, 1\n"
		   "ds_add_rtn_u32 v3, v1, v2\n"
		   "s_lshl_b32 s7, s6, 2\n"
		   "v_mov_b32 v4, s7\n"
		   "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
		   "global_store_dword v4, v3, s[4:5]\n");
	uint32_t out[16];
	setup(&h, out, sizeof out, 1024, 4);
	check_tickets(&h, out, 16, false, NULL);
	h_free(&h);
}
END_TEST

/* Four waves pass values around a ring through LDS, eight rounds with two
 * barriers each (write, barrier, read the next wave's slot, barrier): the
 * same result under every wave order. */
START_TEST(barriers_hold_in_every_order)
{
	Harness h;
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n" WAVE_INDEX
		   "v_lshlrev_b32 v1, 2, v0\n"          /* own slot */
		   "v_add_u32 v2, 64, v0\n"
		   "v_and_b32 v2, 0xff, v2\n"
		   "v_lshlrev_b32 v2, 2, v2\n"          /* the next wave's slot */
		   "v_mov_b32 v3, v0\n"
		   "s_mov_b32 s7, 8\n"
		   "loop:\n"
		   "ds_write_b32 v1, v3\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "s_barrier\n"
		   "ds_read_b32 v3, v2\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "v_add_u32 v3, 1, v3\n"
		   "s_barrier\n"
		   "s_sub_u32 s7, s7, 1\n"
		   "s_cmp_lg_u32 s7, 0\n"
		   "s_cbranch_scc1 loop\n"
		   "global_store_dword v1, v3, s[4:5]\n");
	uint32_t out[256];
	setup(&h, out, sizeof out, 256, 1024);
	for (int run = 0; run < 2 + 8; run++) {
		EmuFill fill = run & 1 ? EMU_FILL_GARBAGE : EMU_FILL_ZERO;
		set_policy(&h, (EmuWaveOrder)order_of_run(run), EMU_WGS_FORWARD, fill, (uint64_t)run);
		memset(out, 0, sizeof out);
		ck_assert_msg(h_run(&h) == 0, "%s", h.err);
		/* after round r a lane holds the value of the lane 64 r ahead,
		 * plus r: eight rounds go twice around the ring */
		for (uint32_t t = 0; t < 256; t++)
			ck_assert_uint_eq(out[t], t + 8);
	}
	h_free(&h);
}
END_TEST

/* policy.barriers: four waves whose barriers disagree. Waves split by
 * their index's parity onto two paths, each with its own s_barrier, or
 * wave 3 ends without the barrier the others wait at: by default the
 * barrier counts arrivals (the ISA's rule: ended waves no longer count),
 * so both run; with policy.barriers both fail naming the waves and the
 * barrier. The ring kernel above, whose waves pass the same barriers,
 * runs under it in every wave order. */
START_TEST(barriers_must_match)
{
	static const struct {
		const char *body, *want;
	} cases[] = {
		{WAVE_INDEX "s_and_b32 s7, s6, 1\n"
			    "s_cmp_eq_u32 s7, 1\n"
			    "s_cbranch_scc1 odd\n"
			    "s_barrier\n"
			    "s_endpgm\n"
			    "odd:\n"
			    "s_barrier\n",
		 "waves of one workgroup wait at different s_barrier instructions"},
		{WAVE_INDEX "s_cmp_eq_u32 s6, 3\n"
			    "s_cbranch_scc1 out\n"
			    "s_barrier\n"
			    "out:\n",
		 "wave ended without the s_barrier at"},
	};
	uint32_t out[4];
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		Harness h;
		h_init(&h, cases[i].body);
		setup(&h, out, sizeof out, 256, 0);
		ck_assert_msg(h_run(&h) == 0, "case %zu without the check: %s", i, h.err);
		h.l.policy.barriers = true;
		ck_assert_msg(h_run(&h) != 0, "case %zu: the check passed", i);
		ck_assert_msg(strstr(h.err, cases[i].want), "case %zu: %s", i, h.err);
		h_free(&h);
	}
	Harness h;
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n" WAVE_INDEX
		   "v_lshlrev_b32 v1, 2, v0\n"
		   "s_barrier\n"
		   "s_cmp_eq_u32 s6, 3\n"
		   "s_cbranch_scc1 skip\n"
		   "s_nop 0\n"
		   "skip:\n"
		   "s_barrier\n"
		   "global_store_dword v1, v0, s[4:5]\n");
	uint32_t ring[256];
	setup(&h, ring, sizeof ring, 256, 0);
	for (int run = 0; run < 2 + 4; run++) {
		set_policy(&h, (EmuWaveOrder)order_of_run(run), EMU_WGS_FORWARD, EMU_FILL_ZERO, (uint64_t)run);
		h.l.policy.barriers = true;
		ck_assert_msg(h_run(&h) == 0, "the same barriers, order %d: %s", run, h.err);
		ck_assert_uint_eq(ring[255], 255);
	}
	h_free(&h);
}
END_TEST

/* A spin-wait between workgroups: workgroup 0 loads a flag until workgroup
 * 1, after a loop of 50 trips, stores 41 there, then stores flag + 1. Run
 * one after another, forward, workgroup 0 never ends (the instruction
 * limit stops it); reverse passes; the concurrent order passes, the
 * spinning wave's repeated state not counted as a hang while workgroup 1's
 * loop counts down. With the flag stored elsewhere nothing can end the
 * spin: the concurrent order reports a hang, naming the wave, within a few
 * trips of the spin. */
static const char SPIN_KERNEL[] = "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
				  "s_waitcnt lgkmcnt(0)\n"
				  "s_mov_b64 exec, 1\n"
				  "v_mov_b32 v1, 0\n"
				  "s_cmp_eq_u32 s2, 1\n"
				  "s_cbranch_scc1 producer\n"
				  "spin:\n"
				  "global_load_dword v2, v1, s[4:5] offset:4 sc0 sc1\n"
				  "s_waitcnt vmcnt(0)\n"
				  "v_readfirstlane_b32 s6, v2\n"
				  "s_cmp_eq_u32 s6, 0\n"
				  "s_cbranch_scc1 spin\n"
				  "s_add_u32 s6, s6, 1\n"
				  "v_mov_b32 v3, s6\n"
				  "global_store_dword v1, v3, s[4:5]\n"
				  "s_endpgm\n"
				  "producer:\n"
				  "s_mov_b32 s7, 50\n"
				  "work:\n"
				  "s_sub_u32 s7, s7, 1\n"
				  "s_cmp_lg_u32 s7, 0\n"
				  "s_cbranch_scc1 work\n"
				  "v_mov_b32 v3, 41\n"
				  "global_store_dword v1, v3, s[4:5] offset:FLAG sc0 sc1\n";

START_TEST(spin_wait_between_workgroups)
{
	static const struct {
		EmuWgOrder order;
		int flag; /* the producer's store offset */
		const char *fails;
	} runs[] = {
		{EMU_WGS_FORWARD, 4, "instruction limit"},
		{EMU_WGS_REVERSE, 4, NULL},
		{EMU_WGS_CONCURRENT, 4, NULL},
		{EMU_WGS_CONCURRENT, 8, "hang: every running wave loops without change and nothing was stored since"},
	};
	for (size_t i = 0; i < ARRAY_LEN(runs); i++) {
		char body[sizeof SPIN_KERNEL + 8], *at;
		snprintf(body, sizeof body, "%s", SPIN_KERNEL);
		at = strstr(body, "FLAG");
		memmove(at + 1, at + 4, strlen(at + 4) + 1);
		*at = (char)('0' + runs[i].flag);
		Harness h;
		h_init(&h, body);
		uint32_t out[4] = {0};
		h_buffer(&h, out, sizeof out, 0, true);
		h.l.grid[0] = 2;
		h.l.max_instructions = 100000;
		set_policy(&h, EMU_WAVES_INTERLEAVE, runs[i].order, EMU_FILL_ZERO, 0);
		int r = h_run(&h);
		if (runs[i].fails) {
			ck_assert_msg(r != 0 && strstr(h.err, runs[i].fails), "run %zu: %d %s", i, r, h.err);
		} else {
			ck_assert_msg(r == 0, "run %zu: %s", i, h.err);
			ck_assert_uint_eq(out[0], 42);
			ck_assert_uint_eq(out[1], 41);
		}
		if (runs[i].order == EMU_WGS_CONCURRENT && runs[i].fails)
			ck_assert_msg(strstr(h.err, "workgroup (0,0,0) wave 0") && h.stats.instructions < 1000,
				      "the hang found early, naming the spinning wave: %llu instructions, %s",
				      (unsigned long long)h.stats.instructions, h.err);
		h_free(&h);
	}
}
END_TEST

/* Each workgroup's lane 0 takes a ticket from a global counter and stores it
 * at the workgroup's linear id (x + 3 (y + 2 z) over a 3x2x2 grid): the
 * tickets are the order the workgroups ran in. */
START_TEST(workgroup_order)
{
	Harness h;
	h_init(&h, "s_load_dwordx4 s[8:11], s[0:1], 0x0\n"
		   "s_mul_i32 s4, s4, 2\n"
		   "s_add_u32 s3, s3, s4\n"
		   "s_mul_i32 s3, s3, 3\n"
		   "s_add_u32 s2, s2, s3\n"
		   "s_lshl_b32 s2, s2, 2\n"
		   "s_mov_b64 exec, 1\n"
		   "v_mov_b32 v1, 0\n"
		   "v_mov_b32 v2, 1\n"
		   "v_mov_b32 v4, s2\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_atomic_add v3, v1, v2, s[8:9] sc0\n"
		   "s_waitcnt vmcnt(0)\n"
		   "global_store_dword v4, v3, s[10:11]\n");
	enum { N = 12 };
	uint32_t counter, out[N];
	h_buffer(&h, &counter, sizeof counter, 0, true);
	h_buffer(&h, out, sizeof out, 8, true);
	h.l.grid[0] = 3, h.l.grid[1] = 2, h.l.grid[2] = 2;
	check_tickets(&h, out, N, true, &counter);
	ck_assert_uint_eq(counter, N);
	h_free(&h);
}
END_TEST

/* A kernel that reads LDS, a VGPR and an SGPR it never wrote and stores
 * each: zeros with the zero fill (`out = lds + v9 + s20 + 5` gives 5, what
 * such a kernel's test would expect), a seeded non-zero pattern with the
 * garbage fill, the same for the same seed whatever the workgroup order. */
START_TEST(garbage_fill)
{
	Harness h;
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "s_lshl_b32 s7, s2, 7\n"
		   "v_add_u32 v1, s7, v0\n"           /* global id */
		   "v_lshlrev_b32 v1, 2, v1\n"
		   "v_lshlrev_b32 v2, 2, v0\n"
		   "ds_read_b32 v3, v2\n"
		   "v_mov_b32 v4, s20\n"
		   "v_add_u32 v5, v3, v9\n"
		   "v_add3_u32 v5, v5, v4, 5\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_store_dword v1, v3, s[4:5]\n"
		   "global_store_dword v1, v9, s[4:5] offset:2048\n"
		   "v_add_u32 v1, 0x1000, v1\n"
		   "global_store_dword v1, v4, s[4:5]\n"
		   "global_store_dword v1, v5, s[4:5] offset:2048\n"
		   "v_mov_b32 v9, 7\n");              /* left for the next workgroup */
	enum { N = 4 * 128 };
	uint32_t out[4][N], first[4][N]; /* LDS, v9, s20, the sum */
	setup(&h, out, sizeof out, 128, 512);
	h.l.grid[0] = 4;
	set_policy(&h, EMU_WAVES_INTERLEAVE, EMU_WGS_FORWARD, EMU_FILL_ZERO, 0);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	/* zero fill: VGPRs are zeroed once per launch, so later workgroups
	 * see the 7 earlier ones left in v9 */
	for (uint32_t t = 0; t < N; t++) {
		uint32_t v9 = t < 128 ? 0 : 7;
		ck_assert_msg(out[0][t] == 0 && out[1][t] == v9 && out[2][t] == 0 && out[3][t] == 5 + v9, "t %u", t);
	}
	for (uint64_t seed = 1; seed <= 2; seed++) {
		for (int again = 0; again < 2; again++) {
			set_policy(&h, EMU_WAVES_INTERLEAVE, again ? EMU_WGS_REVERSE : EMU_WGS_FORWARD, EMU_FILL_GARBAGE, seed);
			memset(out, 0, sizeof out);
			ck_assert_msg(h_run(&h) == 0, "%s", h.err);
			for (uint32_t t = 0; t < N; t++) {
				ck_assert_msg(out[0][t] && out[1][t] && out[2][t], "t %u: garbage is not zero", t);
				ck_assert_uint_ne(out[1][t], 7); /* refilled per wave */
				ck_assert_uint_eq(out[3][t], out[0][t] + out[1][t] + out[2][t] + 5);
			}
			/* drawn per workgroup and wave: the same in either
			 * workgroup order, different for another seed */
			if (again)
				ck_assert_msg(memcmp(first, out, sizeof out) == 0, "seed %llu: the same garbage",
					      (unsigned long long)seed);
			else if (seed == 2)
				ck_assert_msg(memcmp(first, out, sizeof out) != 0, "another seed, other garbage");
			memcpy(first, out, sizeof out);
		}
	}
	h_free(&h);
}
END_TEST

/* The ABI's initial SGPRs survive the garbage fill: dispatch and queue
 * pointers, kernarg pointer, workgroup ids and info; the registers above
 * them do not keep zeros. */
START_TEST(garbage_fill_keeps_abi_sgprs)
{
	Harness h;
	h_init(&h, "v_mov_b32 v1, 0\n"
		   "v_mov_b32 v2, s2\n"  /* dispatch pointer, lo: 0 */
		   "v_mov_b32 v3, s6\n"  /* kernarg pointer, lo */
		   "v_mov_b32 v4, s8\n"  /* workgroup id x */
		   "v_mov_b32 v5, s9\n"  /* workgroup id y */
		   "v_mov_b32 v6, s10\n" /* workgroup info: waves */
		   "v_mov_b32 v7, s11\n" /* first SGPR past the ABI's */
		   "v_mov_b32 v8, s101\n"
		   "s_mov_b64 exec, 1\n"
		   "global_store_dwordx4 v1, v[2:5], s[6:7]\n"
		   "global_store_dwordx3 v1, v[6:8], s[6:7] offset:16\n");
	KernelDescriptor *kd = &h.l.kd;
	kd->user_dispatch_ptr = kd->user_queue_ptr = true;
	kd->sgpr_dispatch_ptr = 2, kd->sgpr_queue_ptr = 4, kd->sgpr_kernarg_ptr = 6;
	kd->user_sgpr_count = 8;
	kd->enable_wgid[2] = false;
	kd->sgpr_wgid[0] = 8, kd->sgpr_wgid[1] = 9, kd->sgpr_wgid[2] = -1;
	kd->enable_wg_info = true, kd->sgpr_wg_info = 10;
	uint32_t out[7];
	uint64_t a = emu_mem_map(h.mem, out, sizeof out, 256, true, "out");
	h.l.kernarg_addr = a; /* the kernarg pointer points at the output */
	h.l.grid[0] = 2, h.l.grid[1] = 3;
	h.l.wg_size[0] = 192;
	set_policy(&h, EMU_WAVES_RANDOM, EMU_WGS_RANDOM, EMU_FILL_GARBAGE, 9);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	ck_assert_uint_eq(out[0], 0);
	ck_assert_uint_eq(out[1], (uint32_t)a);
	ck_assert_uint_lt(out[2], 2);
	ck_assert_uint_lt(out[3], 3);
	ck_assert_uint_eq(out[4], 3);
	ck_assert_uint_ne(out[5], 0);
	ck_assert_uint_ne(out[6], 0);
	h_free(&h);
}
END_TEST

START_TEST(policy_names)
{
	static const char *const NAMES[4][3] = {{"interleave", "barrier", "random"}, {"forward", "reverse", "random"},
					       {"zero", "garbage", NULL}, {"immediate", "late", NULL}};
	for (int f = 0; f < 4; f++)
		for (int m = 0; m < 3 && NAMES[f][m]; m++) {
			ck_assert_int_eq(emu_policy_parse((EmuPolicyField)f, NAMES[f][m]), m);
			ck_assert_str_eq(emu_policy_name((EmuPolicyField)f, m), NAMES[f][m]);
		}
	ck_assert_int_eq(emu_policy_parse(EMU_POLICY_FILL, "random"), -1);
	ck_assert_int_eq(emu_policy_parse(EMU_POLICY_WAVES, ""), -1);
	ck_assert_str_eq(emu_policy_name(EMU_POLICY_FILL, 2), "?");
	ck_assert_str_eq(emu_policy_name(EMU_POLICY_MEMORY, 2), "?");
	ck_assert_int_eq(emu_policy_parse(EMU_POLICY_MEMORY, "now"), -1);
	ck_assert_int_eq(emu_policy_parse((EmuPolicyField)9, "late"), -1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("emu_order");
	TCase *tc = tcase_create("order");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, lds_race_depends_on_wave_order);
	tcase_add_test(tc, wave_order);
	tcase_add_test(tc, barriers_hold_in_every_order);
	tcase_add_test(tc, barriers_must_match);
	tcase_add_test(tc, spin_wait_between_workgroups);
	tcase_add_test(tc, workgroup_order);
	tcase_add_test(tc, garbage_fill);
	tcase_add_test(tc, garbage_fill_keeps_abi_sgprs);
	tcase_add_test(tc, policy_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
