/* gpu.c — the whole GPU by model: occupancy from the kernel descriptor, the
 * sample of workgroups one CU simulates, the CU's bandwidth shares, the
 * clock the GPU runs the kernel at, and the scaling of the CU's result to
 * the grid.
 *
 * Model (docs/cycle-model.md): workgroups go round-robin to the XCDs and
 * are spread over each XCD's CUs (the busiest CU's count sets the time, as
 * many at once as occupancy allows); every CU behaves like the simulated
 * one; HBM, Infinity Cache and L2 bandwidth are split evenly between the
 * CUs that have work (HBM at its achievable share, hbm_efficiency). Which
 * first touches miss the XCD's L2 and the Infinity Cache follows from the
 * lines XCD 0's first round of workgroups share (probed) and the grid dims
 * each line depends on (cache_model). When a CU's share is
 * larger than the sample, the time is extrapolated from the sample's steady
 * state (the interval between workgroup completions after the first round);
 * the last round of a grid that leaves CUs idle in it (the tail) runs at
 * that round's larger shares of HBM and the Infinity Cache (simulated
 * again at them: tm_tail); the launch overhead (launch_us) is added.
 *
 * The clock (tm_clock): the boost clock without matrix-core work, falling
 * toward AMD's published median clock under dense GEMM of the MFMAs' data
 * type as the matrix-core duty goes to 1. HBM bandwidth is fixed in bytes
 * per second, so its share per clock depends on the clock, and the duty on
 * that share: tm_profile simulates again at the clock a run implies until
 * it settles. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timing_int.h"

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

void tm_occupancy(const TmGpu *g, const KernelDescriptor *kd, uint32_t lds_bytes, uint32_t waves_per_wg,
	TmOccupancy *o)
{
	TmParams p;
	tm_gpu_params(g, &p);
	memset(o, 0, sizeof *o);
	uint32_t simds = (uint32_t)p.simds, slots = (uint32_t)p.wave_slots;
	o->waves_per_wg = waves_per_wg ? waves_per_wg : 1;
	/* a CU holds simds * (waves per SIMD) waves of any workgroups */
	uint32_t vg = kd->vgpr_alloc ? kd->vgpr_alloc : (uint32_t)p.vgprs;
	uint32_t sg = kd->sgpr_alloc ? kd->sgpr_alloc + 16 : 16; /* + VCC, flat scratch, XNACK (guessed) */
	uint32_t wv = min_u32(slots, (uint32_t)p.vgprs / vg);
	uint32_t ws = min_u32(slots, (uint32_t)p.sgprs / sg);
	o->waves_per_simd = min_u32(wv, ws);
	o->by_waves = min_u32(slots * simds / o->waves_per_wg, (uint32_t)p.max_wgs_per_cu);
	o->by_vgprs = wv * simds / o->waves_per_wg;
	o->by_sgprs = ws * simds / o->waves_per_wg;
	o->by_lds = lds_bytes ? (uint32_t)p.lds_bytes / lds_bytes : 1u << 16;
	o->wgs_per_cu = o->by_waves, o->limit = "wave slots";
	if (o->by_vgprs < o->wgs_per_cu)
		o->wgs_per_cu = o->by_vgprs, o->limit = "VGPRs";
	if (o->by_sgprs < o->wgs_per_cu)
		o->wgs_per_cu = o->by_sgprs, o->limit = "SGPRs";
	if (o->by_lds < o->wgs_per_cu)
		o->wgs_per_cu = o->by_lds, o->limit = "LDS";
	if (o->wgs_per_cu == 0)
		o->wgs_per_cu = 1, o->limit = "does not fit (modelled as 1)";
}

/* The busiest CU's workgroups: round-robin over the XCDs, then over the
 * CUs of each. */
static uint64_t per_cu(const TmGpu *g, uint64_t nwg, uint64_t *active)
{
	uint64_t cus = (uint64_t)g->cus, per = (uint64_t)g->cus_per_l2;
	uint64_t xcds = per ? (uint64_t)fmax(1, round(g->cus / g->cus_per_l2)) : 1;
	*active = nwg < cus ? nwg : cus;
	uint64_t on_xcd = (nwg + xcds - 1) / xcds;
	return per ? (on_xcd + per - 1) / per : (nwg + cus - 1) / cus;
}

uint64_t tm_sample_size(const TmGpu *g, uint64_t nwg, uint32_t occ)
{
	uint64_t active, w = per_cu(g, nwg, &active);
	uint64_t cap = 2 * (uint64_t)occ > 2 ? 2 * (uint64_t)occ : 2;
	return w < cap ? w : cap;
}

/* The sample's workgroups, spread over the grid: workgroup k of n sits at
 * position u_d(k) in [0, 1) of each dim d, x stratified ((k + 1/2) / n),
 * y and z on additive recurrences (frac(1/2 + k a_d), a_d the R2
 * sequence's irrational steps) so that no dim's coordinates repeat with
 * another's (a stride over the linear id would alias with the grid's row
 * length); ids that coincide move to the next free one. Work that varies
 * over the grid (causal attention cut at the diagonal: early rows are
 * cheap) is then sampled across its range, not at its start. */
static int cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

uint64_t tm_sample_ids(const uint32_t grid[3], uint64_t n, uint64_t *ids)
{
	uint64_t g[3] = {grid[0] ? grid[0] : 1, grid[1] ? grid[1] : 1, grid[2] ? grid[2] : 1};
	uint64_t nwg = g[0] * g[1] * g[2];
	if (n >= nwg) {
		for (uint64_t i = 0; i < nwg; i++)
			ids[i] = i;
		return nwg;
	}
	static const double step[3] = {0, 0.7548776662466927, 0.5698402909980532}; /* R2: 1/p, 1/p^2 (p the plastic number) */
	LineSet taken = {0};
	for (uint64_t k = 0; k < n; k++) {
		uint64_t c[3];
		for (int d = 0; d < 3; d++) {
			double u = d == 0 ? ((double)k + 0.5) / (double)n : fmod(0.5 + (double)k * step[d], 1.0);
			c[d] = (uint64_t)(u * (double)g[d]);
			if (c[d] >= g[d])
				c[d] = g[d] - 1;
		}
		uint64_t id = c[0] + g[0] * (c[1] + g[1] * c[2]);
		while (!tm_lineset_add(&taken, id))
			id = (id + 1) % nwg;
		ids[k] = id;
	}
	tm_lineset_free(&taken);
	qsort(ids, n, sizeof *ids, cmp_id);
	return n;
}

/* ---- the L2 and Infinity Cache model ----
 * Workgroups go round-robin to the XCDs (workgroup i to XCD i mod X), and
 * each XCD runs its share in rounds of (CUs per XCD x occupancy). The lines
 * of a workgroup fall into classes by the grid dims they depend on
 * (tm_recorder_classes); a set of workgroups touches, of class c, one copy
 * per distinct projection of their coordinates onto c's dims. An XCD's L2
 * misses are the union of its workgroups' lines when that fits in its L2,
 * else the sum of each round's union (concurrent workgroups share, earlier
 * rounds are evicted). A round's union is measured when the round probes
 * ran (tm_round_ids: XCD 0's first round, the same prefix of each; the
 * share of their lines that are distinct, for every round): a kernel that
 * maps its workgroup ids to tiles in its own order (aiter's 256x256 GEMM
 * takes the ids in groups of 32 tile columns) shares lines between other
 * workgroups than the launch grid's dims say, and the classes, from the
 * launch grid's neighbours, then count its B tiles as depending on x and
 * y. The Infinity Cache misses are the grid's union when it fits in the
 * MALL, else that union and of the L2 misses beyond it the share
 * (union - MALL) / union; the grid's union is at most the bytes of the
 * buffers the kernel reads (the footprint), whatever the classes say. */

uint64_t tm_round_ids(const TmGpu *g, uint64_t nwg, uint32_t occ, uint64_t *ids)
{
	uint64_t xcds = g->cus_per_l2 > 0 ? (uint64_t)fmax(1, round(g->cus / g->cus_per_l2)) : 1;
	uint64_t per_round = (uint64_t)(g->cus_per_l2 > 0 ? g->cus_per_l2 : g->cus) * (occ ? occ : 1);
	uint64_t w0 = (nwg + xcds - 1) / xcds, n = w0 < per_round ? w0 : per_round;
	if (n > TM_ROUND_PROBES)
		n = TM_ROUND_PROBES;
	if (n < 2)
		return 0;
	for (uint64_t k = 0; k < n; k++)
		ids[k] = k * xcds;
	return n;
}

/* Distinct projections onto the dims of class c of the workgroups first,
 * first + step, ... (count of them), each wg id below nwg. */
static uint64_t distinct_proj(int c, const uint32_t g[3], uint64_t first, uint64_t step, uint64_t count)
{
	if (c == 0)
		return count ? 1 : 0;
	LineSet set = {0};
	for (uint64_t k = 0; k < count; k++) {
		uint64_t i = first + k * step, x = i % g[0], y = i / g[0] % g[1], z = i / g[0] / g[1];
		uint64_t key = (c & 1 ? x : 0) + (uint64_t)g[0] * ((c & 2 ? y : 0) + (uint64_t)g[1] * (c & 4 ? z : 0));
		tm_lineset_add(&set, key);
	}
	uint64_t n = set.len;
	tm_lineset_free(&set);
	return n;
}

static double union_bytes(const double frac[8], double wg_bytes, const uint32_t g[3], uint64_t first, uint64_t step,
	uint64_t count)
{
	double sum = 0;
	for (int c = 0; c < 8; c++)
		if (frac[c] > 0)
			sum += frac[c] * (double)distinct_proj(c, g, first, step, count);
	return wg_bytes * sum;
}

enum { REUSE_MAX_IDS = 1 << 18 }; /* workgroups walked per estimate (beyond: extrapolated) */

static void cache_model(const TmGpu *g, const TmParams *p, const TmRecorder *r, uint64_t nwg, const TmOccupancy *o,
	double footprint, TmCuConfig *c)
{
	double frac[8];
	bool known[3];
	double wg_bytes = tm_recorder_classes(r, frac, known);
	double unique, requested;
	tm_recorder_traffic(r, &unique, &requested);
	uint32_t gr[3] = {r->grid[0] ? r->grid[0] : (uint32_t)nwg, r->grid[1] ? r->grid[1] : 1, r->grid[2] ? r->grid[2] : 1};
	double q = unique * (double)nwg;
	uint64_t xcds = (uint64_t)fmax(1, round(p->cus / p->cus_per_l2));
	uint64_t per_round = (uint64_t)p->cus_per_l2 * (o->wgs_per_cu ? o->wgs_per_cu : 1);
	uint64_t w0 = (nwg + xcds - 1) / xcds; /* XCD 0's workgroups: 0, X, 2X, ... */
	uint64_t walk = w0 < REUSE_MAX_IDS ? w0 : REUSE_MAX_IDS;
	double rounds = 0;
	for (uint64_t k = 0; k < walk; k += per_round)
		rounds += union_bytes(frac, wg_bytes, gr, k * xcds, xcds, walk - k < per_round ? walk - k : per_round);
	/* measured: the round probes' share of distinct lines, for every round
	 * (a kernel that maps its ids to tiles in its own order shares lines
	 * between other workgroups than the grid dims say) */
	double shared = tm_recorder_round_sharing(r, NULL);
	uint64_t round0 = w0 < per_round ? w0 : per_round, probed = r->round.len; /* ids 0, X, ... (tm_round_ids) */
	if (shared >= 0 && probed < round0 && probed >= 2) {
		/* a round larger than its probes (TM_ROUND_PROBES): the probes'
		 * share, times the classes' share over the whole round against
		 * theirs over the probed workgroups (a GEMM's first 64 of 880
		 * share one A tile, its round 14 of them) */
		double in_probes = union_bytes(frac, wg_bytes, gr, 0, xcds, probed) / ((double)probed * wg_bytes);
		double in_round = union_bytes(frac, wg_bytes, gr, 0, xcds, round0) / ((double)round0 * wg_bytes);
		if (in_probes > 0)
			shared = fmin(1.0, shared * in_round / in_probes);
	}
	if (shared >= 0)
		rounds = shared * (double)walk * wg_bytes;
	double all = union_bytes(frac, wg_bytes, gr, 0, xcds, walk);
	double l2cap = g->l2_mib * 1048576.0;
	double m0 = (all <= l2cap ? all : rounds) * (double)w0 / (double)(walk ? walk : 1);
	double m2 = m0 * (double)nwg / (double)(w0 ? w0 : 1); /* every XCD like XCD 0 */
	double grid = 0;
	for (int k = 0; k < 8; k++)
		grid += frac[k] * (k & 1 ? gr[0] : 1) * (k & 2 ? gr[1] : 1) * (k & 4 ? gr[2] : 1);
	grid *= wg_bytes;
	double hbm, once = footprint > 0 ? fmin(grid, footprint) : grid;
	if (p->mall_mib <= 0)
		hbm = m2;
	else if (once <= p->mall_mib * 1048576.0)
		hbm = once;
	else /* the union once, and of the L2s' re-reads the share the MALL cannot hold (guessed: capacity over union) */
		hbm = once + fmax(0, m2 - once) * (1 - p->mall_mib * 1048576.0 / once);
	m2 = fmax(m2, hbm);
	c->first_touch_bytes = q;
	c->l2_miss_bytes = m2;
	c->hbm_read_bytes = hbm;
	c->l2_miss_fraction = q > 0 ? fmin(1.0, m2 / q) : 1.0;
	c->mall_miss_fraction = m2 > 0 ? fmin(1.0, hbm / m2) : 1.0;
}

double tm_hbm_efficiency(const TmParams *p, double write_share)
{
	if (write_share < 0)
		return p->hbm_efficiency;
	return p->hbm_read_efficiency + (p->hbm_efficiency - p->hbm_read_efficiency) * fmin(1.0, 3.0 * write_share);
}

/* The share of a CU's HBM bytes that are writes (-1: it moved none). */
static double write_share(const TmCuResult *cu)
{
	return cu->bytes_hbm ? (double)cu->bytes_hbm_write / (double)cu->bytes_hbm : -1;
}

/* A CU's shares of the XCD's L2, the Infinity Cache and HBM when `active`
 * CUs have work, at c->clock_mhz, HBM at the achievable share for
 * c->hbm_write_share. */
static void bandwidth_shares(const TmParams *p, uint64_t active, TmCuConfig *c)
{
	if (!active)
		active = 1;
	double clk = c->clock_mhz * 1e6;
	c->hbm_bytes_per_clk = p->hbm_gbps * tm_hbm_efficiency(p, c->hbm_write_share) * 1e9 / clk / (double)active;
	double l2s = ceil(p->cus / p->cus_per_l2);
	double per_l2 = ceil((double)active / l2s);
	c->l2_bytes_per_clk = fmin(p->l2_cu_bytes_per_clk, p->l2_bytes_per_clk / (per_l2 < 1 ? 1 : per_l2));
	/* HBM and Infinity Cache data reach a CU through its L2 path */
	c->hbm_bytes_per_clk = fmin(c->hbm_bytes_per_clk, c->l2_bytes_per_clk);
	c->mall_bytes_per_clk = 0;
	if (p->mall_gbps > 0 && p->mall_mib > 0)
		c->mall_bytes_per_clk = fmin(p->mall_gbps * 1e9 / clk / (double)active, c->l2_bytes_per_clk);
}

void tm_cu_config(const TmGpu *g, const TmRecorder *r, uint64_t nwg, const TmOccupancy *o, double footprint_bytes,
	double clock_mhz, TmCuConfig *c)
{
	TmParams p;
	tm_gpu_params(g, &p);
	uint64_t active;
	per_cu(g, nwg, &active);
	memset(c, 0, sizeof *c);
	c->arch = g->arch;
	c->gpu = g;
	c->clock_mhz = clock_mhz > 0 ? clock_mhz : g->boost_mhz;
	c->resident = o->wgs_per_cu;
	c->waves_per_simd_cap = o->waves_per_simd;
	c->hbm_write_share = -1;
	bandwidth_shares(&p, active, c);
	cache_model(g, &p, r, nwg, o, footprint_bytes, c);
}

void tm_cu_config_shares(const TmGpu *g, uint64_t nwg, TmCuConfig *c)
{
	TmParams p;
	tm_gpu_params(g, &p);
	uint64_t active;
	per_cu(g, nwg, &active);
	bandwidth_shares(&p, active, c);
}

void tm_tail(const TmGpu *g, uint64_t nwg, uint32_t occ, TmTail *t)
{
	memset(t, 0, sizeof *t);
	uint64_t active, w = per_cu(g, nwg, &active);
	uint64_t cus = (uint64_t)g->cus;
	if (!occ)
		occ = 1;
	if (w <= occ || !cus) /* one round: every CU with work is busy throughout */
		return;
	uint64_t before = (w - 1) / occ * (uint64_t)occ; /* the busiest CU's workgroups before its last round */
	uint64_t busy = nwg > cus * before ? nwg - cus * before : 1;
	if (busy >= cus)
		return;
	t->cus = busy;
	t->wgs = w - before;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t *sorted_done(const TmCuResult *cu)
{
	uint32_t s = cu->workgroups;
	uint64_t *d = xcalloc(s ? s : 1, sizeof *d);
	memcpy(d, cu->wg_done, s * sizeof *d);
	qsort(d, s, sizeof *d, cmp_u64);
	return d;
}

/* The interval between workgroup completions after the first round (the
 * mean over the sample when it is one round). */
static double steady_interval(const TmCuResult *cu, uint32_t occ)
{
	uint32_t s = cu->workgroups;
	if (!s)
		return 0;
	uint64_t *d = sorted_done(cu);
	if (!occ)
		occ = 1;
	double interval = s > occ ? (double)(d[s - 1] - d[occ - 1]) / (double)(s - occ) : (double)d[s - 1] / (double)s;
	free(d);
	return interval;
}

/* tail: the last round's workgroups and CUs (tm_tail) and the steady
 * interval a simulation at that round's shares gave (0: none) */
static void estimate(const TmGpu *g, const TmCuConfig *c, const TmCuResult *cu, uint64_t nwg, const TmOccupancy *o,
	const TmTail *tail, double tail_interval, TmEstimate *e)
{
	TmParams p;
	tm_gpu_params(g, &p);
	memset(e, 0, sizeof *e);
	e->grid_wgs = nwg;
	e->wgs_per_cu = per_cu(g, nwg, &e->active_cus);
	uint32_t s = cu->workgroups;
	double cycles = (double)cu->cycles;
	if (e->wgs_per_cu != s && s > 0) {
		uint64_t *d = sorted_done(cu);
		double interval = steady_interval(cu, o->wgs_per_cu);
		if (e->wgs_per_cu > s)
			cycles = (double)d[s - 1] + (double)(e->wgs_per_cu - s) * interval;
		else /* a sample larger than the CU's share (--sample): its first ones */
			cycles = (double)d[e->wgs_per_cu - 1];
		free(d);
	}
	/* the last round's workgroups ran at that round's larger shares of
	 * HBM and the Infinity Cache: the steady interval between completions
	 * at those shares, not at the full rounds' (never slower) */
	if (tail && tail->wgs && tail_interval > 0) {
		e->tail = *tail;
		double full = steady_interval(cu, o->wgs_per_cu);
		if (tail_interval < full) {
			e->tail.cycles_saved = fmin((double)tail->wgs * (full - tail_interval), cycles);
			cycles -= e->tail.cycles_saved;
		}
	}
	/* the chip's HBM bandwidth bounds the whole grid's traffic, whatever
	 * the extrapolation says */
	e->clock_mhz = c->clock_mhz > 0 ? c->clock_mhz : g->boost_mhz;
	double clk = e->clock_mhz * 1e6;
	double hbm_total = s ? (double)cu->bytes_hbm / s * (double)nwg : 0;
	double hbm_rate = p.hbm_gbps * tm_hbm_efficiency(&p, write_share(cu)) * 1e9; /* achievable, not peak */
	if (hbm_total / hbm_rate * clk > cycles)
		cycles = hbm_total / hbm_rate * clk;
	double mall_total = s ? (double)cu->bytes_mall / s * (double)nwg : 0;
	if (p.mall_gbps > 0 && mall_total / (p.mall_gbps * 1e9) * clk > cycles)
		cycles = mall_total / (p.mall_gbps * 1e9) * clk;
	e->cu_cycles = cycles;
	e->launch_seconds = p.launch_us * 1e-6;
	e->seconds = cycles / clk + e->launch_seconds;
	double per_wg = s ? 1.0 / s : 0;
	if (e->seconds > 0) {
		e->tflops = cu->mfma_flops * per_wg * (double)nwg / e->seconds / 1e12;
		e->gbps_hbm = (double)cu->bytes_hbm * per_wg * (double)nwg / e->seconds / 1e9;
	}
	e->matrix_util = cu->cycles ? (double)cu->mfma_busy / (p.simds * (double)cu->cycles) : 0;
}

void tm_estimate(const TmGpu *g, const TmCuConfig *c, const TmCuResult *cu, uint64_t nwg, const TmOccupancy *o,
	TmEstimate *e)
{
	estimate(g, c, cu, nwg, o, NULL, 0, e);
}

void tm_clock(const TmGpu *g, const TmCuResult *cu, TmClock *c)
{
	TmParams p;
	tm_gpu_params(g, &p);
	memset(c, 0, sizeof *c);
	c->boost_mhz = g->boost_mhz;
	c->dtype = -1;
	double busy = 0, full = 0, most = 0;
	for (int t = 0; t < TM_NDTYPES; t++) {
		double b = (double)cu->mfma_busy_dt[t];
		busy += b;
		full += b * g->full_duty_mhz[t];
		if (b > most)
			most = b, c->dtype = t;
		c->mixed |= b > 0 && b < (double)cu->mfma_busy;
	}
	c->full_mhz = busy > 0 ? full / busy : g->boost_mhz;
	c->duty = cu->cycles ? fmin(1.0, (double)cu->mfma_busy / (p.simds * (double)cu->cycles)) : 0;
	c->mhz = g->boost_mhz - (g->boost_mhz - c->full_mhz) * pow(c->duty, p.clock_duty_exponent);
}

int tm_profile(const TmGpu *g, const TmRecorder *r, uint64_t nwg, const TmOccupancy *o, double footprint_bytes,
	double clock_mhz, TmCuConfig *c, TmCuResult *cu, TmClock *clk, TmEstimate *e, char *err, size_t err_len)
{
	double mhz = clock_mhz > 0 ? clock_mhz : g->boost_mhz;
	if (nwg == 0) {
		snprintf(err, err_len, "the grid has no workgroups at these sizes: nothing to profile");
		return -1;
	}
	/* the HBM share depends on the kernel's write share of HBM traffic
	 * (tm_hbm_efficiency), known after a run: runs after the first take
	 * the previous run's */
	TmParams p;
	tm_gpu_params(g, &p);
	double ws = -1;
	for (int run = 0;; run++) {
		tm_cu_config(g, r, nwg, o, footprint_bytes, mhz, c);
		c->hbm_write_share = ws;
		tm_cu_config_shares(g, nwg, c);
		if (tm_simulate(r, c, cu, err, err_len) != 0)
			return -1;
		tm_clock(g, cu, clk);
		double nws = write_share(cu);
		bool eff_moved = fabs(tm_hbm_efficiency(&p, nws) - tm_hbm_efficiency(&p, ws)) > 0.005 * p.hbm_efficiency;
		ws = nws;
		if (run == 3 || ((clock_mhz > 0 || fabs(clk->mhz - mhz) <= 0.005 * mhz) && !eff_moved))
			break;
		if (clock_mhz <= 0)
			mhz = clk->mhz;
		tm_cu_result_free(cu);
	}
	/* the clock the last run was simulated at; the model's for it is
	 * within 0.5% (or the fourth run's) */
	clk->forced = clock_mhz > 0;
	clk->mhz = mhz;
	/* the tail: the last round, on fewer CUs, simulated at its shares */
	TmTail tail;
	tm_tail(g, nwg, o->wgs_per_cu, &tail);
	double tail_interval = 0;
	if (tail.wgs) {
		TmCuConfig ct = *c;
		bandwidth_shares(&p, tail.cus, &ct);
		tail.hbm_bytes_per_clk = ct.hbm_bytes_per_clk;
		tail.mall_bytes_per_clk = ct.mall_bytes_per_clk;
		if (ct.hbm_bytes_per_clk > c->hbm_bytes_per_clk || ct.mall_bytes_per_clk > c->mall_bytes_per_clk) {
			TmCuResult cut;
			if (tm_simulate(r, &ct, &cut, err, err_len) != 0)
				return -1;
			/* the sample's time at the last round's shares over its
			 * time at the full rounds': how much more bandwidth
			 * speeds this kernel's workgroups up */
			double f = cu->cycles ? fmin(1.0, (double)cut.cycles / (double)cu->cycles) : 1.0;
			tail_interval = steady_interval(cu, o->wgs_per_cu) * f;
			tm_cu_result_free(&cut);
		}
	}
	estimate(g, c, cu, nwg, o, &tail, tail_interval, e);
	return 0;
}
