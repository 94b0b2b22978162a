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

/* The distinct lines of `lb` bytes the active lanes touch, sorted, into
 * tmp (at most 256); their count. */
static size_t collect_lines(const EmuEvent *ev, unsigned lb, uint64_t tmp[256])
{
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
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || tmp[i] != tmp[k - 1])
			tmp[k++] = tmp[i];
	return k;
}

/* The distinct lines of `lb` bytes the active lanes touch, appended; a
 * global load's (not a store's) count in the traffic the L2 model reads. */
static void add_lines(TmRecorder *r, const EmuEvent *ev, unsigned lb, TEv *t)
{
	uint64_t tmp[256];
	size_t n = collect_lines(ev, lb, tmp);
	t->line0 = (uint32_t)r->lines.len;
	for (size_t i = 0; i < n; i++) {
		vec_push(&r->lines, tmp[i]);
		if (ev->space == EMU_SPACE_GLOBAL && t->kind != TK_STORE && !r->stream)
			note_line(r, tmp[i]);
	}
	t->nlines = (uint16_t)n;
	if (ev->space == EMU_SPACE_GLOBAL)
		t->flags |= TE_GLOBAL;
}

/* Cycles of one address set (addr[off .. off+63]) in the LDS pipe. */
static unsigned lds_phase(const EmuEvent *ev, int off, unsigned banks, unsigned bpc, unsigned *ideal)
{
	unsigned bytes = ev->lane_bytes < 4 ? 4 : ev->lane_bytes;
	unsigned per_group = bpc / bytes ? bpc / bytes : 1, dwords = bytes / 4;
	unsigned total = 0;
	for (unsigned g0 = 0; g0 < 64; g0 += per_group) {
		uint64_t seen[64][8]; /* distinct dwords per bank, capped */
		unsigned cnt[64] = {0}, worst = 0;
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
	if (banks > 64)
		banks = 64;
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

/* The sample's slot of workgroup `wg`, or -1 when the sample lacks it. */
static int64_t wg_slot(const TmRecorder *r, uint64_t wg)
{
	if (!r->ids)
		return wg >= r->wg_first && wg - r->wg_first < r->wg_count ? (int64_t)(wg - r->wg_first) : -1;
	size_t lo = 0, hi = r->wg_count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->ids[mid] < wg)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->wg_count && r->ids[lo] == wg ? (int64_t)lo : -1;
}

static void on_inst(void *ctx, const EmuEvent *ev)
{
	TmRecorder *r = ctx;
	int64_t slot = wg_slot(r, ev->wg);
	if (slot < 0 || ev->wave >= r->nwaves)
		return;
	if (r->probe) { /* only the global lines */
		r->probe_insts++;
		TmKind k;
		uint8_t fl = 0;
		if (ev->amask && ev->space == EMU_SPACE_GLOBAL && tm_category(ev->op, ev->fmt, &k, &fl) == TM_VMEM &&
			k != TK_STORE) {
			uint64_t tmp[256];
			size_t n = collect_lines(ev, (unsigned)r->p.line_bytes, tmp);
			for (size_t i = 0; i < n; i++)
				note_line(r, tmp[i]);
		}
		return;
	}
	TEv t;
	tm_event(r, ev, &t);
	vec_push(&r->waves[(uint64_t)slot * r->nwaves + ev->wave], t);
}

void tm_event(TmRecorder *r, const EmuEvent *ev, TEv *out)
{
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
	if (t.cat == TM_VMEM && ev->space == EMU_SPACE_SCRATCH) /* spills: L1 and L2 lines like any other */
		t.flags |= TE_SCRATCH;
	if (t.cat == TM_VMEM || t.cat == TM_SMEM) {
		if (ev->amask)
			add_lines(r, ev, t.cat == TM_SMEM ? 64 : (unsigned)r->p.line_bytes, &t);
		if (t.cat == TM_SMEM)
			t.bytes = ev->lane_bytes;
	} else if (t.cat == TM_LDS) {
		lds_cost(r, ev, &t);
	}
	*out = t;
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

TmRecorder *tm_recorder_new_ids(EmuArch arch, const uint64_t *ids, uint64_t n, uint32_t nwaves)
{
	TmRecorder *r = tm_recorder_new(arch, n ? ids[0] : 0, n, nwaves);
	r->ids = xcalloc(n + 1, sizeof *r->ids);
	memcpy(r->ids, ids, n * sizeof *ids);
	r->hook.wg_ids = r->ids;
	r->hook.wg_nids = n;
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
	for (int d = 0; d < 3; d++)
		tm_recorder_free(r->probes[d]);
	for (size_t i = 0; i < r->round.len; i++)
		tm_recorder_free(r->round.data[i]);
	vec_free(&r->round);
	for (uint64_t i = 0; i < r->wg_count * r->nwaves; i++)
		vec_free(&r->waves[i]);
	free(r->waves);
	free(r->ids);
	vec_free(&r->lines);
	vec_free(&r->pcs);
	free(r->pc_slot);
	free(r->seen);
	free(r);
}

/* ---- probes and the classes of a workgroup's lines ---- */

TmRecorder *tm_probe_new(EmuArch arch, uint64_t wg, uint32_t nwaves)
{
	TmRecorder *r = tm_recorder_new(arch, wg, 1, nwaves);
	r->probe = true;
	return r;
}

void tm_recorder_grid(TmRecorder *r, uint32_t gx, uint32_t gy, uint32_t gz)
{
	r->grid[0] = gx, r->grid[1] = gy, r->grid[2] = gz;
}

void tm_recorder_attach_probe(TmRecorder *r, int dim, TmRecorder *probe)
{
	if (dim < 0 || dim > 2 || !probe) {
		tm_recorder_free(probe);
		return;
	}
	tm_recorder_free(r->probes[dim]);
	r->probes[dim] = probe;
}

void tm_recorder_attach_round(TmRecorder *r, TmRecorder *probe)
{
	if (probe)
		vec_push(&r->round, probe);
}

double tm_recorder_round_sharing(const TmRecorder *r, uint32_t *nprobes)
{
	LineSet all = {0};
	double sum = 0;
	uint32_t n = 0;
	for (size_t i = 0; i < r->round.len; i++) {
		const TmRecorder *p = r->round.data[i];
		if (!p->seen_len)
			continue;
		n++;
		sum += (double)p->seen_len;
		for (size_t j = 0; j < p->seen_cap; j++)
			if (p->seen[j])
				tm_lineset_add(&all, p->seen[j] - 1);
	}
	double s = n >= 2 && sum > 0 ? (double)all.len / sum : -1;
	tm_lineset_free(&all);
	if (nprobes)
		*nprobes = n;
	return s;
}

bool tm_lineset_add(LineSet *s, uint64_t line)
{
	if (2 * (s->len + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		uint64_t *t = xcalloc(cap, sizeof *t);
		for (size_t i = 0; i < s->cap; i++)
			if (s->slot[i])
				for (size_t h = hash64(s->slot[i]) & (cap - 1);; h = (h + 1) & (cap - 1))
					if (!t[h]) {
						t[h] = s->slot[i];
						break;
					}
		free(s->slot);
		s->slot = t;
		s->cap = cap;
	}
	for (size_t h = hash64(line + 1) & (s->cap - 1);; h = (h + 1) & (s->cap - 1)) {
		if (s->slot[h] == line + 1)
			return false;
		if (!s->slot[h]) {
			s->slot[h] = line + 1;
			s->len++;
			return true;
		}
	}
}

bool tm_lineset_has(const LineSet *s, uint64_t line)
{
	if (!s->cap)
		return false;
	for (size_t h = hash64(line + 1) & (s->cap - 1);; h = (h + 1) & (s->cap - 1)) {
		if (s->slot[h] == line + 1)
			return true;
		if (!s->slot[h])
			return false;
	}
}

void tm_lineset_free(LineSet *s)
{
	free(s->slot);
	memset(s, 0, sizeof *s);
}

static bool seen_has(const TmRecorder *r, uint64_t line)
{
	LineSet s = {r->seen, r->seen_cap, r->seen_len};
	return tm_lineset_has(&s, line);
}

/* The global lines the sample's workgroup `rel` (0-based in the sample)
 * loads, in each wave's first `limit` instructions. */
static void wg_lines(const TmRecorder *r, uint64_t rel, uint64_t limit, LineSet *out)
{
	for (uint32_t w = 0; w < r->nwaves; w++) {
		const TEvVec *v = &r->waves[rel * r->nwaves + w];
		for (size_t i = 0; i < v->len && i < limit; i++)
			if ((v->data[i].flags & TE_GLOBAL) && v->data[i].kind != TK_STORE)
				for (uint32_t k = 0; k < v->data[i].nlines; k++)
					tm_lineset_add(out, r->lines.data[v->data[i].line0 + k]);
	}
}

/* The grid (x, y, z) of the recorder's launch (unknown: one row). */
static void rec_grid(const TmRecorder *r, uint32_t g[3])
{
	uint64_t last = r->ids && r->wg_count ? r->ids[r->wg_count - 1] + 1 : r->wg_first + r->wg_count;
	g[0] = r->grid[0] ? r->grid[0] : (uint32_t)last;
	g[1] = r->grid[1] ? r->grid[1] : 1;
	g[2] = r->grid[2] ? r->grid[2] : 1;
}

/* The base workgroup's (the sample's first) neighbour along dim d: the
 * next one, or the previous one at the grid's edge; false when the dim
 * has one workgroup. */
static bool neighbour_of(const TmRecorder *r, int d, uint64_t *wg)
{
	uint32_t g[3];
	rec_grid(r, g);
	uint64_t b = r->wg_first, coord[3] = {b % g[0], b / g[0] % g[1], b / g[0] / g[1]};
	uint64_t stride[3] = {1, g[0], (uint64_t)g[0] * g[1]};
	if (coord[d] + 1 < g[d])
		*wg = b + stride[d];
	else if (coord[d] > 0)
		*wg = b - stride[d];
	else
		return false;
	return true;
}

bool tm_recorder_probe_wanted(const TmRecorder *r, int dim, uint64_t *wg)
{
	return dim >= 0 && dim < 3 && !r->probe && neighbour_of(r, dim, wg) && wg_slot(r, *wg) < 0;
}

double tm_recorder_classes(const TmRecorder *r, double frac[8], bool known[3])
{
	for (int c = 0; c < 8; c++)
		frac[c] = 0;
	if (!r->wg_count) { /* nothing recorded (an empty grid) */
		frac[7] = 1;
		for (int d = 0; d < 3; d++)
			known[d] = false;
		return 0;
	}
	/* each dim's neighbour: in the sample, or a probe, or unknown */
	LineSet nb[3] = {{0}};
	const TmRecorder *pr[3] = {0};
	uint64_t limit = UINT64_MAX;
	bool varies[3];
	for (int d = 0; d < 3; d++) {
		uint64_t wg;
		varies[d] = neighbour_of(r, d, &wg);
		known[d] = !varies[d];
		if (!varies[d])
			continue;
		int64_t rel = r->probe ? -1 : wg_slot(r, wg);
		if (rel >= 0) {
			wg_lines(r, (uint64_t)rel, UINT64_MAX, &nb[d]);
			known[d] = true;
		} else if (r->probes[d]) {
			pr[d] = r->probes[d];
			known[d] = true;
			uint64_t per_wave = r->probes[d]->probe_insts / (r->nwaves ? r->nwaves : 1);
			if (per_wave < limit)
				limit = per_wave;
		}
	}
	/* the base workgroup's lines, in the prefix every probe covers */
	LineSet mine = {0}, whole = {0};
	wg_lines(r, 0, limit, &mine);
	wg_lines(r, 0, UINT64_MAX, &whole);
	double bytes = (double)whole.len * r->p.line_bytes;
	tm_lineset_free(&whole);
	uint64_t count[8] = {0}, total = 0;
	for (size_t i = 0; i < mine.cap; i++) {
		if (!mine.slot[i])
			continue;
		uint64_t line = mine.slot[i] - 1;
		int c = 0;
		for (int d = 0; d < 3; d++) {
			if (!varies[d])
				continue;
			bool shared = pr[d] ? seen_has(pr[d], line) : known[d] && tm_lineset_has(&nb[d], line);
			if (!shared)
				c |= 1 << d;
		}
		count[c]++;
		total++;
	}
	for (int c = 0; c < 8; c++)
		frac[c] = total ? (double)count[c] / (double)total : c == 7 ? 1 : 0;
	tm_lineset_free(&mine);
	for (int d = 0; d < 3; d++)
		tm_lineset_free(&nb[d]);
	return bytes;
}
