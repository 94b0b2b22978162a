/* calib_test.c — calibration of the cycle model (loader/timing) against
 * published MI300X (gfx942), CDNA2 (gfx90a) and CDNA4 (gfx950)
 * microbenchmark figures (docs/cycle-model.md, "Calibration by
 * microbenchmarks"): hand-written pointer-chase microkernels reproduce the
 * published load-to-use latency of each level (vector L1, L2, Infinity
 * Cache, HBM, scalar cache, LDS) within LAT_TOL, and bandwidth
 * microkernels reproduce the published achievable bandwidth (HBM copy for
 * the whole chip, L2 reads per CU) within BW_TOL, and reach the documented
 * peaks of L1 and LDS without exceeding them.
 *
 * The published figures and where they come from:
 *  - latencies, in clocks: MT4G (caps-tum/mt4g, sample_results "AMD
 *    Instinct MI300X VF", "AMD Instinct MI210" and AMD_Instinct_MI350P),
 *    pointer chasing, median (p50) of 255 measurements. MI210 stands for
 *    CDNA2 (gfx90a): MT4G published no MI250X run, and MI210 is the same
 *    CDNA2 compute unit; MI350P for CDNA4 (gfx950). MI300X's Infinity
 *    Cache: about 218 ns at 2.1 GHz (Chips and Cheese, "Testing AMD's
 *    Giant MI300X"); CDNA2 has none;
 *  - L2 read bandwidth: the same reports (MI300X 14364.7 GiB/s over 304 CUs
 *    at 2.1 GHz, MI210 4014.1 GiB/s over 104 CUs at 1.7 GHz), compared per
 *    CU and clock;
 *  - HBM copy: 4.11 TB/s, BabelStream-style copy on an Azure ND MI300X v5
 *    (samuel-bohman/AI-benchmarking-guide, Azure_Results/ND_MI300X_v5_results.md);
 *  - L1 and LDS: 128 bytes per clock per CU, the CDNA3 white paper's peak
 *    (no published measurement was found; the test checks the peak is
 *    reached and never exceeded). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_timing.h"

#define LAT_TOL 0.05
#define BW_TOL 0.10

typedef enum { LV_L1, LV_L2, LV_MALL, LV_HBM, LV_SCALAR, LV_LDS, LV_N } Level;
static const char *const level_name[LV_N] = {"vector L1", "L2", "Infinity Cache", "HBM", "scalar cache", "LDS"};
/* published p50 pointer-chase latencies in clocks: [gfx942, gfx90a, gfx950]
 * (0: no such level) */
static const double published_latency[LV_N][3] = {
	{116, 124, 112}, /* MT4G l1.latency p50 */
	{288, 292, 256}, /* MT4G l2.latency p50 */
	{458, 0, 444},   /* 218 ns x 2.1 GHz (Chips and Cheese); MT4G MI350P l3.latency p50 */
	{876, 684, 740}, /* MT4G main.latency p50 */
	{48, 48, 48},    /* MT4G scalarL1.latency p50 */
	{52, 48, 48},    /* MT4G shared.latency p50 */
};

static int col(EmuArch a) { return a == EMU_GFX90A ? 1 : a == EMU_GFX950 ? 2 : 0; }
static const char *arch_str(EmuArch a) { return a == EMU_GFX90A ? "gfx90a" : a == EMU_GFX950 ? "gfx950" : "gfx942"; }

/* ---- latency: one wave chasing pointers, `hops` dependent loads ---- */

/* The chase's kernel: each hop loads the next offset and waits for it. */
static char *chase_kernel(Level lv, int hops)
{
	Buf b = {0};
	if (lv == LV_LDS) {
		/* lane l writes the offset of lane l+1: every read is conflict-free */
		buf_printf(&b, "v_lshlrev_b32 v1, 2, v0\nv_add_u32 v2, 4, v1\nv_and_b32 v2, 0xff, v2\n"
			       "ds_write_b32 v1, v2\ns_waitcnt lgkmcnt(0)\n");
	} else {
		buf_printf(&b, "s_load_dwordx2 s[4:5], s[0:1], 0\nv_mov_b32 v1, 0\ns_mov_b32 s6, 0\ns_waitcnt lgkmcnt(0)\n");
	}
	for (int i = 0; i < hops; i++) {
		if (lv == LV_LDS)
			buf_printf(&b, "ds_read_b32 v1, v1\ns_waitcnt lgkmcnt(0)\n");
		else if (lv == LV_SCALAR)
			buf_printf(&b, "s_load_dword s6, s[4:5], s6\ns_waitcnt lgkmcnt(0)\n");
		else
			buf_printf(&b, "global_load_dword v1, v1, s[4:5]\ns_waitcnt vmcnt(0)\n");
	}
	buf_printf(&b, "s_endpgm\n");
	char *s = xstrdup(buf_cstr(&b));
	buf_free(&b);
	return s;
}

/* Cycles of a chase of `hops` through `chain` (uint32 offsets). */
static uint64_t chase_cycles(EmuArch arch, Level lv, int hops, uint32_t *chain, size_t bytes)
{
	char *src = chase_kernel(lv, hops);
	Harness h;
	h_init(&h, src);
	if (lv == LV_LDS)
		h.l.kd.group_segment_fixed_size = 256;
	else
		h_buffer(&h, chain, bytes, 0, false);
	TmParams p;
	tm_params(arch, &p);
	/* an idle chip: bandwidth never limits; L2 level: first touches hit */
	TmCuConfig c = {.arch = arch, .resident = 1, .hbm_bytes_per_clk = 1e6, .l2_bytes_per_clk = 1e6,
			.mall_bytes_per_clk = p.mall_mib > 0 ? 1e6 : 0, .l2_miss_fraction = lv == LV_HBM || lv == LV_MALL,
			.mall_miss_fraction = lv == LV_HBM};
	TmCuResult res;
	h_simulate(&h, arch, 1, &c, &res);
	uint64_t cyc = res.cycles;
	tm_cu_result_free(&res);
	h_free(&h);
	free(src);
	return cyc;
}

/* A chain over `lines` lines of `stride` bytes, visited in order, cyclic. */
static uint32_t *make_chain(size_t lines, size_t stride, size_t *bytes)
{
	*bytes = lines * stride;
	uint32_t *c = calloc(*bytes / 4, 4);
	for (size_t i = 0; i < lines; i++)
		c[i * stride / 4] = (uint32_t)(((i + 1) % lines) * stride);
	return c;
}

/* The model's load-to-use latency of a level: the chase's cycles per hop,
 * from two chases so the prologue and the cold misses cancel. */
static double modelled_latency(EmuArch arch, Level lv)
{
	TmParams p;
	tm_params(arch, &p);
	size_t lines, stride = (size_t)p.line_bytes, bytes;
	int n;
	switch (lv) {
	case LV_L1: lines = 8, n = 64; break;           /* 8 lines: L1 hits after the first pass */
	case LV_L2: lines = 4 * (size_t)(p.l1_bytes / p.line_bytes), n = 256; break; /* 4x L1: every hop misses L1 */
	case LV_HBM: case LV_MALL: lines = 1024, n = 256; break; /* 2n < lines: every hop a first touch */
	case LV_SCALAR: lines = 4, stride = 64, n = 64; break;
	default: lines = 1, n = 64; break;              /* LDS: the chain is written by the kernel */
	}
	uint32_t *chain = make_chain(lines, stride, &bytes);
	uint64_t a = chase_cycles(arch, lv, n, chain, bytes), b = chase_cycles(arch, lv, 2 * n, chain, bytes);
	free(chain);
	return (double)(b - a) / n;
}

static void latencies(EmuArch arch)
{
	double model[LV_N];
	for (int lv = 0; lv < LV_N; lv++) {
		double pub = published_latency[lv][col(arch)];
		if (!pub)
			continue;
		model[lv] = modelled_latency(arch, (Level)lv);
		if (getenv("CALIB_PRINT"))
			printf("calib %s latency %-14s published %6.1f clk, model %6.1f clk (%+.1f%%)\n", arch_str(arch),
			       level_name[lv], pub, model[lv], 100 * (model[lv] / pub - 1));
	}
	for (int lv = 0; lv < LV_N; lv++) {
		double m = model[lv], pub = published_latency[lv][col(arch)];
		if (!pub)
			continue;
		ck_assert_msg(m >= pub * (1 - LAT_TOL) && m <= pub * (1 + LAT_TOL),
			      "%s latency: model %.1f clk, published %.1f clk", level_name[lv], m, pub);
	}
}

START_TEST(latency_gfx942) { latencies(EMU_GFX942); }
END_TEST

START_TEST(latency_gfx90a) { latencies(EMU_GFX90A); }
END_TEST

START_TEST(latency_gfx950) { latencies(EMU_GFX950); }
END_TEST

/* ---- bandwidth ---- */

/* Each lane copies 16 bytes per step, 4 steps: 16 KiB per workgroup of
 * 256 lanes in and out. */
static const char *COPY4 =
	"s_load_dwordx4 s[4:7], s[0:1], 0\n"
	"s_lshl_b32 s8, s2, 14\n"
	"v_lshlrev_b32 v1, 4, v0\n"
	"v_add_u32 v1, s8, v1\n"
	"v_add_u32 v2, 0x1000, v1\n"
	"v_add_u32 v3, 0x2000, v1\n"
	"v_add_u32 v20, 0x3000, v1\n"
	"s_waitcnt lgkmcnt(0)\n"
	"global_load_dwordx4 v[4:7], v1, s[4:5]\n"
	"global_load_dwordx4 v[8:11], v2, s[4:5]\n"
	"global_load_dwordx4 v[12:15], v3, s[4:5]\n"
	"global_load_dwordx4 v[16:19], v20, s[4:5]\n"
	"s_waitcnt vmcnt(3)\n"
	"global_store_dwordx4 v1, v[4:7], s[6:7]\n"
	"s_waitcnt vmcnt(3)\n"
	"global_store_dwordx4 v2, v[8:11], s[6:7]\n"
	"s_waitcnt vmcnt(3)\n"
	"global_store_dwordx4 v3, v[12:15], s[6:7]\n"
	"s_waitcnt vmcnt(3)\n"
	"global_store_dwordx4 v20, v[16:19], s[6:7]\n"
	"s_endpgm\n";

/* A workgroup's 16 KiB read, as COPY4 without the stores. */
static const char *READ4 =
	"s_load_dwordx2 s[4:5], s[0:1], 0\n"
	"s_lshl_b32 s8, s2, 14\n"
	"v_lshlrev_b32 v1, 4, v0\n"
	"v_add_u32 v1, s8, v1\n"
	"v_add_u32 v2, 0x1000, v1\n"
	"v_add_u32 v3, 0x2000, v1\n"
	"v_add_u32 v20, 0x3000, v1\n"
	"s_waitcnt lgkmcnt(0)\n"
	"global_load_dwordx4 v[4:7], v1, s[4:5]\n"
	"global_load_dwordx4 v[8:11], v2, s[4:5]\n"
	"global_load_dwordx4 v[12:15], v3, s[4:5]\n"
	"global_load_dwordx4 v[16:19], v20, s[4:5]\n"
	"s_waitcnt vmcnt(0)\n"
	"s_endpgm\n";

/* The whole-GPU path of `wavecc profile` (gpu.c) for a grid of `nwg`
 * workgroups of 256 lanes, registers for 8 waves per SIMD. */
static void chip(Harness *h, EmuArch arch, uint64_t nwg, double footprint, TmCuConfig *c, TmCuResult *res,
	TmEstimate *e)
{
	KernelDescriptor kd = h->l.kd;
	kd.vgpr_alloc = 64;
	const TmGpu *g = tm_gpu_default(arch);
	TmOccupancy occ;
	tm_occupancy(g, &kd, 0, 4, &occ);
	uint64_t sample = tm_sample_size(g, nwg, occ.wgs_per_cu);
	TmRecorder *r = tm_recorder_new(arch, 0, sample, 4);
	h->l.arch = arch;
	h->l.hook = tm_recorder_hook(r);
	h->l.grid[0] = (uint32_t)sample;
	ck_assert_msg(h_run(h) == 0, "%s", h->err);
	tm_cu_config(g, r, nwg, &occ, footprint, 0, c);
	char err[256];
	ck_assert_msg(tm_simulate(r, c, res, err, sizeof err) == 0, "%s", err);
	tm_estimate(g, c, res, nwg, &occ, e);
	tm_recorder_free(r);
}

/* A streaming copy over the whole modelled MI300X: published 4.11 TB/s. */
START_TEST(hbm_copy_gfx942)
{
	enum { PER_CU = 8 };
	TmParams p;
	tm_params(EMU_GFX942, &p);
	uint64_t nwg = (uint64_t)p.cus * PER_CU;
	size_t bytes = (size_t)nwg * 16384;
	uint8_t *in = calloc(bytes, 1), *out = calloc(bytes, 1);
	Harness h;
	h_init(&h, COPY4);
	h_buffer(&h, in, bytes, 0, false);
	h_buffer(&h, out, bytes, 8, true);
	h.l.wg_size[0] = 256;
	TmCuConfig c;
	TmCuResult res;
	TmEstimate e;
	chip(&h, EMU_GFX942, nwg, 2.0 * (double)bytes, &c, &res, &e);
	double pub = 4110, achievable = p.hbm_gbps * p.hbm_efficiency;
	if (getenv("CALIB_PRINT"))
		printf("calib gfx942 HBM copy: published %.0f GB/s, model %.0f GB/s\n", pub, e.gbps_hbm);
	ck_assert_msg(e.gbps_hbm <= achievable * 1.0001, "copy %.0f GB/s above the achievable %.0f", e.gbps_hbm, achievable);
	ck_assert_msg(e.gbps_hbm >= pub * (1 - BW_TOL), "copy %.0f GB/s, published %.0f", e.gbps_hbm, pub);
	tm_cu_result_free(&res);
	h_free(&h);
	free(in);
	free(out);
}
END_TEST

/* L2 reads with every CU busy (lines in L2, not in L1): per CU and clock,
 * published MI300X 24.2 and MI210 24.4 bytes. */
static void l2_read(EmuArch arch, double pub_per_cu_clk)
{
	enum { PER_CU = 8 };
	TmParams p;
	tm_params(arch, &p);
	uint64_t nwg = (uint64_t)p.cus * PER_CU;
	size_t bytes = PER_CU * 16384;
	uint8_t *in = calloc(bytes, 1);
	Harness h;
	h_init(&h, READ4);
	h_buffer(&h, in, bytes, 0, false);
	h.l.wg_size[0] = 256;
	TmCuConfig c;
	TmCuResult res;
	TmEstimate e;
	chip(&h, arch, nwg, 0, &c, &res, &e);
	tm_cu_result_free(&res);
	c.l2_miss_fraction = 0; /* the data set lives in L2 */
	Harness h2;
	h_init(&h2, READ4);
	h_buffer(&h2, in, bytes, 0, false);
	h2.l.wg_size[0] = 256;
	h_simulate(&h2, arch, PER_CU, &c, &res);
	double bpc = (double)res.bytes_l2 / (double)res.cycles;
	if (getenv("CALIB_PRINT"))
		printf("calib %s L2 read: published %.1f B/clk/CU (%.0f GB/s chip), model %.1f B/clk/CU (%.0f GB/s)\n",
		       arch == EMU_GFX90A ? "gfx90a" : "gfx942", pub_per_cu_clk,
		       pub_per_cu_clk * p.cus * p.clock_mhz / 1e3, bpc, bpc * p.cus * p.clock_mhz / 1e3);
	ck_assert_uint_eq(res.bytes_hbm, 0);
	ck_assert_msg(bpc <= c.l2_bytes_per_clk * 1.0001, "%.2f B/clk above the L2 share %.2f", bpc, c.l2_bytes_per_clk);
	ck_assert_msg(bpc >= pub_per_cu_clk * (1 - BW_TOL) && bpc <= pub_per_cu_clk * (1 + BW_TOL),
		      "L2 %.2f B/clk/CU, published %.2f", bpc, pub_per_cu_clk);
	tm_cu_result_free(&res);
	h_free(&h);
	h_free(&h2);
	free(in);
}

/* GiB/s over CUs x MHz */
START_TEST(l2_read_gfx942) { l2_read(EMU_GFX942, 14364.7 * 1.073741824e9 / (304 * 2.1e9)); }
END_TEST

START_TEST(l2_read_gfx90a) { l2_read(EMU_GFX90A, 4014.1 * 1.073741824e9 / (104 * 1.7e9)); }
END_TEST

/* Eight waves re-reading one 8 KiB block: L1 hits at up to the
 * documented 128 bytes per clock (gfx942) or 64 (gfx90a). */
static void l1_read(EmuArch arch)
{
	Buf b = {0};
	buf_printf(&b, "s_load_dwordx2 s[4:5], s[0:1], 0\nv_lshlrev_b32 v1, 4, v0\nv_and_b32 v1, 0x1ff0, v1\n"
		       "s_waitcnt lgkmcnt(0)\n");
	for (int i = 0; i < 64; i++)
		buf_printf(&b, "global_load_dwordx4 v[%d:%d], v1, s[4:5]\n", 4 + 4 * (i % 8), 7 + 4 * (i % 8));
	buf_printf(&b, "s_waitcnt vmcnt(0)\ns_endpgm\n");
	static uint8_t in[8192];
	Harness h;
	h_init(&h, buf_cstr(&b));
	h_buffer(&h, in, sizeof in, 0, false);
	h.l.wg_size[0] = 512;
	TmParams p;
	tm_params(arch, &p);
	TmCuConfig c = {.arch = arch, .resident = 1, .hbm_bytes_per_clk = 8, .l2_bytes_per_clk = 24, .l2_miss_fraction = 1};
	TmCuResult res;
	h_simulate(&h, arch, 1, &c, &res);
	double bpc = (double)res.bytes_l1 / (double)res.cycles;
	if (getenv("CALIB_PRINT"))
		printf("calib %s L1 read: peak %.0f B/clk/CU, model %.1f\n", arch == EMU_GFX90A ? "gfx90a" : "gfx942",
		       p.l1_bytes_per_clk, bpc);
	ck_assert_msg(bpc <= p.l1_bytes_per_clk, "L1 %.1f B/clk above the peak", bpc);
	ck_assert_msg(bpc >= 0.9 * p.l1_bytes_per_clk, "L1 %.1f B/clk, peak %.0f", bpc, p.l1_bytes_per_clk);
	tm_cu_result_free(&res);
	h_free(&h);
	buf_free(&b);
}

START_TEST(l1_read_peak) { l1_read(EMU_GFX942); l1_read(EMU_GFX90A); }
END_TEST

/* ds_read_b128 without conflicts from eight waves: the LDS's 128 bytes per
 * clock, never more. */
START_TEST(lds_read_peak)
{
	Buf b = {0};
	buf_printf(&b, "v_lshlrev_b32 v1, 4, v0\nv_and_b32 v1, 0x3ff0, v1\n");
	for (int i = 0; i < 64; i++)
		buf_printf(&b, "ds_read_b128 v[%d:%d], v1\n", 4 + 4 * (i % 8), 7 + 4 * (i % 8));
	buf_printf(&b, "s_waitcnt lgkmcnt(0)\ns_endpgm\n");
	Harness h;
	h_init(&h, buf_cstr(&b));
	h.l.kd.group_segment_fixed_size = 16384;
	h.l.wg_size[0] = 512;
	TmCuConfig c = {.arch = EMU_GFX942, .resident = 1, .hbm_bytes_per_clk = 8, .l2_bytes_per_clk = 24,
			.l2_miss_fraction = 1};
	TmCuResult res;
	h_simulate(&h, EMU_GFX942, 1, &c, &res);
	double bpc = (double)res.bytes_lds / (double)res.cycles;
	if (getenv("CALIB_PRINT"))
		printf("calib gfx942 LDS read: peak 128 B/clk/CU, model %.1f\n", bpc);
	ck_assert_uint_eq(res.lds_conflict_cycles, 0);
	ck_assert_msg(bpc <= 128.0, "LDS %.1f B/clk above 128", bpc);
	ck_assert_msg(bpc >= 0.9 * 128, "LDS %.1f B/clk", bpc);
	tm_cu_result_free(&res);
	h_free(&h);
	buf_free(&b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("calibration");
	TCase *tc = tcase_create("calibration");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, latency_gfx942);
	tcase_add_test(tc, latency_gfx90a);
	tcase_add_test(tc, latency_gfx950);
	tcase_add_test(tc, hbm_copy_gfx942);
	tcase_add_test(tc, l2_read_gfx942);
	tcase_add_test(tc, l2_read_gfx90a);
	tcase_add_test(tc, l1_read_peak);
	tcase_add_test(tc, lds_read_peak);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
