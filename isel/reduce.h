/* reduce.h — the element arithmetic of reductions (reduce_elem.c), shared
 * by reduce.c: a reduction runs in one 32-bit "domain" per dtype — f32 for
 * f32, f16 and bf16 (16-bit values widened exactly, each sum rounded back
 * to the dtype so every step is the dtype's own addition), i32 for i32 —
 * so the cross-lane and cross-wave exchanges move plain dwords whatever
 * the dtype. */
#ifndef WAVECC_ISEL_REDUCE_H
#define WAVECC_ISEL_REDUCE_H

#include "isel.h"

typedef struct RedArith {
	OpKind kind;  /* OP_SUM, OP_MAX or OP_MIN */
	DType dtype;  /* the reduced values' dtype */
	MOpnd k7fff;  /* bf16 rounding constant, made on first use */
	MOpnd ident;  /* the identity in a VGPR, made on first use */
	bool pk;      /* f32 sums of pairs may be packed (isel_pk_f32_loop) */
} RedArith;

/* Can reductions of dtype t be compiled? */
bool isel_red_dtype_ok(DType t);
/* Element e of v in the domain (a VGPR). */
MOpnd isel_red_elem(Isel *s, RedArith *ra, const TVal *v, int64_t e);
/* a combined with b (b through DPP control dpp when dpp is nonzero),
 * rounded to the dtype. */
MOpnd isel_red_combine(Isel *s, RedArith *ra, MOpnd a, MOpnd b, uint16_t dpp);
/* The three-operand form of the combine (v_max3_f32, ...), 0 if none is
 * used; and a, b, c combined by it. */
MOp isel_red_op3(const RedArith *ra);
MOpnd isel_red_combine3(Isel *s, RedArith *ra, MOpnd a, MOpnd b, MOpnd c);
/* The combine's identity (0, -inf, +inf; for i32 0, INT_MIN, INT_MAX) in
 * a VGPR. */
MOpnd isel_red_identity(Isel *s, RedArith *ra);
/* The dtype's value of n domain elements x (packed as isel_tval_new
 * decides for ix). */
TVal *isel_red_result(Isel *s, RedArith *ra, const MOpnd *x, int64_t n, const NodeIndex *ix);

#endif
