/* salu.c — scalar ALU and program flow (SOP1, SOP2, SOPK, SOPC, SOPP).
 * Each instruction sets w->pc itself (branches, barriers and s_endpgm do not
 * fall through). SCC follows the GCN3/Vega ISA: carry/borrow for the
 * unsigned add/sub, signed overflow for the signed ones, "result != 0" for
 * the bitwise and shift ops and bfe, the compare result for SOPC/SOPK
 * compares. */
#include "emu_int.h"

static int ctz64(uint64_t v) { return v ? __builtin_ctzll(v) : -1; }

void emu_exec_salu(Emu *e, Wave *w, const Inst *in)
{
	const IsaInfo *r = &isa_info[in->id];
	uint64_t next = w->pc + 4u * in->words;
	IsaType ty = (IsaType)r->type;
	uint32_t a = 0, b = 0;
	uint64_t a64 = 0, b64 = 0;
	if (in->fmt == FMT_SOP1 || in->fmt == FMT_SOP2 || in->fmt == FMT_SOPC) {
		if (r->src[0] == 2)
			a64 = emu_scalar_src64(e, w, in, in->src[0], ty);
		else if (r->src[0])
			a = emu_scalar_src(e, w, in, in->src[0], ty);
		if (r->src[1] == 2)
			b64 = emu_scalar_src64(e, w, in, in->src[1], ty);
		else if (r->src[1])
			b = emu_scalar_src(e, w, in, in->src[1], ty);
	}
	uint32_t d = 0;
	uint64_t d64 = 0;
	int wide = 0; /* 1: write d, 2: write d64, 0: no sdst write */
	uint32_t k = (uint32_t)in->imm & 0xffff;
	int32_t ks = (int16_t)k;
	uint32_t cur = in->fmt == FMT_SOPK ? emu_sreg_read(e, w, in->dst) : 0;
	switch (in->id) {
	/* SOP1 */
	case I_S_MOV_B32: d = a, wide = 1; break;
	case I_S_MOV_B64: d64 = a64, wide = 2; break;
	case I_S_CMOV_B32: if (w->scc) d = a, wide = 1; break;
	case I_S_CMOV_B64: if (w->scc) d64 = a64, wide = 2; break;
	case I_S_NOT_B32: d = ~a, w->scc = d != 0, wide = 1; break;
	case I_S_NOT_B64: d64 = ~a64, w->scc = d64 != 0, wide = 2; break;
	case I_S_BREV_B32: {
		uint32_t v = a, o = 0;
		for (int i = 0; i < 32; i++)
			o |= ((v >> i) & 1u) << (31 - i);
		d = o, wide = 1;
		break;
	}
	case I_S_BCNT1_I32_B32: d = (uint32_t)__builtin_popcount(a), w->scc = d != 0, wide = 1; break;
	case I_S_BCNT1_I32_B64: d = (uint32_t)__builtin_popcountll(a64), w->scc = d != 0, wide = 1; break;
	case I_S_FF1_I32_B32: d = a ? (uint32_t)__builtin_ctz(a) : 0xffffffffu, wide = 1; break;
	case I_S_FF1_I32_B64: d = (uint32_t)ctz64(a64), wide = 1; break;
	case I_S_FLBIT_I32_B32: d = a ? (uint32_t)__builtin_clz(a) : 0xffffffffu, wide = 1; break;
	case I_S_SEXT_I32_I8: d = (uint32_t)(int32_t)(int8_t)a, wide = 1; break;
	case I_S_SEXT_I32_I16: d = (uint32_t)(int32_t)(int16_t)a, wide = 1; break;
	case I_S_BITSET0_B32: d = emu_sreg_read(e, w, in->dst) & ~(1u << (a & 31)), wide = 1; break;
	case I_S_BITSET1_B32: d = emu_sreg_read(e, w, in->dst) | (1u << (a & 31)), wide = 1; break;
	case I_S_GETPC_B64: d64 = next, wide = 2; break;
	case I_S_SETPC_B64: next = a64; break;
	case I_S_SWAPPC_B64: d64 = next, wide = 2, next = a64; break;
	case I_S_AND_SAVEEXEC_B64: d64 = w->exec, w->exec = a64 & w->exec, w->scc = w->exec != 0, wide = 2; break;
	case I_S_OR_SAVEEXEC_B64: d64 = w->exec, w->exec = a64 | w->exec, w->scc = w->exec != 0, wide = 2; break;
	case I_S_XOR_SAVEEXEC_B64: d64 = w->exec, w->exec = a64 ^ w->exec, w->scc = w->exec != 0, wide = 2; break;
	case I_S_ANDN2_SAVEEXEC_B64: d64 = w->exec, w->exec = a64 & ~w->exec, w->scc = w->exec != 0, wide = 2; break;
	case I_S_ORN2_SAVEEXEC_B64: d64 = w->exec, w->exec = a64 | ~w->exec, w->scc = w->exec != 0, wide = 2; break;
	case I_S_ANDN1_SAVEEXEC_B64: d64 = w->exec, w->exec = ~a64 & w->exec, w->scc = w->exec != 0, wide = 2; break;
	case I_S_ABS_I32: d = (int32_t)a < 0 ? 0u - a : a, w->scc = d != 0, wide = 1; break;
	/* SOP2 */
	case I_S_ADD_U32: { uint64_t s = (uint64_t)a + b; d = (uint32_t)s, w->scc = s >> 32, wide = 1; break; }
	case I_S_SUB_U32: d = a - b, w->scc = b > a, wide = 1; break;
	case I_S_ADD_I32: d = a + b, w->scc = ((~(a ^ b)) & (a ^ d)) >> 31, wide = 1; break;
	case I_S_SUB_I32: d = a - b, w->scc = ((a ^ b) & (a ^ d)) >> 31, wide = 1; break;
	case I_S_ADDC_U32: { uint64_t s = (uint64_t)a + b + w->scc; d = (uint32_t)s, w->scc = s >> 32, wide = 1; break; }
	case I_S_SUBB_U32: { uint64_t s = (uint64_t)a - b - w->scc; d = (uint32_t)s, w->scc = (s >> 32) != 0, wide = 1; break; }
	case I_S_MIN_I32: w->scc = (int32_t)a < (int32_t)b, d = w->scc ? a : b, wide = 1; break;
	case I_S_MIN_U32: w->scc = a < b, d = w->scc ? a : b, wide = 1; break;
	case I_S_MAX_I32: w->scc = (int32_t)a > (int32_t)b, d = w->scc ? a : b, wide = 1; break;
	case I_S_MAX_U32: w->scc = a > b, d = w->scc ? a : b, wide = 1; break;
	case I_S_CSELECT_B32: d = w->scc ? a : b, wide = 1; break;
	case I_S_CSELECT_B64: d64 = w->scc ? a64 : b64, wide = 2; break;
	case I_S_AND_B32: d = a & b, w->scc = d != 0, wide = 1; break;
	case I_S_AND_B64: d64 = a64 & b64, w->scc = d64 != 0, wide = 2; break;
	case I_S_OR_B32: d = a | b, w->scc = d != 0, wide = 1; break;
	case I_S_OR_B64: d64 = a64 | b64, w->scc = d64 != 0, wide = 2; break;
	case I_S_XOR_B32: d = a ^ b, w->scc = d != 0, wide = 1; break;
	case I_S_XOR_B64: d64 = a64 ^ b64, w->scc = d64 != 0, wide = 2; break;
	case I_S_ANDN2_B32: d = a & ~b, w->scc = d != 0, wide = 1; break;
	case I_S_ANDN2_B64: d64 = a64 & ~b64, w->scc = d64 != 0, wide = 2; break;
	case I_S_ORN2_B32: d = a | ~b, w->scc = d != 0, wide = 1; break;
	case I_S_ORN2_B64: d64 = a64 | ~b64, w->scc = d64 != 0, wide = 2; break;
	case I_S_NAND_B64: d64 = ~(a64 & b64), w->scc = d64 != 0, wide = 2; break;
	case I_S_NOR_B64: d64 = ~(a64 | b64), w->scc = d64 != 0, wide = 2; break;
	case I_S_NOR_B32: d = ~(a | b), w->scc = d != 0, wide = 1; break;
	case I_S_XNOR_B64: d64 = ~(a64 ^ b64), w->scc = d64 != 0, wide = 2; break;
	case I_S_LSHL_B32: d = a << (b & 31), w->scc = d != 0, wide = 1; break;
	case I_S_LSHL_B64: d64 = a64 << (b & 63), w->scc = d64 != 0, wide = 2; break;
	case I_S_LSHR_B32: d = a >> (b & 31), w->scc = d != 0, wide = 1; break;
	case I_S_LSHR_B64: d64 = a64 >> (b & 63), w->scc = d64 != 0, wide = 2; break;
	case I_S_ASHR_I32: d = (uint32_t)((int32_t)a >> (b & 31)), w->scc = d != 0, wide = 1; break;
	case I_S_ASHR_I64: d64 = (uint64_t)((int64_t)a64 >> (b & 63)), w->scc = d64 != 0, wide = 2; break;
	case I_S_BFM_B32: d = ((1u << (a & 31)) - 1) << (b & 31), wide = 1; break;
	case I_S_BFM_B64: d64 = ((UINT64_C(1) << (a & 63)) - 1) << (b & 63), wide = 2; break;
	case I_S_MUL_I32: d = a * b, wide = 1; break;
	case I_S_MUL_HI_U32: d = (uint32_t)(((uint64_t)a * b) >> 32), wide = 1; break;
	case I_S_MUL_HI_I32: d = (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32), wide = 1; break;
	case I_S_BFE_U32: case I_S_BFE_I32: {
		unsigned off = b & 31, wd = (b >> 16) & 0x7f;
		uint32_t v = wd == 0 ? 0 : wd + off >= 32 ? a >> off : (a >> off) & ((1u << wd) - 1);
		if (in->id == I_S_BFE_I32 && wd && wd < 32 && wd + off < 32 && (v >> (wd - 1)) & 1)
			v |= ~0u << wd;
		else if (in->id == I_S_BFE_I32 && wd && wd + off >= 32)
			v = (uint32_t)((int32_t)a >> off);
		d = v, w->scc = d != 0, wide = 1;
		break;
	}
	case I_S_BFE_U64: {
		unsigned off = b & 63, wd = (b >> 16) & 0x7f;
		uint64_t v = wd == 0 ? 0 : wd + off >= 64 ? a64 >> off : (a64 >> off) & ((1ull << wd) - 1);
		d64 = v, w->scc = d64 != 0, wide = 2;
		break;
	}
	case I_S_ABSDIFF_I32: {
		int64_t t = (int64_t)(int32_t)a - (int32_t)b;
		d = (uint32_t)(t < 0 ? -t : t), w->scc = d != 0, wide = 1;
		break;
	}
	case I_S_LSHL1_ADD_U32: case I_S_LSHL2_ADD_U32: case I_S_LSHL3_ADD_U32: case I_S_LSHL4_ADD_U32: {
		unsigned sh = (unsigned)(in->id - I_S_LSHL1_ADD_U32) + 1;
		uint64_t s = ((uint64_t)a << sh) + b;
		d = (uint32_t)s, w->scc = (s >> 32) != 0, wide = 1;
		break;
	}
	case I_S_PACK_LL_B32_B16: d = (a & 0xffff) | b << 16, wide = 1; break;
	case I_S_PACK_LH_B32_B16: d = (a & 0xffff) | (b & 0xffff0000u), wide = 1; break;
	case I_S_PACK_HH_B32_B16: d = (a >> 16) | (b & 0xffff0000u), wide = 1; break;
	/* SOPK */
	case I_S_MOVK_I32: d = (uint32_t)ks, wide = 1; break;
	case I_S_CMOVK_I32: if (w->scc) d = (uint32_t)ks, wide = 1; break;
	case I_S_CMPK_EQ_I32: w->scc = (int32_t)cur == ks; break;
	case I_S_CMPK_LG_I32: w->scc = (int32_t)cur != ks; break;
	case I_S_CMPK_GT_I32: w->scc = (int32_t)cur > ks; break;
	case I_S_CMPK_GE_I32: w->scc = (int32_t)cur >= ks; break;
	case I_S_CMPK_LT_I32: w->scc = (int32_t)cur < ks; break;
	case I_S_CMPK_LE_I32: w->scc = (int32_t)cur <= ks; break;
	case I_S_CMPK_EQ_U32: w->scc = cur == k; break;
	case I_S_CMPK_LG_U32: w->scc = cur != k; break;
	case I_S_CMPK_GT_U32: w->scc = cur > k; break;
	case I_S_CMPK_GE_U32: w->scc = cur >= k; break;
	case I_S_CMPK_LT_U32: w->scc = cur < k; break;
	case I_S_CMPK_LE_U32: w->scc = cur <= k; break;
	case I_S_ADDK_I32: d = cur + (uint32_t)ks, w->scc = ((~(cur ^ (uint32_t)ks)) & (cur ^ d)) >> 31, wide = 1; break;
	case I_S_MULK_I32: d = cur * (uint32_t)ks, wide = 1; break;
	case I_S_GETREG_B32: d = 0, wide = 1; break; /* hardware registers read as 0 */
	case I_S_SETREG_B32: break;                  /* mode changes are not modelled */
	/* SOPC */
	case I_S_CMP_EQ_I32: case I_S_CMP_EQ_U32: w->scc = a == b; break;
	case I_S_CMP_LG_I32: case I_S_CMP_LG_U32: w->scc = a != b; break;
	case I_S_CMP_GT_I32: w->scc = (int32_t)a > (int32_t)b; break;
	case I_S_CMP_GE_I32: w->scc = (int32_t)a >= (int32_t)b; break;
	case I_S_CMP_LT_I32: w->scc = (int32_t)a < (int32_t)b; break;
	case I_S_CMP_LE_I32: w->scc = (int32_t)a <= (int32_t)b; break;
	case I_S_CMP_GT_U32: w->scc = a > b; break;
	case I_S_CMP_GE_U32: w->scc = a >= b; break;
	case I_S_CMP_LT_U32: w->scc = a < b; break;
	case I_S_CMP_LE_U32: w->scc = a <= b; break;
	case I_S_BITCMP0_B32: w->scc = !((a >> (b & 31)) & 1); break;
	case I_S_BITCMP1_B32: w->scc = (a >> (b & 31)) & 1; break;
	case I_S_BITCMP0_B64: w->scc = !((a64 >> (b & 63)) & 1); break;
	case I_S_BITCMP1_B64: w->scc = (a64 >> (b & 63)) & 1; break;
	case I_S_CMP_EQ_U64: w->scc = a64 == b64; break;
	/* VSKIP = S0[S1[4:0]]: while set, the wave skips vector instructions (wave.c) */
	case I_S_SETVSKIP: w->vskip = (a >> (b & 31)) & 1; break;
	/* GPR indexing (the Vega/CDNA3 ISA guides): on sets M0[7:0] = S0[7:0]
	 * and M0[15:12] = the 4-bit mode (src0, src1, src2, dst) from the ssrc1
	 * field; mode and idx set either part; off leaves M0 alone */
	case I_S_SET_GPR_IDX_ON:
		w->m0 = (w->m0 & ~UINT32_C(0xf0ff)) | (a & 0xff) | (uint32_t)(in->src[1] & 15) << 12;
		w->gpr_idx = true;
		break;
	case I_S_SET_GPR_IDX_IDX: w->m0 = (w->m0 & ~UINT32_C(0xff)) | (a & 0xff); break;
	case I_S_CMP_LG_U64: w->scc = a64 != b64; break;
	/* SOPP */
	case I_S_NOP: case I_S_WAITCNT: case I_S_SLEEP: case I_S_SETPRIO: case I_S_SENDMSG: break;
	case I_S_SET_GPR_IDX_OFF: w->gpr_idx = false; break;
	case I_S_SET_GPR_IDX_MODE: w->m0 = (w->m0 & ~UINT32_C(0xf000)) | (k & 15) << 12; break;
	case I_S_ENDPGM: w->done = true; return;
	case I_S_BARRIER: w->at_barrier = true; return; /* pc advances when released */
	case I_S_BRANCH: next += 4 * (int64_t)in->imm; break;
	case I_S_CBRANCH_SCC0: if (!w->scc) next += 4 * (int64_t)in->imm; break;
	case I_S_CBRANCH_SCC1: if (w->scc) next += 4 * (int64_t)in->imm; break;
	case I_S_CBRANCH_VCCZ: if (!(w->sgpr[SRC_VCC_LO] | w->sgpr[SRC_VCC_HI])) next += 4 * (int64_t)in->imm; break;
	case I_S_CBRANCH_VCCNZ: if (w->sgpr[SRC_VCC_LO] | w->sgpr[SRC_VCC_HI]) next += 4 * (int64_t)in->imm; break;
	case I_S_CBRANCH_EXECZ: if (!w->exec) next += 4 * (int64_t)in->imm; break;
	case I_S_CBRANCH_EXECNZ: if (w->exec) next += 4 * (int64_t)in->imm; break;
	case I_S_TRAP: emu_fail(e, w, in, "s_trap %u reached", k & 0xff); return;
	default:
		emu_fail(e, w, in, "unimplemented instruction %s", emu_inst_name(in));
		return;
	}
	if (wide == 1)
		emu_sreg_write(e, w, in->dst, d);
	else if (wide == 2)
		emu_sreg_write64(e, w, in->dst, d64);
	w->pc = next;
}
