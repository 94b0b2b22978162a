/* wave.c — launch: workgroup dispatch, wave state, the issue loop, scalar
 * operand access and error reporting.
 *
 * Workgroups run one after another, in the order EmuLaunch.policy.wgs
 * gives (forward by linear id, reverse, or a seeded permutation); they
 * cannot communicate except through global memory atomics, which
 * sequential execution keeps correct. The concurrent order instead keeps
 * every workgroup resident and issues one instruction of each live wave
 * per round (run_concurrent), so spin-waits between workgroups progress; a
 * round where every live wave loops with its state unchanged and nothing
 * was stored since is reported as a hang (note_progress, hung). Inside a workgroup the waves take
 * turns as policy.waves says: one instruction each in turn (interleave,
 * the default), each until it ends or reaches s_barrier (barrier), or a
 * randomly picked one per instruction (random). When every live wave waits
 * at a barrier, all are released. Waves that have ended no longer count
 * toward the barrier (the ISA's S_BARRIER waits only for the surviving
 * waves of the workgroup), and the barrier counts arrivals, not PCs: waves
 * waiting at different s_barrier instructions release one another
 * (policy.barriers makes both an error: check_barrier).
 *
 * Initial state (LLVM AMDGPUUsage, "Initial Kernel Execution State"): user SGPRs from s0 in the KD's order
 * (only those the KD enables; the kernarg pointer is the one that matters,
 * the others get plausible values), then the workgroup ids, then workgroup
 * info; v0 holds the packed work-item ids X | Y<<10 | Z<<20; EXEC the live
 * lanes of the wave. Everything else is zero, or with policy.fill garbage
 * a seeded pattern drawn per workgroup (LDS, scratch) and per wave
 * (registers), the same whatever the order. Instructions are decoded once
 * into a cache covering the code region that holds the entry point. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../util/util.h"
#include "emu_int.h"

/* Default cap on wave instructions per launch: about 15 s at the measured
 * ~6 M wave instructions/s, far above the largest validation kernel (a
 * 512^3 GEMM through LDS: 183k), so a runaway loop fails a test quickly. */
enum { DEFAULT_CAP = 100000000u };
/* Largest private segment per work-item the emulator allocates (host memory
 * is 64 bytes per byte per wave); the registers per lane of a SIMD. */
enum { EMU_MAX_PRIVATE = 128 * 1024, EMU_SIMD_REGS = 512 };
/* The concurrent order keeps every workgroup's state at once: at most this
 * many workgroups and bytes of registers, LDS and scratch. */
enum { EMU_MAX_RESIDENT = 4096 };
#define EMU_MAX_RESIDENT_BYTES (UINT64_C(1) << 30)

/* ---- the policy: names, the seeded generator, the workgroup order, garbage ---- */

enum { POLICY_MODES = 4 };
static const char *const POLICY_NAMES[4][POLICY_MODES] = {
	[EMU_POLICY_WAVES] = {[EMU_WAVES_INTERLEAVE] = "interleave", [EMU_WAVES_BARRIER] = "barrier", [EMU_WAVES_RANDOM] = "random",
		[EMU_WAVES_MODEL] = "model"},
	[EMU_POLICY_WGS] = {[EMU_WGS_FORWARD] = "forward", [EMU_WGS_REVERSE] = "reverse", [EMU_WGS_RANDOM] = "random",
		[EMU_WGS_CONCURRENT] = "concurrent"},
	[EMU_POLICY_FILL] = {[EMU_FILL_ZERO] = "zero", [EMU_FILL_GARBAGE] = "garbage"},
	[EMU_POLICY_MEMORY] = {[EMU_MEMORY_NOW] = "immediate", [EMU_MEMORY_LATE] = "late"},
};

int emu_policy_parse(EmuPolicyField f, const char *s)
{
	if ((unsigned)f > EMU_POLICY_MEMORY)
		return -1;
	for (int i = 0; i < POLICY_MODES; i++)
		if (POLICY_NAMES[f][i] && strcmp(s, POLICY_NAMES[f][i]) == 0)
			return i;
	return -1;
}

const char *emu_policy_name(EmuPolicyField f, int mode)
{
	const char *n = (unsigned)f <= EMU_POLICY_MEMORY && mode >= 0 && mode < POLICY_MODES ? POLICY_NAMES[f][mode] : NULL;
	return n ? n : "?";
}

/* splitmix64: its finaliser, and the generator stepping a state */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t rng_next(uint64_t *s) { return mix64(*s += UINT64_C(0x9e3779b97f4a7c15)); }

/* The generator state for workgroup `wg`'s stream `what` (0: the wave
 * order, 1: LDS and scratch, 2 + i: wave i's registers; workgroup 0's
 * stream 63: the workgroup order): independent of the order the workgroups
 * run in. */
static uint64_t stream(uint64_t seed, uint64_t wg, uint64_t what)
{
	return mix64(mix64(seed) ^ mix64(wg * 64 + what + 1));
}

/* Fill with the seeded pattern: random dwords, none of them zero. */
static void fill_garbage(void *p, size_t bytes, uint64_t *s)
{
	uint8_t *b = p;
	for (size_t i = 0; i < bytes; i += 8) {
		uint64_t x = rng_next(s);
		if (!(uint32_t)x)
			x |= 0x5a5a5a5au;
		if (!(x >> 32))
			x |= UINT64_C(0xa5a5a5a5) << 32;
		memcpy(b + i, &x, bytes - i < 8 ? bytes - i : 8);
	}
}

/* The workgroup order: the i-th workgroup to run, by linear id. The random
 * order is a seeded bijection of [0, 2^bits) (multiplications by odd
 * numbers, xor-shifts, additions) walked until it lands below n. */
typedef struct {
	EmuWgOrder order;
	uint64_t n, mask, key[3];
	unsigned shift;
} WgOrder;

static void wg_order_init(WgOrder *o, EmuWgOrder order, uint64_t n, uint64_t seed)
{
	unsigned bits = 0;
	while (bits < 64 && (UINT64_C(1) << bits) < n)
		bits++;
	*o = (WgOrder){.order = order, .n = n, .mask = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1,
		       .shift = bits / 2 + 1};
	uint64_t s = stream(seed, 0, 63);
	for (int i = 0; i < 3; i++)
		o->key[i] = rng_next(&s);
}

static uint64_t wg_at(const WgOrder *o, uint64_t i)
{
	switch (o->order) {
	case EMU_WGS_REVERSE: return o->n - 1 - i;
	case EMU_WGS_RANDOM:
		do {
			for (int r = 0; r < 3; r++) {
				i = (i * (o->key[r] | 1)) & o->mask;
				i ^= i >> o->shift;
				i = (i + (o->key[r] >> 17)) & o->mask;
			}
		} while (i >= o->n);
		return i;
	default: return i;
	}
}

/* ---- the issue loop ---- */

/* The decoded instruction at pc, or NULL with *why 1 (pc outside the
 * code region or unaligned) or 2 (it runs past the region's end). */
static const Inst *decoded_at(Emu *e, uint64_t pc, int *why)
{
	CodeCache *c = &e->code;
	if (pc < c->base || pc >= c->base + c->size || (pc & 3)) {
		*why = 1;
		return NULL;
	}
	size_t slot = (size_t)((pc - c->base) / 4);
	CodePage **pg = &c->pages[slot / CODE_PAGE];
	if (!*pg)
		*pg = xcalloc(1, sizeof **pg);
	slot %= CODE_PAGE;
	if (!(*pg)->state[slot]) {
		size_t avail = (size_t)(c->base + c->size - pc);
		if (emu_decode(e->arch, c->host + (pc - c->base), avail, &(*pg)->insts[slot]) == 0) {
			*why = 2;
			return NULL;
		}
		(*pg)->state[slot] = 1;
	}
	return &(*pg)->insts[slot];
}

static const Inst *fetch(Emu *e, Wave *w)
{
	CodeCache *c = &e->code;
	uint64_t pc = w->pc;
	int why = 0;
	const Inst *in = decoded_at(e, pc, &why);
	if (why == 1)
		emu_fail(e, w, NULL, "program counter 0x%llx outside the code region [0x%llx, 0x%llx)",
			 (unsigned long long)pc, (unsigned long long)c->base, (unsigned long long)(c->base + c->size));
	else if (why == 2)
		emu_fail(e, w, NULL, "instruction at 0x%llx runs past the end of the code region", (unsigned long long)pc);
	return in;
}


static void trace(Emu *e, Wave *w, const Inst *in)
{
	char dis[200];
	emu_print(in, w->pc, dis, sizeof dis);
	fprintf(stderr, "[wg %u,%u,%u w%u] %llx: %s  exec=%016llx\n", e->wg->id[0], e->wg->id[1], e->wg->id[2],
		w->id, (unsigned long long)w->pc, dis, (unsigned long long)w->exec);
}

/* ---- the recording hook ---- */

/* Whether the hook's sample holds workgroup `lin` (a range, or an
 * ascending list searched by halves). */
static bool hook_runs(const EmuHook *h, uint64_t lin)
{
	if (h->wg_nids) {
		size_t lo = 0, hi = h->wg_nids;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (h->wg_ids[mid] < lin)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo < h->wg_nids && h->wg_ids[lo] == lin;
	}
	return !h->wg_count || (lin >= h->wg_first && lin - h->wg_first < h->wg_count);
}

static void set_reg(uint16_t *first, uint16_t *n, unsigned reg, int width)
{
	*first = (uint16_t)reg;
	*n = (uint16_t)(width > 0 ? width : 0);
}

/* A VALU operand code's VGPR (AGPR with `acc`), or none. */
static void valu_src(const Inst *in, int i, unsigned acc, EmuEvent *ev)
{
	unsigned c = in->src[i];
	if (c >= SRC_VGPR)
		set_reg(&ev->vsrc[i], &ev->nvsrc[i], c - SRC_VGPR + acc, emu_operand_width(in, i));
}

/* The VGPRs an instruction reads and writes, in the unified file. */
static void event_regs(const Wave *w, const Inst *in, EmuEvent *ev)
{
	const IsaInfo *r = &isa_info[in->id];
	unsigned acc = w->accum_offset;
	switch (in->fmt) {
	case FMT_VOP1: case FMT_VOP2: case FMT_VOPC: case FMT_VOP3: case FMT_VOP3P:
		if (r->flags & IF_MFMA) {
			set_reg(&ev->vdst, &ev->nvdst, in->dst + (in->acc_cd ? acc : 0), r->dst);
			valu_src(in, 0, in->acc_a ? acc : 0, ev);
			valu_src(in, 1, in->acc_b ? acc : 0, ev);
			valu_src(in, 2, in->acc_cd ? acc : 0, ev);
			return;
		}
		for (int i = 0; i < 3; i++)
			valu_src(in, i, i == 0 && (in->id == I_V_ACCVGPR_READ_B32 || in->id == I_V_ACCVGPR_MOV_B32) ? acc : 0, ev);
		if (r->fmt != FMT_VOPC && !(r->flags & IF_SDST))
			set_reg(&ev->vdst, &ev->nvdst, in->dst + (in->id == I_V_ACCVGPR_WRITE_B32 || in->id == I_V_ACCVGPR_MOV_B32 ? acc : 0),
				emu_operand_width(in, -1));
		return;
	case FMT_DS: case FMT_MUBUF: case FMT_FLAT: {
		unsigned a = in->acc ? acc : 0;
		if (isa_cache_op(in->id)) /* no operands */
			return;
		set_reg(&ev->vsrc[0], &ev->nvsrc[0], in->addr, in->fmt == FMT_FLAT && in->saddr == 0x7f && in->seg != 1 ? 2 : 1);
		if (r->flags & (IF_STORE | IF_ATOMIC))
			set_reg(&ev->vsrc[1], &ev->nvsrc[1], (in->fmt == FMT_MUBUF ? in->dst : in->data0) + a, r->dst);
		if (r->flags & IF_LOAD)
			set_reg(&ev->vdst, &ev->nvdst, in->dst + a, r->dst * (ev->two ? 2 : 1));
		return;
	}
	default: return;
	}
}

static void record(Emu *e, Wave *w, const Inst *in, uint64_t pc, uint64_t exec)
{
	EmuEvent ev = {.wg = e->wg_linear, .wave = w->id, .pc = pc, .next_pc = w->done ? pc : w->at_barrier ? pc + 4 : w->pc,
		       .op = in->id, .fmt = in->fmt, .mfma_fmt = (uint8_t)(in->cbsz | in->blgp << 3), .imm = in->imm, .exec = exec, .inst = in};
	if (e->cap_mask || e->cap_space) {
		ev.addr = e->cap_addr;
		ev.amask = e->cap_mask;
		ev.lane_bytes = e->cap_bytes;
		ev.two = e->cap_two;
		ev.space = e->cap_space;
	}
	event_regs(w, in, &ev);
	e->hook->on_inst(e->hook->ctx, &ev);
	e->recorded++;
	e->cap_mask = 0;
	e->cap_space = 0;
}

void emu_event_text(const EmuEvent *ev, char *buf, size_t len)
{
	emu_print((const Inst *)ev->inst, ev->pc, buf, len);
}

/* A VALU instruction under s_set_gpr_idx_on: each VGPR operand whose bit
 * is set in M0[15:12] (src0, src1, src2, dst) is offset by M0[7:0]. */
static const Inst *gpr_indexed(const Wave *w, const Inst *in, Inst *out)
{
	unsigned mode = (w->m0 >> 12) & 15, idx = w->m0 & 0xff;
	*out = *in;
	for (int i = 0; i < 3; i++)
		if ((mode >> i & 1) && out->src[i] >= SRC_VGPR)
			out->src[i] = (uint16_t)(out->src[i] + idx);
	const IsaInfo *r = &isa_info[in->id];
	if ((mode & 8) && r->fmt != FMT_VOPC && !(r->flags & IF_SDST))
		out->dst = (uint16_t)(out->dst + idx);
	return out;
}

/* ---- the concurrent order's spin detection ----
 * A wave's state (pc, SGPRs, EXEC, M0, SCC, its VGPRs and AGPRs) hashed
 * where it takes a backward branch; when a hash recurs at the same pc with
 * no store or atomic executed anywhere since, the loop has come back to
 * where it was and only another wave's store can change its course: the
 * wave is stuck. A loop with a counter never repeats its state. */
static uint64_t wave_hash(const Wave *w)
{
	uint64_t h = mix64(w->pc ^ w->exec) ^ mix64(((uint64_t)w->m0 << 1) | w->scc);
	for (unsigned i = 0; i < NUM_SGPRS; i += 2)
		h = mix64(h ^ (w->sgpr[i] | (uint64_t)w->sgpr[i + 1] << 32));
	const uint64_t *v = (const uint64_t *)w->vgpr;
	for (size_t i = 0; i < (size_t)w->nregs * 32; i++)
		h = (h ^ v[i]) * UINT64_C(0x100000001b3) + (h >> 29);
	return mix64(h);
}

static void note_progress(Emu *e, Wave *w, const Inst *in, uint64_t pc0)
{
	uint64_t f = isa_info[in->id].flags;
	if (f & (IF_STORE | IF_ATOMIC)) {
		e->stores++;
		return;
	}
	if (!(f & IF_BRANCH) || w->done || w->pc > pc0)
		return;
	uint64_t h = wave_hash(w);
	unsigned k = (unsigned)(w->pc >> 2) & 3;
	if (w->spin[k].pc == w->pc && w->spin[k].hash == h && w->spin[k].stores == e->stores) {
		w->stuck = true;
		w->stuck_stores = e->stores;
	}
	w->spin[k].pc = w->pc;
	w->spin[k].hash = h;
	w->spin[k].stores = e->stores;
}

/* Issue one instruction of w. */
static void issue(Emu *e, Wave *w)
{
	const Inst *in = fetch(e, w);
	if (!in)
		return;
	if (e->l->trace)
		trace(e, w, in);
	if (++e->executed > e->cap) {
		emu_fail(e, w, in, "instruction limit of %llu reached (runaway loop? raise it with --max-instructions N)",
			 (unsigned long long)e->cap);
		return;
	}
	if (in->id == I_UNKNOWN) {
		emu_fail(e, w, in, "unknown instruction encoding");
		return;
	}
	if ((isa_info[in->id].flags & IF_GFX950) && e->arch != EMU_GFX950) {
		emu_fail(e, w, in, "%s is a gfx950 instruction (the code object is for another processor)",
			 emu_inst_name(in));
		return;
	}
	if (e->watch && e->late && !emu_late_before(e, w, in)) /* one test when the modes are off */
		return;
	uint64_t pc0 = w->pc, exec0 = w->exec;
	bool sets_pc = false;
	bool vector = in->fmt >= FMT_VOP1;
	if (w->vskip && vector) { /* s_setvskip: skipped, as a no-op */
		w->pc += 4u * in->words;
		return;
	}
	Inst indexed;
	if (w->gpr_idx && vector && in->fmt <= FMT_VOP3P)
		in = gpr_indexed(w, in, &indexed);
	switch (in->fmt) {
	case FMT_SOP1: case FMT_SOP2: case FMT_SOPK: case FMT_SOPC: case FMT_SOPP:
		emu_exec_salu(e, w, in);
		sets_pc = true; /* SALU sets the pc itself */
		break;
	case FMT_SMEM: emu_exec_smem(e, w, in); break;
	case FMT_VOP3P:
		if (isa_info[in->id].flags & IF_MFMA)
			emu_exec_mfma(e, w, in);
		else
			emu_exec_valu(e, w, in);
		break;
	case FMT_VOP1: case FMT_VOP2: case FMT_VOPC: case FMT_VOP3: emu_exec_valu(e, w, in); break;
	case FMT_DS: emu_exec_ds(e, w, in); break;
	case FMT_MUBUF: case FMT_FLAT: emu_exec_vmem(e, w, in); break;
	default: emu_fail(e, w, in, "unimplemented instruction %s", emu_inst_name(in)); return;
	}
	if (e->failed)
		return;
	if (e->watch) {
		emu_watch_settle(e, w, in);
		if (e->failed)
			return;
		if (e->late)
			emu_late_after(e, w, in);
	}
	if (!sets_pc)
		w->pc += 4u * in->words;
	if (e->hook)
		record(e, w, in, pc0, exec0);
	if (e->concurrent)
		note_progress(e, w, in, pc0);
}

static inline bool ready(const Wave *w) { return !w->done && !w->at_barrier; }

/* The wave that issues after w (w NULL: the first), or NULL when every wave
 * has ended or waits at a barrier. */
static inline Wave *next_wave(Workgroup *g, Wave *w, EmuWaveOrder order, uint64_t *rng)
{
	uint32_t n = g->nwaves;
	if (order == EMU_WAVES_RANDOM) {
		uint32_t pick[16], m = 0; /* at most 1024 work-items: 16 waves */
		for (uint32_t i = 0; i < n; i++)
			if (ready(&g->waves[i]))
				pick[m++] = i;
		return m ? &g->waves[pick[rng_next(rng) % m]] : NULL;
	}
	if (w && order == EMU_WAVES_BARRIER && ready(w))
		return w;
	uint32_t i = w ? w->id : n - 1;
	for (uint32_t k = 0; k < n; k++) {
		if (++i == n)
			i = 0;
		if (ready(&g->waves[i]))
			return &g->waves[i];
	}
	return NULL;
}

/* policy.barriers: every wave of the workgroup waits at the same
 * s_barrier when the barrier is released; a wave that has ended while
 * others wait (it skipped a barrier they take), or waves at different
 * s_barrier instructions (they took different paths to them), fail the
 * launch naming both waves. The hardware would release them anyway; code
 * whose waves disagree on their barriers is not what the compiler means. */
static void check_barrier(Emu *e, Workgroup *g)
{
	const Wave *first = NULL;
	for (uint32_t i = 0; i < g->nwaves; i++)
		if (g->waves[i].at_barrier) {
			first = &g->waves[i];
			break;
		}
	if (!first)
		return;
	for (uint32_t i = 0; i < g->nwaves && !e->failed; i++) {
		Wave *w = &g->waves[i];
		if (w->at_barrier && w->pc != first->pc)
			emu_fail(e, w, NULL, "waves of one workgroup wait at different s_barrier instructions: wave %u at 0x%llx, "
				"this one", first->id, (unsigned long long)first->pc);
		else if (!w->at_barrier && first)
			emu_fail(e, w, NULL, "wave ended without the s_barrier at 0x%llx that wave %u waits at",
				(unsigned long long)first->pc, first->id);
	}
}

/* No wave can issue: every surviving wave waits at a barrier; release them
 * (ended waves no longer count toward the barrier, as on hardware). False
 * when none waited (every wave has ended) or policy.barriers failed. */
static bool release_barrier(Emu *e, Workgroup *g)
{
	if (e->l->policy.barriers) {
		check_barrier(e, g);
		if (e->failed)
			return false;
	}
	bool live = false;
	for (uint32_t i = 0; i < g->nwaves; i++)
		if (g->waves[i].at_barrier) {
			g->waves[i].at_barrier = false;
			g->waves[i].pc += 4;
			live = true;
		}
	if (live)
		e->epoch++; /* the race detector's barrier epoch */
	return live;
}

/* Run the workgroup's waves to their ends (or the first failure), releasing
 * them whenever every live wave waits at a barrier. */
static void run_workgroup(Emu *e, Workgroup *g)
{
	EmuWaveOrder order = e->l->policy.waves;
	uint64_t rng = stream(e->l->policy.seed, e->wg_linear, 0);
	for (;;) {
		for (Wave *w = next_wave(g, NULL, order, &rng); w; w = next_wave(g, w, order, &rng)) {
			issue(e, w);
			if (e->failed)
				return;
		}
		if (!release_barrier(e, g))
			return;
	}
}

/* ---- the model order: the hook's pick names each wave that issues ---- */

enum { MAX_WAVES = 16 }; /* 1024 work-items */

/* Wave w's next instruction as an event, decoded and not run (pc, op, fmt,
 * imm, EXEC, registers, no addresses, next_pc = pc) into *ev, its
 * instruction (VGPR-indexed under s_set_gpr_idx_on) into *keep. A pc that
 * does not decode gives an unknown instruction: issuing it fails with the
 * message. */
static void peek(Emu *e, Wave *w, EmuEvent *ev, Inst *keep)
{
	int why = 0;
	const Inst *in = decoded_at(e, w->pc, &why);
	if (!in) {
		memset(keep, 0, sizeof *keep);
		in = keep;
	} else if (w->gpr_idx && in->fmt >= FMT_VOP1 && in->fmt <= FMT_VOP3P) {
		in = gpr_indexed(w, in, keep);
	}
	*ev = (EmuEvent){.wg = e->wg_linear, .wave = w->id, .pc = w->pc, .next_pc = w->pc, .op = in->id, .fmt = in->fmt,
			 .mfma_fmt = (uint8_t)(in->cbsz | in->blgp << 3), .imm = in->imm, .exec = w->exec, .inst = in};
	event_regs(w, in, ev);
}

/* The waves' previews: next[i] = &ev[i] when wave i can issue, else NULL. */
static void peek_all(Emu *e, Workgroup *g, EmuEvent *ev, Inst *keep, const EmuEvent **next)
{
	for (uint32_t i = 0; i < g->nwaves; i++) {
		next[i] = NULL;
		if (ready(&g->waves[i])) {
			peek(e, &g->waves[i], &ev[i], &keep[i]);
			next[i] = &ev[i];
		}
	}
}

/* EMU_WAVES_MODEL: the hook (the cycle model, loader/timing/order.c)
 * picks each instruction's wave from the previews of the waves that can
 * issue; a barrier is released as soon as every surviving wave waits at
 * it, the moment the model releases it too. */
static void run_workgroup_model(Emu *e, Workgroup *g)
{
	const EmuHook *h = e->hook;
	EmuEvent ev[MAX_WAVES];
	Inst keep[MAX_WAVES];
	const EmuEvent *next[MAX_WAVES];
	h->wg_begin(h->ctx, e->wg_linear, g->nwaves);
	peek_all(e, g, ev, keep, next);
	for (;;) {
		int k = h->pick(h->ctx, next, g->nwaves);
		if (k < 0) { /* the model's waves have ended: so must the emulator's */
			for (uint32_t i = 0; i < g->nwaves && !e->failed; i++)
				if (!g->waves[i].done)
					emu_fail(e, &g->waves[i], NULL, "the cycle model's wave order ended with this wave still "
						 "running (wave order model)");
			return;
		}
		if ((uint32_t)k >= g->nwaves || !next[k]) {
			emu_fail(e, &g->waves[(uint32_t)k < g->nwaves ? (uint32_t)k : 0], NULL,
				 "the cycle model's wave order picked wave %d, which cannot issue (wave order model)", k);
			return;
		}
		Wave *w = &g->waves[k];
		uint64_t seen = e->recorded;
		issue(e, w);
		if (e->failed)
			return;
		if (e->recorded == seen) { /* skipped (s_setvskip): reported as decoded */
			ev[k].next_pc = w->pc;
			h->on_inst(h->ctx, &ev[k]);
		}
		next[k] = NULL;
		if (ready(w)) {
			peek(e, w, &ev[k], &keep[k]);
			next[k] = &ev[k];
		}
		bool waiting = false, running = false;
		for (uint32_t i = 0; i < g->nwaves; i++) {
			waiting |= g->waves[i].at_barrier;
			running |= ready(&g->waves[i]);
		}
		if (waiting && !running) {
			if (!release_barrier(e, g))
				return;
			peek_all(e, g, ev, keep, next);
		}
	}
}

/* The SGPRs the hardware initialises: the user SGPRs, then the system
 * SGPRs (workgroup ids, workgroup info, and on gfx90a the private segment
 * wave offset; gfx942's architected flat scratch has none). */
static unsigned abi_sgprs(const EmuLaunch *l)
{
	const KernelDescriptor *kd = &l->kd;
	unsigned n = kd->user_sgpr_count + kd->enable_wgid[0] + kd->enable_wgid[1] + kd->enable_wgid[2] +
		     kd->enable_wg_info + (l->arch == EMU_GFX90A && kd->enable_private_segment);
	return n < NUM_SGPRS ? n : NUM_SGPRS;
}

/* gfx90a's private segment wave offset: the byte offset of the wave's
 * scratch in the queue's scratch buffer, which the kernel adds to the
 * private segment buffer V#'s base (or passes as soffset). Nonzero and
 * different per wave, so that code that forgets it (or adds it twice)
 * reaches outside the lane's private bytes instead of passing by chance. */
static void private_offset(const EmuLaunch *l, Wave *w)
{
	const KernelDescriptor *kd = &l->kd;
	w->priv_offset = 0;
	if (l->arch != EMU_GFX90A || !kd->enable_private_segment)
		return;
	unsigned s = kd->user_sgpr_count + kd->enable_wgid[0] + kd->enable_wgid[1] + kd->enable_wgid[2] +
		     kd->enable_wg_info;
	w->priv_offset = (w->id + 1) << 20;
	if (s < NUM_SGPRS)
		w->sgpr[s] = w->priv_offset;
}

static void init_wave(Emu *e, Workgroup *g, Wave *w, uint32_t first_item, uint32_t items)
{
	const EmuLaunch *l = e->l;
	const KernelDescriptor *kd = &l->kd;
	if (l->policy.fill == EMU_FILL_GARBAGE) {
		/* the ABI's SGPRs get their values or 0 below, everything
		 * else a pattern of this wave's own */
		uint64_t s = stream(l->policy.seed, e->wg_linear, 2 + w->id);
		fill_garbage(w->sgpr, sizeof w->sgpr, &s);
		memset(w->sgpr, 0, abi_sgprs(l) * sizeof *w->sgpr);
		uint64_t x = rng_next(&s);
		w->m0 = (uint32_t)x | 1;
		w->scc = x >> 63;
		fill_garbage(w->vgpr, (size_t)w->nregs * 64 * sizeof *w->vgpr, &s);
	} else {
		/* VGPRs are zeroed once per launch (xcalloc), not per
		 * workgroup: like hardware, a later workgroup sees what an
		 * earlier wave left there. Clearing 128 KiB per wave would
		 * dominate short kernels. */
		memset(w->sgpr, 0, sizeof w->sgpr);
		w->m0 = 0;
		w->scc = false;
	}
	w->exec = items >= 64 ? ~0ull : ((1ull << items) - 1);
	w->done = w->at_barrier = false;
	if (w->late)
		emu_late_start(w);
	w->pc = l->kd_addr + (uint64_t)kd->kernel_code_entry_byte_offset;
	if (kd->sgpr_kernarg_ptr >= 0) {
		w->sgpr[kd->sgpr_kernarg_ptr] = (uint32_t)l->kernarg_addr;
		w->sgpr[kd->sgpr_kernarg_ptr + 1] = (uint32_t)(l->kernarg_addr >> 32);
	}
	if (kd->sgpr_private_segment_buffer >= 0 && kd->sgpr_private_segment_buffer + 3 < NUM_SGPRS) {
		/* base 0: the wave's offset comes in its own SGPR */
		uint32_t *v = &w->sgpr[kd->sgpr_private_segment_buffer];
		v[0] = 0, v[1] = EMU_PRIVATE_VSHARP_HI, v[2] = 0xffffffffu, v[3] = 1u << 23; /* add_tid */
	}
	if (kd->sgpr_dispatch_id >= 0)
		w->sgpr[kd->sgpr_dispatch_id] = 1;
	for (int d = 0; d < 3; d++)
		if (kd->sgpr_wgid[d] >= 0)
			w->sgpr[kd->sgpr_wgid[d]] = g->id[d];
	if (kd->sgpr_wg_info >= 0)
		w->sgpr[kd->sgpr_wg_info] = g->nwaves;
	private_offset(l, w);
	uint32_t *v0 = vreg(w, 0);
	uint32_t sx = l->wg_size[0], sy = l->wg_size[1];
	for (uint32_t lane = 0; lane < 64 && lane < items; lane++) {
		uint32_t t = first_item + lane;
		uint32_t x = t % sx, y = (t / sx) % sy, z = t / (sx * sy);
		if (kd->vgpr_workitem_id < 1)
			y = 0;
		if (kd->vgpr_workitem_id < 2)
			z = 0;
		v0[lane] = x | y << 10 | z << 20;
	}
}

static int check_launch(const EmuLaunch *l, char *err, size_t n)
{
	const KernelDescriptor *kd = &l->kd;
	uint64_t items = (uint64_t)l->wg_size[0] * l->wg_size[1] * l->wg_size[2];
	if (items == 0 || items > 1024) {
		snprintf(err, n, "workgroup size %ux%ux%u: need 1..1024 work-items", l->wg_size[0], l->wg_size[1], l->wg_size[2]);
		return -1;
	}
	if (l->wg_size[0] > 1024 || l->wg_size[1] > 1024 || l->wg_size[2] > 1024) {
		snprintf(err, n, "workgroup dimension above 1024");
		return -1;
	}
	if (kd->wavefront_size32) {
		snprintf(err, n, "kernel descriptor asks for wave32, which gfx9 does not have");
		return -1;
	}
	/* a workgroup's LDS: 64 KiB, 160 KiB on gfx950 (CDNA4 ISA guide) */
	uint64_t lds_max = l->arch == EMU_GFX950 ? 163840 : 65536;
	if ((uint64_t)kd->group_segment_fixed_size + l->dynamic_lds > lds_max) {
		snprintf(err, n, "LDS of %llu bytes exceeds the %llu-byte limit",
			 (unsigned long long)kd->group_segment_fixed_size + l->dynamic_lds, (unsigned long long)lds_max);
		return -1;
	}
	if (kd->private_segment_fixed_size > EMU_MAX_PRIVATE) {
		snprintf(err, n, "private segment of %u bytes per work-item exceeds the emulator's %u", kd->private_segment_fixed_size,
			 EMU_MAX_PRIVATE);
		return -1;
	}
	if (l->grid[2] && (uint64_t)l->grid[0] * l->grid[1] > UINT64_MAX / l->grid[2]) {
		snprintf(err, n, "grid of %ux%ux%u workgroups: more than 2^64", l->grid[0], l->grid[1], l->grid[2]);
		return -1;
	}
	if ((unsigned)l->policy.waves > EMU_WAVES_MODEL || (unsigned)l->policy.wgs > EMU_WGS_CONCURRENT ||
	    (unsigned)l->policy.fill > EMU_FILL_GARBAGE || (unsigned)l->policy.memory > EMU_MEMORY_LATE) {
		snprintf(err, n, "unknown wave order, workgroup order, fill or memory mode");
		return -1;
	}
	if (l->policy.wgs == EMU_WGS_CONCURRENT && (l->policy.memory == EMU_MEMORY_LATE || l->policy.races || l->hook)) {
		snprintf(err, n, "the concurrent workgroup order does not run with late memory, the race detector or a "
			"recording hook");
		return -1;
	}
	if (l->policy.waves == EMU_WAVES_MODEL &&
	    (!l->hook || !l->hook->pick || !l->hook->wg_begin || !l->hook->on_inst || l->hook->wg_count || l->hook->wg_nids)) {
		snprintf(err, n, "the model wave order needs the cycle model's scheduler as the launch's hook (tm_order_hook), "
			"over the whole grid");
		return -1;
	}
	if (kd->accum_offset > kd->vgpr_alloc && kd->vgpr_alloc) {
		snprintf(err, n, "accum_offset %u beyond the %u allocated registers", kd->accum_offset, kd->vgpr_alloc);
		return -1;
	}
	/* A workgroup runs on one CU, its waves spread over the 4 SIMDs, all
	 * resident at once (they meet at barriers); a SIMD's register file
	 * holds 512 VGPRs+AGPRs per lane (gfx90a, gfx942, gfx950): a
	 * workgroup whose waves cannot all hold their allocation there could
	 * not launch on hardware. (The emulator itself needs no such limit.) */
	uint64_t waves = (items + 63) / 64, per_simd = (waves + 3) / 4;
	if (kd->vgpr_alloc && per_simd * kd->vgpr_alloc > EMU_SIMD_REGS) {
		snprintf(err, n,
			"workgroup of %llu waves puts %llu on each SIMD, whose %d registers per lane hold %llu of %u VGPRs "
			"and AGPRs each: it could not launch",
			(unsigned long long)waves, (unsigned long long)per_simd, EMU_SIMD_REGS,
			(unsigned long long)(EMU_SIMD_REGS / kd->vgpr_alloc), kd->vgpr_alloc);
		return -1;
	}
	return 0;
}

/* ---- the concurrent order ---- */

/* A hang: every live wave is stuck or waits at a barrier, and one is stuck
 * with no store since. Fails the launch naming up to four stuck waves. */
static bool hung(Emu *e, Workgroup *gs, uint64_t n)
{
	Wave *first = NULL;
	Workgroup *fg = NULL;
	for (uint64_t k = 0; k < n; k++)
		for (uint32_t i = 0; !gs[k].finished && i < gs[k].nwaves; i++) {
			Wave *w = &gs[k].waves[i];
			bool stuck = w->stuck && w->stuck_stores == e->stores;
			if (!w->done && !w->at_barrier && !stuck)
				return false;
			if (stuck && !first)
				first = w, fg = &gs[k];
		}
	if (!first)
		return false;
	char more[256] = "";
	size_t len = 0;
	int listed = 0;
	for (uint64_t k = 0; k < n && listed < 4; k++)
		for (uint32_t i = 0; !gs[k].finished && i < gs[k].nwaves && listed < 4; i++) {
			Wave *w = &gs[k].waves[i];
			if (w == first || !w->stuck || w->done || len >= sizeof more)
				continue;
			len += (size_t)snprintf(more + len, sizeof more - len, "%s(%u,%u,%u) wave %u at 0x%llx",
				listed ? ", " : "; also ", gs[k].id[0], gs[k].id[1], gs[k].id[2], w->id,
				(unsigned long long)w->pc);
			listed++;
		}
	e->wg = fg;
	emu_fail(e, first, NULL, "hang: every running wave loops without change and nothing was stored since (a "
		"spin-wait no workgroup will release)%s", more);
	return true;
}

/* Run the resident workgroups gs[0..n) (linear ids lin) round by round:
 * each live wave of each workgroup issues one instruction; a workgroup
 * whose live waves all wait at a barrier is released, one whose waves have
 * all ended is finished. */
static void run_concurrent(Emu *e, Workgroup *gs, const uint64_t *lin, uint64_t n)
{
	for (;;) {
		bool live = false;
		for (uint64_t k = 0; k < n; k++) {
			Workgroup *g = &gs[k];
			if (g->finished)
				continue;
			e->wg = g;
			e->wg_linear = (uint32_t)lin[k];
			bool ran = false;
			for (uint32_t i = 0; i < g->nwaves; i++)
				if (ready(&g->waves[i])) {
					issue(e, &g->waves[i]);
					ran = true;
					if (e->failed)
						return;
				}
			if (ran) {
				live = true;
				continue;
			}
			if (e->l->policy.barriers) {
				check_barrier(e, g);
				if (e->failed)
					return;
			}
			bool waiting = false;
			for (uint32_t i = 0; i < g->nwaves; i++)
				if (g->waves[i].at_barrier) {
					g->waves[i].at_barrier = false;
					g->waves[i].pc += 4;
					waiting = true;
				}
			g->finished = !waiting;
			live |= waiting;
		}
		if (!live || hung(e, gs, n))
			return;
	}
}

/* Every workgroup of the grid resident at once (EMU_WGS_CONCURRENT): their
 * state allocated up front, bounded by EMU_MAX_RESIDENT workgroups and
 * EMU_MAX_RESIDENT_BYTES of registers, LDS and scratch. */
static int launch_concurrent(Emu *e, uint64_t total, uint32_t items, uint64_t *nwaves)
{
	const EmuLaunch *l = e->l;
	const KernelDescriptor *kd = &l->kd;
	uint32_t waves = (items + 63) / 64, nregs = kd->vgpr_alloc ? kd->vgpr_alloc : 512;
	uint32_t lds = kd->group_segment_fixed_size + l->dynamic_lds, priv = (kd->private_segment_fixed_size + 3u) & ~3u;
	uint64_t per = (uint64_t)waves * ((uint64_t)nregs * 256 + 64u * priv) + lds;
	if (total > EMU_MAX_RESIDENT || total * per > EMU_MAX_RESIDENT_BYTES) {
		snprintf(e->err, e->err_len, "concurrent workgroup order: the grid's %llu workgroups of %llu bytes each do not "
			"fit (at most %u, %llu MiB)", (unsigned long long)total, (unsigned long long)per,
			(unsigned)EMU_MAX_RESIDENT, (unsigned long long)(EMU_MAX_RESIDENT_BYTES >> 20));
		return -1;
	}
	Workgroup *gs = xcalloc(total ? total : 1, sizeof *gs);
	uint64_t *lin = xcalloc(total ? total : 1, sizeof *lin);
	bool garbage = l->policy.fill == EMU_FILL_GARBAGE;
	for (uint64_t k = 0; k < total; k++) {
		Workgroup *g = &gs[k];
		lin[k] = k;
		g->id[0] = (uint32_t)(k % l->grid[0]);
		g->id[1] = (uint32_t)(k / l->grid[0] % l->grid[1]);
		g->id[2] = (uint32_t)(k / l->grid[0] / l->grid[1]);
		g->nwaves = waves;
		g->lds_size = lds;
		g->lds = xcalloc(lds ? lds : 1, 1);
		g->priv_size = priv;
		g->priv = priv ? xcalloc((size_t)waves * 64, priv) : NULL;
		g->waves = xcalloc(waves, sizeof(Wave));
		e->wg = g;
		e->wg_linear = (uint32_t)k;
		if (garbage) {
			uint64_t st = stream(l->policy.seed, k, 1);
			fill_garbage(g->lds, g->lds_size, &st);
			fill_garbage(g->priv, (size_t)waves * 64 * priv, &st);
		}
		for (uint32_t i = 0; i < waves; i++) {
			Wave *w = &g->waves[i];
			w->nregs = nregs;
			w->accum_offset = kd->accum_offset;
			w->id = i;
			w->vgpr = xcalloc((size_t)nregs * 64, 4);
			init_wave(e, g, w, i * 64, items - i * 64 < 64 ? items - i * 64 : 64);
		}
	}
	*nwaves = total * waves;
	run_concurrent(e, gs, lin, total);
	for (uint64_t k = 0; k < total; k++) {
		for (uint32_t i = 0; i < gs[k].nwaves; i++)
			free(gs[k].waves[i].vgpr);
		free(gs[k].waves);
		free(gs[k].lds);
		free(gs[k].priv);
	}
	free(gs);
	free(lin);
	e->wg = NULL;
	return e->failed ? -1 : 0;
}

int emu_launch(EmuMemory *m, const EmuLaunch *l, EmuStats *stats, char *err, size_t err_len)
{
	char dummy[8];
	if (!err || err_len == 0)
		err = dummy, err_len = sizeof dummy;
	err[0] = 0;
	if (stats)
		memset(stats, 0, sizeof *stats);
	if (check_launch(l, err, err_len) < 0)
		return -1;
	Emu e = {.mem = m, .l = l, .arch = l->arch, .err = err, .err_len = err_len, .hook = l->hook};
	e.cap = l->max_instructions ? l->max_instructions : DEFAULT_CAP;
	uint64_t entry = l->kd_addr + (uint64_t)l->kd.kernel_code_entry_byte_offset;
	const EmuRegion *cr = emu_mem_find(m, entry, 4);
	if (!cr) {
		snprintf(err, err_len, "kernel entry 0x%llx is not in mapped memory", (unsigned long long)entry);
		return -1;
	}
	e.code.base = cr->addr;
	e.code.size = cr->size & ~(uint64_t)3;
	e.code.host = cr->host;
	e.code.npages = (size_t)(e.code.size / 4 / CODE_PAGE) + 1;
	e.code.pages = xcalloc(e.code.npages, sizeof *e.code.pages);

	const KernelDescriptor *kd = &l->kd;
	uint32_t items = l->wg_size[0] * l->wg_size[1] * l->wg_size[2];
	if (l->policy.wgs == EMU_WGS_CONCURRENT) {
		struct timespec c0, c1;
		clock_gettime(CLOCK_MONOTONIC, &c0);
		e.concurrent = true;
		uint64_t waves = 0;
		int r = launch_concurrent(&e, (uint64_t)l->grid[0] * l->grid[1] * l->grid[2], items, &waves);
		clock_gettime(CLOCK_MONOTONIC, &c1);
		if (stats) {
			stats->instructions = e.executed;
			stats->waves = waves;
			stats->seconds = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
		}
		for (size_t i = 0; i < e.code.npages; i++)
			free(e.code.pages[i]);
		free(e.code.pages);
		return r;
	}
	Workgroup g = {0};
	g.nwaves = (items + 63) / 64;
	g.lds_size = kd->group_segment_fixed_size + l->dynamic_lds;
	g.lds = xcalloc(g.lds_size ? g.lds_size : 1, 1);
	g.waves = xcalloc(g.nwaves, sizeof(Wave));
	/* scratch: zeroed once per launch, like the VGPRs (garbage: refilled
	 * per workgroup) */
	g.priv_size = (kd->private_segment_fixed_size + 3u) & ~3u;
	g.priv = g.priv_size ? xcalloc((size_t)g.nwaves * 64, g.priv_size) : NULL;
	uint32_t nregs = kd->vgpr_alloc ? kd->vgpr_alloc : 512;
	for (uint32_t i = 0; i < g.nwaves; i++) {
		g.waves[i].nregs = nregs;
		g.waves[i].accum_offset = kd->accum_offset;
		g.waves[i].id = i;
		g.waves[i].vgpr = xcalloc((size_t)nregs * 64, 4);
	}
	e.wg = &g;
	e.late = l->policy.memory == EMU_MEMORY_LATE;
	e.races = l->policy.races;
	e.canary = l->policy.canary;
	e.watch = e.late || e.races;
	if (e.late)
		emu_late_new(&e, &g);
	if (e.watch)
		emu_watch_new(&e);
	if (l->report && l->report_len)
		l->report[0] = 0;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	uint64_t nwg = 0, total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
	WgOrder order;
	wg_order_init(&order, l->policy.wgs, total, l->policy.seed);
	bool garbage = l->policy.fill == EMU_FILL_GARBAGE;
	for (uint64_t k = 0; k < total && !e.failed; k++) {
		uint64_t lin = wg_at(&order, k);
		if (l->hook && !hook_runs(l->hook, lin))
			continue;
		g.id[0] = (uint32_t)(lin % l->grid[0]);
		g.id[1] = (uint32_t)(lin / l->grid[0] % l->grid[1]);
		g.id[2] = (uint32_t)(lin / l->grid[0] / l->grid[1]);
		e.wg_linear = (uint32_t)lin;
		if (garbage) {
			uint64_t s = stream(l->policy.seed, lin, 1);
			fill_garbage(g.lds, g.lds_size, &s);
			fill_garbage(g.priv, (size_t)g.nwaves * 64 * g.priv_size, &s);
		} else {
			memset(g.lds, 0, g.lds_size);
		}
		for (uint32_t i = 0; i < g.nwaves; i++) {
			uint32_t first = i * 64;
			init_wave(&e, &g, &g.waves[i], first, items - first < 64 ? items - first : 64);
		}
		nwg++;
		e.epoch = 0;
		if (l->policy.waves == EMU_WAVES_MODEL)
			run_workgroup_model(&e, &g);
		else
			run_workgroup(&e, &g);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (stats) {
		stats->instructions = e.executed;
		stats->waves = nwg * g.nwaves;
		stats->races = emu_watch_races(&e);
		stats->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	}
	emu_watch_free(&e);
	emu_late_free(&e, &g);
	for (uint32_t i = 0; i < g.nwaves; i++)
		free(g.waves[i].vgpr);
	free(g.waves);
	free(g.lds);
	free(g.priv);
	for (size_t i = 0; i < e.code.npages; i++)
		free(e.code.pages[i]);
	free(e.code.pages);
	return e.failed ? -1 : 0;
}
