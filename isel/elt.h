/* elt.h — helpers (elt.c) shared by the elementwise selectors of isel/: elementwise.c
 * (float arithmetic, conversions, broadcasts), compare.c (comparisons,
 * select, i1 masks), math.c (f32 transcendental sequences, integer
 * arithmetic) and index.c (self_index, apply_expr, constant scalars and
 * registers). Private to those files; isel.c sees only isel.h.
 *
 * i1 values: one element per VGPR holding 0 or 1 (never packed), so
 * select, casts and gathers treat them as 32-bit words; a comparison makes
 * the lane mask in vcc and turns it into 0/1 with v_cndmask_b32. */
#ifndef WAVECC_ISEL_ELT_H
#define WAVECC_ISEL_ELT_H

#include "isel.h"

/* ---- elt.c ---- */
/* A new value of n elements of t on ix; i1 values are never packed. */
TVal *isel_elt_new(Isel *s, DType t, int64_t n, const NodeIndex *ix);
/* a converted to dtype to, element by element; NULL if not compiled. */
TVal *isel_elt_cast(Isel *s, const TVal *a, DType to);
/* Element e of a bf16 value as f32 (its bits on top). */
MOpnd isel_elt_bf16_f32(Isel *s, const TVal *v, int64_t e);
/* Element e of a float value (f32, f16 or bf16) as f32 in a VGPR. */
MOpnd isel_elt_f32(Isel *s, const TVal *a, int64_t e);
/* r = 2^x and r = log2(x) in f32, rescaled around the denormal range. */
void isel_elt_exp2_f32(Isel *s, MOpnd r, MOpnd x);
void isel_elt_log2_f32(Isel *s, MOpnd r, MOpnd x);
/* r[i] = 2^x[i], i < n, interleaved so that no hazard needs an s_nop. */
void isel_elt_exp2_f32_n(Isel *s, const MOpnd *r, const MOpnd *x, int n);
/* A dword whose low half is lo's (lo_hi: its high half) and whose high
 * half is hi's. */
MOpnd isel_elt_pack_halves(Isel *s, MOpnd lo, bool lo_hi, MOpnd hi, bool hi_hi);
/* A VGPR holding the 32-bit constant k: a new one here, and (_shared)
 * one made in the entry block once per kernel, for operands only read. */
MOpnd isel_elt_vconst(Isel *s, uint32_t k);
MOpnd isel_elt_vconst_shared(Isel *s, uint32_t k);
/* The i1 word (0 or 1) of the lane mask a compare just wrote to vcc. The
 * mask is also kept in an SGPR pair, which isel_elt_i1_mask finds from the
 * word while it is one of the last ISEL_LANEMASKS made. */
MOpnd isel_elt_i1_from_vcc(Isel *s);
bool isel_elt_i1_mask(const Isel *s, MOpnd word, MOpnd *pair);
void isel_elt_i1_note(Isel *s, MOpnd word, MOpnd pair);
/* v's words are about to be rewritten (a loop-carried value updated in
 * place): their pairs no longer hold the same condition. */
void isel_elt_i1_forget(Isel *s, const TVal *v);
/* copy (a new vreg) now holds word: the pair is found from copy instead. */
void isel_elt_i1_moved(Isel *s, MOpnd word, MOpnd copy);
/* d = vcc ? yes : no (yes a VGPR, no any operand). */
MOpnd isel_elt_cnd(Isel *s, MOpnd no, MOpnd yes);
/* d = op(x, y) for a two-source VALU row; returns d. */
MOpnd isel_elt_op2(Isel *s, MOp op, MOpnd x, MOpnd y);
MOpnd isel_elt_op1(Isel *s, MOp op, MOpnd x);
MOpnd isel_elt_op3(Isel *s, MOp op, MOpnd x, MOpnd y, MOpnd z);
/* vcc = x OP y per lane (a VOPC row; y must be a VGPR, x anything). */
void isel_elt_cmp(Isel *s, MOp op, MOpnd x, MOpnd y);
/* v, or when it is an i1 value packed four per dword (as a read of i1
 * memory gives it), its elements unpacked to one word each. */
const TVal *isel_elt_words(Isel *s, const TVal *v);
/* The value of op's operand k (as isel_elt_words) gathered to op's index; NULL if it has none
 * or after reporting. */
const TVal *isel_elt_operand(Isel *s, Op *op, int k);
/* 32-bit integer types (i32, u32) and i1, which compile as 32-bit words. */
static inline bool isel_elt_is_word_int(DType t) { return t == DT_I32 || t == DT_U32 || t == DT_I1; }

/* Casts between i1 and the other compiled types; NULL if not one. */
TVal *isel_elt_cast_i1(Isel *s, const TVal *a, DType to);
/* The bf16 of f32 x (rounded to nearest even) in the high half of the
 * result; *k7fff caches the rounding constant's register. */
MOpnd isel_elt_f32_to_bf16_hi(Isel *s, MOpnd x, MOpnd *k7fff);

/* ---- pk_f32.c ---- */
/* Is op in the body of a loop that holds an mma (where the packed forms
 * below apply)? */
bool isel_pk_f32_loop(const Isel *s, const Op *op);
/* f32 add, sub or mul op of a and b (gathered to ix) with v_pk_add_f32 /
 * v_pk_mul_f32 where an operand's dwords are whole VGPR tuples, inside a
 * loop body; NULL, with nothing emitted, where no tuple qualifies. */
TVal *isel_pk_f32_binary(Isel *s, Op *op, const TVal *a, const TVal *b, const NodeIndex *ix);
/* r's dwords made fresh (r->nd == a->nd), inside a loop body as tuples
 * where a's dwords are whole VGPR tuples (so that the next packed op or
 * sum takes them in pairs); false, r untouched, outside loops or where
 * none is. */
bool isel_pk_f32_dests(Isel *s, const Op *op, const TVal *a, TVal *r);
/* x[i] = a's dword i times the f32 constant with bits k, two dwords a row
 * where a's are whole tuples inside a loop (exp's log2(e)). */
void isel_pk_f32_scale(Isel *s, const TVal *a, MOpnd *x, uint32_t k);
/* The f32 sum of x[0..n) as a tree of v_pk_add_f32 where the x come in
 * aligned pairs of one tuple, inside a loop, into *out; false (nothing
 * emitted) else. */
bool isel_pk_f32_sum(Isel *s, const MOpnd *x, int64_t n, MOpnd *out);
/* add op of x and +0 whose one reader is a mul by a positive constant, in
 * a loop: selected as nothing (the mul computes fma(x, c, +0)); true then. */
bool isel_pk_f32_zero_add(Isel *s, Op *op);
/* mul op reading such an add: fma(x, c, +0), two dwords a row where x is
 * whole tuples; false when op reads none. */
bool isel_pk_f32_fma_zero(Isel *s, Op *op);

/* ---- cast_int.c ---- */
/* a cast to or from i8, u8, i16, u16, i32 or u32 (from or to another of
 * them, f32, f16 or bf16); NULL if not one of those. */
TVal *isel_cast_int(Isel *s, const TVal *a, DType to);

/* ---- compare.c ---- */
bool isel_select_compare(Isel *s, Op *op);
/* The constant of an i1 value the plan folded (seen through i1 casts,
 * broadcasts and permutes): 1, 0, or -1 when not known. */
int isel_i1_known(const Isel *s, const Value *v);
/* Select sel's condition known for every element: folded (isel_i1_known),
 * or 1 in a diagonal split's main loop (isel.c); -1 when not known. */
int isel_select_cond_known(const Isel *s, const Op *sel);
bool isel_select_select(Isel *s, Op *op);

/* ---- math.c ---- */
/* f32 unary ops beyond elementwise.c's: rsqrt, log, log10, tanh, sin, cos,
 * round, roundeven; false if op is none of them. */
bool isel_math_unary_f32(Isel *s, OpKind k, MOpnd d, MOpnd x);
/* d = powf(x, y) or atan2(x, y) of f32 VGPRs; false for other ops. */
bool isel_math_binary_f32(Isel *s, OpKind k, MOpnd d, MOpnd x, MOpnd y);
/* remf (C's fmod) of f32 words exactly, for |x| / |y| < 2^max_n
 * (isel/math.c). */
MOpnd isel_math_remf(Isel *s, MOpnd x, MOpnd y, int max_n);
/* Integer binary and unary ops on 32-bit words (i32, u32, i1). */
bool isel_select_int_binary(Isel *s, Op *op, const TVal *a, const TVal *b, const NodeIndex *ix);
bool isel_select_int_unary(Isel *s, Op *op, const TVal *a);
/* a // b, a % b (floor semantics) or a / b (truncating) of i32 or u32
 * words; 0 where b is 0. */
MOpnd isel_math_int_div(Isel *s, OpKind k, DType t, MOpnd a, MOpnd b);

/* ---- fold_mask.c ---- */
/* ---- index.c ---- */
bool isel_select_self_index(Isel *s, Op *op);
bool isel_select_apply_expr(Isel *s, Op *op);
/* ---- index64.c ---- */
/* Is every value of this self_index or apply_expr (and every step of the
 * apply_expr) proven inside 32 bits? Then its i64 result is held as i32
 * words. */
bool isel_i64_proven(Isel *s, Op *op);

/* ---- scalar_arg.c ---- */
/* A scalar kernel argument (op->sarg), loaded from the kernarg segment. */
bool isel_select_scalar_arg(Isel *s, Op *op);

/* scalar ops of integer dtypes; false if op is not one */
bool isel_select_int_scalar(Isel *s, Op *op);

#endif
