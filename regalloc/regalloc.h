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
	MFunc *pre;      /* the function as it was before allocation */
	uint32_t *phys;  /* per vreg of pre: its first physical register, RA_NONE if unused */
	const char *fail_op; /* out of registers: the graph op (note) where it ran out, or NULL */
	int spills;      /* values spilled (to AGPRs or VGPR lanes) on the way */
} RegAssign;

/* Allocate f's virtual registers and rewrite them to physical ones; fill
 * f->nregs and set f->allocated. When the VGPRs run out, one-dword values
 * move to AGPRs (spill.c) and allocation starts over. Returns 0, or -1 with
 * a message naming the kernel, the register file and the pressure in `err`
 * when a file runs out even so; f then holds no physical registers (but
 * may hold spill code). With `keep`, the pre-allocation copy and
 * the map are kept there for regalloc_check (free with regassign_free). */
int regalloc_mfunc(MFunc *f, RegAssign *keep, Buf *err);
void regassign_free(RegAssign *ra);

/* ---- spill.c ---- */
/* What spilling has done to a function across allocation rounds. */
typedef struct Spill {
	uint8_t *mark;   /* per vreg: never a victim (a temporary, tied, or spilled) */
	size_t nmark;
	bool tied_marked;
	int count;       /* values spilled (to AGPRs or VGPR lanes) */
	uint32_t lanes_vreg; /* the VGPR whose lanes hold spilled SGPRs (UINT32_MAX: none yet) */
	int lanes_used;
} Spill;
/* Up to `want` victims of file rf for a value that found no room at pos (at: the
 * instruction there, or NULL), from the holders who[r] of the file's lim
 * registers and their live hulls [lo, hi]; returns how many it found. */
int spill_pick(const MFunc *f, Spill *sp, RegFile rf, const MInst *at, int pos, const int *lo, const int *hi,
	const int *busy, const uint32_t *who, int lim, int want, uint32_t *out);
/* Rewrite f so that VGPR vreg v lives in AGPRs. */
void spill_vreg(MFunc *f, Spill *sp, uint32_t v);
/* Rewrite f so that SGPR vreg v lives in lanes of a VGPR. */
void spill_sgpr(MFunc *f, Spill *sp, uint32_t v);
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

#endif
