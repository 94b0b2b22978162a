/* sched_pressure.h — live VGPR + AGPR dwords along a schedule, for the
 * list scheduler (sched.c); the algorithm is in sched_pressure.c.
 *
 * Use: sched_pressure_init once per function (block liveness: the machine
 * IR's, ir/mir_live.h, whose vbase numbers the dwords), then per region
 * sched_pressure_region (the state at the region's start), then
 * sched_pressure_place for each instruction in the order chosen;
 * sched_pressure_delta asks what placing one next would do. SGPRs are not
 * counted (the scheduler's limit is on the vector file). */
#ifndef WAVECC_SCHED_PRESSURE_H
#define WAVECC_SCHED_PRESSURE_H

#include "../../ir/mir_live.h"

typedef struct SchedPressure {
	const MFunc *f;
	MirLive lv;            /* block liveness; lv.vbase: first dword of each vreg */
	uint32_t ndw;          /* dwords of all vregs: slots [0, ndw) of lv */
	uint8_t *file;         /* per dword: its RegFile */
	uint64_t *set;         /* scratch: a set of lv's slots */
	uint8_t *live, *keep;  /* per dword: live now; live after the region */
	int *uses;             /* per dword: instructions of the region still to read it */
	uint32_t *rmark, *wmark, epoch; /* per-instruction dedup of dwords */
	int cur, curv;         /* live VGPR + AGPR dwords; VGPR dwords alone */
	int peak, peakv;       /* their maxima since sched_pressure_region */
} SchedPressure;

typedef struct SchedDelta {
	int peak, peakv; /* pressure while the instruction issues (its new defs on top) */
	int after;       /* change once it has issued */
} SchedDelta;

void sched_pressure_init(SchedPressure *p, const MFunc *f);
void sched_pressure_free(SchedPressure *p);
/* The state at the start of instructions [lo, hi) of block bi. */
void sched_pressure_region(SchedPressure *p, size_t bi, size_t lo, size_t hi);
void sched_pressure_delta(SchedPressure *p, const MInst *in, SchedDelta *out);
void sched_pressure_place(SchedPressure *p, const MInst *in);

#endif
