/* order.c — the pipeline's order_instructions row: the list scheduler
 * (passes/machine/sched.c) checked against what register allocation makes
 * of its output.
 *
 * The scheduler bounds its own register pressure with a model (live dwords
 * per virtual register), but the allocator adds fragmentation and tuple
 * alignment on top, so a schedule inside the model's limit can still cost a
 * wave per SIMD or push values into AGPRs. So the row allocates a copy of
 * the function both ways (scheduled and as isel left it) and keeps the
 * schedule only if it allocates and, where isel's order allocates too,
 * needs no more AGPRs nor scratch and keeps the waves per SIMD (registers, LDS and
 * slots together: compile_waves); otherwise it schedules again under a limit lowered by
 * SCHED_STEP dwords, up to SCHED_ROUNDS times, and at the end keeps isel's
 * order (so a kernel that runs out of registers fails as it would
 * unscheduled). A kernel left at one wave per SIMD by its registers alone
 * is scheduled once more within two waves' registers (two_waves). The trials keep within the registers a wave of the
 * workgroup may hold (compile_register_cap), as the real allocation does. The copies are thrown away; the real allocation is the
 * next row. */
#include <string.h>

#include "../passes/machine/machine.h"
#include "../regalloc/regalloc.h"
#include "driver.h"

enum { SCHED_ROUNDS = 4, SCHED_STEP = 16 };

static MFunc *copy_mfunc(const MFunc *f)
{
	MFunc *g = mfunc_new(f->name, f->target);
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		const MBlock *b = f->blocks.data[bi];
		MBlock *c = mfunc_block(g, b->label);
		for (size_t i = 0; i < b->insts.len; i++)
			vec_push(&c->insts, b->insts.data[i]);
	}
	for (size_t v = 0; v < f->vregs.len; v++)
		vec_push(&g->vregs, f->vregs.data[v]);
	memcpy(g->nregs, f->nregs, sizeof g->nregs);
	g->allocated = f->allocated;
	g->lds_bytes = f->lds_bytes;
	g->input_sgprs = f->input_sgprs;
	return g;
}

typedef struct Fit {
	bool ok;
	int vgprs, agprs, waves, scratch;
} Fit;

/* Allocate a copy of f: its registers and the waves per SIMD they allow
 * with the kernel's LDS and workgroup (compile_waves). */
static Fit trial(const Compile *c, const MFunc *f)
{
	MFunc *g = copy_mfunc(f);
	Buf err = {0};
	RaLimits lim = {.unified = compile_register_cap(c)};
	Fit r = {.ok = regalloc_mfunc_limits(g, &lim, NULL, &err) == 0};
	if (r.ok) {
		r.vgprs = g->nregs[RF_VGPR];
		r.agprs = g->nregs[RF_AGPR];
		r.waves = compile_waves(c, g);
		r.scratch = g->scratch_bytes;
	}
	buf_free(&err);
	mfunc_free(g);
	return r;
}

/* One wave per SIMD where a few registers alone keep a second out (the
 * kernel's LDS and slots allow it): isel's order scheduled once more
 * within two waves' registers (SchedOptions.cap: the first list that fits,
 * whatever its time), kept if it allocates to two waves without scratch.
 * A lone wave hides none of its own latency (attention's 128x64 prefetched
 * tile: 260 registers in isel's order). */
static void two_waves(Compile *c, const MFunc *plain, Fit got)
{
	int cap = compile_register_cap(c);
	/* within a few registers of two waves' (no more than the margins
	 * compile_order tries): a tile far over them stays as it is */
	if (!got.ok || got.waves != 1 || (cap && cap <= 256) ||
		(got.vgprs + 3) / 4 * 4 + got.agprs > 256 + SCHED_ROUNDS * SCHED_STEP / 2)
		return;
	MFunc *lean = copy_mfunc(c->mf);
	lean->nregs[RF_VGPR] = 1;
	lean->nregs[RF_AGPR] = 0;
	bool room = compile_waves(c, lean) >= 2;
	mfunc_free(lean);
	if (!room)
		return;
	/* the allocator's fragmentation on top of the scheduler's model: the
	 * cap lowered as compile_order lowers its limit */
	for (int round = 0; round < SCHED_ROUNDS; round++) {
		MFunc *g = copy_mfunc(plain);
		SchedOptions o = c->order;
		o.margin = round * SCHED_STEP;
		o.cap = 256;
		Fit now = {0};
		if (sched_mfunc(g, &o) != 0)
			now = trial(c, g);
		if (now.ok && now.waves >= 2 && now.scratch <= got.scratch) {
			mfunc_free(c->mf);
			c->mf = g;
			return;
		}
		mfunc_free(g);
	}
}

void compile_order(Compile *c)
{
	if (c->opt.no_schedule || !c->mf)
		return;
	MFunc *plain = copy_mfunc(c->mf);
	Fit base = trial(c, plain);
	for (int round = 0; round < SCHED_ROUNDS; round++) {
		SchedOptions o = c->order;
		o.margin = round * SCHED_STEP;
		o.cap = compile_register_cap(c);
		o.simd_waves = compile_simd_waves(c);
		if (sched_mfunc(c->mf, &o) == 0)
			break; /* nothing moved: isel's order stands */
		Fit now = trial(c, c->mf);
		if (now.ok && (!base.ok || (now.waves >= base.waves && now.agprs <= base.agprs &&
						   now.scratch <= base.scratch))) {
			two_waves(c, plain, now);
			mfunc_free(plain);
			return;
		}
		/* start over from isel's order with a lower limit */
		mfunc_free(c->mf);
		c->mf = copy_mfunc(plain);
	}
	mfunc_free(c->mf);
	c->mf = copy_mfunc(plain);
	two_waves(c, plain, base);
	mfunc_free(plain);
}
