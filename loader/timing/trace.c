/* trace.c — the recorder: an EmuHook that turns each executed wave
 * instruction of the sampled workgroups into a compact event (TEv) in its
 * wave's stream, with what the CU model needs computed once here: the
 * instruction's category, the distinct cache lines a vector or scalar
 * memory access touches, and the LDS pipe cycles of an LDS access with and
 * without its bank conflicts.
 *
 * LDS bank model (assumption, docs/cycle-model.md): 32 banks of 4 bytes;
 * the LDS serves 128 bytes per clock, so a wave's access is split into
 * groups of consecutive lanes of 128 bytes (32 lanes of b32, 16 of b64, 8 of
 * b128; sub-dword widths as b32); within a group, the dwords one bank must
 * deliver are serialised, equal addresses broadcast. A group costs the
 * largest number of distinct dwords on one bank; ds_read2/ds_write2 cost
 * their two address sets one after the other. */
#include <stdlib.h>
#include <string.h>

#include "../../ir/isa/isa.h"
#include "timing_int.h"

TmCat tm_category(int op, int fmt, TmKind *kind, uint8_t *flags)
{
	const IsaInfo *r = &isa_info[op];
	*kind = TK_PLAIN;
	switch (fmt) {
	case FMT_SOPP:
		switch (op) {
		case I_S_WAITCNT: *kind = TK_WAITCNT; return TM_INTERNAL;
		case I_S_NOP: *kind = TK_NOP; return TM_INTERNAL;
		case I_S_SLEEP: *kind = TK_SLEEP; return TM_INTERNAL;
		case I_S_SETPRIO: *kind = TK_SETPRIO; return TM_INTERNAL;
		case I_S_BARRIER: *kind = TK_BARRIER; return TM_INTERNAL;
		case I_S_ENDPGM: *kind = TK_ENDPGM; return TM_INTERNAL;
		default: return (r->flags & IF_BRANCH) ? TM_BRANCH : op == I_S_SENDMSG ? TM_BRANCH : TM_INTERNAL;
		}
	case FMT_SOP1: case FMT_SOP2: case FMT_SOPK: case FMT_SOPC:
		return (r->flags & IF_BRANCH) ? TM_BRANCH : TM_SALU;
	case FMT_SMEM:
		*kind = (r->flags & IF_STORE) ? TK_STORE : TK_LOAD;
		return TM_SMEM;
	case FMT_DS:
		*kind = (r->flags & IF_LOAD) ? TK_LOAD : TK_STORE;
		return TM_LDS;
	case FMT_MUBUF: case FMT_FLAT:
		*kind = (r->flags & IF_LOAD) || ((r->flags & IF_ATOMIC)) ? TK_LOAD : TK_STORE;
		return TM_VMEM;
	default:
		if (r->flags & IF_MFMA)
			return TM_MFMA;
		if (r->flags & IF_TRANS)
			*flags |= TE_TRANS;
		return TM_VALU;
	}
}

/* ---- hash tables ---- */

static size_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	return (size_t)x;
}

static void seen_grow(TmRecorder *r)
{
	size_t cap = r->seen_cap ? r->seen_cap * 2 : 4096;
	uint64_t *t = xcalloc(cap, sizeof *t);
	for (size_t i = 0; i < r->seen_cap; i++)
		if (r->seen[i])
			for (size_t h = hash64(r->seen[i]) & (cap - 1);; h = (h + 1) & (cap - 1))
				if (!t[h]) {
					t[h] = r->seen[i];
					break;
				}
	free(r->seen);
	r->seen = t;
	r->seen_cap = cap;
}

static void note_line(TmRecorder *r, uint64_t line)
{
	r->requested_lines++;
	if (2 * (r->seen_len + 1) > r->seen_cap)
		seen_grow(r);
	for (size_t h = hash64(line + 1) & (r->seen_cap - 1);; h = (h + 1) & (r->seen_cap - 1)) {
		if (r->seen[h] == line + 1)
			return;
		if (!r->seen[h]) {
			r->seen[h] = line + 1;
			r->seen_len++;
			return;
		}
	}
}

static uint32_t pc_index(TmRecorder *r, const EmuEvent *ev)
{
	if (2 * (r->pcs.len + 1) > r->pc_cap) {
		size_t cap = r->pc_cap ? r->pc_cap * 2 : 1024;
		uint32_t *t = xcalloc(cap, sizeof *t);
		for (size_t i = 0; i < r->pcs.len; i++)
			for (size_t h = hash64(r->pcs.data[i].pc) & (cap - 1);; h = (h + 1) & (cap - 1))
				if (!t[h]) {
					t[h] = (uint32_t)i + 1;
					break;
				}
		free(r->pc_slot);
		r->pc_slot = t;
		r->pc_cap = cap;
	}
	size_t h = hash64(ev->pc) & (r->pc_cap - 1);
	for (; r->pc_slot[h]; h = (h + 1) & (r->pc_cap - 1))
		if (r->pcs.data[r->pc_slot[h] - 1].pc == ev->pc)
			return r->pc_slot[h] - 1;
	TmPcInfo info = {.pc = ev->pc};
	emu_event_text(ev, info.text, sizeof info.text);
	vec_push(&r->pcs, info);
	r->pc_slot[h] = (uint32_t)r->pcs.len;
	return (uint32_t)r->pcs.len - 1;
}

/* ---- memory accesses ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The distinct lines of `lb` bytes the active lanes touch, appended. */
static void add_lines(TmRecorder *r, const EmuEvent *ev, unsigned lb, TEv *t)
{
	uint64_t tmp[256];
	size_t n = 0;
	unsigned bytes = ev->lane_bytes ? ev->lane_bytes : 4;
	for (int l = 0; l < 64; l++) {
		if (!((ev->amask >> l) & 1))
			continue;
		uint64_t a = ev->addr[l], first = a / lb, last = (a + bytes - 1) / lb;
		for (uint64_t x = first; x <= last && n < 256; x++)
			tmp[n++] = x;
	}
	qsort(tmp, n, sizeof *tmp, cmp_u64);
	t->line0 = (uint32_t)r->lines.len;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || tmp[i] != tmp[i - 1]) {
			vec_push(&r->lines, tmp[i]);
			if (ev->space == EMU_SPACE_GLOBAL)
				note_line(r, tmp[i]);
			k++;
		}
	t->nlines = (uint16_t)k;
}

/* Cycles of one address set (addr[off .. off+63]) in the LDS pipe. */
static unsigned lds_phase(const EmuEvent *ev, int off, unsigned banks, unsigned bpc, unsigned *ideal)
{
	unsigned bytes = ev->lane_bytes < 4 ? 4 : ev->lane_bytes;
	unsigned per_group = bpc / bytes ? bpc / bytes : 1, dwords = bytes / 4;
	unsigned total = 0;
	for (unsigned g0 = 0; g0 < 64; g0 += per_group) {
		uint64_t seen[32][8]; /* distinct dwords per bank, capped */
		unsigned cnt[32] = {0}, worst = 0;
		bool any = false;
		for (unsigned l = g0; l < g0 + per_group && l < 64; l++) {
			if (!((ev->amask >> l) & 1))
				continue;
			any = true;
			for (unsigned k = 0; k < dwords; k++) {
				uint64_t dw = ev->addr[off + l] / 4 + k;
				unsigned b = (unsigned)(dw % banks);
				bool dup = false;
				for (unsigned j = 0; j < cnt[b] && j < 8; j++)
					dup |= seen[b][j] == dw;
				if (dup)
					continue;
				if (cnt[b] < 8)
					seen[b][cnt[b]] = dw;
				cnt[b]++;
				if (cnt[b] > worst)
					worst = cnt[b];
			}
		}
		if (any) {
			total += worst;
			++*ideal;
		}
	}
	return total;
}

static void lds_cost(const TmRecorder *r, const EmuEvent *ev, TEv *t)
{
	unsigned banks = (unsigned)r->p.lds_banks, bpc = (unsigned)r->p.lds_bytes_per_clk, ideal = 0, c;
	if (banks > 32)
		banks = 32;
	if (!ev->amask) { /* cross-lane (swizzle, permute): no bank traffic modelled */
		t->lds_cycles = t->lds_ideal = 2;
		return;
	}
	c = lds_phase(ev, 0, banks, bpc, &ideal);
	if (ev->two)
		c += lds_phase(ev, 64, banks, bpc, &ideal);
	t->lds_cycles = (uint16_t)c;
	t->lds_ideal = (uint16_t)ideal;
}

/* ---- the hook ---- */

static void on_inst(void *ctx, const EmuEvent *ev)
{
	TmRecorder *r = ctx;
	if (ev->wg < r->wg_first || ev->wg - r->wg_first >= r->wg_count || ev->wave >= r->nwaves)
		return;
	TEv t = {0};
	t.pc = pc_index(r, ev);
	t.op = ev->op;
	t.mfma_fmt = ev->mfma_fmt;
	TmKind kind;
	t.cat = (uint8_t)tm_category(ev->op, ev->fmt, &kind, &t.flags);
	t.kind = (uint8_t)kind;
	t.imm = ev->imm;
	t.vdst = ev->vdst, t.nvdst = ev->nvdst;
	for (int i = 0; i < 3; i++)
		t.vsrc[i] = ev->vsrc[i], t.nvsrc[i] = ev->nvsrc[i];
	if (ev->next_pc != ev->pc + 4 && (isa_info[ev->op].flags & IF_BRANCH)) {
		/* a taken branch (the fall-through of an 8-byte branch is rare) */
		bool fall = ev->next_pc == ev->pc + 8 && ev->fmt != FMT_SOPP;
		if (!fall) {
			t.flags |= TE_TAKEN;
			if (ev->next_pc <= ev->pc) {
				t.flags |= TE_BACKWARD;
				r->pcs.data[t.pc].target = ev->next_pc;
			}
		}
	}
	int active = __builtin_popcountll(ev->amask);
	t.bytes = (uint32_t)active * ev->lane_bytes * (ev->two ? 2 : 1);
	if (t.cat == TM_VMEM && ev->space == EMU_SPACE_LDS) /* a flat access into LDS */
		t.cat = TM_LDS;
	if (t.cat == TM_VMEM || t.cat == TM_SMEM) {
		if (ev->amask)
			add_lines(r, ev, t.cat == TM_SMEM ? 64 : (unsigned)r->p.line_bytes, &t);
		if (t.cat == TM_SMEM)
			t.bytes = ev->lane_bytes;
	} else if (t.cat == TM_LDS) {
		lds_cost(r, ev, &t);
	}
	vec_push(&r->waves[(ev->wg - r->wg_first) * r->nwaves + ev->wave], t);
}

TmRecorder *tm_recorder_new(EmuArch arch, uint64_t wg_first, uint64_t wg_count, uint32_t nwaves)
{
	TmRecorder *r = xcalloc(1, sizeof *r);
	r->arch = arch;
	tm_params(arch, &r->p);
	r->wg_first = wg_first;
	r->wg_count = wg_count;
	r->nwaves = nwaves;
	r->waves = xcalloc(wg_count * nwaves + 1, sizeof *r->waves);
	r->hook = (EmuHook){.on_inst = on_inst, .ctx = r, .wg_first = wg_first, .wg_count = wg_count};
	return r;
}

const EmuHook *tm_recorder_hook(TmRecorder *r) { return &r->hook; }

void tm_recorder_traffic(const TmRecorder *r, double *unique_bytes_per_wg, double *requested_bytes_per_wg)
{
	double n = r->wg_count ? (double)r->wg_count : 1;
	*unique_bytes_per_wg = (double)r->seen_len * r->p.line_bytes / n;
	*requested_bytes_per_wg = (double)r->requested_lines * r->p.line_bytes / n;
}

void tm_recorder_free(TmRecorder *r)
{
	if (!r)
		return;
	for (uint64_t i = 0; i < r->wg_count * r->nwaves; i++)
		vec_free(&r->waves[i]);
	free(r->waves);
	vec_free(&r->lines);
	vec_free(&r->pcs);
	free(r->pc_slot);
	free(r->seen);
	free(r);
}
