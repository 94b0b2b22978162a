/* timing_test.c — the cycle model (loader/timing) on hand-written
 * microkernels: the physical limits hold (independent MFMAs reach the matrix
 * peak and never exceed it, on gfx942 and gfx90a; a streaming copy stays
 * within the HBM share; LDS traffic within 128 bytes per clock), and known
 * relative facts come out in the right order (a chain of MFMAs that read
 * the previous result as SrcA waits the documented NP+3 wait states; an
 * unpadded transposed LDS read conflicts and a padded one does not; more
 * resident waves hide memory latency); the clock model falls from the
 * boost clock to AMD's published median clock as the matrix-core duty
 * rises, and puts the MFMA-only microkernel in AMD's max-achievable range;
 * a grid's last round on fewer CUs gets their larger HBM share (the tail),
 * HBM's achievable share follows the kernel's write share (read-only vs
 * copy), and the launch overhead stays within its published bound. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_timing.h"

/* Run the harness's kernel over `nwg` workgroups, recording all, and
 * simulate them on one CU with `resident` workgroups at once. */
static void profile(Harness *h, EmuArch arch, uint32_t nwg, uint32_t resident, double hbm, TmCuResult *res)
{
	TmCuConfig c = {.arch = arch, .resident = resident, .hbm_bytes_per_clk = hbm, .l2_bytes_per_clk = 54,
			.l2_miss_fraction = 1};
	h_simulate(h, arch, nwg, &c, res);
}

/* 16 iterations of 8 independent 16x16x16 f16 MFMAs per wave, the loop
 * counter's SALU work between them as a compiler would place it. */
static const char *MFMA_LOOP =
	"s_mov_b32 s10, 16\n"
	"loop:\n"
	"v_mfma_f32_16x16x16_f16 v[0:3], v[40:41], v[42:43], v[0:3]\n"
	"s_sub_u32 s10, s10, 1\n"
	"v_mfma_f32_16x16x16_f16 v[4:7], v[40:41], v[42:43], v[4:7]\n"
	"s_cmp_lg_u32 s10, 0\n"
	"v_mfma_f32_16x16x16_f16 v[8:11], v[40:41], v[42:43], v[8:11]\n"
	"v_mfma_f32_16x16x16_f16 v[12:15], v[40:41], v[42:43], v[12:15]\n"
	"v_mfma_f32_16x16x16_f16 v[16:19], v[40:41], v[42:43], v[16:19]\n"
	"v_mfma_f32_16x16x16_f16 v[20:23], v[40:41], v[42:43], v[20:23]\n"
	"v_mfma_f32_16x16x16_f16 v[24:27], v[40:41], v[42:43], v[24:27]\n"
	"v_mfma_f32_16x16x16_f16 v[28:31], v[40:41], v[42:43], v[28:31]\n"
	"s_cbranch_scc1 loop\n"
	"s_endpgm\n";

static void mfma_peak(EmuArch arch, double peak)
{
	Harness h;
	h_init(&h, MFMA_LOOP);
	h.l.wg_size[0] = 512; /* 8 waves: two per SIMD */
	TmCuResult res;
	profile(&h, arch, 2, 1, 8, &res);
	double per_clk = res.mfma_flops / (double)res.cycles;
	if (getenv("TIMING_DEBUG"))
		for (size_t i = 0; i < res.npcs; i++)
			for (int k = 0; k < TM_NREASONS; k++)
				if (res.pcs[i].stall[k])
					fprintf(stderr, "%s: %s %llu\n", res.pcs[i].text, tm_reason_name[k], (unsigned long long)res.pcs[i].stall[k]);
	if (getenv("TIMING_DEBUG"))
		fprintf(stderr, "cycles %llu wg_done %llu %llu\n", (unsigned long long)res.cycles, (unsigned long long)res.wg_done[0], (unsigned long long)res.wg_done[1]);
	ck_assert_double_eq(res.mfma_flops, 2.0 * 8 * 16 * 8 * 8192);
	ck_assert_msg(per_clk <= peak, "%.1f FLOP/clk above the peak %.0f", per_clk, peak);
	ck_assert_msg(per_clk >= 0.97 * peak, "%.1f FLOP/clk, peak %.0f", per_clk, peak);
	tm_cu_result_free(&res);
	h_free(&h);
}

START_TEST(mfma_peak_gfx942) { mfma_peak(EMU_GFX942, 2048); }
END_TEST

START_TEST(mfma_peak_gfx90a) { mfma_peak(EMU_GFX90A, 1024); }
END_TEST

/* 16 MFMAs of one wave; with `dep` each reads the previous D as SrcA. */
static uint64_t mfma_chain_cycles(bool dep)
{
	Buf b = {0};
	for (int i = 0; i < 16; i++) {
		int d = i % 2 ? 8 : 0, a = dep ? (i % 2 ? 0 : 8) : 40;
		buf_printf(&b, "v_mfma_f32_16x16x16_f16 v[%d:%d], v[%d:%d], v[42:43], 0\n", d, d + 3, a, a + 1);
	}
	buf_printf(&b, "s_endpgm\n");
	Harness h;
	h_init(&h, buf_cstr(&b));
	TmCuResult res;
	profile(&h, EMU_GFX942, 1, 1, 8, &res);
	uint64_t c = res.cycles;
	tm_cu_result_free(&res);
	h_free(&h);
	buf_free(&b);
	return c;
}

START_TEST(mfma_dependent_chain)
{
	TmParams p;
	tm_params(EMU_GFX942, &p);
	uint64_t ind = mfma_chain_cycles(false), dep = mfma_chain_cycles(true);
	/* 15 back-to-back gaps, each longer by the NP+3 rule's 3 wait states */
	ck_assert_uint_eq(dep - ind, 15 * (uint64_t)(p.mfma_dep_passes * p.issue_period));
	ck_assert_uint_ge(ind, 15 * 16);
}
END_TEST

/* Each lane copies 16 bytes: global memory in and out. */
static const char *COPY =
	"s_load_dwordx4 s[4:7], s[0:1], 0\n"
	"s_lshl_b32 s8, s2, 12\n"
	"v_lshlrev_b32 v1, 4, v0\n"
	"v_add_u32 v1, s8, v1\n"
	"s_waitcnt lgkmcnt(0)\n"
	"global_load_dwordx4 v[4:7], v1, s[4:5]\n"
	"s_waitcnt vmcnt(0)\n"
	"global_store_dwordx4 v1, v[4:7], s[6:7]\n"
	"s_endpgm\n";

START_TEST(copy_within_hbm_share)
{
	enum { NWG = 64 };
	static uint8_t in[NWG * 4096], out[NWG * 4096];
	Harness h;
	h_init(&h, COPY);
	h_buffer(&h, in, sizeof in, 0, false);
	h_buffer(&h, out, sizeof out, 8, true);
	h.l.wg_size[0] = 256;
	double share = 5300e9 / 2.1e9 / 304; /* MI300X's HBM per CU per clock */
	TmCuResult res;
	profile(&h, EMU_GFX942, NWG, 8, share, &res);
	double bpc = (double)res.bytes_hbm / (double)res.cycles;
	ck_assert_uint_eq(res.bytes_hbm, 2u * sizeof in);
	ck_assert_msg(bpc <= share * 1.0001, "%.2f B/clk above the share %.2f", bpc, share);
	ck_assert_msg(bpc >= 0.8 * share, "%.2f B/clk: a copy should be bandwidth-bound (share %.2f)", bpc, share);
	tm_cu_result_free(&res);
	h_free(&h);
}
END_TEST

/* ds_read_b32 of lane l at l * stride bytes, 32 times per wave. */
static TmCuResult lds_reads(unsigned stride)
{
	Buf b = {0};
	buf_printf(&b, "v_mul_u32_u24 v1, %u, v0\n", stride);
	for (int i = 0; i < 32; i++)
		buf_printf(&b, "ds_read_b32 v%d, v1\n", 2 + i % 8);
	buf_printf(&b, "s_waitcnt lgkmcnt(0)\ns_endpgm\n");
	Harness h;
	h_init(&h, buf_cstr(&b));
	h.l.kd.group_segment_fixed_size = 65536;
	h.l.wg_size[0] = 256;
	TmCuResult res;
	profile(&h, EMU_GFX942, 1, 1, 8, &res);
	h_free(&h);
	buf_free(&b);
	return res;
}

START_TEST(lds_bandwidth_and_conflicts)
{
	TmCuResult flat = lds_reads(4), unpadded = lds_reads(128), padded = lds_reads(132);
	/* 4 waves x 32 reads x 256 bytes, never above 128 bytes per clock */
	ck_assert_uint_eq(flat.bytes_lds, 4u * 32 * 256);
	ck_assert_msg((double)flat.bytes_lds / (double)flat.cycles <= 128.0, "LDS above 128 B/clk");
	ck_assert_uint_eq(flat.lds_conflict_cycles, 0);
	ck_assert_uint_eq(padded.lds_conflict_cycles, 0);
	/* stride 32 dwords: all 32 lanes of a group on one bank, 31 extra clocks */
	ck_assert_uint_eq(unpadded.lds_conflict_cycles, 4u * 32 * 2 * 31);
	ck_assert_uint_gt(unpadded.cycles, 4 * padded.cycles);
	tm_cu_result_free(&flat);
	tm_cu_result_free(&unpadded);
	tm_cu_result_free(&padded);
}
END_TEST

/* A load, a wait on it and a little arithmetic, per wave. */
START_TEST(more_waves_hide_latency)
{
	static uint8_t in[64 * 4096], out[64 * 4096];
	uint64_t per_wave[2];
	uint32_t resident[2] = {1, 8};
	for (int k = 0; k < 2; k++) {
		Harness h;
		h_init(&h, COPY);
		h_buffer(&h, in, sizeof in, 0, false);
		h_buffer(&h, out, sizeof out, 8, true);
		h.l.wg_size[0] = 256;
		TmCuResult res;
		profile(&h, EMU_GFX942, 16, resident[k], 1000, &res); /* bandwidth not the limit */
		per_wave[k] = res.cycles / (16 * 4);
		tm_cu_result_free(&res);
		h_free(&h);
	}
	ck_assert_msg(per_wave[1] * 3 < per_wave[0], "cycles per wave %llu with 1 workgroup, %llu with 8",
		      (unsigned long long)per_wave[0], (unsigned long long)per_wave[1]);
}
END_TEST

/* Workgroups dispatched one after another (one resident at a time, each
 * waiting for the previous one's stores): only s_waitcnt instructions are
 * charged counter waits, and each names a memory instruction. The first
 * instruction of a later workgroup used to be charged the time before its
 * dispatch as "s_waitcnt vmcnt" for itself. */
START_TEST(waits_charged_to_waitcnt_only)
{
	static uint8_t in[16 * 4096], out[16 * 4096];
	Harness h;
	h_init(&h, COPY);
	h_buffer(&h, in, sizeof in, 0, false);
	h_buffer(&h, out, sizeof out, 8, true);
	h.l.wg_size[0] = 256;
	TmCuResult res;
	profile(&h, EMU_GFX942, 16, 1, 8, &res);
	uint64_t waits = 0;
	for (size_t i = 0; i < res.npcs; i++) {
		const TmPc *p = &res.pcs[i];
		uint64_t cnt = p->stall[TM_R_VMCNT] + p->stall[TM_R_LGKMCNT];
		waits += cnt;
		if (cnt)
			ck_assert_msg(strncmp(p->text, "s_waitcnt", 9) == 0, "counter wait charged to '%s'", p->text);
		if (p->waited_on) {
			const char *t = res.pcs[p->waited_on - 1].text;
			ck_assert_msg(strncmp(p->text, "s_waitcnt", 9) == 0, "'%s' names a waited-for load", p->text);
			ck_assert_msg(strstr(t, "load") || strstr(t, "store") || strncmp(t, "ds_", 3) == 0,
				      "s_waitcnt waits for '%s'", t);
		}
	}
	ck_assert_uint_gt(waits, 0);
	tm_cu_result_free(&res);
	h_free(&h);
}
END_TEST

/* Wave 0 sleeps before the barrier; the others wait there for it, and the
 * wait is charged to s_barrier. */
START_TEST(barrier_and_sleep)
{
	Harness h;
	h_init(&h, "v_readfirstlane_b32 s5, v0\n"
		   "s_cmp_eq_u32 s5, 0\n"
		   "s_cbranch_scc0 skip\n"
		   "s_sleep 10\n"
		   "skip:\n"
		   "s_barrier\n"
		   "s_endpgm\n");
	h.l.wg_size[0] = 256;
	TmCuResult res;
	profile(&h, EMU_GFX942, 1, 1, 8, &res);
	uint64_t barrier = 0, sleep = 0;
	for (size_t i = 0; i < res.npcs; i++) {
		if (strstr(res.pcs[i].text, "s_barrier"))
			barrier += res.pcs[i].stall[TM_R_BARRIER];
		if (strstr(res.pcs[i].text, "s_sleep"))
			sleep += res.pcs[i].stall[TM_R_NOP];
	}
	/* three waves wait for wave 0's 640-clock sleep, which wave 0 itself pays */
	ck_assert_uint_ge(sleep, 640);
	ck_assert_uint_ge(barrier, 3 * 600);
	ck_assert_uint_ge(res.cycles, 640);
	tm_cu_result_free(&res);
	h_free(&h);
}
END_TEST

/* Five one-wave workgroups: the waves of workgroups 0 and 4 share SIMD 0
 * and contend for its matrix core with 32 MFMAs each. Oldest first lets
 * workgroup 0 finish first; when workgroup 4 raises its priority with
 * s_setprio, it finishes first. Returns done[4] < done[0]. */
static bool youngest_first(bool setprio)
{
	Buf b = {0};
	buf_printf(&b, "s_cmp_eq_u32 s2, 4\ns_cbranch_scc0 go\n%s\ngo:\n", setprio ? "s_setprio 3" : "s_nop 0");
	for (int i = 0; i < 32; i++)
		buf_printf(&b, "v_mfma_f32_16x16x16_f16 v[%d:%d], v[40:41], v[42:43], 0\n", 4 * (i % 8), 4 * (i % 8) + 3);
	buf_printf(&b, "s_endpgm\n");
	Harness h;
	h_init(&h, buf_cstr(&b));
	TmCuResult res;
	profile(&h, EMU_GFX942, 5, 5, 8, &res);
	bool r = res.wg_done[4] < res.wg_done[0];
	tm_cu_result_free(&res);
	h_free(&h);
	buf_free(&b);
	return r;
}

START_TEST(setprio_reorders)
{
	ck_assert_msg(!youngest_first(false), "oldest first: workgroup 4 finished before workgroup 0");
	ck_assert_msg(youngest_first(true), "s_setprio 3: workgroup 4 still finished after workgroup 0");
}
END_TEST

/* A CU result whose matrix cores were busy `duty` of the SIMD clocks with
 * MFMAs of type dt. */
static TmCuResult busy_cu(double duty, TmDtype dt)
{
	TmCuResult r = {0};
	r.cycles = 100000;
	r.mfma_busy = (uint64_t)(duty * 4 * (double)r.cycles);
	r.mfma_busy_dt[dt] = r.mfma_busy;
	return r;
}

/* The clock falls from the boost clock at duty 0 to AMD's median clock of
 * the MFMAs' type at full duty as duty^clock_duty_exponent (the fitted
 * exponent; 1 would be linear), and blends mixed types by their busy
 * cycles; MI250X (no published median) stays at its boost clock. */
START_TEST(clock_falls_with_duty)
{
	const TmGpu *g = tm_gpu("MI300X");
	ck_assert_ptr_nonnull(g);
	ck_assert_ptr_eq(g, tm_gpu_default(EMU_GFX942));
	ck_assert_ptr_eq(tm_gpu("mi250x"), tm_gpu_default(EMU_GFX90A));
	ck_assert_ptr_null(tm_gpu("MI400"));
	TmParams p;
	tm_gpu_params(g, &p);
	ck_assert(p.clock_duty_exponent > 0);
	double prev = 1e9;
	for (int i = 0; i <= 4; i++) {
		double d = i / 4.0;
		TmCuResult r = busy_cu(d, TM_DT_F16);
		TmClock c;
		tm_clock(g, &r, &c);
		ck_assert_double_eq_tol(c.duty, d, 1e-9);
		ck_assert_double_eq_tol(c.mhz, 2100 - pow(d, p.clock_duty_exponent) * (2100 - 1115), 1e-6);
		ck_assert_msg(c.mhz < prev, "the clock does not fall at duty %.2f: %.1f MHz", d, c.mhz);
		ck_assert_int_eq(c.dtype, i ? TM_DT_F16 : -1);
		prev = c.mhz;
	}
	TmClock c;
	TmCuResult r = busy_cu(1, TM_DT_BF16);
	tm_clock(g, &r, &c);
	ck_assert_double_eq_tol(c.mhz, 1207, 1e-6);
	r = busy_cu(1, TM_DT_FP8);
	tm_clock(tm_gpu("MI325X"), &r, &c);
	ck_assert_double_eq_tol(c.mhz, 1464, 1e-6);
	/* three quarters f16, one quarter bf16 at full duty */
	r = busy_cu(1, TM_DT_F16);
	r.mfma_busy_dt[TM_DT_F16] = r.mfma_busy * 3 / 4;
	r.mfma_busy_dt[TM_DT_BF16] = r.mfma_busy / 4;
	tm_clock(g, &r, &c);
	ck_assert_double_eq_tol(c.mhz, 0.75 * 1115 + 0.25 * 1207, 1e-6);
	r = busy_cu(1, TM_DT_F16);
	tm_clock(tm_gpu("MI250X"), &r, &c);
	ck_assert_double_eq_tol(c.mhz, 1700, 1e-6);
}
END_TEST

/* Each MFMA data type's own matrix peak, dense FLOP per clock per CU, as
 * AMD's data sheets give them over CUs and clock (MI250X GCD, MI300X,
 * MI355X): an int8 GEMM is measured against the i8 peak, not f16's; a
 * CU result's peak weights its types by their busy cycles. */
START_TEST(dtype_peaks)
{
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX90A, TM_DT_F16), 1024);
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX90A, TM_DT_I8), 1024);
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX90A, TM_DT_F64), 256);
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX90A, TM_DT_FP8), 0);
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX942, TM_DT_F16), 2048);
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX942, TM_DT_BF16), 2048);
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX942, TM_DT_FP8), 4096);
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX942, TM_DT_I8), 4096);
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX942, TM_DT_XF32), 1024);
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX942, TM_DT_F32), 256);
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX950, TM_DT_F16), 4096);
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX950, TM_DT_FP8), 8192);
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX950, TM_DT_I8), 8192);
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX950, TM_DT_FP4), 16384);
	ck_assert_double_eq(tm_dtype_peak(EMU_GFX950, TM_DT_XF32), 0);
	TmCuResult r = busy_cu(1, TM_DT_I8);
	ck_assert_double_eq(tm_cu_mfma_peak(EMU_GFX942, &r), 4096);
	r.mfma_busy_dt[TM_DT_I8] = r.mfma_busy / 2;
	r.mfma_busy_dt[TM_DT_F16] = r.mfma_busy / 2;
	ck_assert_double_eq(tm_cu_mfma_peak(EMU_GFX942, &r), 3072);
	r = (TmCuResult){0};
	ck_assert_double_eq(tm_cu_mfma_peak(EMU_GFX942, &r), 0);
}
END_TEST

/* The MFMA-only microkernel (8 independent 16x16x16 f16 MFMAs per
 * iteration, one wave per SIMD on every CU of an MI300X, 256 workgroups per
 * CU in turn: a kernel long enough, as AMD's max-achievable GEMMs are, that
 * its launch is under 1% of its time) through the whole-GPU path at the
 * modelled clock lands in AMD's max-achievable f16 range for MI300X (654
 * TFLOP/s measured, ROCm blog "Measuring Max-Achievable FLOPs - Part 2";
 * the issue's band 560-720), at a clock between the full-duty median 1115
 * MHz and 1200 MHz; at the boost clock it would be about 1.7x more. */
START_TEST(mfma_only_at_the_modelled_clock)
{
	const TmGpu *g = tm_gpu("MI300X");
	Harness h;
	h_init(&h, MFMA_LOOP);
	h.l.wg_size[0] = 256; /* 4 waves: one per SIMD */
	h.l.arch = EMU_GFX942;
	TmOccupancy occ;
	tm_occupancy(g, &h.l.kd, 0, 4, &occ);
	TmRecorder *r = tm_recorder_new(EMU_GFX942, 0, 1, 4);
	h.l.hook = tm_recorder_hook(r);
	h.l.grid[0] = 1;
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	uint64_t nwg = 256 * (uint64_t)g->cus; /* one workgroup per CU at a time, 256 each */
	TmCuConfig c;
	TmCuResult res;
	TmClock clk;
	TmEstimate e;
	char err[256];
	ck_assert_msg(tm_profile(g, r, nwg, &occ, 0, 0, &c, &res, &clk, &e, err, sizeof err) == 0, "%s", err);
	if (getenv("TIMING_DEBUG"))
		fprintf(stderr, "mfma-only: duty %.3f, clock %.0f MHz, %.1f TFLOP/s\n", clk.duty, clk.mhz, e.tflops);
	ck_assert_int_eq(clk.dtype, TM_DT_F16);
	ck_assert(!clk.forced);
	ck_assert_msg(clk.mhz >= 1115 && clk.mhz <= 1200, "clock %.0f MHz at duty %.3f", clk.mhz, clk.duty);
	ck_assert_msg(e.tflops >= 560 && e.tflops <= 720, "MFMA-only %.1f TFLOP/s, AMD's max-achievable 654", e.tflops);
	tm_cu_result_free(&res);
	/* the same at a given clock: time is cycles over that clock */
	ck_assert_msg(tm_profile(g, r, nwg, &occ, 0, 2100, &c, &res, &clk, &e, err, sizeof err) == 0, "%s", err);
	ck_assert(clk.forced);
	if (getenv("TIMING_DEBUG"))
		fprintf(stderr, "mfma-only at 2100 MHz: %.1f TFLOP/s\n", e.tflops);
	ck_assert_double_eq_tol(e.seconds, e.cu_cycles / 2.1e9 + e.launch_seconds, 1e-15);
	ck_assert_msg(e.launch_seconds < 0.01 * e.seconds, "launch %g of %g s", e.launch_seconds, e.seconds);
	ck_assert_msg(e.tflops > 1000, "MFMA-only at 2100 MHz %.1f TFLOP/s", e.tflops);
	tm_cu_result_free(&res);
	tm_recorder_free(r);
	h_free(&h);
}
END_TEST

/* Causal-like work: workgroup x runs (x >> 4) + 1 iterations of 8
 * independent MFMAs (a causal attention's row block x stops at the
 * diagonal: early rows are cheap); UNIFORM runs the grid's mean trip
 * count, 38 (x < 1216: 1..76 trips), everywhere. */
static const char *CAUSAL_LOOP =
	"s_lshr_b32 s10, s2, 4\n"
	"s_add_u32 s10, s10, 1\n"
	"loop:\n"
	"v_mfma_f32_16x16x16_f16 v[0:3], v[40:41], v[42:43], v[0:3]\n"
	"v_mfma_f32_16x16x16_f16 v[4:7], v[40:41], v[42:43], v[4:7]\n"
	"s_sub_u32 s10, s10, 1\n"
	"v_mfma_f32_16x16x16_f16 v[8:11], v[40:41], v[42:43], v[8:11]\n"
	"v_mfma_f32_16x16x16_f16 v[12:15], v[40:41], v[42:43], v[12:15]\n"
	"s_cmp_lg_u32 s10, 0\n"
	"v_mfma_f32_16x16x16_f16 v[16:19], v[40:41], v[42:43], v[16:19]\n"
	"v_mfma_f32_16x16x16_f16 v[20:23], v[40:41], v[42:43], v[20:23]\n"
	"v_mfma_f32_16x16x16_f16 v[24:27], v[40:41], v[42:43], v[24:27]\n"
	"v_mfma_f32_16x16x16_f16 v[28:31], v[40:41], v[42:43], v[28:31]\n"
	"s_cbranch_scc1 loop\n"
	"s_endpgm\n";

/* The whole-GPU estimate (MI300X, 4-wave workgroups on a grid of 1216) of
 * `body` from the workgroups tm_sample_ids picks, or from the grid's first
 * ones when `first`. */
static double grid_seconds(const char *body, bool first)
{
	const TmGpu *g = tm_gpu("MI300X");
	enum { GRID = 1216 };
	Harness h;
	h_init(&h, body);
	h.l.wg_size[0] = 256;
	h.l.arch = EMU_GFX942;
	h.l.grid[0] = GRID;
	TmOccupancy occ;
	tm_occupancy(g, &h.l.kd, 0, 4, &occ);
	uint64_t n = tm_sample_size(g, GRID, occ.wgs_per_cu), ids[64];
	ck_assert_uint_ge(n, 2);
	ck_assert_uint_le(n, 64);
	uint32_t grid[3] = {GRID, 1, 1};
	if (first)
		for (uint64_t i = 0; i < n; i++)
			ids[i] = i;
	else
		ck_assert_uint_eq(tm_sample_ids(grid, n, ids), n);
	for (uint64_t i = 1; i < n; i++)
		ck_assert_uint_gt(ids[i], ids[i - 1]);
	TmRecorder *r = tm_recorder_new_ids(EMU_GFX942, ids, n, 4);
	tm_recorder_grid(r, GRID, 1, 1);
	h.l.hook = tm_recorder_hook(r);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	TmCuConfig c;
	TmCuResult res;
	TmClock clk;
	TmEstimate e;
	char err[256];
	ck_assert_msg(tm_profile(g, r, GRID, &occ, 0, 0, &c, &res, &clk, &e, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(res.workgroups, n);
	tm_cu_result_free(&res);
	tm_recorder_free(r);
	h_free(&h);
	return e.seconds - e.launch_seconds;
}

/* A kernel whose work grows along the grid is sampled across it: its
 * estimate is within 20% of a uniform kernel doing the mean work, where
 * the grid's first workgroups (the cheapest) would give under a fifth. */
START_TEST(causal_like_sampled_across_the_grid)
{
	char uniform[1024];
	snprintf(uniform, sizeof uniform, "s_mov_b32 s10, 38\n%s", strstr(CAUSAL_LOOP, "loop:"));
	double mean = grid_seconds(uniform, false), spread = grid_seconds(CAUSAL_LOOP, false);
	double head = grid_seconds(CAUSAL_LOOP, true);
	if (getenv("TIMING_DEBUG"))
		fprintf(stderr, "causal-like: uniform %.3g s, spread sample %.3g s, first workgroups %.3g s\n", mean, spread,
			head);
	ck_assert_msg(spread >= 0.8 * mean && spread <= 1.2 * mean, "spread sample %.3g s, uniform mean work %.3g s", spread,
		mean);
	ck_assert_msg(head < 0.2 * mean, "the first workgroups %.3g s, uniform %.3g s: the test does not tell", head, mean);
	/* the ids: spread over each dim, all of a small grid */
	uint32_t g3[3] = {32, 1, 32};
	uint64_t ids[8];
	ck_assert_uint_eq(tm_sample_ids(g3, 4, ids), 4);
	bool xs[32] = {0};
	for (int i = 0; i < 4; i++)
		xs[ids[i] % 32] = true;
	ck_assert(xs[4] && xs[12] && xs[20] && xs[28]);
	uint32_t g1[3] = {3, 1, 1};
	ck_assert_uint_eq(tm_sample_ids(g1, 8, ids), 3);
	ck_assert_uint_eq(ids[2], 2);
}
END_TEST

/* A GEMM's access pattern on an 8x8 grid of one-wave workgroups: workgroup
 * (x, y) loads 64 lines of "A" block y and 64 lines of "B" block x. */
static const char *TILES =
	"s_load_dwordx2 s[4:5], s[0:1], 0\n"
	"s_waitcnt lgkmcnt(0)\n"
	"v_lshlrev_b32 v1, 7, v0\n"
	"s_lshl_b32 s6, s3, 13\n"
	"v_add_u32 v2, s6, v1\n"
	"global_load_dword v3, v2, s[4:5]\n"
	"s_lshl_b32 s7, s2, 13\n"
	"s_add_u32 s7, s7, 0x10000\n"
	"v_add_u32 v4, s7, v1\n"
	"global_load_dword v5, v4, s[4:5]\n"
	"s_waitcnt vmcnt(0)\n"
	"s_endpgm\n";

/* The same blocks with the tiles mapped in the kernel's own order, as
 * aiter's 256x256 GEMM maps its ids: workgroup (x, y) loads A block y and
 * B block (x + (y & 1)) & 7, so its y neighbour shares no B block while
 * XCD x (the column x) reads only two. */
static const char *TILES_REMAPPED =
	"s_load_dwordx2 s[4:5], s[0:1], 0\n"
	"s_waitcnt lgkmcnt(0)\n"
	"v_lshlrev_b32 v1, 7, v0\n"
	"s_lshl_b32 s6, s3, 13\n"
	"v_add_u32 v2, s6, v1\n"
	"global_load_dword v3, v2, s[4:5]\n"
	"s_and_b32 s8, s3, 1\n"
	"s_add_u32 s7, s2, s8\n"
	"s_and_b32 s7, s7, 7\n"
	"s_lshl_b32 s7, s7, 13\n"
	"s_add_u32 s7, s7, 0x10000\n"
	"v_add_u32 v4, s7, v1\n"
	"global_load_dword v5, v4, s[4:5]\n"
	"s_waitcnt vmcnt(0)\n"
	"s_endpgm\n";

/* Record workgroups [first, first + count) of `src` on an 8x8 grid (a
 * probe when `probe`). */
static TmRecorder *tiles_record_of(const char *src, uint64_t first, uint64_t count, bool probe)
{
	static uint8_t buf[1 << 17];
	Harness h;
	h_init(&h, src);
	h_buffer(&h, buf, sizeof buf, 0, false);
	h.l.grid[0] = 8, h.l.grid[1] = 8;
	TmRecorder *r = probe ? tm_probe_new(EMU_GFX942, first, 1) : tm_recorder_new(EMU_GFX942, first, count, 1);
	h.l.hook = tm_recorder_hook(r);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	h_free(&h);
	if (!probe)
		tm_recorder_grid(r, 8, 8, 1);
	return r;
}

static TmRecorder *tiles_record(uint64_t first, uint64_t count, bool probe)
{
	return tiles_record_of(TILES, first, count, probe);
}

/* The L2 model: half of a workgroup's lines depend on x (B), half on y (A).
 * On MI300X the workgroups go round-robin to 8 XCDs, so XCD x runs the
 * column x: it reads its B block once and all 8 A blocks, 9 blocks per XCD
 * and 72 over the chip, while HBM (through the Infinity Cache, which holds
 * them all) delivers each of the 16 blocks once; MI250X's one L2 reads the
 * 16 blocks once. A sample of one workgroup with probes of its x and y
 * neighbours tells the same as a sample of the whole grid. */
START_TEST(l2_per_xcd_round_robin)
{
	const double block = 64 * 128;
	for (int probed = 0; probed < 2; probed++) {
		TmRecorder *r = tiles_record(0, probed ? 1 : 64, false);
		if (probed) {
			tm_recorder_attach_probe(r, 0, tiles_record(1, 1, true));
			tm_recorder_attach_probe(r, 1, tiles_record(8, 1, true));
		}
		double frac[8];
		bool known[3];
		double bytes = tm_recorder_classes(r, frac, known);
		ck_assert_double_eq_tol(bytes, 2 * block, 1e-9);
		ck_assert(known[0] && known[1] && known[2]);
		ck_assert_double_eq_tol(frac[1], 0.5, 1e-9); /* B: depends on x */
		ck_assert_double_eq_tol(frac[2], 0.5, 1e-9); /* A: depends on y */
		Harness h;
		h_init(&h, TILES);
		TmOccupancy occ;
		tm_occupancy(tm_gpu("MI300X"), &h.l.kd, 0, 1, &occ);
		h_free(&h);
		TmCuConfig c;
		tm_cu_config(tm_gpu("MI300X"), r, 64, &occ, 0, 0, &c);
		ck_assert_double_eq_tol(c.l2_miss_bytes, 72 * block, 1e-6);
		ck_assert_double_eq_tol(c.hbm_read_bytes, 16 * block, 1e-6);
		ck_assert(c.mall_bytes_per_clk > 0);
		tm_cu_config(tm_gpu("MI250X"), r, 64, &occ, 0, 0, &c);
		ck_assert_double_eq_tol(c.l2_miss_bytes, 16 * block, 1e-6);
		ck_assert_double_eq_tol(c.hbm_read_bytes, 16 * block, 1e-6);
		ck_assert(c.mall_bytes_per_clk == 0);
		tm_recorder_free(r);
	}
}
END_TEST

/* A kernel that maps its ids to tiles in its own order: the launch grid's
 * neighbours make its B lines depend on x and y (16 blocks per XCD round),
 * the probes of XCD 0's first round (workgroups 0, 8, ..., 56: the column
 * x = 0) see the 10 it reads (8 A, 2 B). With an L2 too small to keep a
 * block between rounds the L2s miss 8 x 10 blocks, not 8 x 16; with the
 * probes of the plain TILES the two agree (9 per XCD). */
START_TEST(l2_round_probes_see_a_remap)
{
	const double block = 64 * 128;
	TmGpu g = *tm_gpu("MI300X");
	g.l2_mib = 1.0 / 1024; /* 1 KiB: each round's union misses */
	Harness h;
	h_init(&h, TILES);
	TmOccupancy occ;
	tm_occupancy(&g, &h.l.kd, 0, 1, &occ);
	h_free(&h);
	uint64_t ids[TM_ROUND_PROBES];
	ck_assert_uint_eq(tm_round_ids(&g, 64, occ.wgs_per_cu, ids), 8);
	ck_assert_uint_eq(ids[1], 8);
	ck_assert_uint_eq(ids[7], 56);
	const char *src[2] = {TILES_REMAPPED, TILES};
	const double want_classes[2] = {16, 9}, want_probed[2] = {10, 9};
	for (int k = 0; k < 2; k++) {
		TmRecorder *r = tiles_record_of(src[k], 0, 1, false);
		tm_recorder_attach_probe(r, 0, tiles_record_of(src[k], 1, 1, true));
		tm_recorder_attach_probe(r, 1, tiles_record_of(src[k], 8, 1, true));
		TmCuConfig c;
		tm_cu_config(&g, r, 64, &occ, 0, 0, &c);
		ck_assert_double_eq_tol(c.l2_miss_bytes, 8 * want_classes[k] * block, 1e-6);
		ck_assert(tm_recorder_round_sharing(r, NULL) == -1); /* no round probes yet */
		for (int i = 0; i < 8; i++)
			tm_recorder_attach_round(r, tiles_record_of(src[k], ids[i], 1, true));
		uint32_t n;
		ck_assert_double_eq_tol(tm_recorder_round_sharing(r, &n), want_probed[k] / 16, 1e-9);
		ck_assert_uint_eq(n, 8);
		tm_cu_config(&g, r, 64, &occ, 0, 0, &c);
		ck_assert_double_eq_tol(c.l2_miss_bytes, 8 * want_probed[k] * block, 1e-6);
		tm_recorder_free(r);
	}
}
END_TEST

/* A round larger than its probes (TM_ROUND_PROBES; here 8 of MI250X's 64):
 * the probes, the row y = 0, share one A block among 8 workgroups (9 of 16
 * blocks distinct), the whole round of 64 shares far more (16 of 128); the
 * classes' ratio between the two scales the probes' share, so the L2 misses
 * the round's 16 blocks, not 64 x 9/16 x 2 = 72 (gfx90a's 64x64 GEMM at
 * 4096^3 was modelled HBM-bound at 51% L2 misses by this). */
START_TEST(l2_round_larger_than_probes)
{
	const double block = 64 * 128;
	TmGpu g = *tm_gpu("MI250X");
	g.l2_mib = 1.0 / 1024; /* 1 KiB: each round's union misses */
	Harness h;
	h_init(&h, TILES);
	TmOccupancy occ;
	tm_occupancy(&g, &h.l.kd, 0, 1, &occ);
	h_free(&h);
	ck_assert_uint_ge((uint64_t)g.cus * occ.wgs_per_cu, 64); /* one round */
	TmRecorder *r = tiles_record(0, 1, false);
	tm_recorder_attach_probe(r, 0, tiles_record(1, 1, true));
	tm_recorder_attach_probe(r, 1, tiles_record(8, 1, true));
	for (uint64_t i = 0; i < 8; i++)
		tm_recorder_attach_round(r, tiles_record(i, 1, true));
	ck_assert_double_eq_tol(tm_recorder_round_sharing(r, NULL), 9.0 / 16, 1e-9);
	TmCuConfig c;
	tm_cu_config(&g, r, 64, &occ, 0, 0, &c);
	ck_assert_double_eq_tol(c.l2_miss_bytes, 16 * block, 1e-6);
	tm_recorder_free(r);
}
END_TEST

/* The graph op of each instruction: the assembly's op comments paired with
 * its code; text that does not match the code gives no map at all. */
START_TEST(source_map_pairs_ops)
{
	const char *body = "s_mov_b32 s10, 16\n"
			   "v_add_u32 v1, v2, v3\n"
			   "v_mfma_f32_16x16x16_f16 v[0:3], v[40:41], v[42:43], v[0:3]\n"
			   "s_endpgm\n";
	uint8_t *code;
	size_t len = h_assemble(body, &code, "gfx942");
	ck_assert(len > 0);
	const char *text = "\t.text\nk:\n\t// setup\n\ts_mov_b32 s10, 16\n\tv_add_u32_e32 v1, v2, v3\n.LBB_1:\n"
			   "\t// mma\n\tv_mfma_f32_16x16x16_f16 v[0:3], v[40:41], v[42:43], v[0:3]\n\ts_endpgm\n"
			   "\t.size k, .Lend-k\n";
	TmSourceMap m;
	ck_assert_int_eq(tm_source_map(EMU_GFX942, code, len, text, strlen(text), "k", &m), 0);
	ck_assert_uint_eq(m.n, 4);
	ck_assert_str_eq(tm_source_op(&m, 0), "setup");
	ck_assert_str_eq(tm_source_op(&m, m.offset[1]), "setup");
	ck_assert_str_eq(tm_source_op(&m, m.offset[2]), "mma");
	ck_assert_str_eq(tm_source_op(&m, m.offset[3]), "mma");
	ck_assert_ptr_null(tm_source_op(&m, 2)); /* not an instruction's start */
	tm_source_map_free(&m);
	const char *wrong = "k:\n\t// setup\n\ts_mov_b32 s10, 16\n\tv_sub_u32 v1, v2, v3\n";
	ck_assert_int_eq(tm_source_map(EMU_GFX942, code, len, wrong, strlen(wrong), "k", &m), -1);
	ck_assert_int_eq(tm_source_map(EMU_GFX942, code, len, text, strlen(text), "other", &m), -1);
	free(code);
}
END_TEST

/* The launch overhead stays within its published bound: no kernel of
 * aiter's measured tables was shorter (MI300X 3.0108 us, MI355X 2.4076 us:
 * launch_max_us's sources), so a dispatch cannot add more. */
START_TEST(launch_within_published_bound)
{
	static const struct { EmuArch arch; double shortest; } t[] = {{EMU_GFX942, 3.0108}, {EMU_GFX950, 2.4076}};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		TmParams p;
		tm_params(t[i].arch, &p);
		ck_assert_double_gt(p.launch_max_us, 0);
		ck_assert_double_le(p.launch_max_us, t[i].shortest);
		ck_assert_msg(p.launch_us <= p.launch_max_us, "launch %.2f us above the bound %.2f", p.launch_us,
			p.launch_max_us);
	}
}
END_TEST

/* The tail (tm_tail): MI300X's 304 CUs at 8 workgroups each hold 2432;
 * a grid of 2532 leaves the busiest CU one workgroup in a last round that
 * 100 CUs run, one of exactly 2432 or of fewer than 304 has none. */
START_TEST(tail_round_counted)
{
	const TmGpu *g = tm_gpu("MI300X");
	TmTail t;
	tm_tail(g, 2532, 8, &t);
	ck_assert_uint_eq(t.wgs, 1);
	ck_assert_uint_eq(t.cus, 100);
	tm_tail(g, 2432 + 2432 + 608, 8, &t); /* two full rounds and two workgroups on every CU */
	ck_assert_uint_eq(t.wgs, 0);
	tm_tail(g, 2432, 8, &t);
	ck_assert_uint_eq(t.wgs, 0);
	tm_tail(g, 200, 8, &t);
	ck_assert_uint_eq(t.wgs, 0);
	tm_tail(g, 2432 + 2432 + 38, 8, &t); /* 38 workgroups in the last round, on 38 CUs */
	ck_assert_uint_eq(t.wgs, 1);
	ck_assert_uint_eq(t.cus, 38);
}
END_TEST

/* The whole-GPU estimate of `body` (4-wave workgroups, 16 KiB in and out
 * each: COPY at 256 lanes) on MI300X over `nwg` workgroups; *plain the
 * same without the tail's shares (tm_estimate). */
static TmEstimate tail_estimate(const char *body, uint64_t nwg, double *plain, TmCuConfig *cfg)
{
	static uint8_t in[4096 * 4900], out[4096 * 4900];
	const TmGpu *g = tm_gpu("MI300X");
	Harness h;
	h_init(&h, body);
	h_buffer(&h, in, sizeof in, 0, false);
	h_buffer(&h, out, sizeof out, 8, true);
	h.l.wg_size[0] = 256;
	h.l.arch = EMU_GFX942;
	h.l.grid[0] = (uint32_t)nwg;
	TmOccupancy occ;
	tm_occupancy(g, &h.l.kd, 0, 4, &occ);
	occ.wgs_per_cu = 8; /* as tail_round_counted's */
	uint64_t n = tm_sample_size(g, nwg, occ.wgs_per_cu), ids[64];
	uint32_t grid[3] = {(uint32_t)nwg, 1, 1};
	ck_assert_uint_eq(tm_sample_ids(grid, n, ids), n);
	TmRecorder *r = tm_recorder_new_ids(EMU_GFX942, ids, n, 4);
	tm_recorder_grid(r, (uint32_t)nwg, 1, 1);
	h.l.hook = tm_recorder_hook(r);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	TmCuConfig c;
	TmCuResult res;
	TmClock clk;
	TmEstimate e, e0;
	char err[256];
	ck_assert_msg(tm_profile(g, r, nwg, &occ, 0, 2100, &c, &res, &clk, &e, err, sizeof err) == 0, "%s", err);
	tm_estimate(g, &c, &res, nwg, &occ, &e0);
	*plain = e0.cu_cycles;
	if (cfg)
		*cfg = c;
	tm_cu_result_free(&res);
	tm_recorder_free(r);
	h_free(&h);
	return e;
}

/* A last round on 100 of the 304 CUs gets three times the HBM share: an
 * HBM-bound copy's estimate falls (never below the chip's achievable HBM
 * bandwidth), an MFMA-only kernel's does not move by more than 1%. */
START_TEST(tail_round_gets_more_bandwidth)
{
	TmParams p;
	tm_params(EMU_GFX942, &p);
	double plain;
	TmEstimate e = tail_estimate(COPY, 2532, &plain, NULL);
	if (getenv("TIMING_DEBUG"))
		fprintf(stderr, "copy tail: %.0f cycles (%.0f without the tail's shares), saved %.0f, HBM share %.2f\n",
			e.cu_cycles, plain, e.tail.cycles_saved, e.tail.hbm_bytes_per_clk);
	ck_assert_uint_eq(e.tail.cus, 100);
	ck_assert_msg(e.tail.hbm_bytes_per_clk > 2.9 * p.hbm_gbps * p.hbm_efficiency / 2.1 / 304,
		"tail share %.2f", e.tail.hbm_bytes_per_clk);
	ck_assert_msg(e.cu_cycles < plain, "%.0f cycles with the tail, %.0f without", e.cu_cycles, plain);
	double floor = 2.0 * 2532 * 4096 / (p.hbm_gbps * p.hbm_efficiency * 1e9) * 2.1e9;
	ck_assert_msg(e.cu_cycles >= floor * 0.9999, "%.0f cycles below the HBM floor %.0f", e.cu_cycles, floor);
	e = tail_estimate(MFMA_LOOP, 2532, &plain, NULL);
	ck_assert_msg(fabs(e.cu_cycles - plain) <= 0.01 * plain, "MFMA-only: %.0f cycles with the tail, %.0f without",
		e.cu_cycles, plain);
}
END_TEST

/* HBM by access pattern: a kernel that only reads HBM gets
 * hbm_read_efficiency (MI300X's BabelStream dot, 3.87 TB/s), one with a
 * third of writes or more hbm_efficiency (copy, 4.11 TB/s), linear
 * between: the CU's HBM share is set by the write share its run found;
 * a read-only kernel stays within the read figure, a copy reaches above
 * it. */
static const char *READ_ONLY =
	"s_load_dwordx4 s[4:7], s[0:1], 0\n"
	"s_lshl_b32 s8, s2, 12\n"
	"v_lshlrev_b32 v1, 4, v0\n"
	"v_add_u32 v1, s8, v1\n"
	"s_waitcnt lgkmcnt(0)\n"
	"global_load_dwordx4 v[4:7], v1, s[4:5]\n"
	"s_waitcnt vmcnt(0)\n"
	"s_endpgm\n";

START_TEST(hbm_by_access_pattern)
{
	TmParams p;
	tm_params(EMU_GFX942, &p);
	ck_assert_double_eq_tol(p.hbm_read_efficiency, 3870.0 / 5300, 0.001);
	ck_assert_double_eq_tol(tm_hbm_efficiency(&p, 0), p.hbm_read_efficiency, 1e-12);
	ck_assert_double_eq_tol(tm_hbm_efficiency(&p, 1.0 / 3), p.hbm_efficiency, 1e-12);
	ck_assert_double_eq_tol(tm_hbm_efficiency(&p, 0.5), p.hbm_efficiency, 1e-12);
	ck_assert_double_eq_tol(tm_hbm_efficiency(&p, 1.0 / 6), (p.hbm_efficiency + p.hbm_read_efficiency) / 2, 1e-12);
	ck_assert_double_eq_tol(tm_hbm_efficiency(&p, -1), p.hbm_efficiency, 1e-12);
	double plain;
	enum { NWG = 4864 }; /* two rounds of 8 per CU on 304 CUs */
	TmCuConfig rc, cc;
	TmEstimate r = tail_estimate(READ_ONLY, NWG, &plain, &rc), c = tail_estimate(COPY, NWG, &plain, &cc);
	double read_tbs = NWG * 4096.0 / (r.cu_cycles / 2.1e9) / 1e12, copy_tbs = 2 * NWG * 4096.0 / (c.cu_cycles / 2.1e9) / 1e12;
	if (getenv("TIMING_DEBUG"))
		fprintf(stderr, "HBM: read-only %.2f TB/s (share %.3f B/clk), copy %.2f TB/s (share %.3f B/clk)\n", read_tbs,
			rc.hbm_bytes_per_clk, copy_tbs, cc.hbm_bytes_per_clk);
	/* the CU's HBM share per clock at 2.1 GHz over 304 CUs */
	ck_assert_double_eq_tol(rc.hbm_write_share, 0, 1e-12);
	ck_assert_double_eq_tol(rc.hbm_bytes_per_clk, p.hbm_gbps * 1e9 * p.hbm_read_efficiency / 2.1e9 / 304, 1e-9);
	ck_assert(cc.hbm_write_share < 0 || fabs(cc.hbm_write_share - 0.5) < 1e-12); /* not known: hbm_efficiency too */
	ck_assert_double_eq_tol(cc.hbm_bytes_per_clk, p.hbm_gbps * 1e9 * p.hbm_efficiency / 2.1e9 / 304, 1e-9);
	ck_assert_msg(read_tbs <= 5.3 * p.hbm_read_efficiency * 1.0001, "read-only %.2f TB/s", read_tbs);
	ck_assert_msg(copy_tbs <= 5.3 * p.hbm_efficiency * 1.0001, "copy %.2f TB/s", copy_tbs);
	ck_assert_msg(copy_tbs > 5.3 * p.hbm_read_efficiency, "copy %.2f TB/s: not above the read-only figure", copy_tbs);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("timing");
	TCase *tc = tcase_create("timing");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, mfma_peak_gfx942);
	tcase_add_test(tc, mfma_peak_gfx90a);
	tcase_add_test(tc, mfma_dependent_chain);
	tcase_add_test(tc, copy_within_hbm_share);
	tcase_add_test(tc, lds_bandwidth_and_conflicts);
	tcase_add_test(tc, more_waves_hide_latency);
	tcase_add_test(tc, barrier_and_sleep);
	tcase_add_test(tc, waits_charged_to_waitcnt_only);
	tcase_add_test(tc, setprio_reorders);
	tcase_add_test(tc, clock_falls_with_duty);
	tcase_add_test(tc, dtype_peaks);
	tcase_add_test(tc, mfma_only_at_the_modelled_clock);
	tcase_add_test(tc, causal_like_sampled_across_the_grid);
	tcase_add_test(tc, l2_per_xcd_round_robin);
	tcase_add_test(tc, l2_round_probes_see_a_remap);
	tcase_add_test(tc, l2_round_larger_than_probes);
	tcase_add_test(tc, source_map_pairs_ops);
	tcase_add_test(tc, tail_round_counted);
	tcase_add_test(tc, launch_within_published_bound);
	tcase_add_test(tc, hbm_by_access_pattern);
	tcase_add_test(tc, tail_round_gets_more_bandwidth);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
