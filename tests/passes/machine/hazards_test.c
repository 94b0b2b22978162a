/* hazards_test.c — the hazard rows of gfx942 and gfx90a, the resolver over
 * the CFG and its independent checker, on hand-built allocated functions.
 * Each row test builds producer → consumer back to back and shows, per
 * target: the checker fails without wait states (when the row applies),
 * the resolver inserts exactly the row's number (passes/machine/hazard_rules.h, from LLVM's GCNHazardRecognizer.cpp),
 * and one wait state fewer fails the checker again. A loop test carries an
 * MFMA's result over the back edge. Seeded random streams (with loops)
 * must come out clean, and in straight-line code every inserted s_nop must
 * be the shortest that passes. */
#include <string.h>

#include "mfb.h"

static int check(const MFunc *f)
{
	Buf m = {0};
	int n = check_hazards(f, &m);
	buf_free(&m);
	return n;
}

static void mfma16(MBlock *b, MOpnd d, MOpnd a, MOpnd bb, MOpnd c)
{
	emit(b, I_V_MFMA_F32_16X16X16_F16, OPS(d), OPS(a, bb, c));
}

/* Shorten the s_nops right before instruction i of block bi by one wait
 * state (dropping an s_nop 0). */
static void shorten(MFunc *f, size_t bi, size_t i)
{
	MBlock *b = f->blocks.data[bi];
	MInst *n = &b->insts.data[i - 1];
	ck_assert_int_eq(n->op, I_S_NOP);
	if (n->use[0].imm > 0) {
		n->use[0].imm--;
		return;
	}
	memmove(n, n + 1, (b->insts.len - i) * sizeof *n);
	b->insts.len--;
}

typedef void Build(MBlock *b);

/* Build the stream for each target, the consumer last; expect `gap[t]`
 * wait states inserted right before it (t: 0 gfx942, 1 gfx90a, 2 gfx950;
 * ntargets 2 or 3). */
static void expect_gap_on(Build *build, const int *gap, int ntargets, const char *what)
{
	static const Target *const targets[] = {&target_gfx942, &target_gfx90a, &target_gfx950};
	for (int t = 0; t < ntargets; t++) {
		MFunc *f = mfb_new(targets[t]);
		MBlock *b = mfunc_block(f, NULL);
		build(b);
		size_t consumer = b->insts.len - 1;
		Buf m = {0};
		int before = check_hazards(f, &m);
		ck_assert_msg((before > 0) == (gap[t] > 0), "%s on %s: checker before: %d\n%s%s", what, f->target->name,
			before, buf_cstr(&m), mfb_text(f));
		buf_clear(&m);
		run_hazards(f);
		ck_assert_msg(check_hazards(f, &m) == 0, "%s on %s:\n%s%s", what, f->target->name, buf_cstr(&m), mfb_text(f));
		buf_free(&m);
		size_t at = b->insts.len - 1;
		ck_assert_msg(nops_before(f, 0, at) == gap[t] && at - consumer == (size_t)(gap[t] + 7) / 8,
			"%s on %s: expected %d wait states\n%s", what, f->target->name, gap[t], mfb_text(f));
		if (gap[t]) {
			shorten(f, 0, at);
			ck_assert_msg(check(f) > 0, "%s on %s: one short passes", what, f->target->name);
		}
		mfunc_free(f);
	}
}

static void expect_gap(Build *build, const int gap[2], const char *what) { expect_gap_on(build, gap, 2, what); }

/* ---- MFMA rows ---- */
static void b_mfma16_accread(MBlock *b)
{
	mfma16(b, AN(0, 4), VN(0, 2), VN(2, 2), AN(0, 4));
	emit(b, I_V_ACCVGPR_READ_B32, OPS(V(4)), OPS(AN(1, 1)));
}
static void b_mfma32_accread(MBlock *b)
{
	emit(b, I_V_MFMA_F32_32X32X8_F16, OPS(AN(0, 16)), OPS(VN(0, 2), VN(2, 2), AN(0, 16)));
	emit(b, I_V_ACCVGPR_READ_B32, OPS(V(4)), OPS(AN(15, 1)));
}
static void b_mfma16_store(MBlock *b)
{
	mfma16(b, VN(4, 4), VN(0, 2), VN(2, 2), VN(4, 4));
	emit(b, I_BUFFER_STORE_DWORDX4, NONE, OPS(VN(4, 4), V(8), SN(8, 4), IMM(0)))->flags |= MIF_OFFEN;
}
static void b_mfma16_valu_waw(MBlock *b)
{
	mfma16(b, VN(4, 4), VN(0, 2), VN(2, 2), VN(4, 4));
	emit(b, I_V_MOV_B32, OPS(V(6)), OPS(IMM(0)));
}
static void b_mfma16_war(MBlock *b)
{
	mfma16(b, AN(4, 4), VN(0, 2), VN(2, 2), AN(0, 4));
	emit(b, I_V_ACCVGPR_WRITE_B32, OPS(AN(1, 1)), OPS(V(9)));
}
static void b_mfma16_chain(MBlock *b)
{
	mfma16(b, AN(0, 4), VN(0, 2), VN(2, 2), AN(0, 4));
	mfma16(b, AN(0, 4), VN(4, 2), VN(6, 2), AN(0, 4));
}
static void b_mfma16_srcc_overlap(MBlock *b)
{
	mfma16(b, AN(0, 4), VN(0, 2), VN(2, 2), AN(0, 4));
	mfma16(b, AN(2, 4), VN(4, 2), VN(6, 2), AN(2, 4));
}
static void b_mfma16_srca(MBlock *b)
{
	mfma16(b, VN(8, 4), VN(0, 2), VN(2, 2), VN(8, 4));
	mfma16(b, AN(0, 4), VN(10, 2), VN(2, 2), AN(0, 4));
}
static void b_valu_mfma(MBlock *b)
{
	emit(b, I_V_MOV_B32, OPS(V(1)), OPS(IMM(0)));
	mfma16(b, AN(0, 4), VN(0, 2), VN(2, 2), AN(0, 4));
}
static void b_accwrite_mfma(MBlock *b)
{
	emit(b, I_V_ACCVGPR_WRITE_B32, OPS(AN(3, 1)), OPS(V(9)));
	mfma16(b, AN(0, 4), VN(0, 2), VN(2, 2), AN(0, 4));
}
static void b_exec_mfma(MBlock *b)
{
	emit(b, I_V_CMPX_GT_I32, OPS(mo_special(MO_VCC)), OPS(V(9), V(10)))->flags |= MIF_E32;
	mfma16(b, AN(0, 4), VN(0, 2), VN(2, 2), AN(0, 4));
}

static void b_mfma950_accread(MBlock *b)
{
	emit(b, I_V_MFMA_F32_16X16X32_F16, OPS(AN(0, 4)), OPS(VN(0, 4), VN(4, 4), AN(0, 4)));
	emit(b, I_V_ACCVGPR_READ_B32, OPS(V(8)), OPS(AN(1, 1)));
}
static void b_mfma950_valu_mfma(MBlock *b)
{
	emit(b, I_V_MOV_B32, OPS(V(1)), OPS(IMM(0)));
	emit(b, I_V_MFMA_F32_16X16X32_F16, OPS(AN(0, 4)), OPS(VN(0, 4), VN(4, 4), AN(0, 4)));
}

/* gfx950's f8f6f4 MFMAs: scaled (5 uses) and not, A and B in the formats
 * `fa`, `fb` (cbsz/blgp; 4-dword operands for fp4, 8 for fp8). */
static MInst *mx16(MBlock *b, MOpnd d, unsigned fa, unsigned fb, MOpnd c, bool scaled, MOpnd sa, MOpnd sb)
{
	MOpnd a = VN(16, isa_f8f6f4_dwords(fa)), bb = VN(24, isa_f8f6f4_dwords(fb));
	MInst *in = scaled ? emit(b, I_V_MFMA_SCALE_F32_16X16X128_F8F6F4, OPS(d), OPS(a, bb, c, sa, sb))
			   : emit(b, I_V_MFMA_F32_16X16X128_F8F6F4, OPS(d), OPS(a, bb, c));
	in->mods = MI_MODS_MFMA(fa, fb, 0, 0);
	return in;
}
static void b_mx_fp8_valu(MBlock *b)
{
	mx16(b, VN(0, 4), 0, 1, VN(0, 4), true, V(40), V(41));
	emit(b, I_V_MOV_B32, OPS(V(50)), OPS(V(1)));
}
static void b_mx_fp4_valu(MBlock *b)
{
	mx16(b, VN(0, 4), 4, 4, VN(0, 4), true, V(40), V(41));
	emit(b, I_V_MOV_B32, OPS(V(50)), OPS(V(1)));
}
static void b_mx_fp4_unscaled_valu(MBlock *b)
{
	mx16(b, VN(0, 4), 4, 2, VN(0, 4), false, V(0), V(0));
	emit(b, I_V_MOV_B32, OPS(V(50)), OPS(V(1)));
}
static void b_mx32_fp8_valu(MBlock *b)
{
	MInst *in = emit(b, I_V_MFMA_SCALE_F32_32X32X64_F8F6F4, OPS(VN(0, 16)),
		OPS(VN(16, 8), VN(24, 8), VN(0, 16), V(40), V(41)));
	in->mods = MI_MODS_MFMA(0, 0, 1, 2);
	emit(b, I_V_MOV_B32, OPS(V(50)), OPS(V(15)));
}
static void b_mx32_fp4_valu(MBlock *b)
{
	MInst *in = emit(b, I_V_MFMA_SCALE_F32_32X32X64_F8F6F4, OPS(VN(0, 16)),
		OPS(VN(16, 4), VN(24, 4), VN(0, 16), V(40), V(41)));
	in->mods = MI_MODS_MFMA(4, 4, 0, 0);
	emit(b, I_V_MOV_B32, OPS(V(50)), OPS(V(15)));
}
static void b_valu_scale(MBlock *b)
{
	emit(b, I_V_MOV_B32, OPS(V(41)), OPS(IMM(127)));
	mx16(b, VN(0, 4), 4, 4, VN(0, 4), true, V(40), V(41));
}
static void b_mx_d_to_scale(MBlock *b)
{
	mx16(b, VN(0, 4), 0, 0, VN(0, 4), true, V(40), V(41));
	mx16(b, VN(4, 4), 4, 4, VN(4, 4), true, V(2), V(41));
}
static void b_mx_fp4_chain(MBlock *b)
{
	mx16(b, VN(0, 4), 4, 4, VN(0, 4), true, V(40), V(41));
	mx16(b, VN(0, 4), 4, 4, VN(0, 4), true, V(42), V(43));
}
static void b_i8_64_valu(MBlock *b)
{
	emit(b, I_V_MFMA_I32_16X16X64_I8, OPS(VN(0, 4)), OPS(VN(16, 4), VN(20, 4), VN(0, 4)));
	emit(b, I_V_MOV_B32, OPS(V(50)), OPS(V(3)));
}
static void b_i8_32_valu(MBlock *b)
{
	emit(b, I_V_MFMA_I32_32X32X32_I8, OPS(VN(0, 16)), OPS(VN(16, 4), VN(20, 4), VN(0, 16)));
	emit(b, I_V_MOV_B32, OPS(V(50)), OPS(V(3)));
}
/* a narrowing conversion into a higher byte, then a read of it */
static void b_cvt_fp4_hi(MBlock *b)
{
	MInst *in = emit(b, I_V_CVT_SCALEF32_PK_FP4_F32, OPS(V(5)), OPS(V(0), V(1), S(2)));
	in->flags |= MIF_TIED;
	in->mods = 0x4; /* op_sel:[0,0,1,0]: byte 1 */
	emit(b, I_V_ADD_U32, OPS(V(6)), OPS(IMM(1), V(5)));
}
static void b_cvt_fp4_lo(MBlock *b)
{
	MInst *in = emit(b, I_V_CVT_SCALEF32_PK_FP4_F32, OPS(V(5)), OPS(V(0), V(1), S(2)));
	in->flags |= MIF_TIED;
	emit(b, I_V_ADD_U32, OPS(V(6)), OPS(IMM(1), V(5)));
}
static void b_cvt_fp8_hi_tied(MBlock *b)
{
	MInst *in = emit(b, I_V_CVT_SCALEF32_PK_FP8_F32, OPS(V(5)), OPS(V(0), V(1), S(2)));
	in->flags |= MIF_TIED;
	in->mods = 0x8; /* the high word */
	in = emit(b, I_V_CVT_SCALEF32_PK_FP8_F32, OPS(V(5)), OPS(V(2), V(3), S(2)));
	in->flags |= MIF_TIED; /* reads v5 through its kept word */
}

/* gfx950's MX rows, the numbers llc-22 -mcpu=gfx950 inserts on the same
 * pairs (clang-22 on the builtins): an f8f6f4 MFMA is 4 passes (16x16x128)
 * or 8 (32x32x64) with 6- and 4-bit operands and twice that with an 8-bit
 * one, so a VALU reads its result 8 / 12 or 12 / 20 wait states later
 * (NP + 3 + 1, xdl_950); a scale register written by a VALU is read 2
 * later, one an MFMA wrote as SrcA/B is; a narrowing conversion into a
 * byte or word above the lowest is read 1 wait state later (LLVM's
 * DstSelForwarding / CvtScaleForwarding; none into the lowest). */
START_TEST(gfx950_mx_rows)
{
	static const struct {
		Build *b;
		int gap;
		const char *what;
	} rows[] = {
		{b_mx_fp8_valu, 12, "scaled 16x16x128 fp8 x bf8 -> VALU"},
		{b_mx_fp4_valu, 8, "scaled 16x16x128 fp4 x fp4 -> VALU"},
		{b_mx_fp4_unscaled_valu, 8, "16x16x128 fp4 x fp6 -> VALU"},
		{b_mx32_fp8_valu, 20, "scaled 32x32x64 fp8 -> VALU"},
		{b_mx32_fp4_valu, 12, "scaled 32x32x64 fp4 -> VALU"},
		{b_valu_scale, 2, "VALU -> scale register"},
		{b_mx_d_to_scale, 12, "scaled fp8 MFMA D -> scale register of the next"},
		{b_mx_fp4_chain, 0, "accumulation chain"},
		{b_i8_64_valu, 8, "16x16x64 i8 -> VALU"},
		{b_i8_32_valu, 12, "32x32x32 i8 -> VALU"},
		{b_cvt_fp4_hi, 1, "v_cvt_scalef32_pk_fp4_f32 byte 1 -> VALU"},
		{b_cvt_fp4_lo, 0, "v_cvt_scalef32_pk_fp4_f32 byte 0 -> VALU"},
		{b_cvt_fp8_hi_tied, 1, "v_cvt_scalef32_pk_fp8_f32 high word -> its next (tied)"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		MFunc *f = mfb_new(&target_gfx950);
		MBlock *b = mfunc_block(f, NULL);
		rows[i].b(b);
		Buf m = {0};
		ck_assert_msg((check_hazards(f, &m) > 0) == (rows[i].gap > 0), "%s: checker before\n%s", rows[i].what,
			buf_cstr(&m));
		buf_free(&m);
		run_hazards(f);
		size_t at = b->insts.len - 1;
		ck_assert_msg(check(f) == 0 && nops_before(f, 0, at) == rows[i].gap, "%s: expected %d wait states\n%s",
			rows[i].what, rows[i].gap, mfb_text(f));
		if (rows[i].gap) {
			shorten(f, 0, at);
			ck_assert_msg(check(f) > 0, "%s: one short passes", rows[i].what);
		}
		mfunc_free(f);
	}
	/* on gfx942 the DstSel row is the same for VOP3 op_sel[3] writes; on
	 * gfx90a it does not exist (v_cvt_pk_fp8_f32 is gfx940's) */
}
END_TEST

/* gfx950: gfx942's rows, an XDL result one wait state later for its
 * readers and writers (hazard_rules.c, xdl_950); its own 16x16x32 f16 is
 * 4 passes like gfx942's 16x16x16 (llvm-mca-22 -mcpu=gfx950). The third
 * number is gfx950's. */
START_TEST(gfx950_rows)
{
	expect_gap_on(b_mfma16_accread, (int[]){7, 11, 8}, 3, "16x16x16 -> v_accvgpr_read");
	expect_gap_on(b_mfma32_accread, (int[]){11, 19, 12}, 3, "32x32x8 -> v_accvgpr_read");
	expect_gap_on(b_mfma16_store, (int[]){7, 11, 8}, 3, "16x16x16 -> buffer_store of D");
	expect_gap_on(b_mfma16_valu_waw, (int[]){7, 11, 8}, 3, "16x16x16 -> VALU overwrites D");
	expect_gap_on(b_mfma16_war, (int[]){3, 7, 3}, 3, "16x16x16 SrcC -> v_accvgpr_write");
	expect_gap_on(b_mfma16_chain, (int[]){0, 0, 0}, 3, "accumulation chain");
	expect_gap_on(b_mfma16_srcc_overlap, (int[]){5, 8, 6}, 3, "SrcC partly overlapping");
	expect_gap_on(b_mfma16_srca, (int[]){7, 11, 8}, 3, "MFMA D -> MFMA SrcA");
	/* gfx950's own row, on gfx950 only */
	MFunc *f = mfb_new(&target_gfx950);
	MBlock *b = mfunc_block(f, NULL);
	b_mfma950_accread(b);
	run_hazards(f);
	ck_assert_msg(check(f) == 0 && nops_before(f, 0, b->insts.len - 1) == 8, "16x16x32 f16 -> v_accvgpr_read\n%s",
		mfb_text(f));
	mfunc_free(f);
	f = mfb_new(&target_gfx950);
	b = mfunc_block(f, NULL);
	b_mfma950_valu_mfma(b);
	run_hazards(f);
	ck_assert_msg(check(f) == 0 && nops_before(f, 0, b->insts.len - 1) == 2, "VALU -> 16x16x32 f16\n%s",
		mfb_text(f));
	mfunc_free(f);
}
END_TEST

START_TEST(mfma_rows)
{
	/* gfx942 16x16x16 f16: 4 passes, XDL; 32x32x8 f16: 8 passes. gfx90a:
	 * 8 and 16 passes (LLVM SISchedule.td). */
	expect_gap(b_mfma16_accread, (int[]){7, 11}, "16x16x16 -> v_accvgpr_read");
	expect_gap(b_mfma32_accread, (int[]){11, 19}, "32x32x8 -> v_accvgpr_read");
	expect_gap(b_mfma16_store, (int[]){7, 11}, "16x16x16 -> buffer_store of D");
	expect_gap(b_mfma16_valu_waw, (int[]){7, 11}, "16x16x16 -> VALU overwrites D");
	expect_gap(b_mfma16_war, (int[]){3, 7}, "16x16x16 SrcC -> v_accvgpr_write");
	expect_gap(b_mfma16_chain, (int[]){0, 0}, "accumulation chain");
	expect_gap(b_mfma16_srcc_overlap, (int[]){5, 8}, "SrcC partly overlapping");
	expect_gap(b_mfma16_srca, (int[]){7, 11}, "MFMA D -> MFMA SrcA");
	expect_gap(b_valu_mfma, (int[]){2, 2}, "VALU -> MFMA SrcA");
	expect_gap(b_accwrite_mfma, (int[]){2, 2}, "v_accvgpr_write -> MFMA SrcC");
	expect_gap(b_exec_mfma, (int[]){4, 4}, "v_cmpx (EXEC) -> MFMA");
}
END_TEST

/* ---- other rows ---- */
static void b_dpp(MBlock *b)
{
	emit(b, I_V_ADD_F32, OPS(V(1)), OPS(V(2), V(3)));
	emit(b, I_V_ADD_F32, OPS(V(4)), OPS(V(1), V(5)))->dpp = 0x111; /* row_shr:1 */
}
static void b_dpp_after_load(MBlock *b)
{
	emit(b, I_DS_BPERMUTE_B32, OPS(V(1)), OPS(V(9), V(3)));
	emit(b, I_S_WAITCNT, NONE, NONE)->lgkmcnt = 0;
	emit(b, I_V_ADD_F32, OPS(V(4)), OPS(V(1), V(5)))->dpp = 0x142; /* row_bcast:15 */
}
static void b_exec_dpp(MBlock *b)
{
	emit(b, I_V_CMPX_GT_I32, OPS(mo_special(MO_VCC)), OPS(V(9), V(10)))->flags |= MIF_E32;
	emit(b, I_V_ADD_F32, OPS(V(4)), OPS(V(1), V(5)))->dpp = 0xb1;
}
static void b_lanesel(MBlock *b)
{
	emit(b, I_V_READFIRSTLANE_B32, OPS(S(4)), OPS(V(1)));
	emit(b, I_V_READLANE_B32, OPS(S(5)), OPS(V(2), S(4)));
}
static void b_readlane_vgpr(MBlock *b)
{
	emit(b, I_V_ADD_F32, OPS(V(2)), OPS(V(2), V(3)));
	emit(b, I_V_READLANE_B32, OPS(S(5)), OPS(V(2), S(6)));
}
static void b_trans(MBlock *b)
{
	emit(b, I_V_EXP_F32, OPS(V(1)), OPS(V(2)));
	emit(b, I_V_MUL_F32, OPS(V(3)), OPS(V(1), V(1)));
}
static void b_vcc(MBlock *b)
{
	emit(b, I_V_CMP_GT_I32, OPS(mo_special(MO_VCC)), OPS(S(4), V(0)))->flags |= MIF_E32;
	emit(b, I_V_CNDMASK_B32, OPS(V(1)), OPS(V(2), V(3), mo_special(MO_VCC)))->flags |= MIF_E32;
}
static void b_sgpr_vmem(MBlock *b)
{
	emit(b, I_V_READFIRSTLANE_B32, OPS(S(12)), OPS(V(1)));
	emit(b, I_BUFFER_LOAD_DWORD, OPS(V(2)), OPS(V(0), SN(8, 4), S(12)))->flags |= MIF_OFFEN;
}
static void b_store_data(MBlock *b)
{
	emit(b, I_BUFFER_STORE_DWORDX4, NONE, OPS(VN(4, 4), V(0), SN(8, 4), IMM(0)))->flags |= MIF_OFFEN;
	emit(b, I_V_MOV_B32, OPS(V(5)), OPS(IMM(0)));
}
static void b_store_data_soffset(MBlock *b)
{
	emit(b, I_BUFFER_STORE_DWORDX4, NONE, OPS(VN(4, 4), V(0), SN(8, 4), S(1)))->flags |= MIF_OFFEN;
	emit(b, I_V_MOV_B32, OPS(V(5)), OPS(IMM(0)));
}
static void b_store_dwordx2(MBlock *b)
{
	emit(b, I_BUFFER_STORE_DWORDX2, NONE, OPS(VN(4, 2), V(0), SN(8, 4), IMM(0)))->flags |= MIF_OFFEN;
	emit(b, I_V_MOV_B32, OPS(V(5)), OPS(IMM(0)));
}
static void b_clause_store(MBlock *b)
{
	emit(b, I_BUFFER_LOAD_DWORD, OPS(V(1)), OPS(V(0), SN(8, 4), IMM(0)))->flags |= MIF_OFFEN;
	emit(b, I_BUFFER_STORE_DWORD, NONE, OPS(V(2), V(0), SN(8, 4), IMM(0)))->flags |= MIF_OFFEN;
}
static void b_clause_war(MBlock *b)
{
	emit(b, I_BUFFER_LOAD_DWORD, OPS(V(1)), OPS(V(0), SN(8, 4), IMM(0)))->flags |= MIF_OFFEN;
	emit(b, I_BUFFER_LOAD_DWORD, OPS(V(0)), OPS(V(2), SN(8, 4), IMM(0)))->flags |= MIF_OFFEN;
}
static void b_clause_ok(MBlock *b)
{
	emit(b, I_BUFFER_LOAD_DWORD, OPS(V(1)), OPS(V(0), SN(8, 4), IMM(0)))->flags |= MIF_OFFEN;
	emit(b, I_BUFFER_LOAD_DWORD, OPS(V(3)), OPS(V(2), SN(8, 4), IMM(0)))->flags |= MIF_OFFEN;
}

START_TEST(other_rows)
{
	expect_gap(b_dpp, (int[]){2, 2}, "VALU -> DPP");
	expect_gap(b_dpp_after_load, (int[]){1, 1}, "ds_bpermute -> DPP (any writer)");
	expect_gap(b_exec_dpp, (int[]){5, 5}, "v_cmpx (EXEC) -> DPP");
	expect_gap(b_lanesel, (int[]){4, 4}, "VALU SGPR -> v_readlane lane select");
	expect_gap(b_readlane_vgpr, (int[]){1, 0}, "VALU VGPR -> v_readlane");
	expect_gap(b_trans, (int[]){1, 0}, "v_exp -> v_mul");
	expect_gap(b_vcc, (int[]){2, 0}, "v_cmp vcc -> v_cndmask");
	expect_gap(b_sgpr_vmem, (int[]){5, 5}, "VALU SGPR -> buffer soffset");
	expect_gap(b_store_data, (int[]){2, 1}, "dwordx4 store data -> VALU write");
	expect_gap(b_store_data_soffset, (int[]){0, 0}, "dwordx4 store with soffset register");
	expect_gap(b_store_dwordx2, (int[]){0, 0}, "dwordx2 store data");
	expect_gap(b_clause_store, (int[]){1, 1}, "soft clause: store after a load");
	expect_gap(b_clause_war, (int[]){1, 1}, "soft clause: member overwrites an address");
	expect_gap(b_clause_ok, (int[]){0, 0}, "soft clause: independent loads");
}
END_TEST

/* ---- gfx950's lane swaps and the LDS DMA's M0 ---- */
static void b_valu_permlane(MBlock *b)
{
	emit(b, I_V_ADD_F32, OPS(V(1)), OPS(V(2), V(3)));
	emit(b, I_V_PERMLANE16_SWAP_B32, OPS(V(4), V(1)), OPS(V(4), V(1)));
}
static void b_valu_permlane_vdst(MBlock *b)
{
	emit(b, I_V_MOV_B32, OPS(V(4)), OPS(IMM(0)));
	emit(b, I_V_PERMLANE32_SWAP_B32, OPS(V(4), V(1)), OPS(V(4), V(1)));
}
static void b_exec_permlane(MBlock *b)
{
	emit(b, I_V_CMPX_GT_I32, OPS(mo_special(MO_VCC)), OPS(V(9), V(10)))->flags |= MIF_E32;
	emit(b, I_V_PERMLANE32_SWAP_B32, OPS(V(4), V(1)), OPS(V(4), V(1)));
}
static void b_permlane_use(MBlock *b)
{
	emit(b, I_V_PERMLANE16_SWAP_B32, OPS(V(4), V(1)), OPS(V(4), V(1)));
	emit(b, I_V_ADD_F32, OPS(V(5)), OPS(V(4), V(1)));
}
static void b_m0_buffer_lds(MBlock *b)
{
	emit(b, I_S_MOV_B32, OPS(mo_special(MO_M0)), OPS(S(2)));
	emit(b, I_BUFFER_LOAD_DWORDX4, NONE, OPS(V(0), SN(8, 4), IMM(0), mo_special(MO_M0)))->flags |= MIF_OFFEN | MIF_LDS;
}
static void b_m0_global_lds(MBlock *b)
{
	emit(b, I_S_MOV_B32, OPS(mo_special(MO_M0)), OPS(S(2)));
	emit(b, I_GLOBAL_LOAD_LDS_DWORDX4, NONE, OPS(V(0), SN(4, 2), mo_special(MO_M0)));
}
static void b_m0_ds(MBlock *b)
{
	emit(b, I_S_MOV_B32, OPS(mo_special(MO_M0)), OPS(S(2)));
	emit(b, I_DS_READ_B64_TR_B16, OPS(VN(2, 2)), OPS(V(0)));
}

/* LLVM 22's checkPermlaneHazards: a VALU result read by a swap 2 wait
 * states later (what llc-22 -mcpu=gfx950 puts between a v_mov and the
 * swap reading it), an EXEC write by v_cmpx 4; gfx950 only (the swaps do
 * not exist elsewhere). checkReadM0Hazards: an M0 write is read by an LDS
 * DMA one wait state later on every GFX9 target (llc-22's s_nop 0 between
 * s_movk_i32 m0 and buffer_load_dwordx3 ... lds); other DS rows do not read
 * M0 on gfx9. */
START_TEST(gfx950_xfer_rows)
{
	expect_gap_on(b_valu_permlane, (int[]){0, 0, 2}, 3, "VALU -> v_permlane16_swap src");
	expect_gap_on(b_valu_permlane_vdst, (int[]){0, 0, 2}, 3, "VALU -> v_permlane32_swap vdst");
	expect_gap_on(b_exec_permlane, (int[]){0, 0, 4}, 3, "v_cmpx (EXEC) -> v_permlane32_swap");
	expect_gap_on(b_permlane_use, (int[]){0, 0, 0}, 3, "v_permlane16_swap -> VALU reads it");
	expect_gap_on(b_m0_buffer_lds, (int[]){1, 1, 1}, 3, "s_mov m0 -> buffer_load_dwordx4 lds");
	expect_gap_on(b_m0_global_lds, (int[]){1, 1, 1}, 3, "s_mov m0 -> global_load_lds_dwordx4");
	expect_gap_on(b_m0_ds, (int[]){0, 0, 0}, 3, "s_mov m0 -> ds_read_b64_tr_b16");
}
END_TEST

/* An MFMA at the bottom of a loop; the top of the next iteration reads its
 * accumulator. The back edge gives 3 wait states (s_sub, s_cmp, branch);
 * the rest is inserted at the loop top. */
START_TEST(loop_back_edge_mfma)
{
	for (int t = 0; t < 2; t++) {
		MFunc *f = mfb_new(t ? &target_gfx90a : &target_gfx942);
		MBlock *b0 = mfunc_block(f, NULL), *b1 = mfunc_block(f, ".Lk"), *b2 = mfunc_block(f, NULL);
		emit(b0, I_S_MOV_B32, OPS(S(20)), OPS(IMM(8)));
		emit(b0, I_S_NOP, NONE, OPS(IMM(7)));
		emit(b0, I_S_NOP, NONE, OPS(IMM(7)));
		emit(b0, I_S_NOP, NONE, OPS(IMM(7)));
		emit(b1, I_V_ACCVGPR_READ_B32, OPS(V(4)), OPS(AN(0, 1)));
		mfma16(b1, AN(0, 4), VN(0, 2), VN(2, 2), AN(0, 4));
		emit(b1, I_S_SUB_U32, OPS(S(20)), OPS(S(20), IMM(1)));
		emit(b1, I_S_CMP_LG_U32, NONE, OPS(S(20), IMM(0)));
		mblock_branch(b1, I_S_CBRANCH_SCC1, 1);
		emit(b2, I_V_ACCVGPR_READ_B32, OPS(V(5)), OPS(AN(3, 1)));
		emit(b2, I_S_ENDPGM, NONE, NONE);
		Buf m = {0};
		ck_assert_int_eq(check_hazards(f, &m), 2); /* the loop top and the exit block */
		buf_free(&m);
		run_hazards(f);
		ck_assert_msg(check(f) == 0, "%s", mfb_text(f));
		int need = t ? 11 : 7;
		int top = need - 3, exit_gap = need - 3;
		size_t at = 0;
		while (b1->insts.data[at].op == I_S_NOP)
			at++;
		ck_assert_msg(nops_before(f, 1, at) == top, "%s", mfb_text(f));
		at = 0;
		while (b2->insts.data[at].op == I_S_NOP)
			at++;
		ck_assert_msg(nops_before(f, 2, at) == exit_gap, "%s", mfb_text(f));
		/* One short at the loop top: the back edge path fails. */
		size_t top_at = 0;
		while (b1->insts.data[top_at].op == I_S_NOP)
			top_at++;
		shorten(f, 1, top_at);
		ck_assert_int_eq(check(f), 1);
		mfunc_free(f);
	}
}
END_TEST

/* ---- random streams ---- */

static uint64_t rng;
static unsigned rnd(unsigned n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(rng >> 33) % n;
}

static void random_inst(MBlock *b)
{
	unsigned r = rnd(6), x = rnd(6), acc = 4 * rnd(3);
	switch (rnd(14)) {
	case 0: mfma16(b, AN(acc, 4), VN(2 * rnd(3), 2), VN(2 * rnd(3), 2), AN(acc, 4)); break;
	case 1: emit(b, I_V_MFMA_F32_32X32X8_F16, OPS(AN(16, 16)), OPS(VN(0, 2), VN(2, 2), AN(16, 16))); break;
	case 2: emit(b, I_V_ACCVGPR_READ_B32, OPS(V(r)), OPS(AN(rnd(32), 1))); break;
	case 3: emit(b, I_V_ACCVGPR_WRITE_B32, OPS(AN(rnd(32), 1)), OPS(V(x))); break;
	case 4: emit(b, I_V_ADD_F32, OPS(V(r)), OPS(V(x), V(rnd(6))))->dpp = 0x111; break;
	case 5: emit(b, I_V_EXP_F32, OPS(V(r)), OPS(V(x))); break;
	case 6: emit(b, I_V_READFIRSTLANE_B32, OPS(S(4 + rnd(2))), OPS(V(x))); break;
	case 7: emit(b, I_V_READLANE_B32, OPS(S(6)), OPS(V(x), S(4 + rnd(2)))); break;
	case 8: emit(b, I_V_CMP_GT_I32, OPS(mo_special(MO_VCC)), OPS(S(4), V(x)))->flags |= MIF_E32; break;
	case 9: emit(b, I_V_CNDMASK_B32, OPS(V(r)), OPS(V(x), V(1), mo_special(MO_VCC)))->flags |= MIF_E32; break;
	case 10:
		emit(b, I_BUFFER_LOAD_DWORD, OPS(V(r)), OPS(V(x), SN(8, 4), rnd(2) ? S(4) : IMM(0)))->flags |= MIF_OFFEN;
		break;
	case 11:
		emit(b, I_BUFFER_STORE_DWORDX4, NONE, OPS(VN(2 * rnd(2), 4), V(x), SN(8, 4), IMM(0)))->flags |= MIF_OFFEN;
		break;
	case 12: emit(b, I_S_ADD_U32, OPS(S(4 + rnd(2))), OPS(S(4), IMM(1))); break;
	default: emit(b, I_V_ADD_F32, OPS(V(r)), OPS(V(x), V(rnd(6)))); break;
	}
}

static MFunc *random_func(const Target *t, bool loops)
{
	MFunc *f = mfb_new(t);
	int nb = loops ? 1 + (int)rnd(3) : 1;
	for (int k = 0; k < nb; k++) {
		MBlock *b = mfunc_block(f, NULL);
		int n = 1 + (int)rnd(10);
		for (int i = 0; i < n; i++)
			random_inst(b);
		if (k == nb - 1) {
			emit(b, I_S_ENDPGM, NONE, NONE);
		} else if (rnd(3)) {
			emit(b, I_S_CMP_LG_U32, NONE, OPS(S(20), IMM(0)));
			mblock_branch(b, I_S_CBRANCH_SCC1, (int)rnd((unsigned)k + 1));
		}
	}
	return f;
}

START_TEST(random_streams)
{
	rng = 777;
	int nops = 0;
	for (int iter = 0; iter < 600; iter++) {
		bool loops = iter % 2;
		MFunc *f = random_func(iter % 4 < 2 ? &target_gfx942 : &target_gfx90a, loops);
		run_hazards(f);
		Buf m = {0};
		int bad = check_hazards(f, &m);
		ck_assert_msg(bad == 0, "iteration %d:\n%s\n%s", iter, buf_cstr(&m), mfb_text(f));
		buf_free(&m);
		/* Straight-line code: every s_nop group is the shortest that passes. */
		for (size_t bi = 0; !loops && bi < f->blocks.len; bi++)
			for (size_t i = 1; i < f->blocks.data[bi]->insts.len; i++) {
				MBlock *b = f->blocks.data[bi];
				if (b->insts.data[i].op == I_S_NOP || b->insts.data[i - 1].op != I_S_NOP)
					continue;
				nops++;
				size_t len = b->insts.len;
				MInst *saved = xmalloc(len * sizeof *saved);
				memcpy(saved, b->insts.data, len * sizeof *saved);
				shorten(f, bi, i);
				ck_assert_msg(check(f) > 0, "iteration %d: block %zu inst %zu: s_nops not minimal\n%s", iter, bi, i,
					mfb_text(f));
				memcpy(b->insts.data, saved, len * sizeof *saved);
				b->insts.len = len;
				free(saved);
			}
		mfunc_free(f);
	}
	ck_assert_int_gt(nops, 100);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hazards");
	TCase *t = tcase_create("hazards");
	tcase_add_test(t, mfma_rows);
	tcase_add_test(t, gfx950_rows);
	tcase_add_test(t, gfx950_mx_rows);
	tcase_add_test(t, other_rows);
	tcase_add_test(t, gfx950_xfer_rows);
	tcase_add_test(t, loop_back_edge_mfma);
	tcase_add_test(t, random_streams);
	suite_add_tcase(s, t);
	return run_suite(s);
}
