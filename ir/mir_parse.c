/* mir_parse.c — the machine IR from its printed form: the inverse of
 * mir_print, so machine-pass and allocation tests can be written as text.
 *
 * The form (mir_print.c): an optional `// vregs: %0:s2 %1:v4 ...` line (a
 * function before register allocation; its absence means allocated), then
 * blocks: a line `LABEL:` starts a block (`.LBB_N` labels are the printer's
 * names for unlabelled blocks), instructions are tab-indented lines in
 * llvm-mc syntax, and a `// NOTE` line names the graph op of the
 * instructions below it. An instruction is its row's mnemonic (gfx90a
 * MFMA spellings too) with `_e32`, `_e64` or `_dpp`, the defs then the uses
 * (mir_ndef says how many defs a row has), then a branch target label and
 * the modifiers `offen`, `offset:N`, `lds`, the DPP controls, `op_sel:[..]`,
 * `op_sel_hi:[..]`, `cbsz:N`, `blgp:N` (MInst.mods), or s_waitcnt's
 * `vmcnt(N) lgkmcnt(N)`. A long branch (mir.h) names its target in its
 * adds' distance operands, `(LABEL-.)&4294967295` and `(LABEL-.+8)>>32`;
 * its s_setpc_b64 takes the target of the s_addc_u32 before it. Blank lines and lines starting with `;` (test
 * annotations) are skipped.
 *
 * Errors: bad text never aborts; mir_parse returns NULL with one
 * "NAME:LINE:COL: message" line per problem (it stops at the first). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "mir.h"

enum { MAX_PHYS = 512 }; /* physical registers per file, an upper bound */

typedef struct P {
	const char *name;
	const char *s, *end; /* the current line */
	const char *line0;   /* its start */
	int line;
	Buf *err;
	bool failed;
	MFunc *f;
	Vec(const char *) labels; /* per block: its label as written */
	struct Fix {
		size_t block, inst;
		const char *label;
		int line, col;
	} *fix;
	size_t nfix, capfix;
} P;

static bool fail(P *p, const char *at, const char *fmt, ...) PRINTF_LIKE(3, 4);
static bool fail(P *p, const char *at, const char *fmt, ...)
{
	if (p->failed)
		return false;
	p->failed = true;
	buf_printf(p->err, "%s:%d:%d: ", p->name, p->line, at ? (int)(at - p->line0) + 1 : 1);
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(p->err, fmt, ap);
	va_end(ap);
	buf_putc(p->err, '\n');
	return false;
}

static void skip_space(P *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t'))
		p->s++;
}

static bool starts(const P *p, const char *lit)
{
	size_t n = strlen(lit);
	return (size_t)(p->end - p->s) >= n && strncmp(p->s, lit, n) == 0;
}

static bool eat(P *p, const char *lit)
{
	size_t n = strlen(lit);
	if ((size_t)(p->end - p->s) >= n && strncmp(p->s, lit, n) == 0) {
		p->s += n;
		return true;
	}
	return false;
}

static bool number(P *p, long long *out)
{
	const char *s = p->s;
	bool neg = false;
	if (s < p->end && *s == '-') {
		neg = true;
		s++;
	}
	unsigned long long v = 0;
	int digits = 0;
	if (p->end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		while (s < p->end && isxdigit((unsigned char)*s) && digits < 17) {
			v = v * 16 + (unsigned)(isdigit((unsigned char)*s) ? *s - '0' : (tolower((unsigned char)*s) - 'a' + 10));
			s++;
			digits++;
		}
	} else {
		while (s < p->end && isdigit((unsigned char)*s) && digits < 19) {
			v = v * 10 + (unsigned)(*s - '0');
			s++;
			digits++;
		}
	}
	if (!digits || digits > 16 || (s < p->end && isalnum((unsigned char)*s)))
		return fail(p, p->s, "expected a number");
	p->s = s;
	*out = neg ? -(long long)v : (long long)v;
	return true;
}

static int file_of(char c)
{
	return c == 's' ? RF_SGPR : c == 'v' ? RF_VGPR : c == 'a' ? RF_AGPR : -1;
}

/* A register class `v4`, `s1`, `a16`. */
static bool reg_class(P *p, RegClass *rc)
{
	int f = p->s < p->end ? file_of(*p->s) : -1;
	if (f < 0)
		return fail(p, p->s, "expected a register class (s, v or a and a width)");
	p->s++;
	long long w;
	if (!number(p, &w) || w < 1 || w > 16)
		return fail(p, p->s, "register width must be 1..16");
	*rc = rc_make((RegFile)f, (int)w);
	return true;
}

static bool operand(P *p, MOpnd *o)
{
	const char *at = p->s;
	long long a, b;
	if (eat(p, "%")) { /* %N:v1, %N.S:v1 */
		if (!number(p, &a) || a < 0 || a >= (long long)p->f->vregs.len)
			return fail(p, at, "virtual register out of the `// vregs:` list");
		long long sub = 0;
		if (eat(p, ".") && (!number(p, &sub) || sub < 0 || sub > 15))
			return fail(p, at, "bad sub-register");
		RegClass rc;
		if (!eat(p, ":") || !reg_class(p, &rc))
			return fail(p, at, "expected %%N:CLASS");
		*o = mo_vsub((uint32_t)a, (int)sub, rc);
		RegClass whole = p->f->vregs.data[a];
		if (rc_file(rc) != rc_file(whole) || sub + rc_size(rc) > rc_size(whole))
			return fail(p, at, "%%%lld is %c%d: this access lies outside it", a, "sva"[rc_file(whole)], rc_size(whole));
		return true;
	}
	static const struct {
		const char *word;
		MOpndKind kind;
	} specials[] = {{"vcc", MO_VCC}, {"exec", MO_EXEC}, {"m0", MO_M0}, {"off", MO_OFF}};
	for (size_t i = 0; i < ARRAY_LEN(specials); i++) {
		size_t n = strlen(specials[i].word);
		if ((size_t)(p->end - p->s) >= n && strncmp(p->s, specials[i].word, n) == 0 &&
			(p->s + n == p->end || !isalnum((unsigned char)p->s[n]))) {
			p->s += n;
			*o = mo_special(specials[i].kind);
			return true;
		}
	}
	int f = p->s < p->end ? file_of(*p->s) : -1;
	if (f >= 0 && p->s + 1 < p->end && (isdigit((unsigned char)p->s[1]) || p->s[1] == '[')) {
		p->s++;
		if (eat(p, "[")) {
			if (!number(p, &a) || !eat(p, ":") || !number(p, &b) || !eat(p, "]") || a < 0 || b < a ||
				b - a >= 16 || b >= MAX_PHYS)
				return fail(p, at, "expected a register range like v[4:7]");
			*o = mo_preg((uint32_t)a, rc_make((RegFile)f, (int)(b - a + 1)));
			return true;
		}
		if (!number(p, &a) || a < 0 || a >= MAX_PHYS)
			return fail(p, at, "bad register number");
		*o = mo_preg((uint32_t)a, rc_make((RegFile)f, 1));
		return true;
	}
	if (p->s < p->end && (isdigit((unsigned char)*p->s) || *p->s == '-')) {
		if (!number(p, &a))
			return false;
		/* the printer writes literals as 32-bit hex: read them back signed */
		if (at[0] == '0' && (at[1] == 'x' || at[1] == 'X')) {
			if (a > 0xffffffffLL)
				return fail(p, at, "a literal is at most 32 bits");
			a = (int32_t)(uint32_t)a;
		}
		*o = mo_imm(a);
		return true;
	}
	return fail(p, at, "expected an operand");
}

/* The row a mnemonic names (with gfx90a's MFMA spelling). */
static int find_row(const char *w, size_t n)
{
	for (int op = I_UNKNOWN + 1; op < I_COUNT; op++) {
		const char *name = isa_info[op].name;
		if (strlen(name) == n && strncmp(name, w, n) == 0)
			return op;
	}
	for (int op = I_UNKNOWN + 1; op < I_COUNT; op++) { /* v_mfma_f32_16x16x16f16 */
		const IsaInfo *r = &isa_info[op];
		const char *u = strrchr(r->name, '_');
		if (!(r->flags & IF_MFMA) || !u || !(u[-1] >= '0' && u[-1] <= '9'))
			continue;
		size_t head = (size_t)(u - r->name), tail = strlen(u + 1);
		if (head + tail == n && strncmp(w, r->name, head) == 0 && strncmp(w + head, u + 1, tail) == 0)
			return op;
	}
	return -1;
}

static bool dpp_controls(P *p, uint16_t *dpp)
{
	long long a, b, c, d;
	skip_space(p);
	if (eat(p, "quad_perm:[")) {
		if (!number(p, &a) || !eat(p, ",") || !number(p, &b) || !eat(p, ",") || !number(p, &c) || !eat(p, ",") ||
			!number(p, &d) || !eat(p, "]") || a < 0 || a > 3 || b < 0 || b > 3 || c < 0 || c > 3 || d < 0 || d > 3)
			return fail(p, p->s, "bad quad_perm");
		*dpp = (uint16_t)(a | b << 2 | c << 4 | d << 6);
	} else if (eat(p, "row_shl:") || eat(p, "row_shr:") || eat(p, "row_ror:")) {
		/* row_shl:N is 0x10N, row_shr:N 0x11N, row_ror:N 0x12N */
		int base = p->s[-2] == 'l' ? 0x100 : p->s[-3] == 'h' ? 0x110 : 0x120; /* shl, shr, ror */
		if (!number(p, &a) || a < 1 || a > 15)
			return fail(p, p->s, "bad row shift");
		*dpp = (uint16_t)(base + a);
	} else if (eat(p, "row_half_mirror")) {
		*dpp = 0x141;
	} else if (eat(p, "row_mirror")) {
		*dpp = 0x140;
	} else if (eat(p, "row_bcast:15")) {
		*dpp = 0x142;
	} else if (eat(p, "row_bcast:31")) {
		*dpp = 0x143;
	} else {
		return fail(p, p->s, "expected a DPP control");
	}
	skip_space(p);
	if (!eat(p, "row_mask:0xf") || (skip_space(p), !eat(p, "bank_mask:0xf")))
		return fail(p, p->s, "expected row_mask:0xf bank_mask:0xf");
	return true;
}

/* The instruction about to be appended to b names label l: resolved at
 * the end, when every block is known. */
static void add_fix(P *p, const MBlock *b, const char *l, size_t n)
{
	if (p->nfix == p->capfix) {
		p->capfix = p->capfix ? 2 * p->capfix : 16;
		p->fix = xrealloc(p->fix, p->capfix * sizeof *p->fix);
	}
	p->fix[p->nfix++] = (struct Fix){p->f->blocks.len - 1, b->insts.len, intern_n(l, n), p->line,
		(int)(l - p->line0) + 1};
}

/* `[b0,b1,...]` of 0s and 1s: bit i of *bits is entry i; *n entries. */
static bool bit_list(P *p, unsigned *bits, int *n)
{
	*bits = 0;
	*n = 0;
	if (!eat(p, "["))
		return fail(p, p->s, "expected [");
	do {
		long long v;
		if (!number(p, &v) || (v != 0 && v != 1) || *n == 4)
			return fail(p, p->s, "expected a list of up to 4 bits");
		*bits |= (unsigned)v << (*n)++;
	} while (eat(p, ","));
	return eat(p, "]") || fail(p, p->s, "expected ]");
}

/* The modifiers mir_print writes from MInst.mods (mir.h): an f8f6f4
 * MFMA's op_sel/op_sel_hi (its scale bytes), cbsz and blgp; a VOP3 row's
 * op_sel, its last entry the destination's. */
static bool mods(P *p, MInst *in)
{
	const IsaInfo *r = &isa_info[in->op];
	bool mfma = r->flags & IF_F8F6F4;
	unsigned lo = 0, hi = 0, cbsz = 0, blgp = 0;
	for (skip_space(p); p->s < p->end; skip_space(p)) {
		const char *at = p->s;
		unsigned bits;
		int n;
		long long v;
		if (eat(p, "op_sel_hi:")) {
			if (!mfma || !bit_list(p, &hi, &n) || n != 3 || (hi & 4))
				return p->failed ? false : fail(p, at, "op_sel_hi only on a scaled MFMA, as [a,b,0]");
		} else if (eat(p, "op_sel:")) {
			if (!bit_list(p, &bits, &n))
				return false;
			int want = mfma ? 3 : r->src[2] ? 4 : 3;
			if (n != want || (mfma && (bits & 4)) || (!mfma && r->fmt != FMT_VOP3))
				return fail(p, at, "op_sel here takes %d entries", want);
			lo = mfma || n == 4 ? bits : (bits & 3) | (bits >> 2) << 3;
		} else if (eat(p, "cbsz:") || eat(p, "blgp:")) {
			bool a = at[0] == 'c';
			if (!mfma || !number(p, &v) || v < 0 || v > 4)
				return fail(p, at, "%s is an f8f6f4 MFMA's operand format, 0 to 4", a ? "cbsz" : "blgp");
			*(a ? &cbsz : &blgp) = (unsigned)v;
		} else
			break;
	}
	in->mods = mfma ? MI_MODS_MFMA(cbsz, blgp, (lo & 1) | (hi & 1) << 1, (lo >> 1 & 1) | (hi & 2))
			: (uint16_t)lo;
	return true;
}

static bool instruction(P *p, MBlock *b, const char *note)
{
	const char *w = p->s;
	while (p->s < p->end && (isalnum((unsigned char)*p->s) || *p->s == '_'))
		p->s++;
	size_t n = (size_t)(p->s - w);
	uint32_t flags = 0;
	bool dpp = false;
	int op = find_row(w, n);
	if (op < 0 && n > 4) {
		const char *suf = w + n - 4;
		if (strncmp(suf, "_e32", 4) == 0)
			flags = MIF_E32;
		else if (strncmp(suf, "_e64", 4) == 0)
			flags = MIF_E64;
		else if (strncmp(suf, "_dpp", 4) == 0)
			dpp = true;
		if (flags || dpp)
			op = find_row(w, n - 4);
	}
	if (op < 0)
		return fail(p, w, "unknown instruction '%.*s'", (int)n, w);
	MInst in = {.op = (MOp)op, .flags = flags, .vmcnt = -1, .lgkmcnt = -1, .target = -1, .note = note};
	if (op == I_S_WAITCNT) {
		skip_space(p);
		long long v;
		const char *at = p->s;
		if (eat(p, "vmcnt(")) {
			if (!number(p, &v) || v < 0 || v > 63 || !eat(p, ")"))
				return fail(p, at, "bad vmcnt");
			in.vmcnt = (int16_t)v;
			skip_space(p);
		}
		at = p->s;
		if (eat(p, "lgkmcnt(")) {
			if (!number(p, &v) || v < 0 || v > 15 || !eat(p, ")"))
				return fail(p, at, "bad lgkmcnt");
			in.lgkmcnt = (int16_t)v;
		}
	} else {
		MOpnd ops[MI_MAX_DEFS + MI_MAX_USES];
		int nops = 0;
		bool branch = mop_is_branch((MOp)op) && op != I_S_SETPC_B64; /* a long branch's target: its adds */
		const char *pcrel = NULL; /* a long branch's distance operand: the label in it */
		size_t pcrel_len = 0;
		skip_space(p);
		/* operands until a modifier word or the end */
		while (p->s < p->end && !branch) {
			if (starts(p, "offen") || starts(p, "offset:") || (dpp && (starts(p, "quad_perm") || starts(p, "row_"))) ||
				starts(p, "op_sel") || starts(p, "cbsz:") || starts(p, "blgp:") ||
				(isa_info[op].fmt == FMT_MUBUF && (starts(p, "sc0") || starts(p, "sc1") || starts(p, "glc"))))
				break; /* the modifiers (a cache-control row's sc1 its only word) */
			if (nops == MI_MAX_DEFS + MI_MAX_USES)
				return fail(p, p->s, "too many operands");
			if (*p->s == '(') { /* (LABEL-.)&4294967295 or (LABEL-.+8)>>32 (mir.h) */
				const char *at = p->s++;
				pcrel = p->s;
				while (p->s < p->end && *p->s != '-' && !isspace((unsigned char)*p->s))
					p->s++;
				pcrel_len = (size_t)(p->s - pcrel);
				if (eat(p, "-.)&4294967295") && op == I_S_ADD_U32)
					in.flags |= MIF_PCREL_LO;
				else if (eat(p, "-.+8)>>32") && op == I_S_ADDC_U32)
					in.flags |= MIF_PCREL_HI;
				else
					return fail(p, at, "expected a long branch's (LABEL-.)&4294967295 in s_add_u32 or "
							   "(LABEL-.+8)>>32 in s_addc_u32");
				if (!pcrel_len)
					return fail(p, at, "a long branch's distance needs a target label");
				ops[nops++] = mo_imm(0);
			} else if (!operand(p, &ops[nops++]))
				return false;
			skip_space(p);
			if (!eat(p, ","))
				break;
			skip_space(p);
			if (p->s == p->end)
				return fail(p, p->s, "expected an operand");
		}
		/* a MUBUF load ending in `lds` is an LDS DMA: no def (mir.h) */
		const char *e = p->end;
		while (e > p->s && isspace((unsigned char)e[-1]))
			e--;
		if (isa_info[op].fmt == FMT_MUBUF && (isa_info[op].flags & IF_LOAD) && e - p->s >= 3 &&
			strncmp(e - 3, "lds", 3) == 0 && (e - p->s == 3 || isspace((unsigned char)e[-4])))
			flags |= MIF_LDS;
		in.flags |= flags & MIF_LDS;
		int nd = mir_ndef((MOp)op, flags);
		if (nops < nd)
			return fail(p, w, "%s has %d def%s, got %d operands", isa_info[op].name, nd, nd == 1 ? "" : "s",
				nops);
		if (nops - nd > MI_MAX_USES)
			return fail(p, w, "too many uses");
		in.ndef = (uint8_t)nd;
		in.nuse = (uint8_t)(nops - nd);
		memcpy(in.def, ops, sizeof(MOpnd) * (size_t)nd);
		memcpy(in.use, ops + nd, sizeof(MOpnd) * (size_t)(nops - nd));
		if (branch) {
			const char *l = p->s;
			while (p->s < p->end && !isspace((unsigned char)*p->s))
				p->s++;
			if (p->s == l)
				return fail(p, l, "a branch needs a target label");
			add_fix(p, b, l, (size_t)(p->s - l));
		}
		if (pcrel)
			add_fix(p, b, pcrel, pcrel_len);
		skip_space(p);
		if (eat(p, "offen")) {
			in.flags |= MIF_OFFEN;
			skip_space(p);
		}
		if (eat(p, "offset:")) {
			long long v;
			if (!number(p, &v) || v < -(1 << 20) || v > (1 << 20))
				return fail(p, p->s, "bad offset");
			in.offset = (int32_t)v;
			skip_space(p);
		}
		if (isa_cache_op(op) && eat(p, "sc1")) /* its scope, which the printer gives it (mir_print.c) */
			skip_space(p);
		bool plain_mubuf = isa_info[op].fmt == FMT_MUBUF && !(isa_info[op].flags & IF_ATOMIC) && !isa_cache_op(op);
		if (plain_mubuf && (eat(p, "glc") || eat(p, "sc0"))) {
			/* a volatile load or store (MIF_VOL: sc0 sc1, or glc on gfx90a) */
			skip_space(p);
			if (eat(p, "sc1"))
				skip_space(p);
			in.flags |= MIF_VOL;
		} else if (plain_mubuf && eat(p, "sc1")) { /* an acquire's load, a release's store */
			skip_space(p);
			in.flags |= MIF_AGENT;
		}
		if (eat(p, "glc") || eat(p, "sc0")) {
			/* a returning MUBUF atomic: its data register is its def too */
			if (isa_info[op].fmt != FMT_MUBUF || !(isa_info[op].flags & IF_ATOMIC) || in.ndef || !in.nuse)
				return fail(p, p->s, "glc/sc0 only on a MUBUF atomic here");
			in.flags |= MIF_GLC | MIF_TIED;
			in.def[0] = in.use[0];
			memmove(in.use, in.use + 1, sizeof(MOpnd) * (size_t)(in.nuse - 1));
			in.ndef = 1;
			in.nuse--;
			skip_space(p);
		}
		if ((in.flags & MIF_LDS) && !eat(p, "lds"))
			return fail(p, p->s, "expected lds");
		if (((in.flags & MIF_LDS) || isa_lds_dma((MOp)op)) && in.nuse < MI_MAX_USES)
			in.use[in.nuse++] = mo_special(MO_M0); /* the DMA's LDS address */
		if (op == I_V_PERMLANE16_SWAP_B32 || op == I_V_PERMLANE32_SWAP_B32) {
			if (in.nuse)
				return fail(p, w, "a lane swap names its two registers once");
			in.use[0] = in.def[0], in.use[1] = in.def[1], in.nuse = 2;
		}
		if (dpp && !dpp_controls(p, &in.dpp))
			return false;
		if (!mods(p, &in))
			return false;
	}
	skip_space(p);
	if (p->s < p->end)
		return fail(p, p->s, "unexpected text after the instruction");
	vec_push(&b->insts, in);
	return true;
}

/* `// vregs: %0:s2 %1:v4 ...` */
static bool vregs_line(P *p)
{
	skip_space(p);
	while (p->s < p->end) {
		const char *at = p->s;
		long long n;
		RegClass rc;
		if (!eat(p, "%") || !number(p, &n) || n != (long long)p->f->vregs.len || !eat(p, ":") || !reg_class(p, &rc))
			return fail(p, at, "expected %%%zu:CLASS (virtual registers in order)", p->f->vregs.len);
		vec_push(&p->f->vregs, rc);
		skip_space(p);
	}
	return true;
}

static bool is_printer_label(const char *l, size_t n, size_t block)
{
	char want[32];
	snprintf(want, sizeof want, ".LBB_%zu", block);
	return strlen(want) == n && strncmp(want, l, n) == 0;
}

MFunc *mir_parse(const char *text, size_t len, const char *name, const Target *t, Buf *err)
{
	P p = {.name = name ? name : "<mir>", .err = err};
	p.f = mfunc_new(p.name, t);
	p.f->allocated = true;
	MBlock *b = NULL;
	const char *note = NULL;
	const char *pos = text, *end = text + len;
	bool first = true;
	for (p.line = 1; pos < end && !p.failed; p.line++) {
		const char *nl = memchr(pos, '\n', (size_t)(end - pos));
		p.line0 = p.s = pos;
		p.end = nl ? nl : end;
		pos = nl ? nl + 1 : end;
		if (memchr(p.line0, 0, (size_t)(p.end - p.line0))) {
			fail(&p, p.line0, "NUL byte in the text");
			break;
		}
		skip_space(&p);
		if (p.s == p.end || *p.s == ';')
			continue;
		if (eat(&p, "// vregs:")) {
			if (!first || p.f->blocks.len) {
				fail(&p, p.line0, "`// vregs:` must be the first line");
				break;
			}
			p.f->allocated = false;
			vregs_line(&p);
			first = false;
			continue;
		}
		first = false;
		if (eat(&p, "//")) {
			skip_space(&p);
			const char *e = p.end;
			while (e > p.s && isspace((unsigned char)e[-1]))
				e--;
			note = e > p.s ? intern_n(p.s, (size_t)(e - p.s)) : NULL;
			continue;
		}
		if (p.s == p.line0 && p.end > p.s && p.end[-1] == ':') { /* a label */
			size_t n = (size_t)(p.end - p.s - 1);
			if (!n) {
				fail(&p, p.s, "empty label");
				break;
			}
			size_t idx = p.f->blocks.len;
			for (size_t i = 0; i < p.labels.len; i++)
				if (strlen(p.labels.data[i]) == n && strncmp(p.labels.data[i], p.s, n) == 0) {
					fail(&p, p.s, "label %.*s defined twice", (int)n, p.s);
					break;
				}
			if (p.failed)
				break;
			const char *l = intern_n(p.s, n);
			b = mfunc_block(p.f, is_printer_label(p.s, n, idx) ? NULL : l);
			vec_push(&p.labels, l);
			continue;
		}
		if (!b) { /* instructions before any label: block 0, unlabelled */
			b = mfunc_block(p.f, NULL);
			vec_push(&p.labels, intern(".LBB_0"));
		}
		instruction(&p, b, note);
	}
	for (size_t i = 0; i < p.nfix && !p.failed; i++) {
		int target = -1;
		for (size_t k = 0; k < p.labels.len; k++)
			if (p.labels.data[k] == p.fix[i].label)
				target = (int)k;
		if (target < 0) {
			p.line = p.fix[i].line;
			buf_printf(err, "%s:%d:%d: undefined label %s\n", p.name, p.fix[i].line, p.fix[i].col, p.fix[i].label);
			p.failed = true;
			break;
		}
		p.f->blocks.data[p.fix[i].block]->insts.data[p.fix[i].inst].target = target;
	}
	/* a long branch's s_setpc_b64 goes where the s_addc_u32 before it says
	 * (mir_verify checks the whole sequence) */
	for (size_t bi = 0; bi < p.f->blocks.len && !p.failed; bi++) {
		MBlock *blk = p.f->blocks.data[bi];
		for (size_t i = 1; i < blk->insts.len; i++)
			if (blk->insts.data[i].op == I_S_SETPC_B64 && (blk->insts.data[i - 1].flags & MIF_PCREL_HI))
				blk->insts.data[i].target = blk->insts.data[i - 1].target;
	}
	free(p.fix);
	vec_free(&p.labels);
	if (p.failed) {
		mfunc_free(p.f);
		return NULL;
	}
	return p.f;
}
