/* stats.c — what `wavecc compile --stats` reports about a compiled kernel:
 * register and LDS use (as allocated and as the kernel descriptor rounds
 * them), the occupancy they allow, the instruction mix, the code size and
 * the time of every stage.
 *
 * Sources of each figure, so that none is a second opinion of the emitter:
 *   - allocated registers: MFunc.nregs after register allocation;
 *   - descriptor figures and LDS: decoded from the kernel descriptor of the
 *     linked code object (loader/codeobj/kd.h), i.e. what the hardware will see;
 *   - instruction counts: the machine function as printed into the assembly
 *     (emit_assembly prints it whole), by isa_class;
 *   - code size: the size of the kernel's function symbol in the code object.
 *
 * Occupancy (waves per SIMD) for the gfx90a-class targets (gfx90a, gfx942):
 *   - wave slots: 8 per SIMD (LLVM AMDGPUBaseInfo.cpp
 *     getMaxWavesPerEU: "if (isGFX90A) return 8");
 *   - VGPRs: one unified file of 512 registers per lane per SIMD; a wave
 *     holds align(vgprs, 4) + agprs registers (AGPRs start at a
 *     4-aligned accum_offset: AMDGPUUsage) rounded up to the allocation
 *     granule of 8 (AMDGPUBaseInfo.cpp getVGPRAllocGranule), so floor(512 / that) waves fit;
 *   - SGPRs: 800 per SIMD; a wave holds next_free_sgpr + 6 (VCC,
 *     FLAT_SCRATCH, XNACK_MASK: AMDGPUUsage, compute_pgm_rsrc1), so
 *     floor(800 / that) waves fit. This reproduces LLVM's table for GFX8/9
 *     (GCNSubtarget::getOccupancyWithNumSGPRs: <= 80 SGPRs 10 waves, <= 88
 *     9, <= 100 8, else 7), which AMDGPUUsage does not spell out;
 *   - LDS: 64 KiB per CU (AMD's CDNA3 ISA guide; also the per-
 *     workgroup limit, AMDGPUUsage), allocated in granules of 512 bytes
 *     (AMDGPUUsage compute_pgm_rsrc2, GRANULATED_LDS_SIZE), shared by the workgroups on
 *     the CU.
 * Waves of a workgroup spread over the CU's 4 SIMDs, so the per-SIMD wave
 * limit L admits floor(4L / waves_per_workgroup) workgroups per CU, LDS
 * admits floor(65536 / lds_alloc); the CU holds the smaller number of
 * workgroups, and waves per SIMD is their waves over 4 SIMDs, rounded up
 * (the busiest SIMD, as LLVM rounds in getOccupancyWithLocalMemSize), at
 * most L. 0 means one workgroup does not fit on a CU at all. */
#include <limits.h>
#include <string.h>

#include "../loader/codeobj/codeobj.h"
#include "stats.h"

/* Per-target resources behind the occupancy model (see the file comment). */
typedef struct OccTarget {
	const char *name;
	int wave_slots;  /* waves per SIMD */
	int vgpr_file;   /* unified VGPR+AGPR registers per lane per SIMD */
	int vgpr_granule;
	int sgpr_file;   /* SGPRs per SIMD */
	int sgpr_extra;  /* SGPRs the hardware adds to next_free_sgpr */
	int lds_cu;      /* LDS bytes per CU */
	int lds_granule;
	int simds;       /* SIMDs per CU */
} OccTarget;

static const OccTarget OCC_TARGETS[] = {
	{"gfx942", 8, 512, 8, 800, 6, 65536, 512, 4},
	{"gfx90a", 8, 512, 8, 800, 6, 65536, 512, 4},
};

static int align_up(int x, int a)
{
	return (x + a - 1) / a * a;
}

void stats_occupancy(const Target *t, int vgprs, int agprs, int sgprs, int lds_bytes, int threads, Occupancy *o)
{
	const OccTarget *r = NULL;
	for (size_t i = 0; i < ARRAY_LEN(OCC_TARGETS); i++)
		if (strcmp(OCC_TARGETS[i].name, t->name) == 0)
			r = &OCC_TARGETS[i];
	if (!r)
		die("no occupancy model for %s", t->name);
	check_that(vgprs >= 0 && agprs >= 0 && sgprs >= 0 && lds_bytes >= 0 && threads > 0);

	*o = (Occupancy){0};
	o->vgpr_alloc = align_up(align_up(vgprs, 4) + agprs, r->vgpr_granule);
	o->sgpr_alloc = sgprs + r->sgpr_extra;
	o->lds_alloc = align_up(lds_bytes, r->lds_granule);
	o->waves_per_wg = (threads + 63) / 64;
	o->by_slots = r->wave_slots;
	o->by_vgprs = o->vgpr_alloc ? r->vgpr_file / o->vgpr_alloc : r->wave_slots;
	o->by_sgprs = r->sgpr_file / o->sgpr_alloc;
	int lim = MIN(o->by_slots, MIN(o->by_vgprs, o->by_sgprs));
	o->wg_by_waves = r->simds * lim / o->waves_per_wg;
	o->wg_by_lds = o->lds_alloc ? r->lds_cu / o->lds_alloc : -1;
	o->wg_per_cu = o->wg_by_lds >= 0 ? MIN(o->wg_by_waves, o->wg_by_lds) : o->wg_by_waves;
	int waves = (o->wg_per_cu * o->waves_per_wg + r->simds - 1) / r->simds;
	o->waves_per_simd = MIN(lim, waves);

	if (o->wg_by_lds >= 0 && o->wg_by_lds < o->wg_by_waves)
		o->limit = "LDS";
	else if (o->waves_per_simd < lim)
		o->limit = "workgroup size";
	else if (lim == o->by_slots)
		o->limit = "wave slots";
	else if (lim == o->by_vgprs)
		o->limit = "VGPRs";
	else
		o->limit = "SGPRs";
}

int compile_waves(const Compile *c, const MFunc *f)
{
	Occupancy o;
	stats_occupancy(c->t, MAX(1, f->nregs[RF_VGPR]), f->nregs[RF_AGPR], MAX(1, f->nregs[RF_SGPR]), f->lds_bytes,
		c->an.wg_size[0] * c->an.wg_size[1] * c->an.wg_size[2], &o);
	return o.waves_per_simd;
}

int stats_count_classes(const MFunc *f, int counts[MC_COUNT])
{
	memset(counts, 0, sizeof(int) * MC_COUNT);
	int n = 0;
	for (size_t b = 0; b < f->blocks.len; b++) {
		const MBlock *bl = f->blocks.data[b];
		for (size_t i = 0; i < bl->insts.len; i++) {
			counts[isa_class(bl->insts.data[i].op)]++;
			n++;
		}
	}
	return n;
}

double compile_own_us(const Compile *c, const StageTimes *st)
{
	double us = MAX(st->load_us, 0) + c->check_us; /* -1: not measured */
	for (int i = 0; i < compile_npasses; i++)
		if (compile_pass_own[i])
			us += c->pass_us[i];
	return us;
}

/* Every report line is a key padded to KEY_WIDTH columns, then the value. */
enum { KEY_WIDTH = 26 };

static void key(Buf *out, const char *group, const char *name)
{
	int n = (int)strlen(group) + (group[0] ? 1 : 0) + (int)strlen(name);
	buf_printf(out, "%s%s%s%*s", group, group[0] ? " " : "", name, MAX(1, KEY_WIDTH - n), "");
}

static void time_row(Buf *out, const char *name, double us)
{
	key(out, "time", name);
	if (us < 0)
		buf_printf(out, "        -\n");
	else
		buf_printf(out, "%9.3f ms\n", us / 1000.0);
}

/* The compiled code object, read back: exactly one kernel. */
static int read_compiled(const Compile *c, CodeObject *co, Buf *msg)
{
	if (codeobj_read(c->code_object.data, c->code_object.len, "<compiled>", co, msg) != 0)
		return -1;
	if (co->nkernels != 1) {
		buf_printf(msg, "the compiled code object holds %zu kernels, expected 1\n", co->nkernels);
		codeobj_free(co);
		return -1;
	}
	return 0;
}

int compile_stats(Buf *out, const Compile *c, const StageTimes *st, Buf *msg)
{
	CodeObject co;
	if (read_compiled(c, &co, msg) != 0)
		return -1;
	const CodeKernel *kern = &co.kernels[0];
	const KernelDescriptor *kd = &kern->kd;
	const MFunc *f = c->mf;
	int v = f->nregs[RF_VGPR], a = f->nregs[RF_AGPR], s = f->nregs[RF_SGPR];
	int lds = (int)kd->group_segment_fixed_size;
	int threads = c->an.wg_size[0] * c->an.wg_size[1] * c->an.wg_size[2];
	Occupancy o;
	/* The descriptor declares at least one VGPR and SGPR (emit.c), and
	 * those are what the hardware allocates. */
	stats_occupancy(c->t, MAX(1, v), a, MAX(1, s), lds, threads, &o);

	key(out, "", "kernel");
	buf_printf(out, "%s (%s)\n", kern->name, co.mcpu);
	key(out, "", "vgpr");
	buf_printf(out, "%d\n", v);
	key(out, "", "agpr");
	buf_printf(out, "%d\n", a);
	key(out, "", "sgpr");
	buf_printf(out, "%d\n", s);
	key(out, "descriptor", "vgpr");
	buf_printf(out, "%u (unified VGPR+AGPR file, granule 8; accum_offset %u)\n", kd->vgpr_alloc,
		kd->accum_offset);
	key(out, "descriptor", "sgpr");
	buf_printf(out, "%u (with VCC, FLAT_SCRATCH, XNACK_MASK; granule 8)\n", kd->sgpr_alloc);
	key(out, "lds", "bytes");
	buf_printf(out, "%d (allocated %d)\n", lds, o.lds_alloc);
	key(out, "waves", "per SIMD");
	buf_printf(out, "%d (limited by %s; VGPRs allow %d, SGPRs %d, slots %d; "
			"workgroups of %d wave%s, %d per CU",
		o.waves_per_simd, o.limit, o.by_vgprs, o.by_sgprs, o.by_slots, o.waves_per_wg,
		o.waves_per_wg == 1 ? "" : "s", o.wg_per_cu);
	if (o.wg_by_lds >= 0)
		buf_printf(out, ", LDS allows %d", o.wg_by_lds);
	buf_printf(out, ")\n");
	int counts[MC_COUNT];
	int total = stats_count_classes(f, counts);
	for (int k = 0; k < MC_COUNT; k++) {
		key(out, "inst", isa_class_name[k]);
		buf_printf(out, "%d\n", counts[k]);
	}
	key(out, "inst", "total");
	buf_printf(out, "%d\n", total);
	key(out, "code", "bytes");
	buf_printf(out, "%llu\n", (unsigned long long)kern->code_size);
	time_row(out, "load", st->load_us);
	for (int i = 0; i < compile_npasses; i++)
		if (compile_pass_own[i])
			time_row(out, compile_pass_name[i], c->pass_us[i]);
	time_row(out, "checks", c->check_us);
	time_row(out, "compiler", compile_own_us(c, st));
	time_row(out, "llvm-mc", c->pass_us[compile_pass_index("assemble")]);
	time_row(out, "link", c->pass_us[compile_pass_index("link")]);
	time_row(out, "write", st->write_us);
	time_row(out, "total", st->total_us);
	codeobj_free(&co);
	return 0;
}

int compile_stats_line(Buf *out, const Compile *c, Buf *msg)
{
	CodeObject co;
	if (read_compiled(c, &co, msg) != 0)
		return -1;
	const CodeKernel *kern = &co.kernels[0];
	const MFunc *f = c->mf;
	int v = f->nregs[RF_VGPR], a = f->nregs[RF_AGPR], s = f->nregs[RF_SGPR];
	int lds = (int)kern->kd.group_segment_fixed_size;
	Occupancy o;
	stats_occupancy(c->t, MAX(1, v), a, MAX(1, s), lds,
		c->an.wg_size[0] * c->an.wg_size[1] * c->an.wg_size[2], &o);
	buf_printf(out, "vgpr %d agpr %d sgpr %d lds %d waves/SIMD %d (%s) code %llu bytes", v, a, s, lds,
		o.waves_per_simd, o.limit, (unsigned long long)kern->code_size);
	codeobj_free(&co);
	return 0;
}
