/* spill_check.c — the independent spill checker (regalloc_check_spills),
 * run after every allocation that spilled.
 *
 * The allocation checker (check.c) compares the allocated function with
 * the one allocation assigned registers to, spill code included, so it
 * cannot see a reload from the wrong home, a store that is missing or a
 * home another value overwrote. This checker takes the function as
 * allocation received it (`orig`, before any spill code) and the allocated
 * one (`post`), and follows orig's values through post's registers and
 * spill homes, in the manner of a symbolic register-allocation checker
 * (regalloc2's checker does the same for Cranelift):
 *   1. shape: post's instructions without MIF_SPILL are orig's, in order,
 *      block by block, each operand orig's with its vreg replaced by a
 *      physical register of the same class (fixed registers as they were;
 *      on gfx90a with scratch the ABI's input SGPRs 4 higher, behind the
 *      private segment buffer's V#);
 *   2. locations: every register dword of the three files, every scratch
 *      dword of a lane, and the 64 lanes of each VGPR that holds spilled
 *      SGPRs. A location holds a value: a dword of one of orig's vregs, an
 *      input register's contents, a constant, the V# pieces, or nothing
 *      known;
 *   3. transfer: an orig instruction must find, at each operand it reads,
 *      the value its orig operand names; its defs put their values in the
 *      registers written and take them out of every other location (a new
 *      version: an old copy, say in a home, is stale from then on). Spill
 *      code moves values: v_accvgpr_read/write/mov, v_mov and s_mov copy,
 *      v_writelane/v_readlane go through a lane location, scratch stores
 *      and loads through the scratch dwords their address names (checked
 *      to be inside the function's scratch bytes, through the scratch V#
 *      on gfx90a); any other spill instruction leaves nothing known in
 *      what it writes. A write to a VGPR that holds lanes (other than a
 *      v_writelane) clears its lanes;
 *   4. over the CFG: a block's entry holds a value where every
 *      predecessor's exit agrees (a forward must-analysis, iterated to the
 *      fixpoint from optimistic, unvisited predecessors left out), then
 *      one walk per block reports. EXEC is not modelled: a copy moves its
 *      value whole, as the spiller's copies move exactly the lanes the
 *      instruction they serve touches.
 * Removal of stale copies keeps, per value, the list of locations holding
 * it (linked through the locations), so a def costs the copies it kills.
 * Failures are compiler bugs: the pipeline dies with the message. */
#include <string.h>

#include "regalloc.h"

enum { MAX_REPORTS = 20, NREG = RF_COUNT * MIR_MAX_PHYS };

/* A value: a tag and a payload. */
enum { V_NONE, V_ORIG, V_FIXED, V_CONST, V_RSRC_IN, V_WAVE, V_RSRC };
#define VAL(tag, x) ((uint64_t)(tag) << 32 | (uint32_t)(x))
static unsigned tag_of(uint64_t v) { return (unsigned)(v >> 32); }

typedef struct SC {
	const MFunc *orig, *post;
	Buf *msg;
	int n;
	bool gfx90a;
	int shift;          /* orig's fixed SGPRs sit this much higher in post */
	size_t nv, vdw;
	uint32_t *vbase;    /* first dword index of each orig vreg */
	uint32_t *vown;     /* dword index -> vreg */
	int lane_of[MIR_MAX_PHYS]; /* VGPR -> its lane group, or -1 */
	size_t nlanes, nslots, nloc;
	uint64_t *st;       /* the current state: a value per location */
	/* per indexed value (orig dwords, then fixed registers): a list of the
	 * locations holding it, valid when hgen matches gen */
	uint32_t *head, *hgen, gen;
	int32_t *next, *prev;
} SC;

static void report(SC *k, size_t bi, size_t ii, const char *fmt, ...) PRINTF_LIKE(4, 5);
static void report(SC *k, size_t bi, size_t ii, const char *fmt, ...)
{
	if (k->n++ >= MAX_REPORTS)
		return;
	const MBlock *b = bi < k->post->blocks.len ? k->post->blocks.data[bi] : NULL;
	buf_printf(k->msg, "spill check: %s: block %zu inst %zu (%s): ", k->post->name, bi, ii,
		b && ii < b->insts.len ? mop_name(b->insts.data[ii].op) : "-");
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(k->msg, fmt, ap);
	va_end(ap);
	buf_putc(k->msg, '\n');
}

static const char file_ch[RF_COUNT] = {'s', 'v', 'a'};

static void describe(const SC *k, uint64_t v, char *out, size_t len)
{
	uint32_t x = (uint32_t)v;
	switch (tag_of(v)) {
	case V_ORIG:
		snprintf(out, len, "%%%u.%u", k->vown[x], x - k->vbase[k->vown[x]]);
		return;
	case V_FIXED:
		snprintf(out, len, "the input %c%u", file_ch[x / MIR_MAX_PHYS], x % MIR_MAX_PHYS);
		return;
	case V_CONST:
		snprintf(out, len, "the constant %u", x);
		return;
	case V_RSRC_IN:
		snprintf(out, len, "dword %u of the incoming V#", x);
		return;
	case V_WAVE:
		snprintf(out, len, "the wave's scratch offset");
		return;
	case V_RSRC:
		snprintf(out, len, "dword %u of the scratch V#", x);
		return;
	default:
		snprintf(out, len, "nothing known");
	}
}

/* The location of a register dword, a scratch dword, a lane. */
static size_t reg_loc(RegFile f, uint32_t r) { return (size_t)f * MIR_MAX_PHYS + r; }
static size_t slot_loc(size_t s) { return NREG + s; }
static size_t lane_loc(const SC *k, int group, int lane) { return NREG + k->nslots + (size_t)group * 64 + (size_t)lane; }

/* ---- the state and its lists ---- */

static long value_id(const SC *k, uint64_t v)
{
	if (tag_of(v) == V_ORIG)
		return (long)(uint32_t)v;
	if (tag_of(v) == V_FIXED)
		return (long)(k->vdw + (uint32_t)v);
	return -1;
}

static void unlist(SC *k, size_t loc)
{
	long id = value_id(k, k->st[loc]);
	if (id < 0)
		return;
	if (k->prev[loc] >= 0)
		k->next[k->prev[loc]] = k->next[loc];
	else
		k->head[id] = (uint32_t)k->next[loc];
	if (k->next[loc] >= 0)
		k->prev[k->next[loc]] = k->prev[loc];
}

static void list(SC *k, size_t loc)
{
	long id = value_id(k, k->st[loc]);
	if (id < 0)
		return;
	if (k->hgen[id] != k->gen) {
		k->hgen[id] = k->gen;
		k->head[id] = UINT32_MAX;
	}
	int32_t h = k->head[id] == UINT32_MAX ? -1 : (int32_t)k->head[id];
	k->prev[loc] = -1;
	k->next[loc] = h;
	if (h >= 0)
		k->prev[h] = (int32_t)loc;
	k->head[id] = (uint32_t)loc;
}

static void set_loc(SC *k, size_t loc, uint64_t v)
{
	unlist(k, loc);
	k->st[loc] = v;
	list(k, loc);
}

/* A new version of v: every copy of the old one is stale. */
static void kill_value(SC *k, uint64_t v)
{
	long id = value_id(k, v);
	if (id < 0 || k->hgen[id] != k->gen)
		return;
	for (uint32_t loc = k->head[id]; loc != UINT32_MAX;) {
		int32_t nx = k->next[loc];
		k->st[loc] = VAL(V_NONE, 0);
		loc = nx < 0 ? UINT32_MAX : (uint32_t)nx;
	}
	k->head[id] = UINT32_MAX;
}

/* Make st the current state (lists rebuilt). */
static void load_state(SC *k, const uint64_t *from)
{
	k->gen++;
	for (size_t l = 0; l < k->nloc; l++) {
		k->st[l] = from[l];
		list(k, l);
	}
}

/* A write of register dword (f, r) other than a lane write: its lanes go. */
static void reg_written(SC *k, RegFile f, uint32_t r)
{
	if (f != RF_VGPR || r >= MIR_MAX_PHYS || k->lane_of[r] < 0)
		return;
	for (int l = 0; l < 64; l++)
		set_loc(k, lane_loc(k, k->lane_of[r], l), VAL(V_NONE, 0));
}

static void write_reg(SC *k, MOpnd p, int d, uint64_t v)
{
	if (p.kind != MO_PREG || p.reg + (uint32_t)d >= MIR_MAX_PHYS)
		return;
	set_loc(k, reg_loc(rc_file(p.rc), p.reg + (uint32_t)d), v);
	reg_written(k, rc_file(p.rc), p.reg + (uint32_t)d);
}

static uint64_t read_reg(const SC *k, MOpnd p, int d)
{
	if (p.kind == MO_IMM)
		return d == 0 ? VAL(V_CONST, p.imm) : VAL(V_NONE, 0);
	if (p.kind != MO_PREG || p.reg + (uint32_t)d >= MIR_MAX_PHYS)
		return VAL(V_NONE, 0);
	return k->st[reg_loc(rc_file(p.rc), p.reg + (uint32_t)d)];
}

/* ---- orig's instructions ---- */

/* The value dword d of orig operand o names (V_NONE: not a register). */
static uint64_t orig_value(const SC *k, MOpnd o, int d)
{
	if (o.kind == MO_VREG)
		return VAL(V_ORIG, k->vbase[o.reg] + o.sub + (uint32_t)d);
	if (o.kind == MO_PREG)
		return VAL(V_FIXED, rc_file(o.rc) * MIR_MAX_PHYS + o.reg + (uint32_t)d);
	return VAL(V_NONE, 0);
}

static void check_read(SC *k, size_t bi, size_t ii, int j, MOpnd o, MOpnd p, bool rep)
{
	if (!rep || !mo_is_reg(o))
		return;
	for (int d = 0; d < rc_size(o.rc); d++) {
		uint64_t want = orig_value(k, o, d), got = read_reg(k, p, d);
		if (want == got)
			continue;
		char a[64], b[64];
		describe(k, want, a, sizeof a);
		describe(k, got, b, sizeof b);
		report(k, bi, ii, "operand %d reads %s from %c%u, which holds %s", j, a, file_ch[rc_file(p.rc)],
			p.reg + (uint32_t)d, b);
		return;
	}
}

static void orig_inst(SC *k, size_t bi, size_t ii, const MInst *o, const MInst *p, bool rep)
{
	for (int j = 0; j < o->nuse; j++)
		check_read(k, bi, ii, o->ndef + j, o->use[j], p->use[j], rep);
	if ((o->flags & MIF_TIED) && o->ndef)
		check_read(k, bi, ii, 0, o->def[0], p->def[0], rep);
	for (int j = 0; j < o->ndef; j++)
		for (int d = 0; mo_is_reg(o->def[j]) && d < rc_size(o->def[j].rc); d++) {
			uint64_t v = orig_value(k, o->def[j], d);
			kill_value(k, v);
			write_reg(k, p->def[j], d, v);
		}
}

/* ---- spill code ---- */

/* The scratch dword a spill access starts at, or -1 (reported). */
static long scratch_first(SC *k, size_t bi, size_t ii, const MInst *in, int n, bool rep)
{
	const IsaInfo *r = &isa_info[in->op];
	bool store = (r->flags & IF_STORE) != 0;
	uint64_t base;
	if (r->fmt == FMT_FLAT) {
		if (k->gfx90a || strncmp(r->name, "scratch_", 8) != 0) {
			if (rep)
				report(k, bi, ii, "spill code accesses memory that is not scratch");
			return -1;
		}
		MOpnd va = in->use[0], sa = in->use[store ? 2 : 1];
		base = sa.kind == MO_OFF ? VAL(V_CONST, 0) : read_reg(k, sa, 0);
		if (va.kind != MO_OFF) {
			if (rep)
				report(k, bi, ii, "a scratch spill access with a VGPR address");
			return -1;
		}
	} else {
		int u = store ? 1 : 0;
		MOpnd va = in->use[u], rs = in->use[u + 1], so = in->use[u + 2];
		bool ok = k->gfx90a && va.kind == MO_OFF && !(in->flags & (MIF_OFFEN | MIF_GLC)) && rs.kind == MO_PREG &&
			  rc_size(rs.rc) == 4;
		for (int d = 0; ok && d < 4; d++)
			ok = read_reg(k, rs, d) == VAL(d < 2 ? V_RSRC : V_RSRC_IN, d);
		if (!ok) {
			if (rep)
				report(k, bi, ii, "a buffer spill access that is not through the scratch V# and its offsets");
			return -1;
		}
		base = read_reg(k, so, 0);
	}
	if (tag_of(base) != V_CONST) {
		if (rep)
			report(k, bi, ii, "a scratch spill access whose offset register holds no known constant");
		return -1;
	}
	uint64_t byte = (uint32_t)base + (uint64_t)(uint32_t)in->offset;
	if (byte % 4 || byte / 4 + (uint64_t)n > k->nslots) {
		if (rep)
			report(k, bi, ii, "a scratch spill access at byte %llu (%d dwords) outside the %zu scratch bytes",
				(unsigned long long)byte, n, 4 * k->nslots);
		return -1;
	}
	return (long)(byte / 4);
}

static void spill_inst(SC *k, size_t bi, size_t ii, const MInst *in, bool rep)
{
	const IsaInfo *r = &isa_info[in->op];
	if (r->fmt == FMT_FLAT || r->fmt == FMT_MUBUF) {
		bool store = (r->flags & IF_STORE) != 0;
		MOpnd data = store ? (r->fmt == FMT_MUBUF ? in->use[0] : in->use[1]) : in->def[0];
		int n = rc_size(data.rc);
		long s = scratch_first(k, bi, ii, in, n, rep);
		for (int d = 0; d < n; d++) {
			if (store && s >= 0)
				set_loc(k, slot_loc((size_t)s + (size_t)d), read_reg(k, data, d));
			else if (!store)
				write_reg(k, data, d, s < 0 ? VAL(V_NONE, 0) : k->st[slot_loc((size_t)s + (size_t)d)]);
		}
		return;
	}
	switch (in->op) {
	case I_V_ACCVGPR_READ_B32:
	case I_V_ACCVGPR_WRITE_B32:
	case I_V_ACCVGPR_MOV_B32:
	case I_V_MOV_B32:
	case I_S_MOV_B32:
	case I_S_MOV_B64:
		for (int d = 0; d < rc_size(in->def[0].rc); d++)
			write_reg(k, in->def[0], d, read_reg(k, in->use[0], d));
		return;
	case I_V_READLANE_B32:
	case I_V_WRITELANE_B32: {
		bool wr = in->op == I_V_WRITELANE_B32;
		MOpnd lanes = wr ? in->def[0] : in->use[0];
		int lane = in->use[1].kind == MO_IMM ? (int)in->use[1].imm : -1;
		int g = lanes.kind == MO_PREG && rc_file(lanes.rc) == RF_VGPR ? k->lane_of[lanes.reg] : -1;
		if (g < 0 || lane < 0 || lane > 63) {
			if (rep)
				report(k, bi, ii, "a lane spill access that names no lane of a spill VGPR");
			if (!wr)
				write_reg(k, in->def[0], 0, VAL(V_NONE, 0));
			return;
		}
		if (wr)
			set_loc(k, lane_loc(k, g, lane), read_reg(k, in->use[0], 0));
		else
			write_reg(k, in->def[0], 0, k->st[lane_loc(k, g, lane)]);
		return;
	}
	case I_S_ADD_U32: /* the V#'s base plus the wave's offset */
		write_reg(k, in->def[0], 0,
			read_reg(k, in->use[0], 0) == VAL(V_RSRC_IN, 0) && read_reg(k, in->use[1], 0) == VAL(V_WAVE, 0)
				? VAL(V_RSRC, 0)
				: VAL(V_NONE, 0));
		return;
	case I_S_ADDC_U32:
		write_reg(k, in->def[0], 0,
			read_reg(k, in->use[0], 0) == VAL(V_RSRC_IN, 1) && read_reg(k, in->use[1], 0) == VAL(V_CONST, 0)
				? VAL(V_RSRC, 1)
				: VAL(V_NONE, 0));
		return;
	default:
		for (int j = 0; j < in->ndef; j++)
			for (int d = 0; mo_is_reg(in->def[j]) && d < rc_size(in->def[j].rc); d++)
				write_reg(k, in->def[j], d, VAL(V_NONE, 0));
	}
}

/* ---- shape ---- */

static bool same_flags(const MInst *o, const MInst *p)
{
	return (o->flags & ~(uint32_t)MIF_SPILL) == (p->flags & ~(uint32_t)MIF_SPILL) && o->offset == p->offset &&
	       o->target == p->target && o->dpp == p->dpp && o->op == p->op && o->ndef == p->ndef && o->nuse == p->nuse;
}

/* Operand p of post stands for operand o of orig. */
static bool opnd_ok(const SC *k, MOpnd o, MOpnd p)
{
	if (o.kind == MO_VREG)
		return p.kind == MO_PREG && p.rc == o.rc && o.reg < k->nv;
	if (o.kind == MO_PREG)
		return p.kind == MO_PREG && p.rc == o.rc &&
		       p.reg == o.reg + (rc_file(o.rc) == RF_SGPR ? (uint32_t)k->shift : 0);
	return p.kind == o.kind && p.rc == o.rc && p.reg == o.reg && p.imm == o.imm && p.sub == o.sub;
}

static bool check_shape(SC *k)
{
	const MFunc *o = k->orig, *p = k->post;
	if (o->blocks.len != p->blocks.len) {
		report(k, 0, 0, "%zu blocks before spilling, %zu after", o->blocks.len, p->blocks.len);
		return false;
	}
	int before = k->n;
	for (size_t bi = 0; bi < p->blocks.len; bi++) {
		const MBlock *ob = o->blocks.data[bi], *pb = p->blocks.data[bi];
		size_t oi = 0;
		for (size_t i = 0; i < pb->insts.len && k->n == before; i++) {
			const MInst *y = &pb->insts.data[i];
			if (y->flags & MIF_SPILL)
				continue;
			if (oi >= ob->insts.len) {
				report(k, bi, i, "an instruction that is neither the kernel's nor spill code");
				break;
			}
			const MInst *x = &ob->insts.data[oi++];
			bool ok = same_flags(x, y);
			for (int j = 0; ok && j < x->ndef + x->nuse; j++)
				ok = opnd_ok(k, j < x->ndef ? x->def[j] : x->use[j - x->ndef],
					j < x->ndef ? y->def[j] : y->use[j - x->ndef]);
			if (!ok)
				report(k, bi, i, "not the kernel's instruction %zu of the block (%s) with registers for its vregs",
					oi - 1, mop_name(x->op));
		}
		if (k->n == before && oi != ob->insts.len)
			report(k, bi, pb->insts.len, "%zu of the block's %zu instructions are missing after spilling",
				ob->insts.len - oi, ob->insts.len);
	}
	return k->n == before;
}

/* ---- the walk ---- */

static void run_block(SC *k, size_t bi, bool rep)
{
	const MBlock *ob = k->orig->blocks.data[bi], *pb = k->post->blocks.data[bi];
	size_t oi = 0;
	for (size_t i = 0; i < pb->insts.len; i++) {
		const MInst *in = &pb->insts.data[i];
		if (in->flags & MIF_SPILL)
			spill_inst(k, bi, i, in, rep);
		else
			orig_inst(k, bi, i, &ob->insts.data[oi++], in, rep);
	}
}

/* The state on entry: the inputs in their registers. */
static void entry_state(SC *k, uint64_t *s)
{
	for (size_t l = 0; l < k->nloc; l++)
		s[l] = VAL(V_NONE, 0);
	for (size_t bi = 0; bi < k->orig->blocks.len; bi++)
		for (size_t i = 0; i < k->orig->blocks.data[bi]->insts.len; i++) {
			const MInst *x = &k->orig->blocks.data[bi]->insts.data[i];
			for (int j = 0; j < x->ndef + x->nuse; j++) {
				MOpnd o = j < x->ndef ? x->def[j] : x->use[j - x->ndef];
				for (int d = 0; o.kind == MO_PREG && d < rc_size(o.rc); d++) {
					uint32_t r = o.reg + (uint32_t)d + (rc_file(o.rc) == RF_SGPR ? (uint32_t)k->shift : 0);
					if (r < MIR_MAX_PHYS)
						s[reg_loc(rc_file(o.rc), r)] = orig_value(k, o, d);
				}
			}
		}
	if (k->shift) {
		for (uint32_t d = 0; d < 4; d++)
			s[reg_loc(RF_SGPR, d)] = VAL(V_RSRC_IN, d);
		s[reg_loc(RF_SGPR, (uint32_t)k->post->scratch_wave_sgpr)] = VAL(V_WAVE, 0);
	}
}

static void dataflow(SC *k)
{
	size_t nb = k->post->blocks.len;
	uint64_t **in = xcalloc(nb + 1, sizeof *in);
	in[0] = xmalloc((k->nloc + 1) * sizeof *in[0]);
	entry_state(k, in[0]);
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t bi = 0; bi < nb; bi++) {
			if (!in[bi])
				continue;
			load_state(k, in[bi]);
			run_block(k, bi, false);
			int sb[2];
			int m = mfunc_succs(k->post, bi, sb);
			for (int j = 0; j < m; j++) {
				size_t s = (size_t)sb[j];
				if (!in[s]) {
					in[s] = xmalloc((k->nloc + 1) * sizeof *in[s]);
					memcpy(in[s], k->st, k->nloc * sizeof *k->st);
					changed = true;
					continue;
				}
				for (size_t l = 0; l < k->nloc; l++)
					if (in[s][l] != k->st[l] && in[s][l] != VAL(V_NONE, 0)) {
						in[s][l] = VAL(V_NONE, 0);
						changed = true;
					}
			}
		}
	}
	for (size_t bi = 0; bi < nb; bi++)
		if (in[bi]) {
			load_state(k, in[bi]);
			run_block(k, bi, true);
		}
	for (size_t bi = 0; bi < nb; bi++)
		free(in[bi]);
	free(in);
}

int regalloc_check_spills(const MFunc *orig, const MFunc *post, Buf *msg)
{
	SC k = {.orig = orig, .post = post, .msg = msg, .nv = orig->vregs.len};
	k.gfx90a = strcmp(post->target->name, "gfx90a") == 0;
	k.vbase = xmalloc((k.nv + 1) * sizeof *k.vbase);
	for (size_t v = 0; v < k.nv; v++) {
		k.vbase[v] = (uint32_t)k.vdw;
		k.vdw += (size_t)rc_size(orig->vregs.data[v]);
	}
	k.vown = xmalloc((k.vdw + 1) * sizeof *k.vown);
	for (size_t v = 0; v < k.nv; v++)
		for (int d = 0; d < rc_size(orig->vregs.data[v]); d++)
			k.vown[k.vbase[v] + (uint32_t)d] = (uint32_t)v;
	/* gfx90a with scratch: the V# ahead of the inputs; the wave's offset
	 * after them */
	if (k.gfx90a && post->scratch_bytes > 0) {
		k.shift = 4;
		int abi = orig->input_sgprs;
		for (size_t bi = 0; bi < orig->blocks.len; bi++)
			for (size_t i = 0; i < orig->blocks.data[bi]->insts.len; i++) {
				const MInst *x = &orig->blocks.data[bi]->insts.data[i];
				for (int j = 0; j < x->ndef + x->nuse; j++) {
					MOpnd o = j < x->ndef ? x->def[j] : x->use[j - x->ndef];
					if (o.kind == MO_PREG && rc_file(o.rc) == RF_SGPR)
						abi = MAX(abi, (int)o.reg + rc_size(o.rc));
				}
			}
		if (post->scratch_wave_sgpr != abi + 4 || abi + 4 >= MIR_MAX_PHYS) {
			report(&k, 0, 0, "the wave's scratch offset is expected in s%d, after the %d input SGPRs behind the V#, "
					 "not s%d", abi + 4, abi, post->scratch_wave_sgpr);
			goto out;
		}
	}
	/* the VGPRs that hold lanes: those the spill code's lane accesses name */
	for (int r = 0; r < MIR_MAX_PHYS; r++)
		k.lane_of[r] = -1;
	for (size_t bi = 0; bi < post->blocks.len; bi++)
		for (size_t i = 0; i < post->blocks.data[bi]->insts.len; i++) {
			const MInst *y = &post->blocks.data[bi]->insts.data[i];
			MOpnd l = y->op == I_V_WRITELANE_B32 ? y->def[0] : y->use[0];
			if ((y->flags & MIF_SPILL) && (y->op == I_V_WRITELANE_B32 || y->op == I_V_READLANE_B32) &&
				l.kind == MO_PREG && rc_file(l.rc) == RF_VGPR && l.reg < MIR_MAX_PHYS && k.lane_of[l.reg] < 0)
				k.lane_of[l.reg] = (int)k.nlanes++;
		}
	k.nslots = (size_t)(post->scratch_bytes > 0 ? post->scratch_bytes : 0) / 4;
	k.nloc = NREG + k.nslots + 64 * k.nlanes;
	if (!check_shape(&k))
		goto out;
	size_t nid = k.vdw + NREG;
	k.st = xmalloc((k.nloc + 1) * sizeof *k.st);
	k.head = xmalloc((nid + 1) * sizeof *k.head);
	k.hgen = xcalloc(nid + 1, sizeof *k.hgen);
	k.next = xmalloc((k.nloc + 1) * sizeof *k.next);
	k.prev = xmalloc((k.nloc + 1) * sizeof *k.prev);
	dataflow(&k);
	free(k.st);
	free(k.head);
	free(k.hgen);
	free(k.next);
	free(k.prev);
out:
	if (k.n > MAX_REPORTS)
		buf_printf(msg, "spill check: %s: %d more problems\n", post->name, k.n - MAX_REPORTS);
	free(k.vbase);
	free(k.vown);
	return k.n;
}
