/* mfb.h — building machine functions by hand for the machine-pass suites
 * (after allocation: physical registers only), and small checks on them. */
#ifndef WAVECC_TESTS_MFB_H
#define WAVECC_TESTS_MFB_H

#include "../../../driver/driver.h"
#include "../../../passes/machine/machine.h"
#include "../../test.h"

static inline MOpnd V(unsigned r) { return mo_preg(r, RC_V1); }
static inline MOpnd VN(unsigned r, int n) { return mo_preg(r, rc_make(RF_VGPR, n)); }
static inline MOpnd AN(unsigned r, int n) { return mo_preg(r, rc_make(RF_AGPR, n)); }
static inline MOpnd S(unsigned r) { return mo_preg(r, RC_S1); }
static inline MOpnd SN(unsigned r, int n) { return mo_preg(r, rc_make(RF_SGPR, n)); }
static inline MOpnd IMM(int64_t v) { return mo_imm(v); }

/* Operand lists: OPS(a, b) is "pointer, count"; NONE is an empty list. */
#define OPS(...) (MOpnd[]){__VA_ARGS__}, (int)(sizeof((MOpnd[]){__VA_ARGS__}) / sizeof(MOpnd))
#define NONE NULL, 0

/* Append op with defs and uses to b. */
MInst *emit(MBlock *b, MOp op, const MOpnd *defs, int ndef, const MOpnd *uses, int nuse);
/* A new allocated function for target t. */
MFunc *mfb_new(const Target *t);
/* Run one pass on f. */
void run_waitcnt(MFunc *f);
void run_hazards(MFunc *f);
/* Number of instructions with opcode op in the whole function. */
int count_op(const MFunc *f, MOp op);
/* The n-th (0-based) instruction with opcode op in layout order, or NULL. */
MInst *nth_op(MFunc *f, MOp op, int n);
/* Wait states of all s_nops directly before instruction i of block b. */
int nops_before(const MFunc *f, size_t b, size_t i);
/* The function as text, for failure messages (static buffer). */
const char *mfb_text(const MFunc *f);

#endif
