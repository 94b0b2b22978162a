/* cu.c — replay of recorded wave streams on one modeled compute unit.
 *
 * Algorithm (docs/cycle-model.md): time advances in clocks; SIMD s gets the
 * issue turn when clock % issue_period == s. On its turn the SIMD looks at
 * its resident waves, highest s_setprio first, then oldest, and issues at
 * most one instruction per wave and at most one per category (VALU, MFMA,
 * SALU, VMEM, LDS, SMEM, branch; s_waitcnt, s_nop, s_barrier and the other
 * sequencer-internal instructions take no port). A wave's next instruction
 * issues when nothing blocks it: its s_waitcnt counts are met (loads
 * complete in order of issue per counter), the VGPRs it reads are ready (a
 * VALU or MFMA result; an MFMA's SrcC equal to the previous MFMA's D is
 * forwarded back to back), its SIMD's VALU or matrix core is free, no
 * s_nop/s_sleep/taken-branch refetch is pending, it is not held at a
 * barrier. Memory is a chain of bandwidth servers with latencies: the
 * vector L1 (per CU, LRU by line), the L2 (this CU's bandwidth share), the
 * Infinity Cache and HBM (this CU's shares; which lines miss L2 and the
 * Infinity Cache comes from gpu.c's cache model, by address hash), the
 * scalar cache, and the LDS pipe whose occupancy is the access's
 * bank-conflict cycles; the latencies beyond L2 are fixed in time, so they
 * take fewer clocks at a lower configured clock. Every
 * clock a wave waits beyond its turn is charged to the instruction it waits
 * with and the reason.
 * Workgroups are dispatched in order as occupancy allows.
 *
 * The clock loop (sim_next) yields one issuing wave at a time, so the same
 * simulation also runs as a stream (tm_sim_stream): fed one instruction at
 * a time by the emulator, it decides the emulator's wave order `model`
 * (order.c): a wave's next instruction is then its preview, and what
 * issues is the instruction the emulator ran. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../ir/isa/isa.h"
#include "timing_int.h"

const char *const tm_cat_name[TM_NCAT] = {"valu", "mfma", "salu", "vmem", "lds", "smem", "branch", "internal"};
const char *const tm_reason_name[TM_NREASONS] = {
#define X(e, s) s,
	TM_REASONS(X)
#undef X
};

enum { NREGS = 512, NLOOP = 8 };
#define NEVER UINT64_MAX

typedef struct {
	uint64_t ready;        /* for a VALU/VMEM reader or an MFMA's SrcA/B */
	uint64_t srcc_same;    /* for an MFMA reading it as SrcC equal to the producer's D */
	uint64_t srcc_overlap; /* for an MFMA whose SrcC only overlaps it */
	uint16_t first, n;     /* the producing MFMA's D range (n 0: not an MFMA) */
} Reg;

typedef Vec(uint64_t) Times;
typedef Vec(uint32_t) PcList;

typedef struct {
	const TEv *ev;
	size_t n, i;
	/* a stream (the model order): the next instruction as previewed
	 * (valid: since the wave last issued) and the last one issued */
	TEv peek, last;
	bool peek_valid;
	uint32_t wg, simd;
	uint64_t age;
	int prio;
	uint64_t next_ok;
	int why_next;
	uint64_t last_check;
	int last_reason;
	bool done, at_barrier;
	Reg *reg;
	Times vm, lgkm;
	PcList vm_pc, lgkm_pc; /* the pc index of each counted operation */
	uint32_t wait_pc;            /* the operation the wave's s_waitcnt waits for */
	uint32_t loop_pc[NLOOP];
	uint64_t loop_t[NLOOP];
	uint32_t nloop;
	uint64_t busy_until; /* its last VALU or MFMA's end */
	uint64_t start;      /* dispatch clock: before it the wave is not resident and waits for nothing */
} SWave;

typedef struct {
	uint64_t tag, stamp;
} Way;
typedef struct {
	Way *ways;
	uint32_t sets, assoc;
	uint64_t clock;
} Cache;

typedef struct TmSim {
	const TmRecorder *r;
	const TmCuConfig *cfg;
	TmParams p;
	bool g90a;
	SWave *w;          /* every wave of the sample, by dispatch order */
	uint32_t nw, nwaves;
	uint32_t *wg_live, *wg_arrived;
	uint64_t *wg_end;
	uint32_t next_wg, resident_wgs, simd_waves[8];
	uint32_t simd_list[8][64]; /* the resident waves of each SIMD (indices into w) */
	uint32_t running;          /* dispatched waves not yet ended */
	double valu_free[8], mfma_free[8], ta_free, lds_free, l2_free, mall_free, hbm_free;
	double hbm_latency, mall_latency; /* at the configured clock */
	Cache l1, sc;
	uint64_t *l2seen;
	size_t l2cap, l2len;
	TmCuResult *out;
	/* the clock loop (sim_next): clock, idle turns, the next wake-up, the
	 * SIMD turn under way (its candidates, the next one, the units
	 * used, whether one issued) */
	uint64_t c, idle_wake;
	uint32_t idle;
	bool in_turn, any;
	SWave *cand[64];
	uint32_t ncand, k;
	bool used[TM_NCAT];
	/* workgroups that may be dispatched (the recorder's, or a stream's
	 * one at a time), the clock the last one ended at */
	uint32_t nwg;
	uint64_t last_end;
	bool stream;
	Vec(uint32_t) order; /* cfg->log_order: workgroup * nwaves + wave of each issue */
} Sim;

/* The wave's next instruction. */
static inline const TEv *cur(const Sim *s, const SWave *w) { return s->stream ? &w->peek : &w->ev[w->i]; }

/* ---- caches and the L2 first-touch set ---- */

static void cache_init(Cache *c, double bytes, double line, double ways)
{
	uint32_t lines = (uint32_t)(bytes / line);
	c->assoc = ways >= 1 ? (uint32_t)ways : 1;
	c->sets = lines / c->assoc ? lines / c->assoc : 1;
	c->ways = xcalloc((size_t)c->sets * c->assoc, sizeof *c->ways);
}

/* Look up `tag` and insert it (LRU); true on a hit. */
static bool cache_access(Cache *c, uint64_t tag)
{
	Way *set = c->ways + (size_t)(tag % c->sets) * c->assoc, *victim = set;
	c->clock++;
	for (uint32_t i = 0; i < c->assoc; i++) {
		if (set[i].stamp && set[i].tag == tag) {
			set[i].stamp = c->clock;
			return true;
		}
		if (set[i].stamp < victim->stamp)
			victim = &set[i];
	}
	victim->tag = tag;
	victim->stamp = c->clock;
	return false;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	x *= UINT64_C(0xc4ceb9fe1a85ec53);
	x ^= x >> 33;
	return x;
}

/* True the first time the sample touches `line`. */
static bool l2_first_touch(Sim *s, uint64_t line)
{
	if (2 * (s->l2len + 1) > s->l2cap) {
		size_t cap = s->l2cap ? 2 * s->l2cap : 4096;
		uint64_t *t = xcalloc(cap, sizeof *t);
		for (size_t i = 0; i < s->l2cap; i++)
			if (s->l2seen[i])
				for (size_t h = mix(s->l2seen[i]) & (cap - 1);; h = (h + 1) & (cap - 1))
					if (!t[h]) {
						t[h] = s->l2seen[i];
						break;
					}
		free(s->l2seen);
		s->l2seen = t;
		s->l2cap = cap;
	}
	for (size_t h = mix(line + 1) & (s->l2cap - 1);; h = (h + 1) & (s->l2cap - 1)) {
		if (s->l2seen[h] == line + 1)
			return false;
		if (!s->l2seen[h]) {
			s->l2seen[h] = line + 1;
			s->l2len++;
			return true;
		}
	}
}

/* Where a line's load is served beyond the L1: a first touch of the
 * sample misses the XCD's L2 for the fraction l2_miss_fraction of lines,
 * and of those the Infinity Cache for mall_miss_fraction (without a MALL
 * every L2 miss goes to HBM); lines are chosen by address, so a line
 * always decides the same way. */
enum { AT_L2, AT_MALL, AT_HBM };
static double unit_hash(uint64_t x) { return (double)(mix(x) >> 11) * 0x1p-53; }
static int load_level(Sim *s, uint64_t line)
{
	if (!l2_first_touch(s, line) || unit_hash(line) >= s->cfg->l2_miss_fraction)
		return AT_L2;
	if (s->cfg->mall_bytes_per_clk <= 0)
		return AT_HBM;
	return unit_hash(line ^ UINT64_C(0x9e3779b97f4a7c15)) < s->cfg->mall_miss_fraction ? AT_HBM : AT_MALL;
}

/* A bandwidth server: the transfer starts when both it and the server are
 * free; returns the transfer's end. */
static double serve(double *free_at, double t, double bytes, double rate)
{
	double start = *free_at > t ? *free_at : t;
	*free_at = start + bytes / rate;
	return *free_at;
}

/* ---- counters ---- */

static void push_done(Times *v, uint64_t t)
{
	if (v->len && v->data[v->len - 1] > t)
		t = v->data[v->len - 1]; /* a counter decrements in order */
	vec_push(v, t);
}

/* The cycle at which at most `allowed` of the counter's operations are
 * outstanding. */
static uint64_t count_ready(const Times *v, unsigned allowed)
{
	if (v->len <= allowed)
		return 0;
	return v->data[v->len - allowed - 1];
}

/* ---- blocking ---- */

static uint64_t reg_ready(const SWave *w, const TEv *e, int i, bool *from_mfma)
{
	uint64_t t = 0;
	for (unsigned k = 0; k < e->nvsrc[i]; k++) {
		unsigned r = e->vsrc[i] + k;
		if (r >= NREGS)
			continue;
		const Reg *g = &w->reg[r];
		uint64_t x = g->ready;
		if (e->cat == TM_MFMA && i == 2 && g->n)
			x = g->first == e->vsrc[2] && g->n == e->nvsrc[2] ? g->srcc_same : g->srcc_overlap;
		if (x > t) {
			t = x;
			*from_mfma = g->n != 0;
		}
	}
	return t;
}

/* The reason the wave's next instruction cannot issue at clock c and the
 * clock it may clear (NEVER: another wave must act), or -1. */
static int blocked(Sim *s, SWave *w, uint64_t c, uint64_t *until)
{
	const TEv *e = cur(s, w);
	*until = NEVER;
	if (w->at_barrier)
		return TM_R_BARRIER;
	if (c < w->next_ok) {
		*until = w->next_ok;
		return w->why_next;
	}
	if (e->kind == TK_WAITCNT) {
		unsigned imm = (unsigned)e->imm;
		unsigned vm = (imm & 15) | ((imm >> 14) & 3) << 4, lgkm = (imm >> 8) & 15;
		uint64_t t = count_ready(&w->vm, vm);
		if (t > c) {
			*until = t;
			w->wait_pc = w->vm_pc.data[w->vm.len - vm - 1];
			return TM_R_VMCNT;
		}
		t = count_ready(&w->lgkm, lgkm);
		if (t > c) {
			*until = t;
			w->wait_pc = w->lgkm_pc.data[w->lgkm.len - lgkm - 1];
			return TM_R_LGKMCNT;
		}
		return -1;
	}
	bool mf = false;
	uint64_t t = 0;
	for (int i = 0; i < 3; i++) {
		bool m = false;
		uint64_t x = reg_ready(w, e, i, &m);
		if (x > t)
			t = x, mf = m;
	}
	if (t > c) {
		*until = t;
		return mf ? TM_R_MFMA_DEP : TM_R_VALU_DEP;
	}
	if (e->cat == TM_VALU && s->valu_free[w->simd] > (double)c) {
		*until = (uint64_t)ceil(s->valu_free[w->simd]);
		return TM_R_PORT;
	}
	if (e->cat == TM_MFMA && s->mfma_free[w->simd] > (double)c) {
		*until = (uint64_t)ceil(s->mfma_free[w->simd]);
		return TM_R_MATRIX_BUSY;
	}
	return -1;
}

/* ---- issue ---- */

static void write_regs(SWave *w, const TEv *e, uint64_t ready, uint64_t same, uint64_t overlap, bool mfma)
{
	for (unsigned k = 0; k < e->nvdst; k++) {
		unsigned r = e->vdst + k;
		if (r >= NREGS)
			continue;
		w->reg[r] = (Reg){ready, same, overlap, mfma ? e->vdst : 0, mfma ? e->nvdst : 0};
	}
}

static uint64_t vmem_issue(Sim *s, const TEv *e, uint64_t c)
{
	const TmParams *p = &s->p;
	double lb = p->line_bytes, l1rate = p->l1_bytes_per_clk;
	double ta = fmax(64.0 / p->vmem_lanes_per_clk, e->nlines * lb / l1rate);
	double start = s->ta_free > (double)c ? s->ta_free : (double)c;
	s->ta_free = start + ta;
	double done = start + ta;
	bool store = e->kind == TK_STORE;
	if (e->flags & TE_SCRATCH)
		s->out->bytes_scratch += e->bytes;
	for (uint32_t k = 0; k < e->nlines; k++) {
		uint64_t line = s->r->lines.data[e->line0 + k];
		double t = start + k * lb / l1rate, d;
		if (store) {
			/* write-through to L2; a line's first write is written
			 * back to HBM (the Infinity Cache keeps no dirty data) */
			d = serve(&s->l2_free, t, lb, s->cfg->l2_bytes_per_clk) + p->store_ack_latency;
			s->out->bytes_l2 += (uint64_t)lb;
			if (l2_first_touch(s, line)) {
				serve(&s->hbm_free, t, lb, s->cfg->hbm_bytes_per_clk);
				s->out->bytes_hbm += (uint64_t)lb;
				s->out->bytes_hbm_write += (uint64_t)lb;
			}
		} else if (cache_access(&s->l1, line)) {
			d = t + p->l1_latency;
			s->out->bytes_l1 += (uint64_t)lb;
		} else {
			s->out->bytes_l1 += (uint64_t)lb;
			s->out->bytes_l2 += (uint64_t)lb;
			d = serve(&s->l2_free, t, lb, s->cfg->l2_bytes_per_clk);
			switch (load_level(s, line)) {
			case AT_HBM:
				if (s->cfg->mall_bytes_per_clk > 0)
					serve(&s->mall_free, t, lb, s->cfg->mall_bytes_per_clk);
				d = serve(&s->hbm_free, t, lb, s->cfg->hbm_bytes_per_clk) + s->hbm_latency;
				s->out->bytes_hbm += (uint64_t)lb;
				break;
			case AT_MALL:
				d = serve(&s->mall_free, t, lb, s->cfg->mall_bytes_per_clk) + s->mall_latency;
				s->out->bytes_mall += (uint64_t)lb;
				break;
			default:
				d += p->l2_latency;
			}
		}
		if (d > done)
			done = d;
	}
	return (uint64_t)ceil(done);
}

static void loop_note(Sim *s, SWave *w, const TEv *e, uint64_t c)
{
	TmPc *pc = &s->out->pcs[e->pc];
	pc->backward_taken++;
	for (uint32_t i = 0; i < w->nloop; i++)
		if (w->loop_pc[i] == e->pc) {
			pc->loop_cycles += c - w->loop_t[i];
			pc->loop_intervals++;
			w->loop_t[i] = c;
			return;
		}
	if (w->nloop < NLOOP) {
		w->loop_pc[w->nloop] = e->pc;
		w->loop_t[w->nloop++] = c;
	}
}

static void dispatch(Sim *s, uint64_t c);

static void release_barrier(Sim *s, uint32_t wg, uint64_t c)
{
	for (uint32_t i = 0; i < s->nwaves; i++) {
		SWave *x = &s->w[wg * s->nwaves + i];
		if (x->at_barrier) {
			x->at_barrier = false;
			x->next_ok = c + (uint64_t)s->p.barrier_cycles;
			x->why_next = TM_R_BARRIER;
		}
	}
	s->wg_arrived[wg] = 0;
}

/* A wave is over when its last instruction issued and its memory
 * operations completed (s_endpgm does not wait for stores; the kernel's end
 * does). */
static void end_wave(Sim *s, SWave *w, uint64_t c)
{
	if (w->vm.len && w->vm.data[w->vm.len - 1] > c)
		c = w->vm.data[w->vm.len - 1];
	if (w->lgkm.len && w->lgkm.data[w->lgkm.len - 1] > c)
		c = w->lgkm.data[w->lgkm.len - 1];
	if (w->busy_until > c)
		c = w->busy_until;
	if (c > s->wg_end[w->wg])
		s->wg_end[w->wg] = c;
	c = s->wg_end[w->wg];
	w->done = true;
	s->running--;
	uint32_t *list = s->simd_list[w->simd], idx = (uint32_t)(w - s->w);
	for (uint32_t k = 0; k < s->simd_waves[w->simd]; k++)
		if (list[k] == idx) {
			list[k] = list[s->simd_waves[w->simd] - 1];
			break;
		}
	s->simd_waves[w->simd]--;
	if (--s->wg_live[w->wg] == 0) {
		s->out->wg_done[w->wg] = c;
		s->last_end = c;
		s->resident_wgs--;
		if (c > s->out->cycles)
			s->out->cycles = c;
		dispatch(s, c);
	} else if (s->wg_arrived[w->wg] && s->wg_arrived[w->wg] == s->wg_live[w->wg]) {
		release_barrier(s, w->wg, c);
	}
}

static void issue(Sim *s, SWave *w, uint64_t c, const TEv *e)
{
	const TmParams *p = &s->p;
	TmCuResult *o = s->out;
	o->pcs[e->pc].issued++;
	o->issued[e->cat]++;
	w->next_ok = c + (uint64_t)p->issue_period;
	w->why_next = TM_R_PORT;
	switch (e->cat) {
	case TM_VALU: {
		bool trans = e->flags & TE_TRANS;
		s->valu_free[w->simd] = (double)c + (trans ? p->trans_cycles : p->valu_cycles);
		uint64_t r = c + (uint64_t)(trans ? p->trans_latency : p->valu_latency);
		write_regs(w, e, r, r, r, false);
		break;
	}
	case TM_MFMA: {
		int np = isa_mfma_passes_fmt(e->op, s->g90a, e->mfma_fmt & 7u, e->mfma_fmt >> 3 & 7u);
		if (np <= 0)
			np = 4;
		uint64_t busy = (uint64_t)np * (uint64_t)p->mfma_pass_cycles;
		s->mfma_free[w->simd] = (double)(c + busy);
		w->busy_until = c + busy;
		o->mfma_busy += busy;
		o->mfma_busy_dt[tm_mfma_dtype_fmt(e->op, e->mfma_fmt)] += busy;
		o->mfma_flops += tm_mfma_flops(e->op);
		uint64_t same = c + busy + (!s->g90a && np == 2 ? 2 * (uint64_t)p->issue_period : 0);
		uint64_t ovl = c + (uint64_t)(np + p->mfma_srcc_overlap_passes) * (uint64_t)p->issue_period;
		uint64_t dep = c + (uint64_t)(np + p->mfma_dep_passes) * (uint64_t)p->issue_period;
		write_regs(w, e, dep, same, ovl, true);
		break;
	}
	case TM_VMEM:
		push_done(&w->vm, vmem_issue(s, e, c));
		vec_push(&w->vm_pc, e->pc);
		break;
	case TM_LDS: {
		double end = serve(&s->lds_free, (double)c, e->lds_cycles, 1.0);
		push_done(&w->lgkm, (uint64_t)ceil(end + p->lds_latency));
		vec_push(&w->lgkm_pc, e->pc);
		o->bytes_lds += e->bytes;
		uint64_t extra = e->lds_cycles > e->lds_ideal ? (uint64_t)(e->lds_cycles - e->lds_ideal) : 0;
		o->lds_conflict_cycles += extra;
		o->pcs[e->pc].lds_conflict_cycles += extra;
		break;
	}
	case TM_SMEM: {
		bool hit = e->nlines > 0;
		for (uint32_t k = 0; k < e->nlines; k++)
			hit &= cache_access(&s->sc, s->r->lines.data[e->line0 + k]);
		push_done(&w->lgkm, c + (uint64_t)(hit ? p->scache_latency : p->l2_latency));
		vec_push(&w->lgkm_pc, e->pc);
		break;
	}
	case TM_BRANCH: case TM_SALU:
		if (e->flags & TE_TAKEN) {
			w->next_ok = c + (uint64_t)p->branch_taken_cycles;
			w->why_next = TM_R_BRANCH;
		}
		if (e->flags & TE_BACKWARD)
			loop_note(s, w, e, c);
		break;
	default:
		switch (e->kind) {
		case TK_NOP:
			w->next_ok = c + (uint64_t)((e->imm & 15) + 1) * (uint64_t)p->issue_period;
			w->why_next = TM_R_NOP;
			break;
		case TK_SLEEP:
			w->next_ok = c + (uint64_t)(e->imm & 0x7f) * (uint64_t)p->sleep_unit + (uint64_t)p->issue_period;
			w->why_next = TM_R_NOP;
			break;
		case TK_SETPRIO:
			w->prio = e->imm & 3;
			break;
		case TK_BARRIER:
			w->at_barrier = true;
			if (++s->wg_arrived[w->wg] == s->wg_live[w->wg])
				release_barrier(s, w->wg, c);
			break;
		default:
			break;
		}
	}
	if (s->cfg->log_order)
		vec_push(&s->order, (s->stream ? s->out->workgroups - 1 : w->wg) * s->nwaves + (uint32_t)(w->age % s->nwaves));
	w->i++;
	if (s->stream) {
		w->last = *e;
		w->peek_valid = false;
	}
	if (e->kind == TK_ENDPGM || (!s->stream && w->i >= w->n))
		end_wave(s, w, c);
}

/* ---- dispatch and the clock loop ---- */

static uint32_t waves_cap(const Sim *s)
{
	uint32_t cap = (uint32_t)s->p.wave_slots;
	if (s->cfg->waves_per_simd_cap && s->cfg->waves_per_simd_cap < cap)
		cap = s->cfg->waves_per_simd_cap;
	return cap;
}

/* Start the next workgroups while they fit. */
static void dispatch(Sim *s, uint64_t c)
{
	uint32_t nsimd = (uint32_t)s->p.simds, cap = waves_cap(s);
	while (s->next_wg < s->nwg && s->resident_wgs < s->cfg->resident) {
		uint32_t free_slots = 0;
		for (uint32_t k = 0; k < nsimd; k++)
			free_slots += cap - s->simd_waves[k];
		if (free_slots < s->nwaves)
			return;
		uint32_t g = s->next_wg++;
		s->resident_wgs++;
		s->out->wg_start[g] = c;
		for (uint32_t i = 0; i < s->nwaves; i++) {
			SWave *w = &s->w[g * s->nwaves + i];
			uint32_t best = 0;
			for (uint32_t k = 1; k < nsimd; k++)
				if (s->simd_waves[k] < s->simd_waves[best])
					best = k;
			w->simd = best;
			s->simd_list[best][s->simd_waves[best]++] = g * s->nwaves + i;
			s->running++;
			w->next_ok = c;
			w->start = c;
			w->last_check = c;
			w->last_reason = -1;
			if (w->n == 0 && !s->stream) { /* a wave without instructions (should not happen) */
				w->done = true;
				s->simd_waves[best]--;
				s->running--;
				s->wg_live[g]--;
			}
		}
		if (s->wg_live[g] == 0) {
			s->resident_wgs--;
			s->out->wg_done[g] = c;
		}
	}
}

static void charge(Sim *s, SWave *w, uint64_t c, int reason)
{
	/* a wave held by s_barrier, s_nop, s_sleep or a taken branch waits in
	 * that instruction; other waits are the next instruction's */
	int lr = w->last_reason;
	bool prev = (lr == TM_R_BARRIER || lr == TM_R_NOP || lr == TM_R_BRANCH) && w->i > 0;
	const TEv *at = prev ? (s->stream ? &w->last : &w->ev[w->i - 1]) : cur(s, w);
	if (w->last_reason >= 0 && c > w->last_check) {
		s->out->pcs[at->pc].stall[w->last_reason] += c - w->last_check;
		if (lr == TM_R_VMCNT || lr == TM_R_LGKMCNT)
			s->out->pcs[at->pc].waited_on = w->wait_pc + 1;
	}
	w->last_check = c;
	w->last_reason = reason;
}

/* SIMD simd's turn at clock c: its candidates, the resident waves that
 * have not ended, highest s_setprio first, then oldest. */
static void turn_begin(Sim *s, uint32_t simd, uint64_t c)
{
	SWave **cand = s->cand;
	uint64_t *wake = &s->idle_wake;
	uint32_t n = 0;
	for (uint32_t k = 0; k < s->simd_waves[simd]; k++) {
		SWave *w = &s->w[s->simd_list[simd][k]];
		if (w->done || (!s->stream && w->i >= w->n))
			continue;
		/* a workgroup dispatched when the previous one's memory drains
		 * (end_wave) starts in the future: its waves neither issue nor
		 * wait until then */
		if (c < w->start) {
			if (w->start < *wake)
				*wake = w->start;
			continue;
		}
		/* highest priority first, then oldest */
		uint32_t j = n++;
		while (j > 0 && (cand[j - 1]->prio < w->prio || (cand[j - 1]->prio == w->prio && cand[j - 1]->age > w->age))) {
			cand[j] = cand[j - 1];
			j--;
		}
		cand[j] = w;
	}
	s->ncand = n;
}

/* The turn's next candidate that issues (at most one instruction per wave
 * and per unit; the blocked ones are charged their reason and give their
 * wake-ups), or NULL at the turn's end. A stream's waves are previewed
 * first (a stream wave without a preview is one the emulator does not
 * let issue: it waits as at a barrier). */
static SWave *turn_next(Sim *s, uint64_t c)
{
	while (s->k < s->ncand) {
		SWave *w = s->cand[s->k++];
		uint64_t until;
		int r = blocked(s, w, c, &until);
		if (s->stream && r < 0 && !w->peek_valid)
			r = TM_R_BARRIER, until = NEVER;
		uint8_t cat = cur(s, w)->cat;
		if (r < 0 && cat != TM_INTERNAL && s->used[cat]) {
			r = TM_R_PORT;
			until = c + 1;
		}
		if (r >= 0) {
			charge(s, w, c, r);
			if (until < s->idle_wake)
				s->idle_wake = until;
			continue;
		}
		charge(s, w, c, -1);
		if (cat != TM_INTERNAL)
			s->used[cat] = true;
		s->any = true;
		s->idle_wake = c + 1;
		return w;
	}
	return NULL;
}

/* The next wave to issue, at clock s->c: the clock advances over the SIMDs'
 * turns (SIMD c mod issue_period at clock c), a round without issue skips
 * to the earliest wake-up. Returns 1 with *out, 0 when every dispatched
 * wave has ended, -1 when every resident wave waits at a barrier no other
 * wave reaches (message in err). */
static int sim_next(Sim *s, SWave **out, char *err, size_t err_len)
{
	uint32_t nsimd = (uint32_t)s->p.simds, period = (uint32_t)s->p.issue_period;
	for (;;) {
		if (!s->in_turn) {
			if (s->running == 0)
				return 0;
			uint32_t simd = (uint32_t)(s->c % period);
			s->ncand = s->k = 0;
			s->any = false;
			memset(s->used, 0, sizeof s->used);
			if (simd < nsimd)
				turn_begin(s, simd, s->c);
			s->in_turn = true;
		}
		SWave *w = turn_next(s, s->c);
		if (w) {
			*out = w;
			return 1;
		}
		s->in_turn = false;
		if (s->any)
			s->idle = 0, s->idle_wake = NEVER;
		else
			s->idle++;
		s->c++;
		if (s->idle >= period) { /* a full round without issue: skip to the next wake-up */
			if (s->idle_wake == NEVER) {
				snprintf(err, err_len, "timing: every resident wave waits at a barrier no other wave reaches (clock %llu)",
					 (unsigned long long)s->c);
				return -1;
			}
			if (s->idle_wake > s->c)
				s->c = s->idle_wake - s->idle_wake % period;
			s->idle = 0;
			s->idle_wake = NEVER;
		}
	}
}

/* The CU before the first dispatch: parameters, latencies at the
 * configured clock, room for nwg workgroups of r->nwaves waves (a stream:
 * one), the recorder's pc table, empty caches. */
static void sim_init(Sim *s, const TmRecorder *r, const TmCuConfig *cfg, TmCuResult *out, uint64_t nwg)
{
	*s = (Sim){.r = r, .cfg = cfg, .out = out, .nwaves = r->nwaves, .nwg = (uint32_t)nwg, .idle_wake = NEVER};
	memset(out, 0, sizeof *out);
	if (cfg->gpu)
		tm_gpu_params(cfg->gpu, &s->p);
	else
		tm_params(cfg->arch, &s->p);
	s->g90a = cfg->arch == EMU_GFX90A;
	/* the latencies are clocks at latency_clock_mhz; beyond L2 (fabric,
	 * Infinity Cache, HBM) the time is fixed, so fewer clocks at a lower
	 * clock */
	double scale = cfg->clock_mhz > 0 ? cfg->clock_mhz / s->p.latency_clock_mhz : 1;
	s->hbm_latency = s->p.l2_latency + (s->p.hbm_latency - s->p.l2_latency) * scale;
	s->mall_latency = s->p.l2_latency + fmax(0, s->p.mall_latency - s->p.l2_latency) * scale;
	s->nw = (uint32_t)(nwg * r->nwaves);
	s->w = xcalloc(s->nw + 1, sizeof *s->w);
	s->wg_live = xcalloc(nwg + 1, sizeof *s->wg_live);
	s->wg_arrived = xcalloc(nwg + 1, sizeof *s->wg_arrived);
	s->wg_end = xcalloc(nwg + 1, sizeof *s->wg_end);
	out->wg_done = xcalloc(nwg + 1, sizeof *out->wg_done);
	out->wg_start = xcalloc(nwg + 1, sizeof *out->wg_start);
	out->waves = s->nw;
	out->workgroups = (uint32_t)nwg;
	out->resident = cfg->resident;
	for (uint32_t i = 0; i < s->nw; i++)
		s->w[i].reg = xcalloc(NREGS, sizeof *s->w[i].reg);
	cache_init(&s->l1, s->p.l1_bytes, s->p.line_bytes, s->p.cache_ways);
	cache_init(&s->sc, s->p.scache_lines * 64, 64, s->p.cache_ways);
}

/* out->pcs for the recorder's pc table as it stands (a stream's grows as
 * instructions are first seen). */
static void sim_pcs(Sim *s)
{
	const TmRecorder *r = s->r;
	TmCuResult *out = s->out;
	if (out->pcs && out->npcs == r->pcs.len)
		return;
	out->pcs = xrealloc(out->pcs, (r->pcs.len + 1) * sizeof *out->pcs);
	memset(out->pcs + out->npcs, 0, (r->pcs.len + 1 - out->npcs) * sizeof *out->pcs);
	for (size_t i = out->npcs; i < r->pcs.len; i++) {
		out->pcs[i].pc = r->pcs.data[i].pc;
		out->pcs[i].loop_target = r->pcs.data[i].target;
		memcpy(out->pcs[i].text, r->pcs.data[i].text, sizeof out->pcs[i].text);
	}
	out->npcs = r->pcs.len;
}

/* The kernel's end (written-back data still draining from L2 to HBM ends
 * with it), the issue order, the simulation's memory freed. */
static void sim_finish(Sim *s)
{
	TmCuResult *out = s->out;
	double drain = fmax(fmax(s->hbm_free, s->l2_free), s->mall_free);
	if (drain > (double)out->cycles)
		out->cycles = (uint64_t)ceil(drain);
	for (uint32_t i = 0; i < s->nw; i++) {
		free(s->w[i].reg);
		vec_free(&s->w[i].vm);
		vec_free(&s->w[i].lgkm);
		vec_free(&s->w[i].vm_pc);
		vec_free(&s->w[i].lgkm_pc);
	}
	free(s->w);
	free(s->wg_live);
	free(s->wg_arrived);
	free(s->wg_end);
	free(s->l1.ways);
	free(s->sc.ways);
	free(s->l2seen);
	out->order = s->order.data;
	out->norder = s->order.len;
}

int tm_simulate(const TmRecorder *r, const TmCuConfig *cfg, TmCuResult *out, char *err, size_t err_len)
{
	Sim s;
	sim_init(&s, r, cfg, out, r->wg_count);
	sim_pcs(&s);
	for (uint32_t i = 0; i < s.nw; i++) {
		SWave *w = &s.w[i];
		w->ev = r->waves[i].data;
		w->n = r->waves[i].len;
		w->wg = i / r->nwaves;
		w->age = i;
		s.wg_live[w->wg]++;
	}
	dispatch(&s, 0);
	SWave *w;
	int rc;
	while ((rc = sim_next(&s, &w, err, err_len)) > 0)
		issue(&s, w, s.c, &w->ev[w->i]);
	sim_finish(&s);
	return rc;
}

/* ---- a stream: the CU deciding the emulator's order (order.c) ----
 * The same simulation, fed one instruction at a time: the emulator runs
 * one workgroup at a time, so the CU holds one (resident 1), dispatched
 * when the previous one ended (its memory drained), in slot 0. A wave's
 * next instruction is its preview (decoded, not run); the instruction
 * the emulator then runs is what issues. */
TmSim *tm_sim_stream(const TmRecorder *r, const TmCuConfig *cfg, TmCuResult *out)
{
	Sim *s = xcalloc(1, sizeof *s);
	sim_init(s, r, cfg, out, 1);
	s->stream = true;
	s->nwg = 0;
	out->workgroups = out->waves = 0;
	return s;
}

void tm_sim_stream_wg(TmSim *s)
{
	for (uint32_t i = 0; i < s->nw; i++) {
		SWave *w = &s->w[i];
		Reg *reg = w->reg;
		Times vm = w->vm, lgkm = w->lgkm;
		PcList vm_pc = w->vm_pc, lgkm_pc = w->lgkm_pc;
		memset(w, 0, sizeof *w);
		memset(reg, 0, NREGS * sizeof *reg);
		vm.len = lgkm.len = vm_pc.len = lgkm_pc.len = 0;
		*w = (SWave){.reg = reg, .vm = vm, .lgkm = lgkm, .vm_pc = vm_pc, .lgkm_pc = lgkm_pc, .age = i};
	}
	s->wg_live[0] = s->nw;
	s->wg_arrived[0] = 0;
	s->wg_end[0] = 0;
	s->next_wg = 0;
	s->nwg = 1;
	s->out->workgroups++;
	s->out->waves += s->nw;
	dispatch(s, s->last_end);
}

bool tm_sim_wants_preview(const TmSim *s, uint32_t wave)
{
	return wave < s->nw && !s->w[wave].peek_valid && !s->w[wave].done;
}

void tm_sim_preview(TmSim *s, uint32_t wave, const TEv *t)
{
	s->w[wave].peek = *t;
	s->w[wave].peek_valid = true;
	sim_pcs(s);
}

int tm_sim_next_wave(TmSim *s, char *err, size_t err_len)
{
	SWave *w;
	int rc = sim_next(s, &w, err, err_len);
	return rc > 0 ? (int)(w - s->w) : rc == 0 ? -1 : -2;
}

void tm_sim_issue_wave(TmSim *s, uint32_t wave, const TEv *t)
{
	sim_pcs(s);
	issue(s, &s->w[wave], s->c, t);
}

void tm_sim_free(TmSim *s)
{
	if (!s)
		return;
	sim_finish(s);
	free(s);
}

void tm_cu_result_free(TmCuResult *res)
{
	free(res->order);
	free(res->wg_done);
	free(res->wg_start);
	free(res->pcs);
	memset(res, 0, sizeof *res);
}

double tm_mfma_flops(int op)
{
	const IsaInfo *r = &isa_info[op];
	if (!(r->flags & IF_MFMA))
		return 0;
	int m = 0, n = 0, k = 0, b = 1;
	const char *p = r->name;
	while (*p && !(*p == '_' && sscanf(p, "_%dx%dx%d", &m, &n, &k) == 3))
		p++;
	if (!*p)
		return 0;
	p++;
	const char *blk = strstr(p, "_");
	if (blk && sscanf(blk, "_%db", &b) != 1)
		b = 1;
	return 2.0 * m * n * k * b;
}

TmDtype tm_mfma_dtype_fmt(int op, unsigned mfma_fmt)
{
	TmDtype t = tm_mfma_dtype(op);
	if (t == TM_DT_FP8 && (isa_info[op].flags & IF_F8F6F4) && ((mfma_fmt & 7u) > 1 || (mfma_fmt >> 3 & 7u) > 1))
		return TM_DT_FP4;
	return t;
}

/* Whether arch has MFMA row op: gfx90a's rows have gfx90a passes; gfx942
 * has the rows with gfx942 passes but gfx950's own; gfx950 all of those
 * but xf32 (dropped by CDNA4). */
static bool mfma_on(EmuArch arch, int op)
{
	const IsaInfo *r = &isa_info[op];
	if (arch == EMU_GFX90A)
		return isa_mfma_passes(op, true) > 0;
	if (isa_mfma_passes(op, false) <= 0)
		return false;
	if (arch == EMU_GFX942)
		return !(r->flags & IF_GFX950);
	return strstr(r->name, "xf32") == NULL;
}

double tm_dtype_peak(EmuArch arch, TmDtype dt)
{
	TmParams p;
	tm_params(arch, &p);
	double best = 0;
	for (int op = 0; op < I_COUNT; op++) {
		if (!(isa_info[op].flags & IF_MFMA) || !mfma_on(arch, op))
			continue;
		bool f8f6f4 = isa_info[op].flags & IF_F8F6F4;
		/* an f8f6f4 row: fp8 operands (format 0), or fp4 ones (4) */
		unsigned fmt = dt == TM_DT_FP4 ? 4u | 4u << 3 : 0;
		if (tm_mfma_dtype_fmt(op, fmt) != dt || (f8f6f4 && dt != TM_DT_FP8 && dt != TM_DT_FP4))
			continue;
		int np = isa_mfma_passes_fmt(op, arch == EMU_GFX90A, fmt & 7u, fmt >> 3 & 7u);
		double r = np > 0 ? tm_mfma_flops(op) / (np * p.mfma_pass_cycles) * p.simds : 0;
		if (r > best)
			best = r;
	}
	return best;
}

double tm_cu_mfma_peak(EmuArch arch, const TmCuResult *cu)
{
	double busy = 0, w = 0;
	for (int t = 0; t < TM_NDTYPES; t++) {
		double b = (double)cu->mfma_busy_dt[t];
		busy += b;
		w += b * tm_dtype_peak(arch, (TmDtype)t);
	}
	return busy > 0 ? w / busy : 0;
}

TmDtype tm_mfma_dtype(int op)
{
	const char *name = isa_info[op].name, *t = strrchr(name, '_');
	t = t ? t + 1 : name;
	if (strcmp(t, "f8f6f4") == 0)
		return TM_DT_FP8;
	if (strcmp(t, "xf32") == 0)
		return TM_DT_XF32;
	if (strcmp(t, "bf16") == 0)
		return TM_DT_BF16;
	if (strcmp(t, "fp8") == 0 || strcmp(t, "bf8") == 0)
		return TM_DT_FP8;
	if (strcmp(t, "i8") == 0)
		return TM_DT_I8;
	if (strcmp(t, "f32") == 0 || strcmp(t, "xf32") == 0)
		return TM_DT_F32;
	if (strcmp(t, "f64") == 0)
		return TM_DT_F64;
	return TM_DT_F16;
}
