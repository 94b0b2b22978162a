/* waitcnt.c — s_waitcnt insertion from a counter model, and an independent
 * checker of the final instruction stream.
 *
 * Counter model (cdna3-facts §6): vector memory instructions (loads and
 * stores alike) increment vmcnt and complete in issue order; SMEM and LDS
 * increment lgkmcnt, SMEM out of order (so a wait on an SMEM result is
 * lgkmcnt(0)). A register written by an outstanding load must not be read
 * or overwritten until its load has completed.
 *
 * Insertion: walk the straight-line stream after register allocation
 * keeping, per physical register dword, the vmcnt sequence number of the
 * load that writes it (or a pending-SMEM mark); before an instruction that
 * touches such a register, insert the weakest s_waitcnt that covers it:
 * vmcnt(number of VMEM ops issued after that load), lgkmcnt(0). A d16 load
 * into a register still being written by an earlier load of the same
 * counter needs no wait (in-order returns merge), so tied defs are exempt.
 *
 * Checker: simulates the same hardware from scratch as a queue of
 * outstanding operations (not counters), applying each s_waitcnt the
 * stream holds, and reports every register access that can observe an
 * incomplete load. It shares no code with the inserter.
 * Requires: allocate_registers. Hazards (wait states) are a separate pass,
 * not built yet. */
#include <stdlib.h>
#include <string.h>

#include "passes.h"

enum { NSLOT = 3 * 512 };

static int slot(MOpnd o, int d)
{
	if (o.kind == MO_VCC)
		return 106 + d;
	if (o.kind != MO_PREG)
		return -1;
	return rc_file(o.rc) * 512 + (int)o.reg + d;
}

static int width(MOpnd o)
{
	return o.kind == MO_VCC ? 2 : o.kind == MO_PREG ? rc_size(o.rc) : 0;
}

void insert_waitcnt(Compile *c)
{
	MFunc *f = c->mf;
	int *vm = xmalloc(NSLOT * sizeof *vm); /* seq number (1-based) of the pending load, 0 none */
	bool *lgkm = xcalloc(NSLOT, sizeof *lgkm);
	memset(vm, 0, NSLOT * sizeof *vm);
	int vm_issued = 0, vm_done = 0;
	bool lgkm_pending = false;
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		MBlock *b = f->blocks.data[bi];
		for (size_t i = 0; i < b->insts.len; i++) {
			MInst *in = &b->insts.data[i];
			int need_vm = -1; /* wait until this seq is done */
			bool need_lgkm = false;
			for (int k = 0; k < in->ndef + in->nuse; k++) {
				bool def = k < in->ndef;
				MOpnd o = def ? in->def[k] : in->use[k - in->ndef];
				if (def && k == 0 && (in->flags & MIF_TIED))
					continue;
				for (int d = 0; d < width(o); d++) {
					int s = slot(o, d);
					if (s < 0)
						continue;
					if (vm[s] > vm_done)
						need_vm = MAX(need_vm, vm[s]);
					if (lgkm[s])
						need_lgkm = true;
				}
			}
			if (need_vm > 0 || need_lgkm) {
				MInst w = {.op = EI_S_WAITCNT, .vmcnt = -1, .lgkmcnt = -1, .note = in->note};
				if (need_vm > 0) {
					w.vmcnt = (int16_t)MIN(vm_issued - need_vm, 63);
					vm_done = need_vm;
				}
				if (need_lgkm) {
					w.lgkmcnt = 0;
					memset(lgkm, 0, NSLOT * sizeof *lgkm);
					lgkm_pending = false;
				}
				mblock_insert(b, i, w);
				i++;
				in = &b->insts.data[i];
			}
			MClass cl = mir_class(in->op);
			if (cl == MC_VMEM_LOAD || cl == MC_VMEM_STORE)
				vm_issued++;
			for (int k = 0; k < in->ndef; k++)
				for (int d = 0; d < width(in->def[k]); d++) {
					int s = slot(in->def[k], d);
					if (s < 0)
						continue;
					vm[s] = cl == MC_VMEM_LOAD ? vm_issued : 0;
					lgkm[s] = cl == MC_SMEM || cl == MC_LDS;
				}
			if (cl == MC_SMEM || cl == MC_LDS)
				lgkm_pending = true;
		}
	}
	(void)lgkm_pending;
	free(vm);
	free(lgkm);
}

/* ---- checker ---- */

typedef struct Pending {
	int counter; /* 0 vm, 1 lgkm */
	bool ooo;    /* completes out of order (SMEM) */
	int first, n; /* register slots written */
	bool done;
} Pending;

int check_waitcnt(const MFunc *f, Buf *msg)
{
	int bad = 0;
	Vec(Pending) q = {0};
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		const MBlock *b = f->blocks.data[bi];
		for (size_t i = 0; i < b->insts.len; i++) {
			const MInst *in = &b->insts.data[i];
			if (in->op == EI_S_WAITCNT) {
				/* Counter c <= N: all but the last N ops of that counter are
				 * done; out-of-order ones only when N == 0. */
				for (int cnt = 0; cnt < 2; cnt++) {
					int lim = cnt == 0 ? in->vmcnt : in->lgkmcnt;
					if (lim < 0)
						continue;
					int seen = 0; /* newer ops of this counter still outstanding */
					for (size_t j = q.len; j-- > 0;) {
						Pending *p = &q.data[j];
						if (p->counter != cnt || p->done)
							continue;
						if (p->ooo ? lim == 0 : seen >= lim)
							p->done = true;
						else
							seen++;
					}
				}
				continue;
			}
			for (int k = 0; k < in->ndef + in->nuse; k++) {
				bool def = k < in->ndef;
				MOpnd o = def ? in->def[k] : in->use[k - in->ndef];
				if (def && k == 0 && (in->flags & MIF_TIED))
					continue;
				for (int d = 0; d < width(o); d++) {
					int s = slot(o, d);
					for (size_t j = 0; j < q.len; j++)
						if (s >= 0 && !q.data[j].done && s >= q.data[j].first &&
							s < q.data[j].first + q.data[j].n) {
							buf_printf(msg, "waitcnt check: %s: block %zu inst %zu (%s) %s a register an "
									"outstanding load still writes\n",
								f->name, bi, i, mop_name(in->op), def ? "overwrites" : "reads");
							bad++;
							q.data[j].done = true;
						}
				}
			}
			MClass cl = mir_class(in->op);
			if (cl == MC_VMEM_LOAD || cl == MC_VMEM_STORE || cl == MC_SMEM || cl == MC_LDS) {
				Pending p = {.counter = cl == MC_SMEM || cl == MC_LDS, .ooo = cl == MC_SMEM};
				if (in->ndef && cl != MC_VMEM_STORE) {
					p.first = slot(in->def[0], 0);
					p.n = width(in->def[0]);
				}
				vec_push(&q, p);
			}
		}
	}
	vec_free(&q);
	return bad;
}
