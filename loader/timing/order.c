/* order.c — the emulator's wave order `model` (EMU_WAVES_MODEL): the CU
 * model of cu.c decides, clock by clock, which wave of the workgroup
 * issues next, and the emulator runs exactly that instruction then, so the
 * functional run interleaves the waves as the timing model does (a wave
 * waiting on a load, a dependence, a busy unit or a barrier falls behind
 * the others by as many instructions as its stall lets them issue).
 *
 * Algorithm: an EmuHook whose wg_begin starts a workgroup on the modeled
 * CU (one at a time, as the emulator runs them, each when the previous
 * one's memory has drained), whose pick converts the previews of the
 * waves that may issue (their next instruction decoded, not run:
 * operation, registers, wait counts) to the model's events, runs the
 * model's clock loop to its next issue and names that wave, and whose
 * on_inst converts what the emulator ran (with its addresses: cache lines,
 * LDS bank conflicts, the branch taken) and issues it on the model. The
 * configuration is fixed (tm_order_config): the arch's default GPU at its
 * boost clock, the bandwidth shares of a GPU whose every CU is busy, every
 * first touch of a line served by HBM. docs/emulator.md, "The model
 * order", says what is replayed and what is not. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timing_int.h"

struct TmOrder {
	EmuArch arch;
	EmuHook hook;
	TmCuConfig cfg;
	TmRecorder *r; /* a stream recorder: conversions and the pc table (made at the first workgroup) */
	TmSim *sim;
	TmCuResult out;
	int pending;   /* the wave picked, whose instruction the emulator has not reported yet; -1 */
	char err[256];
};

void tm_order_config(EmuArch arch, TmCuConfig *c)
{
	const TmGpu *g = tm_gpu_default(arch);
	TmParams p;
	tm_gpu_params(g, &p);
	memset(c, 0, sizeof *c);
	c->arch = arch;
	c->gpu = g;
	c->clock_mhz = g->boost_mhz;
	c->resident = 1;
	double clk = c->clock_mhz * 1e6, cus = p.cus > 0 ? p.cus : 1;
	c->l2_bytes_per_clk = fmin(p.l2_cu_bytes_per_clk, p.l2_bytes_per_clk / fmax(1, p.cus_per_l2));
	c->hbm_write_share = -1;
	c->hbm_bytes_per_clk = fmin(p.hbm_gbps * p.hbm_efficiency * 1e9 / clk / cus, c->l2_bytes_per_clk);
	if (p.mall_gbps > 0 && p.mall_mib > 0)
		c->mall_bytes_per_clk = fmin(p.mall_gbps * 1e9 / clk / cus, c->l2_bytes_per_clk);
	c->l2_miss_fraction = 1;
	c->mall_miss_fraction = 1;
}

static void on_wg(void *ctx, uint32_t wg, uint32_t nwaves)
{
	(void)wg;
	TmOrder *o = ctx;
	if (!o->sim) {
		o->r = tm_recorder_new(o->arch, 0, 0, nwaves);
		o->r->stream = true;
		o->sim = tm_sim_stream(o->r, &o->cfg, &o->out);
	}
	o->pending = -1;
	tm_sim_stream_wg(o->sim);
}

static int on_pick(void *ctx, const EmuEvent *const *next, uint32_t nwaves)
{
	TmOrder *o = ctx;
	if (!o->sim || o->pending >= 0 || nwaves != o->r->nwaves) {
		snprintf(o->err, sizeof o->err, "the emulator %s", !o->sim ? "picked before a workgroup began"
			 : o->pending >= 0 ? "did not report the instruction the model picked" : "changed the waves per workgroup");
		return -1;
	}
	for (uint32_t i = 0; i < nwaves; i++)
		if (next[i] && tm_sim_wants_preview(o->sim, i)) {
			TEv t;
			tm_event(o->r, next[i], &t);
			tm_sim_preview(o->sim, i, &t);
		}
	int k = tm_sim_next_wave(o->sim, o->err, sizeof o->err);
	o->pending = k >= 0 ? k : -1;
	return k >= 0 ? k : -1;
}

static void on_inst(void *ctx, const EmuEvent *ev)
{
	TmOrder *o = ctx;
	if (o->pending < 0 || ev->wave != (uint32_t)o->pending)
		return;
	TEv t;
	tm_event(o->r, ev, &t);
	tm_sim_issue_wave(o->sim, ev->wave, &t);
	o->r->lines.len = 0; /* issued: its lines are no longer needed */
	o->pending = -1;
}

TmOrder *tm_order_new(EmuArch arch, bool log_order)
{
	TmOrder *o = xcalloc(1, sizeof *o);
	o->arch = arch;
	o->pending = -1;
	tm_order_config(arch, &o->cfg);
	o->cfg.log_order = log_order;
	o->hook = (EmuHook){.on_inst = on_inst, .wg_begin = on_wg, .pick = on_pick, .ctx = o};
	return o;
}

const EmuHook *tm_order_hook(TmOrder *o) { return &o->hook; }

const TmCuResult *tm_order_result(TmOrder *o)
{
	if (o->sim) {
		tm_sim_free(o->sim);
		o->sim = NULL;
	}
	return &o->out;
}

const char *tm_order_error(const TmOrder *o) { return o->err[0] ? o->err : NULL; }

void tm_order_free(TmOrder *o)
{
	if (!o)
		return;
	tm_order_result(o);
	tm_cu_result_free(&o->out);
	tm_recorder_free(o->r);
	free(o);
}
