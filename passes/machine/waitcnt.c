/* waitcnt.c — s_waitcnt insertion over the CFG from a counter model.
 *
 * Counter model (LLVM SIInsertWaitcnts.cpp and AMD's CDNA3 ISA guide, gfx90a and gfx942):
 *   vmcnt    every VMEM (MUBUF, global_, scratch_) load, store and atomic;
 *            they complete in issue order, loads and stores together; the
 *            field holds 0..63.
 *   lgkmcnt  DS (LDS) ops, which complete in order among themselves, and
 *            SMEM loads, which complete in any order; the field holds 0..15.
 *   flat_*   counted in both and out of order: its results need vmcnt(0)
 *            and lgkmcnt(0) (isel emits global_/buffer_, never flat_).
 *   expcnt   exports and GDS only on gfx9 (VMEM stores lock no registers
 *            there: LLVM's VMW_GPR_LOCK is for gfx6 only), so never waited.
 * A register an outstanding load will write must not be read, nor written
 * by anything but a later op of the same in-order queue (a VMEM load after
 * a VMEM load, a DS op after a DS op: the later write lands last), until the
 * load is done.
 *
 * Why the waits are the weakest ones: "counter <= N" means at most N ops of
 * the counter are still outstanding. If op X is outstanding, so is every op
 * of X's in-order queue issued after it; so X is done once the counter is at
 * most the number of same-queue ops issued after X. SMEM ops issued after a
 * DS op do not count (they may finish first) but do not break this either,
 * so a DS result mixed with SMEM traffic still gets lgkmcnt(k), and only an
 * SMEM (or FLAT) result needs lgkmcnt(0).
 *
 * LDS DMA (buffer_load ... lds, global_load_lds_*; LLVM's SIInsertWaitcnts
 * tracks them as VMEM events that write LDS): counted in vmcnt, in order
 * with the other VMEM ops; what it writes to LDS may be read (or written)
 * by a DS op of the same wave only after vmcnt covers it, and before an
 * s_barrier it must be complete too, since the waves past the barrier read
 * that LDS (no alias analysis here: any LDS access waits for every DMA).
 *
 * s_barrier: a wave's LDS accesses must be complete before the barrier that
 * orders them against other waves' (AMDGPUUsage's memory model: the workgroup release
 * fence; clang-19 for gfx90a/gfx942 puts s_waitcnt lgkmcnt(0) before
 * s_barrier after a ds_write and after a ds_read, and no vmcnt for an
 * outstanding global store). So the pass waits for the newest outstanding
 * DS op that touches LDS memory; ds_swizzle/ds_permute/ds_bpermute issued
 * after it may stay in flight.
 *
 * Algorithm: per program point a state per register dword (slot): the
 * number of same-queue ops issued after the newest outstanding VMEM / DS
 * load that writes it (-1: none), SMEM/FLAT flags, the same count for the
 * newest outstanding LDS access and the VMEM count for the newest
 * outstanding LDS DMA. Forward dataflow over the CFG
 * (mfunc_succs) to a fixpoint: a block's entry state is the join of its
 * predecessors' exit states, loop back edges included — the join keeps the
 * smaller count per slot, which is the conservative one (vmcnt(k) with the
 * smaller k covers both paths). Then one walk per block from its entry
 * state inserts, before each instruction that needs it, one s_waitcnt with
 * the largest counts that cover every slot it touches. Waits already in the
 * stream are honoured, so the pass is idempotent.
 *
 * The independent checker is waitcnt_check.c. Requires: allocate_registers
 * (physical registers). Runs before resolve_hazards (an s_waitcnt is a wait
 * state there). */
#include <stdlib.h>
#include <string.h>

#include "machine.h"

/* Register dwords: SGPRs 0..127 (vcc at 106, m0 124, exec 126), then
 * VGPRs and AGPRs. Memory ops write SGPRs (SMEM), VGPRs and AGPRs. */
enum { S_VGPR = 128, S_AGPR = 384, NSLOT = 640, VM_MAX = 63, LGKM_MAX = 15 };
enum { F_SMEM = 1, F_FLAT_VM = 2, F_FLAT_LGKM = 4 };

typedef struct WState {
	bool valid; /* reached by the dataflow yet */
	int8_t ds_mem; /* DS ops after the newest outstanding LDS access, -1 none */
	int8_t vm_lds; /* VMEM ops after the newest outstanding LDS DMA, -1 none */
	int8_t vm[NSLOT]; /* VMEM ops issued after the newest outstanding VMEM load writing it */
	int8_t ds[NSLOT]; /* DS ops issued after the newest outstanding DS op writing it */
	uint8_t ooo[NSLOT]; /* F_*: an out-of-order load may write it */
} WState;

static void state_empty(WState *s)
{
	s->valid = true;
	s->ds_mem = -1;
	s->vm_lds = -1;
	memset(s->vm, -1, sizeof s->vm);
	memset(s->ds, -1, sizeof s->ds);
	memset(s->ooo, 0, sizeof s->ooo);
}

/* The conservative merge: smaller counts wait for more. */
static int8_t join_count(int8_t a, int8_t b) { return a < 0 ? b : b < 0 ? a : MIN(a, b); }

/* d |= s; returns whether d changed. */
static bool state_join(WState *d, const WState *s)
{
	if (!s->valid)
		return false;
	if (!d->valid) {
		*d = *s;
		return true;
	}
	bool ch = false;
	int8_t m = join_count(d->ds_mem, s->ds_mem);
	ch |= m != d->ds_mem;
	d->ds_mem = m;
	m = join_count(d->vm_lds, s->vm_lds);
	ch |= m != d->vm_lds;
	d->vm_lds = m;
	for (int i = 0; i < NSLOT; i++) {
		int8_t v = join_count(d->vm[i], s->vm[i]), w = join_count(d->ds[i], s->ds[i]);
		uint8_t o = d->ooo[i] | s->ooo[i];
		ch |= v != d->vm[i] || w != d->ds[i] || o != d->ooo[i];
		d->vm[i] = v;
		d->ds[i] = w;
		d->ooo[i] = o;
	}
	return ch;
}

/* First slot of a register operand and its width; 0 dwords for others. */
static int opnd_slots(MOpnd o, int *first)
{
	switch ((MOpndKind)o.kind) {
	case MO_PREG:
		*first = (int)o.reg + (rc_file(o.rc) == RF_SGPR ? 0 : rc_file(o.rc) == RF_VGPR ? S_VGPR : S_AGPR);
		return rc_size(o.rc);
	case MO_VCC: *first = 106; return 2;
	case MO_EXEC: *first = 126; return 2;
	case MO_M0: *first = 124; return 1;
	default: return 0;
	}
}

typedef enum MemKind { MK_NONE, MK_VMEM, MK_DS, MK_SMEM, MK_FLAT } MemKind;

static MemKind mem_kind(MOp op)
{
	switch (isa_class(op)) {
	case MC_VMEM_LOAD:
	case MC_VMEM_STORE:
		return strncmp(mop_name(op), "flat_", 5) == 0 ? MK_FLAT : MK_VMEM;
	case MC_LDS: return MK_DS;
	case MC_SMEM: return MK_SMEM;
	default: return MK_NONE;
	}
}

/* DS ops that read or write LDS memory (the cross-lane ones do not). */
static bool ds_touches_lds(MOp op)
{
	return op != I_DS_SWIZZLE_B32 && op != I_DS_PERMUTE_B32 && op != I_DS_BPERMUTE_B32;
}

/* Apply an s_waitcnt to the state. */
static void apply_wait(WState *s, int vmcnt, int lgkmcnt)
{
	for (int i = 0; i < NSLOT; i++) {
		if (vmcnt >= 0 && s->vm[i] >= vmcnt)
			s->vm[i] = -1;
		if (lgkmcnt >= 0 && s->ds[i] >= lgkmcnt)
			s->ds[i] = -1;
		if (vmcnt == 0)
			s->ooo[i] &= (uint8_t)~F_FLAT_VM;
		if (lgkmcnt == 0)
			s->ooo[i] &= (uint8_t)~(F_SMEM | F_FLAT_LGKM);
	}
	if (lgkmcnt >= 0 && s->ds_mem >= lgkmcnt)
		s->ds_mem = -1;
	if (vmcnt >= 0 && s->vm_lds >= vmcnt)
		s->vm_lds = -1;
}

/* An LDS DMA (buffer_load ... lds, global_load_lds_*): a VMEM op whose
 * data goes to LDS, no register. */
static bool is_lds_dma(const MInst *in) { return (in->flags & MIF_LDS) || isa_lds_dma(in->op); }

/* The wait `in` needs (-1: none) on each counter, given state s. */
static void needed_wait(const WState *s, const MInst *in, int *vmcnt, int *lgkmcnt)
{
	int vm = 1000, lg = 1000;
	MemKind mk = mem_kind(in->op);
	for (int k = 0; k < in->ndef + in->nuse; k++) {
		bool def = k < in->ndef;
		int first, n = opnd_slots(def ? in->def[k] : in->use[k - in->ndef], &first);
		for (int d = 0; d < n; d++) {
			int i = first + d;
			/* A later op of the same in-order queue may overwrite. */
			if (s->vm[i] >= 0 && !(def && mk == MK_VMEM))
				vm = MIN(vm, s->vm[i]);
			if (s->ds[i] >= 0 && !(def && mk == MK_DS))
				lg = MIN(lg, s->ds[i]);
			if (s->ooo[i] & (F_SMEM | F_FLAT_LGKM))
				lg = 0;
			if (s->ooo[i] & F_FLAT_VM)
				vm = 0;
		}
	}
	if (in->op == I_S_BARRIER && s->ds_mem >= 0)
		lg = MIN(lg, s->ds_mem);
	/* the LDS an outstanding DMA writes: not before its vmcnt, for this
	 * wave's LDS accesses and for the other waves past a barrier */
	if (s->vm_lds >= 0 && (in->op == I_S_BARRIER || (mk == MK_DS && ds_touches_lds(in->op))))
		vm = MIN(vm, s->vm_lds);
	*vmcnt = vm == 1000 ? -1 : MIN(vm, VM_MAX);
	*lgkmcnt = lg == 1000 ? -1 : MIN(lg, LGKM_MAX);
}

static int8_t bump(int8_t c, int max) { return c < 0 ? c : (int8_t)MIN(c + 1, max); }

/* The state after `in` issues (its wait, if any, already applied). */
static void issue(WState *s, const MInst *in)
{
	MemKind mk = mem_kind(in->op);
	if (mk == MK_NONE) {
		/* Anything else that writes a register replaces what it held;
		 * a needed wait cleared pending loads of it already. */
		return;
	}
	if (mk == MK_VMEM) {
		for (int i = 0; i < NSLOT; i++)
			s->vm[i] = bump(s->vm[i], VM_MAX);
		s->vm_lds = is_lds_dma(in) ? 0 : bump(s->vm_lds, VM_MAX);
	}
	if (mk == MK_DS) {
		for (int i = 0; i < NSLOT; i++)
			s->ds[i] = bump(s->ds[i], LGKM_MAX);
		s->ds_mem = bump(s->ds_mem, LGKM_MAX);
		if (ds_touches_lds(in->op))
			s->ds_mem = 0;
	}
	for (int k = 0; k < in->ndef; k++) {
		int first, n = opnd_slots(in->def[k], &first);
		for (int d = 0; d < n; d++) {
			int i = first + d;
			if (mk == MK_VMEM)
				s->vm[i] = 0;
			else if (mk == MK_DS)
				s->ds[i] = 0;
			else if (mk == MK_SMEM)
				s->ooo[i] |= F_SMEM;
			else
				s->ooo[i] |= F_FLAT_VM | F_FLAT_LGKM;
		}
	}
}

/* Walk block b from state s (updated to the exit state); with `insert`,
 * put the waits into the block: the instructions are copied once into a
 * new list with the waits in place (inserting into the list per wait was
 * quadratic in the block's length). */
static void walk_block(MBlock *b, WState *s, bool insert)
{
	Vec(MInst) out = {0};
	bool added = false;
	for (size_t i = 0; i < b->insts.len; i++) {
		MInst *in = &b->insts.data[i];
		if (in->op == I_S_WAITCNT) {
			apply_wait(s, in->vmcnt, in->lgkmcnt);
			if (insert)
				vec_push(&out, *in);
			continue;
		}
		int vm, lg;
		needed_wait(s, in, &vm, &lg);
		if (vm >= 0 || lg >= 0) {
			apply_wait(s, vm, lg);
			if (insert) {
				MInst w = {.op = I_S_WAITCNT, .vmcnt = (int16_t)vm, .lgkmcnt = (int16_t)lg,
					.target = -1, .note = in->note};
				vec_push(&out, w);
				added = true;
			}
		}
		issue(s, in);
		if (insert)
			vec_push(&out, *in);
	}
	if (added) {
		vec_free(&b->insts);
		b->insts.data = out.data;
		b->insts.len = out.len;
		b->insts.cap = out.cap;
	} else {
		vec_free(&out);
	}
}

void insert_waitcnt(MFunc *f)
{
	size_t nb = f->blocks.len;
	if (!nb)
		return;
	WState *entry = xcalloc(nb, sizeof *entry), *exit_ = xcalloc(nb, sizeof *exit_);
	WState *cur = xmalloc(sizeof *cur);
	Vec(int) *preds = xcalloc(nb, sizeof *preds);
	for (size_t bi = 0; bi < nb; bi++) {
		int succ[2], ns = mfunc_succs(f, bi, succ);
		for (int k = 0; k < ns; k++)
			vec_push(&preds[succ[k]], (int)bi);
	}
	/* A block's entry is the join of its predecessors' current exits. The
	 * transfer is not monotone (a stronger wait clears other registers
	 * too), so after many rounds without a fixpoint the entries switch to
	 * accumulating joins, which must end; that only costs precision. */
	for (int round = 0;; round++) {
		bool changed = false, accumulate = round >= 32;
		for (size_t bi = 0; bi < nb; bi++) {
			memset(cur, 0, sizeof *cur); /* not reached yet */
			if (bi == 0)
				state_empty(cur);
			for (size_t k = 0; k < preds[bi].len; k++)
				state_join(cur, &exit_[preds[bi].data[k]]);
			if (accumulate)
				state_join(cur, &entry[bi]);
			if (memcmp(cur, &entry[bi], sizeof *cur)) {
				changed = true;
				entry[bi] = *cur;
			}
			if (!cur->valid)
				continue;
			walk_block(f->blocks.data[bi], cur, false);
			exit_[bi] = *cur;
		}
		if (!changed)
			break;
	}
	for (size_t bi = 0; bi < nb; bi++) {
		/* An unreachable block starts with nothing outstanding. */
		if (entry[bi].valid)
			*cur = entry[bi];
		else
			state_empty(cur);
		walk_block(f->blocks.data[bi], cur, true);
		vec_free(&preds[bi]);
	}
	free(preds);
	free(cur);
	free(entry);
	free(exit_);
}
