/* regalloc_test.h — what the regalloc suite's files share: instruction
 * builders, the loop function every part of the suite uses, and the
 * emulator test case (kernel.c). */
#ifndef WAVECC_TESTS_REGALLOC_H
#define WAVECC_TESTS_REGALLOC_H

#include <check.h>

#include "../../driver/driver.h"
#include "../../regalloc/regalloc.h"

MInst *i1(MBlock *b, MOp op, MOpnd d, MOpnd a);
MInst *i2(MBlock *b, MOp op, MOpnd d, MOpnd a, MOpnd c);
MInst *i3(MBlock *b, MOp op, MOpnd d, MOpnd a, MOpnd c, MOpnd e);
MInst *cmp(MBlock *b, MOp op, MOpnd a, MOpnd c); /* no result: SOPC/VOPC */
MOpnd vv(uint32_t v); /* a whole V1 vreg */
MOpnd sv(uint32_t v); /* a whole S1 vreg */

/* mir_verify, regalloc_mfunc (keeping the map), mir_verify and
 * regalloc_check all clean, or the test fails. */
void alloc_clean(MFunc *f, RegAssign *ra);

/* A kernel with a 10-iteration loop (blocks: entry, .Lloop, .Lexit):
 *   tid = v0; acc = 0; i = 0; p = 0; keep = tid + 7; x = f16 1.0 x4; acc4 = 0
 *   loop: t = tid << 1; acc += p; p = i + t; t3 = acc + 1; t3 += 1;
 *         acc4 = mfma16x16x16(x, x, acc4); i += 1; while i < 10
 *   exit: r = acc + keep; out[tid] = r; out[64 + tid] = acc4[0]
 * so acc = sum over i = 0..8 of (i + 2 tid), out[tid] = 19 tid + 43 and
 * out[64 + tid] = 160.0f. The buffer pointer is the kernel's argument. */
typedef struct LoopFn {
	MFunc *f;
	uint32_t tid, acc, i, p, keep, kernarg, x, acc4, t, t3, r;
} LoopFn;
LoopFn loop_fn(const Target *t);

/* kernel.c */
void kernel_tests(TCase *tc);

#endif
