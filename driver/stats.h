/* stats.h — `wavecc compile --stats`: occupancy, instruction mix, code size
 * and stage times of a compiled kernel (driver/stats.c). Kept apart from
 * driver.h because the pipeline reads only the occupancy (compile_waves,
 * declared there): the CLI, the library and bench/compile_bench.c read the
 * rest. */
#ifndef WAVECC_STATS_H
#define WAVECC_STATS_H

#include "driver.h"

/* Waves per SIMD a kernel's resources allow (model and sources: stats.c). */
typedef struct Occupancy {
	int vgpr_alloc;   /* unified registers a wave holds: align(align(v,4)+a, 8) */
	int sgpr_alloc;   /* SGPRs a wave holds: next_free_sgpr + 6 */
	int lds_alloc;    /* LDS bytes a workgroup holds: align(lds, 512) */
	int waves_per_wg;
	int by_slots, by_vgprs, by_sgprs; /* waves per SIMD each resource allows */
	int wg_by_waves;  /* workgroups per CU the per-SIMD wave limit allows */
	int wg_by_lds;    /* workgroups per CU the LDS allows; -1: no LDS used */
	int wg_per_cu;
	int waves_per_simd; /* 0: one workgroup does not fit on a CU */
	const char *limit;  /* "wave slots", "VGPRs", "SGPRs", "LDS", "workgroup size" */
} Occupancy;
/* vgprs/agprs/sgprs as allocated (next free register of each file). */
void stats_occupancy(const Target *t, int vgprs, int agprs, int sgprs, int lds_bytes, int threads, Occupancy *o);
/* Instructions of f per scheduling class; returns the total. */
int stats_count_classes(const MFunc *f, int counts[MC_COUNT]);
/* Times of the stages around the pipeline, in microseconds (-1: not run);
 * llvm-mc and the linker are pipeline rows (Compile.pass_us). */
typedef struct StageTimes {
	double load_us;     /* frontend: JSON file to kernel graph */
	double write_us;    /* writing the output files */
	double total_us;    /* wall time of the whole compilation */
} StageTimes;
/* The compiler's own time: loading, every pass and the checks. */
double compile_own_us(const Compile *c, const StageTimes *st);
/* Append the --stats report (format: docs/compiler.md "Statistics") of the
 * compiled c (run to the end: it reads c->code_object). Returns 0, or -1
 * with a message when the code object cannot be read. */
int compile_stats(Buf *out, const Compile *c, const StageTimes *st, Buf *msg);

/* One line of the same facts, for a sweep ("vgpr 38 agpr 0 sgpr 20 lds 0
 * waves/SIMD 8 (wave slots) code 712 bytes"), without a newline. */
int compile_stats_line(Buf *out, const Compile *c, Buf *msg);

#endif
