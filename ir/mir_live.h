/* mir_live.h — liveness of the machine IR per dword over the CFG: the one
 * analysis both the register allocator (regalloc/linear.c: intervals) and
 * the scheduler's pressure model (passes/machine/sched_pressure.c) build
 * on; the algorithm is in mir_live.c. regalloc/check.c re-derives liveness
 * its own way on purpose (it checks the allocator) and does not use this.
 *
 * Slots: liveness is tracked per dword. Every dword of every virtual
 * register is a slot (vreg v's are vbase[v] .. vbase[v + 1] - 1), then
 * every dword of a physical register the code names (the kernarg pointer,
 * workgroup ids, v0 before allocation), in file and register order, so a
 * tuple's dwords are consecutive slots.
 *
 * The rule, walking an instruction backward (mir_live_step): the dwords its
 * defs write die — a def of some dwords of a tuple kills only those — and
 * then the dwords it reads are live, a MIF_TIED def[0] among them (it
 * keeps what it does not write: a d16 load's other half, mir.h).
 *
 * Ownership: a MirLive owns heap arrays released by mir_live_free. */
#ifndef WAVECC_MIR_LIVE_H
#define WAVECC_MIR_LIVE_H

#include "mir.h"

/* ---- sets of slots (64 per word) ---- */
static inline bool bs_get(const uint64_t *s, size_t i) { return s[i >> 6] >> (i & 63) & 1; }
static inline void bs_set(uint64_t *s, size_t i) { s[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void bs_clr(uint64_t *s, size_t i) { s[i >> 6] &= ~((uint64_t)1 << (i & 63)); }

typedef struct MirLive {
	size_t nvregs;
	uint32_t *vbase;  /* nvregs + 1 entries: first slot of each vreg */
	int32_t *pslot;   /* [file * MIR_MAX_PHYS + reg]: its slot, or -1 if never named */
	uint32_t *owner;  /* per slot: the vreg, or nvregs + file * MIR_MAX_PHYS + reg */
	size_t nslots, words; /* slots; 64-bit words per set */
	size_t nblocks;
	uint64_t *in, *out;   /* per block, `words` each: live on entry / exit */
} MirLive;

/* Backward dataflow to a fixpoint over mfunc_succs. Requires valid branch
 * targets (mir_verify) and physical registers inside MIR_MAX_PHYS (a
 * violation is a compiler bug: die). */
void mir_live_fill(MirLive *lv, const MFunc *f);
void mir_live_free(MirLive *lv);
/* The first slot an operand touches and its width in slots (0 when it is
 * not a register: immediates, vcc, exec, m0, off). The operand must be of
 * the function lv was filled from. */
int mir_live_opnd(const MirLive *lv, MOpnd o, uint32_t *first);
/* One instruction backward through a set of slots (`words` long): from
 * what is live after `in` to what is live before it, by the rule above. */
void mir_live_step(const MirLive *lv, uint64_t *live, const MInst *in);

#endif
