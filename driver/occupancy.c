/* occupancy.c — the waves per SIMD a kernel's resources allow, for
 * `--stats` (stats.c) and for the pipeline's choices between forms of a
 * kernel (allocate_registers, compile_order: compile_waves).
 *
 * Model (waves per SIMD) for the gfx90a-class targets (gfx90a, gfx942):
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
 *     the CU; gfx950: 160 KiB per CU and per workgroup, granules of 320
 *     dwords (AMDGPUUsage, GRANULATED_LDS_SIZE).
 * Waves of a workgroup spread over the CU's 4 SIMDs, so the per-SIMD wave
 * limit L admits floor(4L / waves_per_workgroup) workgroups per CU, LDS
 * admits floor(LDS per CU / lds_alloc); the CU holds the smaller number of
 * workgroups, and waves per SIMD is their waves over 4 SIMDs, rounded up
 * (the busiest SIMD, as LLVM rounds in getOccupancyWithLocalMemSize), at
 * most L. 0 means one workgroup does not fit on a CU at all. */
#include <string.h>

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
	/* gfx950: gfx942's files, 160 KiB of LDS per CU in granules of 320 dwords */
	{"gfx950", 8, 512, 8, 800, 6, 163840, 1280, 4},
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
	return compile_waves_lds(c, f, f->lds_bytes);
}

int compile_waves_lds(const Compile *c, const MFunc *f, int lds_bytes)
{
	Occupancy o;
	/* a machine function compiled without a graph (the regalloc tests')
	 * has no workgroup: take one wave */
	int threads = c->an.wg_size[0] * c->an.wg_size[1] * c->an.wg_size[2];
	stats_occupancy(c->t, MAX(1, f->nregs[RF_VGPR]), f->nregs[RF_AGPR], MAX(1, f->nregs[RF_SGPR]),
		MAX(0, lds_bytes), threads > 0 ? threads : 64, &o);
	return o.waves_per_simd;
}

