/* decode_test.c — the instruction table and decoder against llvm-objdump-19:
 * every row of ir/isa/insts.h is encoded here from its opcode (with
 * plain, correctly aligned register operands), the words are disassembled by
 * llvm-objdump-19 and by emu_decode/emu_print, and the mnemonics must agree
 * (ignoring the _e32/_e64/_dpp/_sdwa encoding suffixes). Run for gfx942 and,
 * with the gfx90a opcode column, for gfx90a. Also: literal and DPP/SDWA
 * lengths, and bytes that are no instruction. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../loader/emu/emu_int.h"
#include "../../test.h"

/* v_mfma_ld_scale_b32's opcode (the first half of a scaled MFMA) */
#define I_V_MFMA_LD_SCALE_B32_OP (isa_info[I_V_MFMA_LD_SCALE_B32].op942)

static int encode(int id, int op, uint32_t w[4])
{
	const IsaInfo *r = &isa_info[id];
	switch (r->fmt) {
	case FMT_SOP1: w[0] = 0xBE800000u | 4u << 16 | (uint32_t)op << 8 | 4u; return 1;
	case FMT_SOP2: w[0] = 0x80000000u | (uint32_t)op << 23 | 4u << 16 | 6u << 8 | 4u; return 1;
	case FMT_SOPK: w[0] = 0xB0000000u | (uint32_t)op << 23 | 4u << 16 | 0x10u; return 1;
	case FMT_SOPC: w[0] = 0xBF000000u | (uint32_t)op << 16 | 6u << 8 | 4u; return 1;
	case FMT_SOPP: w[0] = 0xBF800000u | (uint32_t)op << 16; return 1;
	case FMT_SMEM:
		if (id == I_S_DCACHE_INV || id == I_S_DCACHE_WB || id == I_S_MEMTIME || id == I_S_MEMREALTIME) {
			w[0] = 0xC0000000u | (uint32_t)op << 18 | (r->dst ? 4u << 6 : 0);
			w[1] = 0;
			return 2;
		}
		w[0] = 0xC0000000u | (uint32_t)op << 18 | 1u << 17 | 4u << 6 | 2u; w[1] = 0x10; return 2;
	case FMT_VOP1:
		if (id == I_V_NOP) {
			w[0] = 0x7E000000u;
			return 1;
		}
		w[0] = 0x7E000000u | 2u << 17 | (uint32_t)op << 9 | 258u; return 1;
	case FMT_VOP2:
		w[0] = (uint32_t)op << 25 | 2u << 17 | 4u << 9 | 258u;
		if (id == I_V_MADMK_F32 || id == I_V_MADAK_F32 || id == I_V_FMAMK_F32 || id == I_V_FMAAK_F32) {
			w[1] = 0x3f800000u; /* the K literal */
			return 2;
		}
		return 1;
	case FMT_VOPC: w[0] = 0x7C000000u | (uint32_t)op << 17 | 4u << 9 | 258u; return 1;
	case FMT_VOP3:
		w[0] = 0xD0000000u | (uint32_t)op << 16 | 2u | ((r->flags & IF_VOP3B) ? 106u << 8 : 0);
		w[1] = 258u | (r->src[1] ? 260u << 9 : 0) | (r->src[2] ? 262u << 18 : 0);
		return 2;
	case FMT_VOP3P:
		if (r->flags & IF_MSCALE) {
			/* v_mfma_ld_scale_b32 v20, v21 op_sel_hi:[0,0], then the MFMA
			 * with abid[0] set (LLVM's VOP3PX2 pair) */
			w[0] = 0xD3800000u | (uint32_t)I_V_MFMA_LD_SCALE_B32_OP << 16;
			w[1] = 276u | 277u << 9;
			w[2] = 0xD3800000u | (uint32_t)op << 16 | 1u << 11 | 32u;
			w[3] = 258u | 260u << 9 | 288u << 18;
			return 4;
		}
		if (id == I_V_MFMA_LD_SCALE_B32) { /* no destination */
			w[0] = 0xD3800000u | (uint32_t)op << 16 | 1u << 14;
			w[1] = 258u | 260u << 9 | 3u << 27;
			return 2;
		}
		if (r->flags & IF_MFMA) {
			w[0] = 0xD3800000u | (uint32_t)op << 16 | 32u;
			w[1] = 258u | 260u << 9 | 288u << 18;
		} else {
			w[0] = 0xD3800000u | (uint32_t)op << 16 | 2u | 1u << 14;
			w[1] = 258u | (r->src[1] ? 260u << 9 : 0) | (r->src[2] ? 262u << 18 : 0) | 3u << 27;
		}
		return 2;
	case FMT_DS: {
		bool ld = (r->flags & IF_LOAD) || id == I_DS_SWIZZLE_B32 || id == I_DS_PERMUTE_B32 || id == I_DS_BPERMUTE_B32;
		bool data = !(r->flags & IF_LOAD) || (r->flags & IF_ATOMIC) || id == I_DS_PERMUTE_B32 || id == I_DS_BPERMUTE_B32;
		data = data && id != I_DS_SWIZZLE_B32;
		bool two = strncmp(r->name, "ds_write2", 9) == 0;
		w[0] = 0xD8000000u | (uint32_t)op << 17;
		w[1] = 2u | (data ? 4u << 8 : 0) | (two ? 6u << 16 : 0) | (ld ? 8u << 24 : 0);
		return 2;
	}
	case FMT_MUBUF:
		if (isa_cache_op(id)) { /* no operands: every field 0 */
			w[0] = 0xE0000000u | (uint32_t)op << 18;
			w[1] = 0;
			return 2;
		}
		w[0] = 0xE0000000u | (uint32_t)op << 18 | 1u << 12; w[1] = 2u | 4u << 8 | 1u << 16 | 128u << 24; return 2;
	case FMT_FLAT: {
		uint32_t seg = r->name[0] == 'g' ? 2 : r->name[0] == 's' ? 1 : 0; /* global, scratch, flat */
		w[0] = 0xDC000000u | (uint32_t)op << 18 | seg << 14;
		bool ld = (r->flags & IF_LOAD) != 0;
		w[1] = 2u | (ld ? 0 : 4u << 8) | (seg ? 0x7fu << 16 : 0) | (ld ? 6u << 24 : 0);
		return 2;
	}
	default: return 0;
	}
}

static void strip_suffix(char *m)
{
	static const char *suf[] = {"_e32", "_e64", "_dpp", "_sdwa"};
	for (size_t i = 0; i < 4; i++) {
		size_t n = strlen(m), k = strlen(suf[i]);
		if (n > k && strcmp(m + n - k, suf[i]) == 0)
			m[n - k] = 0;
	}
}

/* Disassemble `words` with llvm-objdump-19; fill names[offset/4]. */
static int objdump(const char *mcpu, const uint32_t *words, size_t n, char (*names)[64])
{
	bool g950 = strcmp(mcpu, "gfx950") == 0; /* LLVM 19 does not know gfx950: 22's tools */
	const char *dir = test_tmpdir(strcmp(mcpu, "gfx90a") == 0 ? "emu-decode-90a" : g950 ? "emu-decode-950" : "emu-decode-942");
	Buf s = {0}, cmd = {0};
	buf_printf(&s, "%s/d.s", dir);
	FILE *f = fopen(buf_cstr(&s), "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, ".text\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, ".long 0x%08x\n", words[i]);
	fclose(f);
	buf_printf(&cmd, "cd '%s' && llvm-mc-%d -triple=amdgcn-amd-amdhsa -mcpu=%s -filetype=obj d.s -o d.o && "
		   "llvm-objdump-%d -d --mcpu=%s d.o", dir, g950 ? 22 : 19, mcpu, g950 ? 22 : 19, mcpu);
	CmdResult r = run_cmd(buf_cstr(&cmd), NULL);
	ck_assert_msg(r.status == 0, "llvm tools failed: %s", r.err);
	int count = 0;
	for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
		char *c = strstr(line, "// ");
		if (!c || line[0] != '\t')
			continue;
		unsigned long addr = strtoul(c + 3, NULL, 16);
		char m[64] = "";
		sscanf(line, " %63s", m);
		if (addr / 4 < n) {
			strip_suffix(m);
			snprintf(names[addr / 4], 64, "%s", m);
			count++;
		}
	}
	cmd_result_free(&r);
	buf_free(&s);
	buf_free(&cmd);
	return count;
}

static void check_arch(EmuArch arch, const char *mcpu)
{
	uint32_t *words = xcalloc(4 * I_COUNT, 4);
	int *at = xcalloc(I_COUNT, sizeof(int));
	size_t n = 0;
	for (int id = 1; id < I_COUNT; id++) {
		const IsaInfo *r = &isa_info[id];
		int op = arch == EMU_GFX90A ? (r->op90a == SAME ? r->op942 : r->op90a) : r->op942;
		at[id] = -1;
		if (op < 0)
			continue;
		if (arch == EMU_GFX90A && (r->flags & IF_MFMA))
			continue; /* gfx90a MFMA spellings differ (EMU prints gfx942 names) */
		if (arch == EMU_GFX942 && (r->flags & IF_GFX950))
			continue; /* gfx950's own rows: the gfx950 test */
		if (arch == EMU_GFX950 && (id == I_V_MFMA_F32_16X16X8_XF32 || id == I_V_MFMA_F32_32X32X4_XF32))
			continue; /* gfx950 dropped the xf32 MFMAs (llvm-mc-22 rejects them there) */
		uint32_t w[4];
		int k = encode(id, op, w);
		at[id] = (int)n;
		for (int i = 0; i < k; i++)
			words[n++] = w[i];
	}
	char (*names)[64] = xcalloc(n, 64);
	ck_assert_int_gt(objdump(mcpu, words, n, names), 100);
	int bad = 0, checked = 0;
	for (int id = 1; id < I_COUNT; id++) {
		if (at[id] < 0)
			continue;
		Inst in;
		int len = emu_decode(arch, (const uint8_t *)(words + at[id]), 4 * (n - (size_t)at[id]), &in);
		char dis[200];
		emu_print(&in, 0, dis, sizeof dis);
		char mine[64];
		sscanf(dis, "%63s", mine);
		strip_suffix(mine);
		const char *want = names[at[id]];
		checked++;
		if (len == 0 || in.id != id || strcmp(mine, want) != 0) {
			fprintf(stderr, "%s row %s (op 0x%x): llvm-objdump says '%s', emu says '%s'\n", mcpu,
				isa_info[id].name, (unsigned)isa_info[id].op942, want, dis);
			bad++;
		}
	}
	ck_assert_int_gt(checked, 300);
	ck_assert_msg(bad == 0, "%d of %d rows disagree with llvm-objdump (%s)", bad, checked, mcpu);
	free(names);
	free(words);
	free(at);
}

START_TEST(table_matches_llvm_gfx942) { check_arch(EMU_GFX942, "gfx942"); }
END_TEST

START_TEST(table_matches_llvm_gfx90a) { check_arch(EMU_GFX90A, "gfx90a"); }
END_TEST

/* gfx950 decodes with gfx942's table plus its own rows (IF_GFX950), checked
 * against llvm-objdump-22 */
START_TEST(table_matches_llvm_gfx950) { check_arch(EMU_GFX950, "gfx950"); }
END_TEST

/* Lengths: literal (VOP1 with src0 = 255), DPP and SDWA second dwords. */
START_TEST(lengths_and_modifiers)
{
	uint32_t lit[] = {0x7E0202FF, 0x3f800000};          /* v_mov_b32 v1, 1.0 as literal */
	uint32_t dpp[] = {0x7E0202FA, 0xFF00B102};          /* v_mov_b32_dpp quad_perm */
	uint32_t sdwa[] = {0x7E0202F9, 0x00060D02};         /* v_mov_b32_sdwa */
	Inst in;
	ck_assert_int_eq(emu_decode(EMU_GFX942, (const uint8_t *)lit, 8, &in), 2);
	ck_assert(in.has_lit && in.lit == 0x3f800000 && in.id == I_V_MOV_B32);
	ck_assert_int_eq(emu_decode(EMU_GFX942, (const uint8_t *)lit, 4, &in), 0); /* truncated */
	ck_assert_int_eq(emu_decode(EMU_GFX942, (const uint8_t *)dpp, 8, &in), 2);
	ck_assert(in.dpp && in.dpp_ctrl == 0xB1 && in.src[0] == 258 && in.row_mask == 0xf && in.bank_mask == 0xf);
	char dis[200];
	emu_print(&in, 0, dis, sizeof dis);
	ck_assert_str_eq(dis, "v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf");
	ck_assert_int_eq(emu_decode(EMU_GFX942, (const uint8_t *)sdwa, 8, &in), 2);
	ck_assert(in.sdwa && in.sdwa_dst_sel == 5 && in.sdwa_dst_unused == 1 && in.sdwa_sel[0] == 6);
	uint32_t junk = 0xffffffff;
	ck_assert_int_eq(emu_decode(EMU_GFX942, (const uint8_t *)&junk, 4, &in), 1);
	ck_assert_int_eq(in.id, I_UNKNOWN);
	emu_print(&in, 0, dis, sizeof dis);
	ck_assert_str_eq(dis, "<unknown encoding 0xffffffff>");
}
END_TEST

/* Full disassembly text against llvm-objdump-19 (gfx950: 22) for one line per encoding
 * form (a sample of every gfx942 encoding family that llvm-mc-19 accepts,
 * scratch excluded): operands, modifiers,
 * DPP/SDWA controls, cache bits, waitcnt fields. */
static const char *FORMS =
	"s_mov_b32 s1, s2\n"
	"s_mov_b64 s[2:3], exec\n"
	"s_mov_b32 m0, -1\n"
	"s_mov_b32 s0, 0x12345678\n"
	"s_add_u32 s1, s2, 64\n"
	"s_add_u32 s1, s2, -16\n"
	"s_add_u32 s1, s2, 0.5\n"
	"s_add_u32 s1, s2, 1.0\n"
	"s_add_u32 s1, s2, -4.0\n"
	"s_add_u32 s1, s2, 0.15915494\n"
	"s_mul_i32 s3, vcc_lo, s101\n"
	"s_movk_i32 s5, 0x1234\n"
	"s_cmp_eq_u32 s1, s2\n"
	"s_cbranch_scc1 4\n"
	"s_branch -1\n"
	"s_nop 7\n"
	"s_endpgm\n"
	"s_barrier\n"
	"s_waitcnt vmcnt(0)\n"
	"s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)\n"
	"s_waitcnt vmcnt(17) lgkmcnt(3)\n"
	"s_waitcnt lgkmcnt(0)\n"
	"s_load_dword s4, s[0:1], 0x10\n"
	"s_load_dword s4, s[0:1], s5\n"
	"s_buffer_load_dword s4, s[8:11], 0x4\n"
	"v_mov_b32 v1, v2\n"
	"v_mov_b32 v1, s2\n"
	"v_mov_b32 v1, 1.0\n"
	"v_mov_b32 v1, 0x3e22f983\n"
	"v_add_f32 v1, v2, v3\n"
	"v_add_f32 v1, s2, v3\n"
	"v_add_f32_e64 v1, v2, s3\n"
	"v_add_f32_e64 v1, -v2, |v3| clamp mul:2\n"
	"v_fma_f32 v1, v2, v3, v4\n"
	"v_add_co_u32 v1, vcc, v2, v3\n"
	"v_add_co_u32_e64 v1, s[4:5], v2, v3\n"
	"v_addc_co_u32 v1, vcc, v2, v3, vcc\n"
	"v_cmp_lt_f32 vcc, v1, v2\n"
	"v_cmp_lt_f32_e64 s[4:5], v1, v2\n"
	"v_cmpx_lt_f32 vcc, v1, v2\n"
	"v_cndmask_b32 v1, v2, v3, vcc\n"
	"v_pk_fma_f16 v1, v2, v3, v4\n"
	"v_pk_add_f16 v1, v2, v3 op_sel:[1,0] op_sel_hi:[0,1]\n"
	"v_readlane_b32 s1, v2, s3\n"
	"v_writelane_b32 v2, s1, 5\n"
	"v_readfirstlane_b32 s1, v2\n"
	"v_exp_f32 v1, v2\n"
	"v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"
	"v_mov_b32_sdwa v1, v2 dst_sel:WORD_1 src0_sel:BYTE_0\n"
	"v_lshl_add_u64 v[0:1], v[2:3], 2, v[4:5]\n"
	"v_mov_b64 v[0:1], v[2:3]\n"
	"ds_write_b32 v1, v2 offset:16\n"
	"ds_read_b128 v[4:7], v1 offset:65520\n"
	"ds_read2_b32 v[4:5], v1 offset0:1 offset1:2\n"
	"ds_bpermute_b32 v1, v2, v3\n"
	"buffer_load_dword v1, v2, s[4:7], s3 offen offset:4095\n"
	"buffer_load_dword v1, v2, s[4:7], 0 idxen\n"
	"buffer_store_dword v1, v2, s[4:7], 0 offen\n"
	"buffer_load_dword v2, s[4:7], 0 offen lds\n"
	"global_load_dword v1, v[2:3], off offset:-16\n"
	"global_load_lds_dword v[2:3], off offset:8\n"
	"global_load_lds_dword v2, s[4:5]\n"
	"global_load_dword v1, v2, s[4:5] offset:4095\n"
	"global_store_dwordx4 v2, v[4:7], s[4:5] offset:-4096\n"
	"flat_load_dword v1, v[2:3] offset:4095\n"
	"scratch_store_dwordx3 off, v[0:2], off\n"
	"scratch_load_dword v1, v2, off offset:4\n"
	"scratch_load_dword v1, off, s3 offset:-8\n"
	"scratch_store_dword v2, v3, s5 offset:16\n"
	"scratch_load_ubyte_d16_hi v1, v2, off\n"
	"ds_cmpst_rtn_b32 v0, v7, v6, v0 offset:516\n"
	"ds_cmpst_b32 v7, v6, v0\n"
	"v_dot4c_i32_i8_e32 v12, v22, v23\n"
	"v_sad_u8 v9, v18, v20, 5\n"
	"global_load_dword v1, v2, s[4:5] sc0 sc1 nt\n"
	"buffer_load_dword v1, v2, s[4:7], 0 offen sc0 sc1 nt\n"
	"buffer_store_dword v1, v2, s[4:7], 0 offen sc1\n"
	"buffer_wbl2 sc1\n"
	"buffer_inv sc1\n"
	"v_mfma_f32_32x32x1_2b_f32 a[0:31], v0, v1, a[0:31]\n"
	"v_mfma_f32_16x16x1_4b_f32 a[0:15], v0, v1, a[0:15]\n"
	"v_mfma_f32_4x4x1_16b_f32 a[0:3], v0, v1, a[0:3]\n"
	"v_mfma_f32_32x32x2_f32 a[0:15], v0, v1, a[0:15]\n"
	"v_mfma_f32_16x16x4_f32 a[0:3], v0, v1, a[0:3]\n"
	"v_mfma_f32_32x32x4_2b_f16 a[0:31], v[0:1], v[2:3], a[0:31]\n"
	"v_mfma_f32_16x16x4_4b_f16 a[0:15], v[0:1], v[2:3], a[0:15]\n"
	"v_mfma_f32_4x4x4_16b_f16 a[0:3], v[0:1], v[2:3], a[0:3]\n"
	"v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]\n"
	"v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[2:3], a[0:3]\n"
	"v_mfma_f32_32x32x4_2b_bf16 a[0:31], v[0:1], v[2:3], a[0:31]\n"
	"v_mfma_f32_16x16x4_4b_bf16 a[0:15], v[0:1], v[2:3], a[0:15]\n"
	"v_mfma_f32_4x4x4_16b_bf16 a[0:3], v[0:1], v[2:3], a[0:3]\n"
	"v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]\n"
	"v_mfma_f32_16x16x16_bf16 a[0:3], v[0:1], v[2:3], a[0:3]\n"
	"v_mfma_i32_32x32x4_2b_i8 a[0:31], v0, v1, a[0:31]\n"
	"v_mfma_i32_16x16x4_4b_i8 a[0:15], v0, v1, a[0:15]\n"
	"v_mfma_i32_4x4x4_16b_i8 a[0:3], v0, v1, a[0:3]\n"
	"v_mfma_i32_32x32x16_i8 a[0:15], v[0:1], v[2:3], a[0:15]\n"
	"v_mfma_i32_16x16x32_i8 a[0:3], v[0:1], v[2:3], a[0:3]\n"
	"v_mfma_f32_16x16x8_xf32 a[0:3], v[0:1], v[2:3], a[0:3]\n"
	"v_mfma_f32_32x32x4_xf32 a[0:15], v[0:1], v[2:3], a[0:15]\n"
	"v_mfma_f32_16x16x32_fp8_fp8 a[0:3], v[0:1], v[2:3], a[0:3]\n"
	"v_mfma_f32_16x16x32_bf8_bf8 a[0:3], v[0:1], v[2:3], a[0:3]\n"
	"v_mfma_f32_16x16x32_fp8_bf8 a[0:3], v[0:1], v[2:3], a[0:3]\n"
	"v_mfma_f32_16x16x32_bf8_fp8 a[0:3], v[0:1], v[2:3], a[0:3]\n"
	"v_mfma_f32_32x32x16_fp8_fp8 a[0:15], v[0:1], v[2:3], a[0:15]\n"
	"v_mfma_f32_32x32x16_bf8_bf8 a[0:15], v[0:1], v[2:3], a[0:15]\n"
	"v_mfma_f64_16x16x4_f64 a[0:7], v[0:1], v[2:3], a[0:7]\n"
	"v_mfma_f64_4x4x4_4b_f64 a[0:1], v[0:1], v[2:3], a[0:1]\n"
	"v_mfma_f32_32x32x8_f16 v[0:15], v[16:17], v[18:19], v[0:15]\n"
	"v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]\n"
	"v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], 0\n"
	"v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15] cbsz:1 abid:1 blgp:2\n"
	"v_accvgpr_read_b32 v0, a1\n"
	"v_accvgpr_write_b32 a1, v0\n"
	"v_accvgpr_mov_b32 a1, a2\n"
;

/* gfx950's own forms against llvm-objdump-22: the transposing LDS reads,
 * the lane swaps (e32, and e64 with fi/bound_ctrl), the bf16 pack, the
 * 96/128-bit direct-to-LDS loads, the MUBUF bf16 pair atomic. */
static const char *FORMS_950 =
	"ds_read_b64_tr_b16 v[2:3], v1\n"
	"ds_read_b64_tr_b16 v[2:3], v1 offset:16\n"
	"ds_read_b64_tr_b16 a[2:3], v1 offset:65528\n"
	"ds_read_b64_tr_b8 v[4:5], v1 offset:8\n"
	"ds_read_b64_tr_b4 v[4:5], v7\n"
	"ds_read_b96_tr_b6 v[3:5], v1 offset:24\n"
	"v_permlane16_swap_b32 v1, v2\n"
	"v_permlane32_swap_b32 v3, v4\n"
	"v_permlane16_swap_b32_e64 v1, v2 bound_ctrl:1\n"
	"v_permlane32_swap_b32_e64 v1, v2 fi:1\n"
	"v_permlane16_swap_b32_e64 v1, v2 bound_ctrl:1 fi:1\n"
	"v_cvt_pk_bf16_f32 v1, v2, v3\n"
	"v_cvt_pk_bf16_f32 v1, s2, v3\n"
	"v_cvt_pk_bf16_f32 v1, -v2, |v3|\n"
	"v_cvt_pk_bf16_f32 v1, v2, 1.0\n"
	"buffer_load_dwordx4 v1, s[4:7], 0 offen lds\n"
	"buffer_load_dwordx3 v1, s[4:7], s3 offen offset:64 lds\n"
	"buffer_load_dword v1, s[4:7], 0 offen lds\n"
	"buffer_atomic_pk_add_bf16 v1, v2, s[4:7], 0 offen\n"
	"buffer_atomic_pk_add_bf16 v1, v2, s[4:7], s3 offen offset:8 sc0\n"
	"global_load_lds_dwordx4 v[2:3], off\n"
	"global_load_lds_dwordx3 v[2:3], off offset:-16\n"
	"global_load_lds_dwordx4 v2, s[4:5] offset:16\n"
	"v_mfma_f32_16x16x32_bf16 a[0:3], v[0:3], v[4:7], a[0:3]\n"
;

/* The disassembly of `forms` assembled for mcpu by llvm-mc-V and printed by
 * llvm-objdump-V against emu_print's, line by line. */
static void check_text(EmuArch arch, const char *mcpu, int v, const char *forms, int min)
{
	const char *dir = test_tmpdir(arch == EMU_GFX950 ? "emu-decode-text-950" : "emu-decode-text");
	Buf s = {0}, cmd = {0};
	buf_printf(&s, "%s/t.s", dir);
	FILE *f = fopen(buf_cstr(&s), "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, ".text\n%s", forms);
	fclose(f);
	buf_printf(&cmd, "cd '%s' && llvm-mc-%d -triple=amdgcn-amd-amdhsa -mcpu=%s -filetype=obj t.s -o t.o && "
		   "llvm-objcopy-%d -O binary --only-section=.text t.o t.bin && llvm-objdump-%d -d --mcpu=%s t.o", dir, v,
		   mcpu, v, v, mcpu);
	CmdResult r = run_cmd(buf_cstr(&cmd), NULL);
	ck_assert_msg(r.status == 0, "llvm tools failed: %s", r.err);
	Buf bin = {0};
	buf_printf(&bin, "%s/t.bin", dir);
	size_t n = 0;
	char *code = read_file(buf_cstr(&bin), &n);
	ck_assert_ptr_nonnull(code);
	int checked = 0, bad = 0;
	for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
		char *c = strstr(line, "// ");
		if (!c || line[0] != '\t')
			continue;
		size_t addr = strtoul(c + 3, NULL, 16);
		char want[256];
		size_t len = (size_t)(c - line - 1);
		if (len >= sizeof want)
			len = sizeof want - 1;
		memcpy(want, line + 1, len);
		while (len && want[len - 1] == ' ')
			len--;
		want[len] = 0;
		Inst in;
		ck_assert_int_gt(emu_decode(arch, (const uint8_t *)code + addr, n - addr, &in), 0);
		char mine[256];
		emu_print(&in, addr, mine, sizeof mine);
		checked++;
		if (strcmp(mine, want) != 0 && bad++ < 20)
			fprintf(stderr, "llvm-objdump: '%s'\nemu:          '%s'\n", want, mine);
	}
	ck_assert_int_gt(checked, min);
	ck_assert_int_eq(bad, 0);
	free(code);
	buf_free(&bin);
	cmd_result_free(&r);
	buf_free(&s);
	buf_free(&cmd);
}

START_TEST(text_matches_llvm_objdump) { check_text(EMU_GFX942, "gfx942", 19, FORMS, 90); }
END_TEST

START_TEST(text_matches_llvm_objdump_gfx950) { check_text(EMU_GFX950, "gfx950", 22, FORMS_950, 20); }
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("emu_decode");
	TCase *tc = tcase_create("decode");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, table_matches_llvm_gfx942);
	tcase_add_test(tc, table_matches_llvm_gfx90a);
	tcase_add_test(tc, table_matches_llvm_gfx950);
	tcase_add_test(tc, lengths_and_modifiers);
	tcase_add_test(tc, text_matches_llvm_objdump);
	tcase_add_test(tc, text_matches_llvm_objdump_gfx950);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
