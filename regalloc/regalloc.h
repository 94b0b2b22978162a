/* regalloc.h — register allocation's own interface: the allocator on a
 * bare machine function and the independent checker. The pipeline sees
 * only allocate_registers and check_allocation (passes/passes.h); tests use
 * the functions here directly on hand-built MFuncs, without a kernel graph.
 *
 * Liveness, per dword over the CFG, is the machine IR's (ir/mir_live.h,
 * shared with the scheduler's pressure model); the checker derives its own.
 *
 * Ownership: RaPositions and RegAssign own heap arrays released by their
 * _free functions; RegAssign.pre is a copy of the function (mfunc_free). */
#ifndef WAVECC_REGALLOC_H
#define WAVECC_REGALLOC_H

#include "../ir/mir.h"
#include "../ir/mir_live.h"

#define RA_NONE UINT32_MAX        /* phys[v] of a vreg no instruction names */

/* ---- coalesce.c ---- */
/* Before allocation: fold copies into their source's single definition and
 * remove VALU definitions nobody reads. Returns the instructions removed. */
int coalesce_copies(MFunc *f);

/* ---- linear.c ---- */
/* The positions intervals are made of: instruction i of block b is at
 * bstart[b] + i; an empty block owns one position. Blocks take consecutive
 * ranges in layout order: [bstart[b], bend[b]]. */
typedef struct RaPositions {
	size_t nblocks;
	int *bstart, *bend;
	int npos;
} RaPositions;
void regalloc_positions_fill(RaPositions *ps, const MFunc *f);
void regalloc_positions_free(RaPositions *ps);

typedef struct RegAssign {
	MFunc *pre;      /* the function as it was before allocation (spill code included) */
	MFunc *orig;     /* the function as allocation received it, before any spill code; kept
	                    only when something spilled (for regalloc_check_spills) */
	uint32_t *phys;  /* per vreg of pre: its first physical register, RA_NONE if unused */
	const char *fail_op; /* out of registers: the graph op (note) where it ran out, or NULL */
	int spills;      /* values spilled to AGPRs or VGPR lanes on the way */
	int scratch_values; /* values spilled to scratch memory */
	int scratch_dwords; /* scratch dwords per work-item they take (f->scratch_bytes / 4) */
} RegAssign;

/* Caps on the register files (0: the target's), a cap on the VGPRs and
 * AGPRs of a wave together (`unified`: the 4-aligned VGPRs plus the AGPRs,
 * as the unified file holds them; 0: none; the driver's, where a
 * workgroup's waves must share a SIMD), and, for tests of spilling, values
 * sent to scratch memory before the first round. */
typedef struct RaLimits {
	int regs[RF_COUNT];
	int unified;
	uint32_t scratch[8];
	int nscratch;
} RaLimits;

/* Allocate f's virtual registers and rewrite them to physical ones; fill
 * f->nregs and set f->allocated. When the VGPRs run out, values move to
 * AGPRs, SGPRs to VGPR lanes, and when the AGPRs run out too, values go to
 * scratch memory (spill.c; f->scratch_bytes) and allocation starts over.
 * Returns 0, or -1 with a message naming the kernel, the register file and
 * the pressure in `err` when a file runs out even so; f then holds no
 * physical registers (but may hold spill code). With `keep`, the
 * pre-allocation copy and the map are kept there for regalloc_check (free
 * with regassign_free), and the spill counts. */
int regalloc_mfunc(MFunc *f, RegAssign *keep, Buf *err);
/* The same with the files capped (lim NULL: none). */
int regalloc_mfunc_limits(MFunc *f, const RaLimits *lim, RegAssign *keep, Buf *err);
void regassign_free(RegAssign *ra);

/* ---- spill.c ---- */
/* Scratch a work-item may take for spills: the emulator's and about the
 * hardware's bound (a wave's scratch size field, in KiB granules, holds
 * 8 MiB: 128 KiB per lane). */
enum { SPILL_SCRATCH_MAX_BYTES = 128 * 1024 };
/* What a vreg is to the spiller (Spill.mark). */
enum {
	SPILL_FREE,    /* a victim for any home */
	SPILL_TIED,    /* a tied def's value: never to AGPRs, to scratch it may */
	SPILL_AGPR,    /* lives in an AGPR home: to scratch it may still go */
	SPILL_SCRATCH, /* lives in scratch */
	SPILL_TEMP,    /* a temporary, a lane-spilled SGPR, the lanes VGPR, the scratch V#: never a victim */
};
/* What spilling has done to a function across allocation rounds. */
typedef struct Spill {
	uint8_t *mark;   /* per vreg: SPILL_* */
	size_t nmark;
	bool tied_marked;
	int count;       /* values spilled to AGPRs or VGPR lanes */
	uint32_t lanes_vreg; /* the VGPR whose lanes hold spilled SGPRs (UINT32_MAX: none yet) */
	int lanes_used;
	bool scratch_ready;  /* the ABI's scratch set-up is in place */
	uint32_t rsrc_vreg;  /* gfx90a: the scratch V# (UINT32_MAX: none) */
	int scratch_values;  /* values spilled to scratch */
	int scratch_dwords;  /* scratch dwords per lane given out */
	int *uses;           /* this round's instructions naming each vreg (spill_pick), or NULL */
	int scratch_pending; /* dwords of this round's scratch victims, not yet given out */
} Spill;
/* A value to move, and where. */
enum { SPILL_TO_AGPR, SPILL_TO_LANES, SPILL_TO_SCRATCH };
typedef struct SpillReq {
	uint32_t v;
	uint8_t home; /* SPILL_TO_* */
} SpillReq;
typedef Vec(SpillReq) SpillReqs;
/* Up to `want` dwords of victims of file rf (for AGPRs or VGPR lanes, or
 * with `scratch` for scratch memory) for a value that found no room at pos
 * (at: the instruction there, or NULL), from the holders who[r] of the
 * file's lim registers and their live hulls [lo, hi]; returns how many it
 * found. */
int spill_pick(const MFunc *f, Spill *sp, RegFile rf, bool scratch, const MInst *at, int pos, const int *lo,
	const int *hi, const int *busy, const uint32_t *who, int lim, int want, uint32_t *out);
/* Rewrite f so that each value of reqs lives in its home: a VGPR value in
 * AGPRs, an SGPR value in lanes of a VGPR, a VGPR or AGPR value in scratch
 * memory (one pass over the function for all of them). */
void spill_apply(MFunc *f, Spill *sp, const SpillReq *reqs, size_t n);
/* The end of an allocation round (what spill_pick counted is stale). */
void spill_round_end(Spill *sp);
void spill_free(Spill *sp);

/* ---- check.c ---- */
/* The independent allocation checker: re-derives per-instruction liveness
 * from `pre` by its own simple iteration and reports (in msg, returning the
 * count) every pair of values live at once — or one defined while the other
 * is live — that share a physical dword, registers outside their file, past
 * post->nregs or misaligned, post operands that are not pre's rewritten by
 * `phys`, and MFMA results overlapping a source other than an identical
 * srcC. */
int regalloc_check(const MFunc *pre, const uint32_t *phys, const MFunc *post, Buf *msg);

/* ---- spill_check.c ---- */
/* The independent spill checker: follows the values of `orig` (the
 * function before any spill code) through the registers and homes of
 * `post` (allocated, spill code marked MIF_SPILL) and reports, in msg,
 * every operand of orig's instructions that does not find its value where
 * post reads it (a wrong or missing reload, a missing store, a clobbered
 * home), scratch accesses outside the function's scratch bytes or not
 * through the scratch V#, and post instructions that are not orig's.
 * Returns the count. */
int regalloc_check_spills(const MFunc *orig, const MFunc *post, Buf *msg);

#endif
