/* options.c — the scheduling compile options of one compilation: the
 * command line's (CompileOptions) over the kernel document's "options" over
 * the defaults, resolved into Analysis.opts for instruction selection; and
 * the occupancy target (waves_per_eu): the default schedule gives way to
 * meet it (allocate_registers), and a warning says when the allocated
 * kernel's registers still miss it.
 *
 * Defaults (measured with `make bench-gemm`, bench/gemm_report.c): the
 * prefetch schedule with one LDS stage, unless the schedule was not asked
 * for and makes register allocation spill or fail, or costs waves per
 * SIMD: then the kernel is selected again from a plan a step lighter
 * (plan_lighten, passes/plan/plan.c, from allocate_registers). The asked instruction order ("interleave") is
 * parsed here for the scheduler (passes/machine/sched_groups.c). See
 * docs/kernel-format.md.
 *
 * four_stage is its own schedule (isel/four_stage.c: prefetch with two LDS
 * stages whose LDS reads also run a trip ahead); it gives way as the
 * default does, first to prefetch with two LDS stages. Wave's other
 * schedule names are compiled as the nearest schedule wavecc has, which
 * gives way the same way (they ask for speed, not for a particular
 * instruction order): modulo, which Wave's tests pair with
 * multi-buffering, as prefetch with two LDS stages; and prefetch_attention
 * as prefetch. wavecc has no modulo reservation-table scheduler: within a
 * trip the order is the list scheduler's (passes/machine/sched.c). Results
 * never depend on the schedule. */
#include "../isel/isel.h"
#include "driver.h"

enum { DEFAULT_LDS_STAGES = 1 };
static const ScheduleKind DEFAULT_SCHEDULE = SCHED_PREFETCH;

/* Where an option came from, for its messages. */
static Loc where(const Compile *c, bool from_kernel)
{
	return from_kernel ? c->k->opts.loc : (Loc){c->k->file, 0, 0};
}

int compile_resolve_options(Compile *c)
{
	const KernelOptions *ko = &c->k->opts;
	const CompileOptions *o = &c->opt;
	KernelOptions *r = &c->an.opts;
	ScheduleKind asked = o->schedule ? o->schedule : ko->schedule;
	bool multi = asked == SCHED_MODULO || asked == SCHED_FOUR_STAGE;
	r->asked = asked;
	r->schedule = !asked			    ? DEFAULT_SCHEDULE
		      : asked == SCHED_NONE || asked == SCHED_FOUR_STAGE ? asked
									  : SCHED_PREFETCH;
	r->lds_stages = o->lds_stages ? o->lds_stages : ko->lds_stages ? ko->lds_stages : multi ? 2 : DEFAULT_LDS_STAGES;
	r->waves_per_eu = o->waves_per_eu ? o->waves_per_eu : ko->waves_per_eu;
	r->interleave = o->interleave ? o->interleave : ko->interleave;
	r->f32_denorm_flush = o->f32_denorm ? o->f32_denorm == F32_DENORM_FLUSH : ko->f32_denorm_flush;
	r->global_to_shared = ko->global_to_shared;
	r->qk_ahead = ko->qk_ahead;
	r->qk_ahead_set = ko->qk_ahead_set;
	if (r->interleave) {
		Buf err = {0};
		int rc = sched_groups_parse(r->interleave, &c->order, &err);
		if (rc)
			analysis_error(&c->an, where(c, !o->interleave), "%s%s", o->interleave ? "" : "options.",
				buf_cstr(&err));
		buf_free(&err);
		if (rc)
			return -1;
	}
	if (r->lds_stages < 1 || r->lds_stages > 2 || r->waves_per_eu < 0 || r->waves_per_eu > 8) {
		analysis_error(&c->an, where(c, false), "lds_stages %d / waves_per_eu %d: lds_stages is 1 or 2, "
							 "waves_per_eu 1 to 8",
			r->lds_stages, r->waves_per_eu);
		return -1;
	}
	return 0;
}

/* The VGPRs and AGPRs of one wave at waves_per_eu waves per SIMD: the
 * SIMD's 512 registers per lane shared out in the allocation granule of 8
 * (CDNA3 ISA guide, the unified VGPR file of gfx90a and gfx942). */
static int register_budget(int waves_per_eu)
{
	return 512 / waves_per_eu / 8 * 8;
}

int compile_simd_waves(const Compile *c)
{
	/* a workgroup's waves spread over the CU's 4 SIMDs: with more than 4
	 * waves each SIMD must hold several at once */
	int threads = c->an.wg_size[0] * c->an.wg_size[1] * c->an.wg_size[2];
	return ((threads + 63) / 64 + 3) / 4;
}

int compile_register_cap(const Compile *c)
{
	int per_simd = compile_simd_waves(c);
	return per_simd > 1 ? register_budget(per_simd) : 0;
}

void compile_check_occupancy(Compile *c)
{
	int w = c->an.opts.waves_per_eu;
	if (!c->mf || !c->mf->allocated)
		return;
	/* the AGPRs start at the VGPR count rounded up to 4 (accum_offset) */
	int vgprs = (c->mf->nregs[RF_VGPR] + 3) / 4 * 4 + c->mf->nregs[RF_AGPR];
	/* registers past the cap of a workgroup whose waves share a SIMD leave
	 * a kernel that cannot launch at all: the allocator keeps within it
	 * (compile_register_cap), so only a form it could not fit gets here */
	int threads = c->an.wg_size[0] * c->an.wg_size[1] * c->an.wg_size[2];
	int per_simd = ((threads + 63) / 64 + 3) / 4;
	if (per_simd > 1 && vgprs > register_budget(per_simd)) {
		analysis_error(&c->an, (Loc){c->k->file, 0, 0},
			"kernel %s: a workgroup of %d waves needs %d waves on each SIMD, which allows %d VGPRs and AGPRs "
			"per wave; the kernel needs %d (VGPRs %d, AGPRs %d): it could not launch; use smaller tiles per "
			"wave or fewer waves per workgroup",
			c->k->name, (threads + 63) / 64, per_simd, register_budget(per_simd), vgprs,
			c->mf->nregs[RF_VGPR], c->mf->nregs[RF_AGPR]);
		return;
	}
	if (!w)
		return;
	if (vgprs <= register_budget(w))
		return;
	/* Wave passes the target to LLVM, which spills to scratch memory to
	 * meet it; wavecc spills only where the files run out (regalloc/spill.c),
	 * so the kernel stands, correct, at the occupancy its registers allow,
	 * and the user is told */
	int total = (vgprs + 7) / 8 * 8;
	diag_hint(c->an.diag, "ask for waves_per_eu %d (what the registers allow), or make the tiles smaller",
		MAX(1, MIN(8, 512 / total)));
	diag_warning(c->an.diag, where(c, !c->opt.waves_per_eu),
		"waves_per_eu %d not met: it allows %d VGPRs and AGPRs per wave; the kernel needs %d (VGPRs %d, AGPRs "
		"%d): %d wave%s per SIMD (wavecc spills to scratch memory only where the registers run out, not to "
		"meet a target)",
		w, register_budget(w), vgprs, c->mf->nregs[RF_VGPR], c->mf->nregs[RF_AGPR], 512 / total,
		512 / total == 1 ? "" : "s");
}
