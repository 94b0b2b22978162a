/* decode.c — machine code → Inst, and Inst → llvm-mc-like text.
 *
 * The format is found from the high bits of the first dword
 * (AMD CDNA3 ISA guide, microcode formats): SOP1/SOPC/SOPP by [31:23], SOPK by [31:28], SOP2 by
 * [31:30], VOP2 by [31], VOP1/VOPC by [31:25], the 64-bit formats by
 * [31:26] (VOP3P is the VOP3 space with op[9:7] = 0b111). The opcode is then
 * looked up in per-architecture tables built once from the X-macro rows in
 * insts.h; VOP1/VOP2/VOPC rows also fill the VOP3 table at +0x140/+0x100/+0.
 * A 32-bit literal follows when a source field is 255 (and always for
 * v_madmk/v_madak); DPP and SDWA add their second dword. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "emu_int.h"

typedef struct {
	uint16_t sop1[256], sop2[128], sopk[32], sopc[128], sopp[128], smem[256];
	uint16_t vop1[256], vop2[64], vopc[256], vop3[1024], vop3p[128];
	uint16_t ds[256], mubuf[128], flat[3][128];
} OpTables;

/* Built once per process, before the first decode (pthread_once: emulator
 * runs may start on several threads at once), then only read. */
static OpTables tables[2]; /* 0: gfx942 (and gfx950), 1: gfx90a */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(int t)
{
	OpTables *T = &tables[t];
	for (int i = 1; i < I_COUNT; i++) {
		const IsaInfo *r = &isa_info[i];
		int op = r->op942;
		if (t == 1)
			op = r->op90a == SAME ? r->op942 : r->op90a;
		if (op < 0)
			continue;
		uint16_t id = (uint16_t)i;
		switch (r->fmt) {
		case FMT_SOP1: T->sop1[op] = id; break;
		case FMT_SOP2: T->sop2[op] = id; break;
		case FMT_SOPK: T->sopk[op] = id; break;
		case FMT_SOPC: T->sopc[op] = id; break;
		case FMT_SOPP: T->sopp[op] = id; break;
		case FMT_SMEM: T->smem[op] = id; break;
		case FMT_VOP1: T->vop1[op] = id; T->vop3[0x140 + op] = id; break;
		case FMT_VOP2: T->vop2[op] = id; T->vop3[0x100 + op] = id; break;
		case FMT_VOPC: T->vopc[op] = id; T->vop3[op] = id; break;
		case FMT_VOP3: T->vop3[op] = id; break;
		case FMT_VOP3P:
			if (!(r->flags & IF_MSCALE)) /* the scaled pair: decoded from its ld_scale half */
				T->vop3p[op] = id;
			break;
		case FMT_DS: T->ds[op] = id; break;
		case FMT_MUBUF: T->mubuf[op] = id; break;
		case FMT_FLAT: T->flat[r->name[0] == 'g' ? 2 : r->name[0] == 's' ? 1 : 0][op] = id; break;
		default: break;
		}
	}
}

static void build_all_tables(void)
{
	build_tables(0);
	build_tables(1);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int32_t sext(uint32_t v, int bits)
{
	uint32_t m = 1u << (bits - 1);
	v &= (bits == 32) ? 0xffffffffu : ((1u << bits) - 1);
	return (int32_t)((v ^ m) - m);
}

/* A v_mfma_ld_scale_b32 followed by an f8f6f4 MFMA with abid[0] set is
 * one 16-byte instruction, v_mfma_scale_* (LLVM's VOP3PX2): the MFMA's
 * fields, and the ld_scale's sources as the scales with their byte selects
 * {op_sel_hi[i], op_sel[i]}. `in` holds the decoded ld_scale. */
static bool scaled_mfma(const OpTables *T, const uint8_t *p, Inst *in)
{
	uint32_t w0 = rd32(p + 8), w1 = rd32(p + 12);
	if ((w0 >> 23) != 0x1a7 || !((w0 >> 11) & 1)) /* VOP3P, abid[0] */
		return false;
	uint16_t id = T->vop3p[(w0 >> 16) & 0x7f];
	if (id != I_V_MFMA_F32_16X16X128_F8F6F4 && id != I_V_MFMA_F32_32X32X64_F8F6F4)
		return false;
	Inst ls = *in;
	memset(in, 0, sizeof *in);
	in->fmt = FMT_VOP3P;
	in->id = id == I_V_MFMA_F32_16X16X128_F8F6F4 ? I_V_MFMA_SCALE_F32_16X16X128_F8F6F4
						      : I_V_MFMA_SCALE_F32_32X32X64_F8F6F4;
	in->dst = w0 & 0xff;
	in->src[0] = w1 & 0x1ff;
	in->src[1] = (w1 >> 9) & 0x1ff;
	in->src[2] = (w1 >> 18) & 0x1ff;
	in->acc_cd = (w0 >> 15) & 1;
	in->abid = (w0 >> 11) & 0xf;
	in->cbsz = (w0 >> 8) & 7;
	in->blgp = (w1 >> 29) & 7;
	in->acc_a = (w1 >> 27) & 1;
	in->acc_b = (w1 >> 28) & 1;
	in->scale_src[0] = ls.src[0];
	in->scale_src[1] = ls.src[1];
	for (int i = 0; i < 2; i++)
		in->scale_sel[i] = (uint8_t)(((ls.opsel >> i) & 1) | ((ls.opsel_hi >> i) & 1) << 1);
	in->raw = ls.raw;
	return true;
}

static bool is_vop_e32(const Inst *in)
{
	return !in->vop3 && (in->fmt == FMT_VOP1 || in->fmt == FMT_VOP2 || in->fmt == FMT_VOPC);
}

int emu_decode(EmuArch arch, const uint8_t *p, size_t avail, Inst *in)
{
	int t = arch == EMU_GFX90A ? 1 : 0;
	pthread_once(&tables_once, build_all_tables);
	OpTables *T = &tables[t];
	memset(in, 0, sizeof *in);
	if (avail < 4)
		return 0;
	uint32_t w0 = rd32(p), w1 = avail >= 8 ? rd32(p + 4) : 0;
	int words = 1;
	in->raw = w0;
	unsigned top9 = w0 >> 23;
	if (top9 == 0x17D) { /* SOP1 */
		in->fmt = FMT_SOP1;
		in->id = T->sop1[(w0 >> 8) & 0xff];
		in->dst = (w0 >> 16) & 0x7f;
		in->src[0] = w0 & 0xff;
	} else if (top9 == 0x17E) { /* SOPC */
		in->fmt = FMT_SOPC;
		in->id = T->sopc[(w0 >> 16) & 0x7f];
		in->src[0] = w0 & 0xff;
		in->src[1] = (w0 >> 8) & 0xff;
	} else if (top9 == 0x17F) { /* SOPP */
		in->fmt = FMT_SOPP;
		in->id = T->sopp[(w0 >> 16) & 0x7f];
		in->imm = (int16_t)(w0 & 0xffff);
	} else if ((w0 >> 28) == 0xB) { /* SOPK */
		in->fmt = FMT_SOPK;
		in->id = T->sopk[(w0 >> 23) & 0x1f];
		in->dst = (w0 >> 16) & 0x7f;
		in->imm = (int16_t)(w0 & 0xffff);
	} else if ((w0 >> 30) == 2) { /* SOP2 */
		in->fmt = FMT_SOP2;
		in->id = T->sop2[(w0 >> 23) & 0x7f];
		in->dst = (w0 >> 16) & 0x7f;
		in->src[0] = w0 & 0xff;
		in->src[1] = (w0 >> 8) & 0xff;
	} else if ((w0 >> 25) == 0x3F) { /* VOP1 */
		in->fmt = FMT_VOP1;
		in->id = T->vop1[(w0 >> 9) & 0xff];
		in->dst = (w0 >> 17) & 0xff;
		in->src[0] = w0 & 0x1ff;
	} else if ((w0 >> 25) == 0x3E) { /* VOPC */
		in->fmt = FMT_VOPC;
		in->id = T->vopc[(w0 >> 17) & 0xff];
		in->src[1] = 256 + ((w0 >> 9) & 0xff);
		in->src[0] = w0 & 0x1ff;
		in->sdst = SRC_VCC_LO;
	} else if ((w0 >> 31) == 0) { /* VOP2 */
		in->fmt = FMT_VOP2;
		in->id = T->vop2[(w0 >> 25) & 0x3f];
		in->dst = (w0 >> 17) & 0xff;
		in->src[1] = 256 + ((w0 >> 9) & 0xff);
		in->src[0] = w0 & 0x1ff;
	} else {
		unsigned top6 = w0 >> 26;
		if (top6 != 0x34 && top6 != 0x30 && top6 != 0x36 && top6 != 0x38 && top6 != 0x37) {
			in->id = I_UNKNOWN; /* MTBUF, MIMG, EXP, ...: not decoded */
			in->fmt = FMT_COUNT;
			in->words = 1;
			return 1;
		}
		if (avail < 8)
			return 0;
		words = 2;
		in->raw = (uint64_t)w1 << 32 | w0;
		if (top6 == 0x34 && ((w0 >> 23) & 7) == 7) { /* VOP3P */
			in->fmt = FMT_VOP3P;
			in->id = T->vop3p[(w0 >> 16) & 0x7f];
			in->dst = w0 & 0xff;
			in->src[0] = w1 & 0x1ff;
			in->src[1] = (w1 >> 9) & 0x1ff;
			in->src[2] = (w1 >> 18) & 0x1ff;
			if (isa_info[in->id].flags & IF_MFMA) {
				in->acc_cd = (w0 >> 15) & 1;
				in->abid = (w0 >> 11) & 0xf;
				in->cbsz = (w0 >> 8) & 7;
				in->blgp = (w1 >> 29) & 7;
				in->acc_a = (w1 >> 27) & 1;
				in->acc_b = (w1 >> 28) & 1;
			} else {
				in->clamp = (w0 >> 15) & 1;
				in->opsel = (w0 >> 11) & 7;
				in->opsel_hi = (uint8_t)(((w1 >> 27) & 3) | ((w0 >> 12) & 4));
				in->neg_hi = (w0 >> 8) & 7;
				in->neg = (w1 >> 29) & 7;
			}
		} else if (top6 == 0x34) { /* VOP3a/b */
			unsigned op = (w0 >> 16) & 0x3ff;
			in->id = T->vop3[op];
			in->fmt = in->id ? isa_info[in->id].fmt : FMT_VOP3;
			in->vop3 = in->fmt != FMT_VOP3;
			in->dst = w0 & 0xff;
			in->src[0] = w1 & 0x1ff;
			in->src[1] = (w1 >> 9) & 0x1ff;
			in->src[2] = (w1 >> 18) & 0x1ff;
			in->neg = (w1 >> 29) & 7;
			in->omod = (w1 >> 27) & 3;
			in->clamp = (w0 >> 15) & 1;
			if (isa_info[in->id].flags & IF_VOP3B) {
				in->sdst = (w0 >> 8) & 0x7f;
			} else {
				in->abs = (w0 >> 8) & 7;
				in->opsel = (w0 >> 11) & 0xf;
			}
			if (in->fmt == FMT_VOPC)
				in->sdst = in->dst;
		} else if (top6 == 0x30) { /* SMEM */
			in->fmt = FMT_SMEM;
			in->id = T->smem[(w0 >> 18) & 0xff];
			in->smem_imm = (w0 >> 17) & 1;
			in->glc = (w0 >> 16) & 1;
			in->soffset_en = (w0 >> 14) & 1;
			in->dst = (w0 >> 6) & 0x7f;
			in->sbase = (uint8_t)((w0 & 0x3f) * 2);
			in->soffset = (w1 >> 25) & 0x7f;
			if (in->smem_imm)
				in->imm = sext(w1 & 0x1fffff, 21);
			else if (!in->soffset_en)
				in->soffset = w1 & 0x7f, in->soffset_en = true;
		} else if (top6 == 0x36) { /* DS */
			in->fmt = FMT_DS;
			in->id = T->ds[(w0 >> 17) & 0xff];
			in->acc = (w0 >> 25) & 1;
			in->offset0 = w0 & 0xff;
			in->offset1 = (w0 >> 8) & 0xff;
			in->imm = (int32_t)(w0 & 0xffff);
			in->addr = w1 & 0xff;
			in->data0 = (w1 >> 8) & 0xff;
			in->data1 = (w1 >> 16) & 0xff;
			in->dst = (w1 >> 24) & 0xff;
		} else if (top6 == 0x38) { /* MUBUF */
			in->fmt = FMT_MUBUF;
			in->id = T->mubuf[(w0 >> 18) & 0x7f];
			in->imm = (int32_t)(w0 & 0xfff);
			in->offen = (w0 >> 12) & 1;
			in->idxen = (w0 >> 13) & 1;
			in->glc = (w0 >> 14) & 1;
			in->sc1 = (w0 >> 15) & 1;
			in->lds = (w0 >> 16) & 1;
			in->slc = (w0 >> 17) & 1;
			in->addr = w1 & 0xff;
			in->dst = (w1 >> 8) & 0xff;
			in->srsrc = (uint8_t)(((w1 >> 16) & 0x1f) * 4);
			in->acc = (w1 >> 23) & 1;
			in->soffset = (w1 >> 24) & 0xff;
		} else if (top6 == 0x37) { /* FLAT / GLOBAL / SCRATCH */
			in->fmt = FMT_FLAT;
			in->seg = (w0 >> 14) & 3;
			in->id = in->seg == 3 ? 0 : T->flat[in->seg][(w0 >> 18) & 0x7f]; /* seg 3: reserved */
			in->imm = in->seg == 0 ? (int32_t)(w0 & 0xfff) : sext(w0 & 0x1fff, 13);
			in->glc = (w0 >> 16) & 1;
			in->slc = (w0 >> 17) & 1;
			in->sc1 = (w0 >> 25) & 1;
			in->addr = w1 & 0xff;
			in->data0 = (w1 >> 8) & 0xff;
			in->saddr = (w1 >> 16) & 0x7f;
			in->acc = (w1 >> 23) & 1;
			in->dst = (w1 >> 24) & 0xff;
			/* scratch address: gfx942 has an SVE bit (VGPR used, also with an
			 * SGPR); gfx90a uses the VGPR only when saddr is off */
			in->sve = in->seg == 1 && (arch == EMU_GFX90A ? in->saddr == 0x7f : ((w0 >> 13) & 1));
		} else {
			in->id = I_UNKNOWN;
			in->fmt = FMT_COUNT;
		}
	}
	/* second dword of DPP / SDWA, and the literal */
	if (is_vop_e32(in)) {
		if (in->src[0] == SRC_DPP || in->src[0] == SRC_SDWA) {
			if (avail < 8)
				return 0;
			w1 = rd32(p + 4);
			words = 2;
			in->raw = (uint64_t)w1 << 32 | w0;
			if (in->src[0] == SRC_DPP) {
				in->dpp = true;
				in->src[0] = 256 + (w1 & 0xff);
				in->dpp_ctrl = (w1 >> 8) & 0x1ff;
				in->bound_ctrl = (w1 >> 19) & 1;
				in->neg = (uint8_t)(((w1 >> 20) & 1) | ((w1 >> 21) & 2));
				in->abs = (uint8_t)(((w1 >> 21) & 1) | ((w1 >> 22) & 2));
				in->bank_mask = (w1 >> 24) & 0xf;
				in->row_mask = (w1 >> 28) & 0xf;
			} else {
				in->sdwa = true;
				in->src[0] = (w1 >> 23) & 1 ? (w1 & 0xff) : 256 + (w1 & 0xff);
				if (in->fmt == FMT_VOPC) {
					/* VOPC SDWA: bits 46:40 are sdst, bit 47 says it is used */
					if ((w1 >> 15) & 1)
						in->sdst = (w1 >> 8) & 0x7f;
					in->sdwa_dst_sel = 6;
				} else {
					in->sdwa_dst_sel = (w1 >> 8) & 7;
					in->sdwa_dst_unused = (w1 >> 11) & 3;
					in->clamp = (w1 >> 13) & 1;
					in->omod = (w1 >> 14) & 3;
				}
				in->sdwa_sel[0] = (w1 >> 16) & 7;
				in->sdwa_sext[0] = (w1 >> 19) & 1;
				in->neg = (uint8_t)(((w1 >> 20) & 1) | ((w1 >> 27) & 2));
				in->abs = (uint8_t)(((w1 >> 21) & 1) | ((w1 >> 28) & 2));
				in->sdwa_sel[1] = (w1 >> 24) & 7;
				in->sdwa_sext[1] = (w1 >> 27) & 1;
				if ((w1 >> 31) & 1)
					in->src[1] &= 0xff; /* s1: src1 is an SGPR */
			}
		}
	}
	bool lit = false;
	if (in->fmt <= FMT_SOPC && in->fmt != FMT_SOPK)
		lit = in->src[0] == SRC_LITERAL || in->src[1] == SRC_LITERAL;
	else if (is_vop_e32(in) && !in->dpp && !in->sdwa)
		lit = in->src[0] == SRC_LITERAL || in->id == I_V_MADMK_F32 || in->id == I_V_MADAK_F32 ||
		      in->id == I_V_FMAMK_F32 || in->id == I_V_FMAAK_F32;
	if (lit) {
		if (avail < (size_t)(words + 1) * 4)
			return 0;
		in->lit = rd32(p + 4 * words);
		in->has_lit = true;
		words++;
	}
	if (in->id == I_V_MFMA_LD_SCALE_B32 && avail >= 16 && scaled_mfma(T, p, in))
		words = 4;
	in->words = (uint8_t)words;
	return words;
}

const char *emu_inst_name(const Inst *in) { return isa_info[in->id].name; }

static bool is64(IsaType t) { return t == T_B64 || t == T_I64 || t == T_U64 || t == T_F64; }

int emu_operand_width(const Inst *in, int i)
{
	const IsaInfo *r = &isa_info[in->id];
	if (r->fmt == FMT_VOPC) {
		if (i < 0)
			return 2;
		if (!r->src[i])
			return 0;
		if (in->id == I_V_CMP_CLASS_F64 && i == 1)
			return 1;
		return is64((IsaType)r->type) ? 2 : 1;
	}
	if ((r->flags & IF_F8F6F4) && (i == 0 || i == 1))
		return isa_f8f6f4_dwords(i == 0 ? in->cbsz : in->blgp);
	return i < 0 ? r->dst : r->src[i];
}

/* ---- printing ---- */

static const char *inline_float(unsigned c)
{
	static const char *names[] = {"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "0.15915494"};
	return c >= 240 && c <= 248 ? names[c - 240] : NULL;
}

static void put_reg(char *b, size_t n, char pre, unsigned r, int width)
{
	isa_reg_name(b, n, pre, r, width); /* the spelling the MIR printer uses too */
}

/* Text for a 9-bit operand code (SALU codes are < 256). */
static void put_src(char *b, size_t n, const Inst *in, unsigned c, int width, char vpre)
{
	if (c >= 256) {
		put_reg(b, n, vpre, c - 256, width);
		return;
	}
	if (c <= 101) {
		put_reg(b, n, 's', c, width);
		return;
	}
	const char *f;
	switch (c) {
	case 102: snprintf(b, n, width == 2 ? "flat_scratch" : "flat_scratch_lo"); return;
	case 103: snprintf(b, n, "flat_scratch_hi"); return;
	case 104: snprintf(b, n, width == 2 ? "xnack_mask" : "xnack_mask_lo"); return;
	case 105: snprintf(b, n, "xnack_mask_hi"); return;
	case SRC_VCC_LO: snprintf(b, n, width == 2 ? "vcc" : "vcc_lo"); return;
	case SRC_VCC_HI: snprintf(b, n, "vcc_hi"); return;
	case SRC_M0: snprintf(b, n, "m0"); return;
	case SRC_EXEC_LO: snprintf(b, n, width == 2 ? "exec" : "exec_lo"); return;
	case SRC_EXEC_HI: snprintf(b, n, "exec_hi"); return;
	case SRC_VCCZ: snprintf(b, n, "src_vccz"); return;
	case SRC_EXECZ: snprintf(b, n, "src_execz"); return;
	case SRC_SCC: snprintf(b, n, "src_scc"); return;
	case SRC_LITERAL: snprintf(b, n, "0x%x", in->lit); return;
	default: break;
	}
	if (c >= 108 && c <= 123) {
		if (width <= 1)
			snprintf(b, n, "ttmp%u", c - 108);
		else
			snprintf(b, n, "ttmp[%u:%u]", c - 108, c - 108 + (unsigned)width - 1);
	} else if (c >= 128 && c <= 192)
		snprintf(b, n, "%u", c - 128);
	else if (c >= 193 && c <= 208)
		snprintf(b, n, "-%u", c - 192);
	else if ((f = inline_float(c)))
		snprintf(b, n, "%s", f);
	else
		snprintf(b, n, "<src%u>", c);
}

static void append(char *buf, size_t len, size_t *pos, const char *fmt, const char *s)
{
	if (*pos >= len)
		return;
	int k = snprintf(buf + *pos, len - *pos, fmt, s);
	if (k > 0)
		*pos += (size_t)k;
	if (*pos > len)
		*pos = len;
}

#define APP(...) do { \
		char t_[96]; snprintf(t_, sizeof t_, __VA_ARGS__); append(buf, len, &pos, "%s", t_); \
	} while (0)

/* s_set_gpr_idx_on/mode's operand as llvm-mc writes it: gpr_idx(SRC0,DST) */
static const char *gpr_idx_mode(char *b, size_t n, unsigned mode)
{
	static const char *const names[] = {"SRC0", "SRC1", "SRC2", "DST"};
	size_t pos = 0;
	append(b, n, &pos, "%s", "gpr_idx(");
	for (int i = 0, k = 0; i < 4; i++)
		if (mode >> i & 1) {
			if (k++)
				append(b, n, &pos, "%s", ",");
			append(b, n, &pos, "%s", names[i]);
		}
	append(b, n, &pos, "%s", ")");
	return b;
}

void emu_print(const Inst *in, uint64_t pc, char *buf, size_t len)
{
	size_t pos = 0;
	char s[64];
	buf[0] = 0;
	const IsaInfo *r = &isa_info[in->id];
	if (in->id == I_UNKNOWN) {
		if (in->words >= 2 || in->raw >> 32)
			APP("<unknown encoding 0x%08x 0x%08x>", (uint32_t)in->raw, (uint32_t)(in->raw >> 32));
		else
			APP("<unknown encoding 0x%08x>", (uint32_t)in->raw);
		return;
	}
	APP("%s", r->name);
	bool e32_named = in->id != I_V_NOP && in->id != I_V_MADMK_F32 && in->id != I_V_MADAK_F32 &&
			 in->id != I_V_FMAMK_F32 && in->id != I_V_FMAAK_F32 && in->id != I_V_ACCVGPR_MOV_B32 &&
			 !(r->flags & IF_SDST);
	if (in->vop3)
		APP("_e64");
	else if (is_vop_e32(in) && !in->dpp && !in->sdwa && e32_named)
		APP("_e32");
	else if (in->dpp)
		APP("_dpp");
	else if (in->sdwa)
		APP("_sdwa");
	switch (in->fmt) {
	case FMT_SOP1: case FMT_SOP2: case FMT_SOPC:
		if (in->id == I_S_SET_GPR_IDX_ON) {
			put_src(s, sizeof s, in, in->src[0], 1, 'v');
			char m[40];
			APP(" %s, %s", s, gpr_idx_mode(m, sizeof m, in->src[1] & 15));
			break;
		}
		if (r->dst) {
			put_src(s, sizeof s, in, in->dst, r->dst, 'v');
			APP(" %s", s);
		}
		for (int i = 0; i < 2; i++) {
			if (!r->src[i])
				continue;
			put_src(s, sizeof s, in, in->src[i], r->src[i], 'v');
			APP("%s%s", (i || r->dst) ? ", " : " ", s);
		}
		break;
	case FMT_SOPK:
		put_src(s, sizeof s, in, in->dst, 1, 'v');
		APP(" %s, 0x%x", s, (unsigned)(in->imm & 0xffff));
		break;
	case FMT_SOPP:
		if (r->flags & IF_BRANCH) /* as llvm-objdump prints it: the raw simm16 */
			APP(" %u", (unsigned)in->imm & 0xffff);
		else if (in->id == I_S_WAITCNT) {
			unsigned v = (unsigned)in->imm & 0xffff;
			unsigned vm = (v & 15) | ((v >> 14) & 3) << 4, ex = (v >> 4) & 7, lg = (v >> 8) & 15;
			if (vm == 63 && ex == 7 && lg == 15)
				APP(" vmcnt(63) expcnt(7) lgkmcnt(15)");
			if (vm != 63)
				APP(" vmcnt(%u)", vm);
			if (ex != 7)
				APP(" expcnt(%u)", ex);
			if (lg != 15)
				APP(" lgkmcnt(%u)", lg);
		} else if (in->id == I_S_SET_GPR_IDX_MODE) {
			char m[40];
			APP(" %s", gpr_idx_mode(m, sizeof m, (unsigned)in->imm & 15));
		} else if (in->id != I_S_ENDPGM && in->id != I_S_BARRIER && in->id != I_S_SET_GPR_IDX_OFF)
			APP(" %d", in->imm);
		break;
	case FMT_SMEM:
		if (r->dst) {
			put_reg(s, sizeof s, 's', in->dst, r->dst);
			APP(" %s,", s);
		}
		if (in->id == I_S_DCACHE_INV || in->id == I_S_DCACHE_WB)
			break;
		put_reg(s, sizeof s, 's', in->sbase, (r->flags & IF_SMEM_BUF) ? 4 : 2);
		APP(" %s,", s);
		if (in->soffset_en) {
			put_src(s, sizeof s, in, in->soffset, 1, 'v');
			APP(" %s", s);
			if (in->smem_imm)
				APP(" offset:0x%x", (unsigned)in->imm);
		} else
			APP(" 0x%x", (unsigned)in->imm & 0x1fffff);
		break;
	case FMT_VOP1: case FMT_VOP2: case FMT_VOPC: case FMT_VOP3: case FMT_VOP3P: {
		bool mfma = r->flags & IF_MFMA;
		char vp = 'v';
		if (in->id == I_V_ACCVGPR_WRITE_B32 || in->id == I_V_ACCVGPR_MOV_B32 || (mfma && in->acc_cd))
			vp = 'a';
		int dw = emu_operand_width(in, -1);
		if (in->fmt == FMT_VOPC) {
			put_src(s, sizeof s, in, in->sdst, 2, 'v');
			APP(" %s", s);
		} else if (r->flags & IF_SDST) {
			put_src(s, sizeof s, in, in->dst, 1, 'v');
			APP(" %s", s);
		} else if (dw) {
			put_reg(s, sizeof s, vp, in->dst, dw);
			APP(" %s", s);
		}
		if ((r->flags & IF_VOP3B) && (in->vop3 || in->fmt == FMT_VOP3)) {
			put_src(s, sizeof s, in, in->sdst, 2, 'v');
			APP(", %s", s);
		} else if ((r->flags & IF_VCCOUT) && in->fmt == FMT_VOP2)
			APP(", vcc");
		for (int i = 0; i < 3; i++) {
			int w = emu_operand_width(in, i);
			if (!w)
				continue;
			char sp = 'v';
			if (in->id == I_V_ACCVGPR_READ_B32 || in->id == I_V_ACCVGPR_MOV_B32 || (mfma && ((i == 0 && in->acc_a) || (i == 1 && in->acc_b) || (i == 2 && in->acc_cd))))
				sp = 'a';
			put_src(s, sizeof s, in, in->src[i], w, sp);
			bool ab = (in->abs >> i) & 1, ng = (in->neg >> i) & 1;
			bool first = i == 0 && !dw && in->fmt != FMT_VOPC && !(r->flags & IF_SDST); /* v_mfma_ld_scale_b32 */
			APP("%s%s%s%s%s", first ? " " : ", ", ng ? "-" : "", ab ? "|" : "", s, ab ? "|" : "");
			if ((in->id == I_V_MADMK_F32 || in->id == I_V_FMAMK_F32) && i == 0)
				APP(", 0x%x", in->lit);
		}
		if (in->id == I_V_MADAK_F32 || in->id == I_V_FMAAK_F32)
			APP(", 0x%x", in->lit);
		if ((r->flags & IF_VCCIN) && !in->vop3 && in->fmt == FMT_VOP2)
			APP(", vcc");
		if ((in->id == I_V_PERMLANE16_SWAP_B32 || in->id == I_V_PERMLANE32_SWAP_B32) && in->vop3)
			APP("%s%s", in->opsel & 2 ? " bound_ctrl:1" : "", in->opsel & 1 ? " fi:1" : "");
		if (in->clamp)
			APP(" clamp");
		if (in->omod)
			APP(" %s", in->omod == 1 ? "mul:2" : in->omod == 2 ? "mul:4" : "div:2");
		if (in->dpp) {
			unsigned c = in->dpp_ctrl;
			if (c <= 0xff)
				APP(" quad_perm:[%u,%u,%u,%u]", c & 3, (c >> 2) & 3, (c >> 4) & 3, (c >> 6) & 3);
			else if (c >= 0x101 && c <= 0x10f)
				APP(" row_shl:%u", c & 15);
			else if (c >= 0x111 && c <= 0x11f)
				APP(" row_shr:%u", c & 15);
			else if (c >= 0x121 && c <= 0x12f)
				APP(" row_ror:%u", c & 15);
			else if (c == 0x130)
				APP(" wave_shl:1");
			else if (c == 0x134)
				APP(" wave_rol:1");
			else if (c == 0x138)
				APP(" wave_shr:1");
			else if (c == 0x13c)
				APP(" wave_ror:1");
			else if (c == 0x140)
				APP(" row_mirror");
			else if (c == 0x141)
				APP(" row_half_mirror");
			else if (c == 0x142)
				APP(" row_bcast:15");
			else if (c == 0x143)
				APP(" row_bcast:31");
			else if (c >= 0x150 && c <= 0x15f)
				APP(" row_newbcast:%u", c & 15);
			else
				APP(" dpp_ctrl:0x%x", c);
			APP(" row_mask:0x%x bank_mask:0x%x%s", in->row_mask, in->bank_mask, in->bound_ctrl ? " bound_ctrl:1" : "");
		}
		if (in->sdwa) {
			static const char *sel[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "?"};
			static const char *unused[] = {"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "?"};
			if (in->fmt != FMT_VOPC)
				APP(" dst_sel:%s dst_unused:%s", sel[in->sdwa_dst_sel & 7], unused[in->sdwa_dst_unused & 3]);
			APP(" src0_sel:%s", sel[in->sdwa_sel[0] & 7]);
			if (emu_operand_width(in, 1))
				APP(" src1_sel:%s", sel[in->sdwa_sel[1] & 7]);
		}
		if (r->flags & IF_MSCALE) {
			for (int i = 0; i < 2; i++) {
				put_src(s, sizeof s, in, in->scale_src[i], 1, 'v');
				APP(", %s", s);
			}
			unsigned a = in->scale_sel[0], c = in->scale_sel[1];
			if ((a | c) & 1)
				APP(" op_sel:[%u,%u,0]", a & 1, c & 1);
			APP(" op_sel_hi:[%u,%u,0]", a >> 1, c >> 1);
		}
		if (r->flags & IF_F8F6F4) {
			if (in->cbsz)
				APP(" cbsz:%u", in->cbsz);
			if (in->blgp)
				APP(" blgp:%u", in->blgp);
			if (in->abid && !(r->flags & IF_MSCALE))
				APP(" abid:%u", in->abid);
		} else if (mfma && (in->cbsz || in->abid || in->blgp))
			APP(" cbsz:%u abid:%u blgp:%u", in->cbsz, in->abid, in->blgp);
		if (in->fmt == FMT_VOP3P && !mfma) {
			int ns = r->src[2] ? 3 : 2;
			unsigned full = (1u << ns) - 1;
			if (in->opsel & full) {
				APP(" op_sel:[%u,%u", in->opsel & 1, (in->opsel >> 1) & 1);
				APP(ns == 3 ? ",%u]" : "]", (in->opsel >> 2) & 1);
			}
			if ((in->opsel_hi & full) != full) {
				APP(" op_sel_hi:[%u,%u", in->opsel_hi & 1, (in->opsel_hi >> 1) & 1);
				APP(ns == 3 ? ",%u]" : "]", (in->opsel_hi >> 2) & 1);
			}
		}
		break;
	}
	case FMT_DS: {
		char vp = in->acc ? 'a' : 'v';
		bool two = strstr(r->name, "2") != NULL && strncmp(r->name, "ds_read2", 8) == 0;
		bool w2 = strncmp(r->name, "ds_write2", 9) == 0;
		bool cmpst = in->id == I_DS_CMPST_B32 || in->id == I_DS_CMPST_RTN_B32; /* data0 compare, data1 new */
		if ((r->flags & IF_LOAD) || in->id == I_DS_SWIZZLE_B32 || in->id == I_DS_PERMUTE_B32 ||
		    in->id == I_DS_BPERMUTE_B32) {
			put_reg(s, sizeof s, vp, in->dst, r->dst * (two ? 2 : 1));
			APP(" %s,", s);
		}
		APP(" v%u", in->addr);
		if (!(r->flags & IF_LOAD) || (r->flags & IF_ATOMIC) || in->id == I_DS_PERMUTE_B32 || in->id == I_DS_BPERMUTE_B32) {
			if (in->id != I_DS_SWIZZLE_B32) {
				put_reg(s, sizeof s, vp, in->data0, r->dst);
				APP(", %s", s);
			}
			if (w2 || cmpst) {
				put_reg(s, sizeof s, vp, in->data1, r->dst);
				APP(", %s", s);
			}
		}
		if (two || w2) {
			if (in->offset0)
				APP(" offset0:%u", in->offset0);
			if (in->offset1)
				APP(" offset1:%u", in->offset1);
		} else if (in->imm)
			APP(" offset:%u", (unsigned)in->imm);
		break;
	}
	case FMT_MUBUF: {
		if (isa_cache_op(in->id)) { /* no operands: the scope bits alone */
			APP("%s%s%s", in->glc ? " sc0" : "", in->slc ? " nt" : "", in->sc1 ? " sc1" : "");
			break;
		}
		if (!in->lds) {
			put_reg(s, sizeof s, in->acc ? 'a' : 'v', in->dst, r->dst * ((r->flags & IF_CMPSWAP) ? 2 : 1));
			APP(" %s,", s);
		}
		if (in->offen && in->idxen)
			APP(" v[%u:%u],", in->addr, in->addr + 1);
		else if (in->offen || in->idxen)
			APP(" v%u,", in->addr);
		else
			APP(" off,");
		put_reg(s, sizeof s, 's', in->srsrc, 4);
		APP(" %s,", s);
		put_src(s, sizeof s, in, in->soffset, 1, 'v');
		APP(" %s", s);
		if (in->idxen)
			APP(" idxen");
		if (in->offen)
			APP(" offen");
		if (in->imm)
			APP(" offset:%u", (unsigned)in->imm);
		APP("%s%s%s", in->glc ? " sc0" : "", in->slc ? " nt" : "", in->sc1 ? " sc1" : "");
		if (in->lds)
			APP(" lds");
		break;
	}
	case FMT_FLAT: {
		bool store = r->flags & IF_STORE;
		bool rtn = (r->flags & IF_ATOMIC) && in->glc;
		if (!store && (!(r->flags & IF_ATOMIC) || rtn) && !isa_lds_dma(in->id)) {
			put_reg(s, sizeof s, in->acc ? 'a' : 'v', in->dst, r->dst);
			APP(" %s,", s);
		}
		if (in->seg == 1 && in->sve)
			APP(" v%u", in->addr);
		else if (in->seg == 1)
			APP(" off");
		else if (in->seg == 0 || in->saddr == 0x7f)
			APP(" v[%u:%u]", in->addr, in->addr + 1);
		else
			APP(" v%u", in->addr);
		if (store || (r->flags & IF_ATOMIC)) {
			put_reg(s, sizeof s, in->acc ? 'a' : 'v', in->data0, r->dst * ((r->flags & IF_CMPSWAP) ? 2 : 1));
			APP(", %s", s);
		}
		if (in->seg != 0) {
			if (in->saddr == 0x7f)
				APP(", off");
			else {
				put_reg(s, sizeof s, 's', in->saddr, in->seg == 1 ? 1 : 2); /* scratch: one SGPR */
				APP(", %s", s);
			}
		}
		if (in->imm)
			APP(" offset:%d", in->imm);
		APP("%s%s%s", in->glc ? " sc0" : "", in->slc ? " nt" : "", in->sc1 ? " sc1" : "");
		break;
	}
	default:
		break;
	}
	(void)pc;
}

/* The listing of `wavecc info --disasm`: decode from the start, one line per
 * instruction ("  +0xOFFS  TEXT"), after trimming the trailing padding
 * assemblers put after a function (s_code_end 0xbf9f0000 and zero dwords).
 * Unknown encodings are printed as such and counted. */
size_t emu_disassemble(EmuArch arch, const uint8_t *code, size_t len, uint64_t base, FILE *out)
{
	len &= ~(size_t)3;
	while (len >= 4) {
		uint32_t w = rd32(code + len - 4);
		if (w != 0xbf9f0000u && w != 0)
			break;
		len -= 4;
	}
	size_t unknown = 0;
	char text[256];
	for (size_t off = 0; off < len;) {
		Inst in;
		int words = emu_decode(arch, code + off, len - off, &in);
		if (words == 0) { /* an instruction cut by the end */
			fprintf(out, "  +0x%04llx  <truncated instruction>\n", (unsigned long long)(base + off));
			unknown++;
			break;
		}
		emu_print(&in, base + off, text, sizeof text);
		fprintf(out, "  +0x%04llx  %s\n", (unsigned long long)(base + off), text);
		unknown += in.id == I_UNKNOWN;
		off += (size_t)words * 4;
	}
	return unknown;
}
