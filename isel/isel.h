/* isel.h — instruction selection state shared by the files of isel/:
 * isel.c (entry, descriptors, memory accesses, the driver), expr.c
 * (symbolic index expressions → SALU/VALU arithmetic by uniformity),
 * elementwise.c (per-thread arithmetic and conversions). The public entry
 * point, select_instructions, is declared in passes/passes.h. */
#ifndef WAVECC_ISEL_H
#define WAVECC_ISEL_H

#include "../passes/passes.h"

enum { TVAL_MAX_DWORDS = 16 };

/* A per-thread value: ept elements of dtype in n dwords. 16-bit element j
 * is in d[j/2], low half for even j; 32-bit element j is d[j]. Each d[i]
 * is a one-dword operand (a vreg or a dword of a vreg tuple). */
typedef struct TVal {
	DType dtype;
	int64_t ept;
	int n;
	MOpnd d[TVAL_MAX_DWORDS];
} TVal;

typedef struct ExprCacheEnt {
	Sym *e;
	MOpnd o;
} ExprCacheEnt;

typedef struct Isel {
	Compile *c;
	MFunc *f;
	MBlock *b;
	const char *note;
	TVal **val;       /* by Value id */
	uint32_t *desc;   /* buffer descriptor vreg per memory argument */
	uint32_t kernarg; /* S2: kernarg segment pointer */
	uint32_t wg_id[3]; /* S1 workgroup ids (UINT32_MAX: not enabled) */
	uint32_t tid_raw; /* V1: packed work-item ids */
	uint32_t tid[3];  /* V1: unpacked, made on first use */
	uint32_t oob;     /* V1: the out-of-range buffer offset, made on first use */
	Vec(ExprCacheEnt) cache; /* expr.c: lowered subexpressions */
} Isel;

/* ---- expr.c ---- */
/* e = lane + uni: lane holds the terms that depend on a work-item id. */
void expr_split(Isel *s, Sym *e, Sym **lane, Sym **uni);
/* An operand holding e's value: an immediate, an S1 vreg (wave-uniform) or
 * a V1 vreg (per lane). Unsupported forms are reported at loc. */
MOpnd expr_lower(Isel *s, Sym *e, Loc loc);
MOpnd expr_to_sgpr(Isel *s, MOpnd o); /* immediates moved into an SGPR */
MOpnd expr_to_vgpr(Isel *s, MOpnd o); /* immediates and SGPRs into a VGPR */
/* An operand usable as a VOP2 src0 for imm: inline constant or literal. */
MOpnd expr_imm_operand(Isel *s, int64_t imm);
/* vcc = the relation cond (over work-item/workgroup ids) per lane. */
void expr_cond_to_vcc(Isel *s, Sym *cond, Loc loc);

/* ---- elementwise.c ---- */
/* Select a non-memory op; false if it is not supported. */
bool select_elementwise(Isel *s, Op *op);

#endif
