/* rtdiv.h — division by a wave-uniform runtime value (rtdiv.c), for the
 * index-expression lowering (expr.c). Private to isel/. */
#ifndef WAVECC_ISEL_RTDIV_H
#define WAVECC_ISEL_RTDIV_H

#include "isel.h"

/* A divisor's uniform reciprocal: d itself and the refined fixed-point
 * reciprocal z, both SGPRs. */
typedef struct RtRecip {
	MOpnd d, z;
} RtRecip;

/* Computes the reciprocal of the uniform d in the current block. */
void isel_rtdiv_recip(Isel *s, MOpnd d, RtRecip *out);
/* *q = n / d and *r = n % d (either may be NULL), unsigned 32-bit; SALU
 * for a uniform n, VALU for a per-lane one. d = 0 gives q = 0, r = n. */
void isel_rtdiv_divmod(Isel *s, MOpnd n, const RtRecip *rc, MOpnd *q, MOpnd *r);

#endif
