/* regs.c — a wave's registers as the executing files see them: located
 * failures, scalar registers by operand code (SGPRs, VCC, EXEC, M0, ...),
 * scalar sources including inline constants by the operation's type, and
 * the bounds check of a VGPR range against what the kernel descriptor
 * allocates; the decoded instruction at an address (for messages). The
 * issue loop (wave.c) and the executors (salu.c, valu.c,
 * mfma.c, vmem.c) call these; nothing here calls back into them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/util.h"
#include "emu_int.h"

void emu_fail(Emu *e, Wave *w, const Inst *in, const char *fmt, ...)
{
	if (e->failed)
		return;
	e->failed = true;
	char msg[512], dis[160] = "";
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (in)
		emu_print(in, w ? w->pc : 0, dis, sizeof dis);
	if (w && e->wg)
		snprintf(e->err, e->err_len, "%s at 0x%llx%s%s%s [workgroup (%u,%u,%u) wave %u]", msg,
			 (unsigned long long)w->pc, in ? " (" : "", dis, in ? ")" : "", e->wg->id[0], e->wg->id[1],
			 e->wg->id[2], w->id);
	else
		snprintf(e->err, e->err_len, "%s", msg);
	if (w)
		w->done = true;
}

/* ---- scalar registers and operands ---- */

uint32_t emu_sreg_read(Emu *e, Wave *w, unsigned code)
{
	if (code < NUM_SGPRS)
		return w->sgpr[code];
	switch (code) {
	case SRC_M0: return w->m0;
	case SRC_EXEC_LO: return (uint32_t)w->exec;
	case SRC_EXEC_HI: return (uint32_t)(w->exec >> 32);
	case SRC_VCCZ: return (w->sgpr[SRC_VCC_LO] | w->sgpr[SRC_VCC_HI]) == 0;
	case SRC_EXECZ: return w->exec == 0;
	case SRC_SCC: return w->scc;
	case SRC_SHARED_BASE: return EMU_SHARED_HI;
	case SRC_SHARED_LIMIT: return EMU_SHARED_HI;
	case SRC_PRIVATE_BASE: return EMU_PRIVATE_HI;
	case SRC_PRIVATE_LIMIT: return EMU_PRIVATE_HI;
	default: break;
	}
	(void)e;
	return 0; /* ttmp: not modelled, read as 0 */
}

void emu_sreg_write(Emu *e, Wave *w, unsigned code, uint32_t v)
{
	if (code < NUM_SGPRS)
		w->sgpr[code] = v;
	else if (code == SRC_M0)
		w->m0 = v;
	else if (code == SRC_EXEC_LO)
		w->exec = (w->exec & 0xffffffff00000000ull) | v;
	else if (code == SRC_EXEC_HI)
		w->exec = (w->exec & 0xffffffffull) | (uint64_t)v << 32;
	else
		(void)e; /* writes to ttmp/null are dropped */
}

uint64_t emu_sreg_read64(Emu *e, Wave *w, unsigned code)
{
	if (code == SRC_EXEC_LO)
		return w->exec;
	if (code >= SRC_SHARED_BASE && code <= SRC_PRIVATE_LIMIT) /* 64-bit aperture values */
		return (uint64_t)emu_sreg_read(e, w, code) << 32 | (code & 1 ? 0 : 0xffffffffu);
	return emu_sreg_read(e, w, code) | (uint64_t)emu_sreg_read(e, w, code + 1) << 32;
}

void emu_sreg_write64(Emu *e, Wave *w, unsigned code, uint64_t v)
{
	if (code == SRC_EXEC_LO) {
		w->exec = v;
		return;
	}
	emu_sreg_write(e, w, code, (uint32_t)v);
	emu_sreg_write(e, w, code + 1, (uint32_t)(v >> 32));
}

static uint64_t inline_const(unsigned c, IsaType t)
{
	if (c >= 128 && c <= 192)
		return c - 128;
	if (c >= 193 && c <= 208)
		return (uint64_t)-(int64_t)(c - 192);
	static const uint32_t f32[] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
				       0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
	static const uint16_t f16[] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118};
	static const uint64_t f64[] = {0x3fe0000000000000ull, 0xbfe0000000000000ull, 0x3ff0000000000000ull,
				       0xbff0000000000000ull, 0x4000000000000000ull, 0xc000000000000000ull,
				       0x4010000000000000ull, 0xc010000000000000ull, 0x3fc45f306dc9c882ull};
	static const uint16_t bf16[] = {0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000, 0xc000, 0x4080, 0xc080, 0x3e23};
	if (c >= 240 && c <= 248) {
		if (t == T_F16)
			return f16[c - 240];
		if (t == T_BF16)
			return bf16[c - 240];
		if (t == T_F64)
			return f64[c - 240];
		return f32[c - 240];
	}
	return 0;
}

uint32_t emu_scalar_src(Emu *e, Wave *w, const Inst *in, unsigned code, IsaType type)
{
	if (code == SRC_LITERAL)
		return in->lit;
	if ((code >= 128 && code <= 208) || (code >= 240 && code <= 248))
		return (uint32_t)inline_const(code, type);
	return emu_sreg_read(e, w, code);
}

uint64_t emu_scalar_src64(Emu *e, Wave *w, const Inst *in, unsigned code, IsaType type)
{
	if (code == SRC_LITERAL) /* f64: the literal is the high dword; ints: zero-extended */
		return type == T_F64 ? (uint64_t)in->lit << 32 : in->lit;
	if ((code >= 128 && code <= 208) || (code >= 240 && code <= 248)) {
		uint64_t v = inline_const(code, type);
		if (code >= 240 && type != T_F64) /* 32-bit float constant, zero-extended */
			v = inline_const(code, T_F32);
		return v;
	}
	return emu_sreg_read64(e, w, code);
}

bool emu_vreg_ok(Emu *e, Wave *w, const Inst *in, unsigned r, unsigned n)
{
	if (r < w->nregs && n <= w->nregs - r) /* (r + n could wrap) */
		return true;
	emu_fail(e, w, in, "register v%u..v%u outside the %u registers the kernel descriptor allocates (unified file)",
		 r, r + n - 1, w->nregs);
	return false;
}

/* ---- the decode cache, for messages ---- */

const Inst *emu_inst_at(Emu *e, uint64_t pc)
{
	CodeCache *c = &e->code;
	if (pc < c->base || pc >= c->base + c->size || (pc & 3))
		return NULL;
	size_t slot = (size_t)((pc - c->base) / 4);
	CodePage *pg = c->pages[slot / CODE_PAGE];
	return pg && pg->state[slot % CODE_PAGE] ? &pg->insts[slot % CODE_PAGE] : NULL;
}
