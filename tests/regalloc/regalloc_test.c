/* regalloc_test.c — register allocation over the CFG (regalloc/): the
 * liveness it builds on (ir/mir_live.c) in hand-built loops, the
 * allocator's choices (loop-carried values, values live across a loop,
 * reuse of registers dead inside it, AGPR/SGPR tuple alignment, fixed
 * registers), out-of-registers errors, the independent checker catching
 * wrong assignments, mir_verify's CFG checks, and one allocated loop kernel
 * assembled with llvm-mc-19 and run on the emulator (kernel.c); the
 * functions they share are built in build.c. */
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../test.h"
#include "../../regalloc/regalloc.h"
#include "regalloc_test.h"

/* ---- liveness ---- */

START_TEST(liveness_carries_values_around_the_back_edge)
{
	LoopFn L = loop_fn(&target_gfx942);
	MirLive lv;
	mir_live_fill(&lv, L.f);
	const uint64_t *in1 = lv.in + 1 * lv.words, *out1 = lv.out + 1 * lv.words, *in0 = lv.in;
	/* the loop header needs the counter, the accumulators, tid and keep */
	uint32_t live[] = {L.tid, L.acc, L.i, L.p, L.keep, L.kernarg, L.x, L.acc4};
	for (size_t k = 0; k < ARRAY_LEN(live); k++) {
		ck_assert_msg(bs_get(in1, lv.vbase[live[k]]), "%%%u not live into the loop", live[k]);
		ck_assert_msg(bs_get(out1, lv.vbase[live[k]]), "%%%u not live out of the latch", live[k]);
	}
	for (int d = 0; d < 4; d++)
		ck_assert(bs_get(in1, lv.vbase[L.acc4] + (uint32_t)d));
	/* loop temporaries die inside the loop */
	ck_assert(!bs_get(in1, lv.vbase[L.t]) && !bs_get(out1, lv.vbase[L.t]));
	ck_assert(!bs_get(out1, lv.vbase[L.t3]));
	/* p lives around the back edge only: not into the exit */
	ck_assert(!bs_get(lv.in + 2 * lv.words, lv.vbase[L.p]));
	ck_assert(bs_get(lv.in + 2 * lv.words, lv.vbase[L.acc]));
	/* on entry only the fixed registers the code reads: s[0:1] and v0 */
	int n = 0;
	for (size_t s = 0; s < lv.nslots; s++)
		n += bs_get(in0, s);
	ck_assert_int_eq(n, 3);
	ck_assert(bs_get(in0, (size_t)lv.pslot[RF_SGPR * MIR_MAX_PHYS + 0]));
	ck_assert(bs_get(in0, (size_t)lv.pslot[RF_VGPR * MIR_MAX_PHYS + 0]));
	/* nothing is live out of the exit */
	for (size_t w = 0; w < lv.words; w++)
		ck_assert_uint_eq(lv.out[2 * lv.words + w], 0);
	mir_live_free(&lv);
	mfunc_free(L.f);
}
END_TEST

START_TEST(liveness_partial_defs_kill_only_their_dwords)
{
	MFunc *f = mfunc_new("k", &target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	uint32_t q = mfunc_vreg(f, RC_S4), r = mfunc_vreg(f, RC_S4);
	for (int k = 0; k < 4; k++)
		i1(b, I_S_MOV_B32, mo_vsub(q, k, RC_S1), mo_imm(k));
	mblock_add(b, I_S_MOV_B64, 1, (MOpnd[]){mo_vsub(r, 0, RC_S2)}, 1, (MOpnd[]){mo_vsub(q, 2, RC_S2)});
	/* r's upper half is never defined here: it stays live into the block */
	cmp(b, I_S_CMP_LG_U32, mo_vsub(r, 3, RC_S1), mo_vsub(r, 0, RC_S1));
	cmp(b, I_S_CMP_LG_U32, mo_vsub(q, 0, RC_S1), mo_vsub(q, 1, RC_S1));
	MirLive lv;
	mir_live_fill(&lv, f);
	for (int d = 0; d < 4; d++)
		ck_assert(!bs_get(lv.in, lv.vbase[q] + (uint32_t)d));
	ck_assert(!bs_get(lv.in, lv.vbase[r]));
	ck_assert(bs_get(lv.in, lv.vbase[r] + 3));
	mir_live_free(&lv);
	mfunc_free(f);
}
END_TEST

/* ---- allocation ---- */

START_TEST(loop_values_keep_their_registers)
{
	LoopFn L = loop_fn(&target_gfx942);
	RegAssign ra = {0};
	alloc_clean(L.f, &ra);
	const uint32_t *p = ra.phys;
	/* keep is defined before the loop and read after it: nothing defined
	 * inside the loop may take its register; nor tid's, acc's or p's */
	uint32_t inside[] = {L.t, L.t3};
	for (size_t k = 0; k < ARRAY_LEN(inside); k++) {
		ck_assert_uint_ne(p[inside[k]], p[L.keep]);
		ck_assert_uint_ne(p[inside[k]], p[L.tid]);
		ck_assert_uint_ne(p[inside[k]], p[L.acc]);
		ck_assert_uint_ne(p[inside[k]], p[L.p]);
	}
	/* t dies where p is written: t3, defined after p's last def and read
	 * of the iteration, reuses t's register — not p's, which intervals
	 * without the back edge would end at that def and hand to t3 */
	ck_assert_uint_eq(p[L.t3], p[L.t]);
	/* v0 (fixed) frees after the copy to tid: acc takes it */
	ck_assert_uint_eq(p[L.tid], 1);
	ck_assert_uint_eq(p[L.acc], 0);
	ck_assert_uint_eq(p[L.p], 2);
	ck_assert_uint_eq(p[L.keep], 3);
	ck_assert_uint_eq(p[L.x], 4); /* a pair: even */
	ck_assert_uint_eq(p[L.t], 6);
	/* r, off and m after the loop reuse registers: 7 VGPRs in all */
	ck_assert_int_eq(L.f->nregs[RF_VGPR], 7);
	ck_assert_int_eq(L.f->nregs[RF_AGPR], 4);
	/* the accumulator is one register tuple through every def and use */
	const MInst *mf = &L.f->blocks.data[1]->insts.data[5];
	ck_assert_int_eq(mf->op, I_V_MFMA_F32_16X16X16_F16);
	ck_assert_int_eq(mf->def[0].kind, MO_PREG);
	ck_assert_uint_eq(mf->def[0].reg, mf->use[2].reg);
	ck_assert_uint_eq(mf->def[0].reg, p[L.acc4]);
	regassign_free(&ra);
	mfunc_free(L.f);
}
END_TEST

START_TEST(tuples_are_aligned)
{
	MFunc *f = mfunc_new("tuples", &target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	RegClass a1 = rc_make(RF_AGPR, 1), a4 = rc_make(RF_AGPR, 4), a16 = rc_make(RF_AGPR, 16);
	uint32_t s = mfunc_vreg(f, a1), q = mfunc_vreg(f, a4), h = mfunc_vreg(f, a16), x = mfunc_vreg(f, RC_V2);
	uint32_t k = mfunc_vreg(f, RC_S2), one = mfunc_vreg(f, RC_S1), desc = mfunc_vreg(f, RC_S4);
	mblock_add(b, I_S_MOV_B64, 1, (MOpnd[]){mo_vreg(k, RC_S2)}, 1, (MOpnd[]){mo_preg(0, RC_S2)});
	i1(b, I_S_MOV_B32, sv(one), mo_imm(7));
	for (int d = 0; d < 4; d++)
		i1(b, I_S_MOV_B32, mo_vsub(desc, d, RC_S1), sv(one));
	i1(b, I_V_ACCVGPR_WRITE_B32, mo_vreg(s, a1), mo_imm(1));
	for (int d = 0; d < 4; d++)
		i1(b, I_V_ACCVGPR_WRITE_B32, mo_vsub(q, d, a1), mo_imm(0));
	for (int d = 0; d < 16; d++)
		i1(b, I_V_ACCVGPR_WRITE_B32, mo_vsub(h, d, a1), mo_imm(0));
	for (int d = 0; d < 2; d++)
		i1(b, I_V_MOV_B32, mo_vsub(x, d, RC_V1), mo_imm(0x3c003c00));
	i3(b, I_V_MFMA_F32_16X16X16_F16, mo_vreg(q, a4), mo_vreg(x, RC_V2), mo_vreg(x, RC_V2), mo_vreg(q, a4));
	i3(b, I_V_MFMA_F32_32X32X8_F16, mo_vreg(h, a16), mo_vreg(x, RC_V2), mo_vreg(x, RC_V2), mo_vreg(h, a16));
	uint32_t r = mfunc_vreg(f, RC_V1);
	i1(b, I_V_ACCVGPR_READ_B32, vv(r), mo_vreg(s, a1));
	i1(b, I_V_ACCVGPR_READ_B32, vv(r), mo_vsub(q, 3, a1));
	i1(b, I_V_ACCVGPR_READ_B32, vv(r), mo_vsub(h, 15, a1));
	cmp(b, I_S_CMP_LG_U64, mo_vreg(k, RC_S2), mo_vsub(desc, 2, RC_S2));
	mblock_add(b, I_S_ENDPGM, 0, NULL, 0, NULL);
	RegAssign ra = {0};
	alloc_clean(f, &ra);
	/* a0 holds s; the 4- and 16-dword tuples start at even AGPRs after it */
	ck_assert_uint_eq(ra.phys[s], 0);
	ck_assert_uint_eq(ra.phys[q], 2);
	ck_assert_uint_eq(ra.phys[h], 6);
	ck_assert_int_eq(f->nregs[RF_AGPR], 22);
	/* s[0:1] is busy until copied; k takes s[2:3], one s0, desc 4-aligned */
	ck_assert_uint_eq(ra.phys[k], 2);
	ck_assert_uint_eq(ra.phys[one], 0);
	ck_assert_uint_eq(ra.phys[desc], 4);
	ck_assert_int_eq(f->nregs[RF_SGPR], 8);
	regassign_free(&ra);
	mfunc_free(f);
}
END_TEST

START_TEST(mfma_result_avoids_its_sources)
{
	/* d = mfma(a, b, c) with d a new vreg and c dying there: d must not
	 * take c's (or a's) registers, although c is dead after the MFMA */
	MFunc *f = mfunc_new("mfma", &target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	RegClass v4 = rc_make(RF_VGPR, 4);
	uint32_t a = mfunc_vreg(f, RC_V2), c = mfunc_vreg(f, v4), d = mfunc_vreg(f, v4), r = mfunc_vreg(f, RC_V1);
	for (int k = 0; k < 2; k++)
		i1(b, I_V_MOV_B32, mo_vsub(a, k, RC_V1), mo_imm(0));
	for (int k = 0; k < 4; k++)
		i1(b, I_V_MOV_B32, mo_vsub(c, k, RC_V1), mo_imm(0));
	i3(b, I_V_MFMA_F32_16X16X16_F16, mo_vreg(d, v4), mo_vreg(a, RC_V2), mo_vreg(a, RC_V2), mo_vreg(c, v4));
	i1(b, I_V_MOV_B32, vv(r), mo_vsub(d, 1, RC_V1));
	RegAssign ra = {0};
	alloc_clean(f, &ra);
	ck_assert_uint_eq(ra.phys[a], 0);
	ck_assert_uint_eq(ra.phys[c], 2);
	ck_assert_uint_eq(ra.phys[d], 6);
	regassign_free(&ra);
	mfunc_free(f);
}
END_TEST

/* n values of class rc all live at once, then summed into the first */
static MFunc *pressure_fn(const char *name, RegClass rc, int n)
{
	MFunc *f = mfunc_new(name, &target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	uint32_t first = 0;
	for (int k = 0; k < n; k++) {
		uint32_t v = mfunc_vreg(f, rc);
		if (!k)
			first = v;
		for (int d = 0; d < rc_size(rc); d++) {
			MOpnd o = mo_vsub(v, d, rc_make(rc_file(rc), 1));
			if (rc_file(rc) == RF_SGPR)
				i1(b, I_S_MOV_B32, o, mo_imm(k));
			else if (rc_file(rc) == RF_VGPR)
				i1(b, I_V_MOV_B32, o, mo_imm(k));
			else
				i1(b, I_V_ACCVGPR_WRITE_B32, o, mo_imm(k));
		}
	}
	for (int k = 1; k < n; k++) {
		if (rc_file(rc) == RF_SGPR)
			i2(b, I_S_ADD_U32, sv(first), sv(first), mo_vsub(first + (uint32_t)k, 0, RC_S1));
		else {
			uint32_t t = mfunc_vreg(f, RC_V1), u = mfunc_vreg(f, RC_V1);
			RegClass one = rc_make(rc_file(rc), 1);
			MOp rd = rc_file(rc) == RF_AGPR ? I_V_ACCVGPR_READ_B32 : I_V_MOV_B32;
			i1(b, rd, vv(t), mo_vsub(first + (uint32_t)k, rc_size(rc) - 1, one));
			i1(b, rd, vv(u), mo_vsub(first, 0, one));
			i2(b, I_V_ADD_U32, vv(u), vv(u), vv(t));
		}
	}
	mblock_add(b, I_S_ENDPGM, 0, NULL, 0, NULL);
	return f;
}

/* 256 fixed VGPRs (v0..v255) written, a value of class rc defined while
 * they are live, then all of them read: nothing that holds the VGPRs can be
 * spilled. */
static MFunc *fixed_fn(const char *name, RegClass rc)
{
	MFunc *f = mfunc_new(name, &target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	for (uint32_t r = 0; r < 256; r++)
		i1(b, I_V_MOV_B32, mo_preg(r, RC_V1), mo_imm(r));
	uint32_t v = mfunc_vreg(f, rc);
	for (int d = 0; d < rc_size(rc); d++)
		i1(b, I_V_MOV_B32, mo_vsub(v, d, RC_V1), mo_imm(d));
	for (uint32_t r = 0; r < 256; r++)
		i2(b, I_V_ADD_U32, mo_preg(r, RC_V1), mo_preg(r, RC_V1), mo_vsub(v, 0, RC_V1));
	mblock_add(b, I_S_ENDPGM, 0, NULL, 0, NULL);
	return f;
}

static void expect_pressure_error(MFunc *f, const RaLimits *lim, const char *want)
{
	Buf m = {0};
	ck_assert_int_eq(mir_verify(f, &m), 0);
	RegAssign ra = {0};
	ck_assert_int_eq(regalloc_mfunc_limits(f, lim, &ra, &m), -1);
	ck_assert_msg(strstr(buf_cstr(&m), want), "%s", buf_cstr(&m));
	ck_assert_msg(strstr(buf_cstr(&m), "smaller tiles or fewer elements per thread lower the pressure"), "%s",
		buf_cstr(&m));
	/* no physical register written, nothing kept */
	ck_assert(!f->allocated);
	ck_assert_ptr_null(ra.pre);
	ck_assert_ptr_null(ra.orig);
	ck_assert_ptr_null(ra.phys);
	for (size_t i = 0; i < f->blocks.data[0]->insts.len; i++) {
		const MInst *in = &f->blocks.data[0]->insts.data[i];
		for (int k = 0; k < in->ndef + in->nuse; k++) {
			MOpnd o = k < in->ndef ? in->def[k] : in->use[k - in->ndef];
			ck_assert(o.kind != MO_PREG || rc_file(o.rc) == RF_VGPR); /* only fixed_fn's own */
		}
	}
	buf_free(&m);
	mfunc_free(f);
}

/* Instructions of f with op (and, if file >= 0, a def or use in that file). */
static int count_ops(const MFunc *f, MOp op)
{
	int n = 0;
	for (size_t bi = 0; bi < f->blocks.len; bi++)
		for (size_t i = 0; i < f->blocks.data[bi]->insts.len; i++)
			n += f->blocks.data[bi]->insts.data[i].op == op;
	return n;
}

START_TEST(out_of_registers_names_kernel_file_and_pressure)
{
	/* fixed registers cannot move: the value finds no room and nothing
	 * live there can be spilled */
	expect_pressure_error(fixed_fn("fixed", RC_V1), NULL,
		"out of vector registers: a value of 1 dword needs room where 256 of 256 are live, held by 256 fixed "
		"registers (kernel fixed, block 0, instruction 256); no value live there can be spilled");
	/* a tuple wider than the (capped) file */
	MFunc *f = pressure_fn("wide", rc_make(RF_VGPR, 16), 1);
	expect_pressure_error(f, &(RaLimits){.regs = {[RF_VGPR] = 8}},
		"out of vector registers: a value of 16 dwords needs room where 0 of 8 are live");
	/* past the 512 registers and 128 KiB of scratch per work-item */
	expect_pressure_error(pressure_fn("full", rc_make(RF_VGPR, 16), 2100), NULL,
		"and scratch memory is full (128 KiB per work-item)");
	/* exactly at the limit it fits */
	f = pressure_fn("vfull", RC_V1, 255);
	RegAssign ra = {0};
	alloc_clean(f, &ra);
	ck_assert_int_eq(f->nregs[RF_VGPR], 256);
	ck_assert_int_eq(f->nregs[RF_AGPR], 0);
	ck_assert_ptr_null(ra.orig); /* nothing spilled: nothing kept for the spill checker */
	regassign_free(&ra);
	mfunc_free(f);
	/* SGPRs past the 102 go to lanes of a VGPR (zeroed at the start),
	 * written after the def and read back before the use */
	f = pressure_fn("sspill", RC_S1, 120);
	alloc_clean(f, &ra);
	ck_assert_int_le(f->nregs[RF_SGPR], 102);
	ck_assert_int_eq(f->blocks.data[0]->insts.data[0].op, I_V_MOV_B32);
	int wl = 0, rl = 0;
	for (size_t i = 0; i < f->blocks.data[0]->insts.len; i++) {
		const MInst *in = &f->blocks.data[0]->insts.data[i];
		wl += in->op == I_V_WRITELANE_B32 && (in->flags & MIF_TIED) && (in->flags & MIF_SPILL);
		rl += in->op == I_V_READLANE_B32 && (in->flags & MIF_SPILL);
	}
	ck_assert_int_eq(wl, rl);
	ck_assert_int_ge(wl, 120 - 102);
	ck_assert_ptr_nonnull(ra.orig);
	regassign_free(&ra);
	mfunc_free(f);
	/* past it, the values live longest without use move to AGPRs, each
	 * read back into a VGPR where it is used; the checker passes */
	f = pressure_fn("vspill", RC_V1, 300);
	alloc_clean(f, &ra);
	ck_assert_int_le(f->nregs[RF_VGPR], 256);
	ck_assert_int_ge(f->nregs[RF_AGPR], 300 - 256);
	int reads = count_ops(f, I_V_ACCVGPR_READ_B32), writes = count_ops(f, I_V_ACCVGPR_WRITE_B32);
	ck_assert_int_eq(reads, writes); /* each spilled value written once, read once */
	ck_assert_int_ge(writes, 300 - 256);
	ck_assert_int_eq(f->scratch_bytes, 0);
	regassign_free(&ra);
	mfunc_free(f);
}
END_TEST

/* Past the VGPRs and the AGPRs, values go to scratch memory: on gfx942
 * through architected flat scratch (scratch_* with no address registers),
 * on gfx90a through the private segment buffer V#, the inputs 4 SGPRs up;
 * each spilled value stored once after its def and loaded once before its
 * use; both checkers pass. */
START_TEST(scratch_spills_past_the_agprs)
{
	for (int g = 0; g < 2; g++) {
		const Target *t = g ? &target_gfx90a : &target_gfx942;
		for (int tuple = 0; tuple < 2; tuple++) {
			RegClass rc = tuple ? rc_make(RF_VGPR, 4) : RC_V1;
			int n = tuple ? 150 : 600, dw = n * rc_size(rc);
			MFunc *f = pressure_fn("press", rc, n);
			f->target = t;
			/* the kernarg pointer, as isel copies it */
			uint32_t ka = mfunc_vreg(f, RC_S2);
			MInst in = {.op = I_S_MOV_B64, .ndef = 1, .nuse = 1, .vmcnt = -1, .lgkmcnt = -1, .target = -1};
			in.def[0] = mo_vreg(ka, RC_S2);
			in.use[0] = mo_preg(0, RC_S2);
			mblock_insert(f->blocks.data[0], 0, in);
			MBlock *b = f->blocks.data[0];
			b->insts.len--; /* s_endpgm last again */
			MOpnd sd = mo_vreg(mfunc_vreg(f, RC_S1), RC_S1), su[2] = {mo_vreg(ka, RC_S2), mo_imm(0)};
			mblock_add(b, I_S_LOAD_DWORD, 1, &sd, 2, su);
			mblock_add(b, I_S_ENDPGM, 0, NULL, 0, NULL);
			f->input_sgprs = 3;
			RegAssign ra = {0};
			alloc_clean(f, &ra);
			ck_assert_ptr_nonnull(ra.orig);
			ck_assert_int_gt(ra.scratch_values, 0);
			ck_assert_int_eq(f->scratch_bytes, 4 * ra.scratch_dwords);
			ck_assert_int_ge(ra.scratch_dwords, dw - 512);
			MOp ld = g ? I_BUFFER_LOAD_DWORD : I_SCRATCH_LOAD_DWORD, st = g ? I_BUFFER_STORE_DWORD : I_SCRATCH_STORE_DWORD;
			/* each spilled dword stored once after its def (one dword
			 * each) and loaded where read (one dword each) */
			int loads = count_ops(f, ld), stores = count_ops(f, st);
			ck_assert_int_eq(stores, ra.scratch_dwords);
			ck_assert_int_ge(loads, ra.scratch_values);
			/* gfx90a: the V# set up from s[0:3] and the wave's offset in s7
			 * (after the 3 inputs), the kernarg pointer read from s[4:5] */
			const MInst *e = b->insts.data;
			if (g) {
				ck_assert_int_eq(f->scratch_wave_sgpr, 7);
				ck_assert_int_eq(e[0].op, I_S_ADD_U32);
				ck_assert_int_eq(e[0].use[0].reg, 0);
				ck_assert_int_eq(e[0].use[1].reg, 7);
				ck_assert_int_eq(e[1].op, I_S_ADDC_U32);
				ck_assert_int_eq(e[2].op, I_S_MOV_B64);
				ck_assert_int_eq(e[3].op, I_S_MOV_B64);
				ck_assert_int_eq(e[3].use[0].reg, 4);
			} else {
				ck_assert_int_eq(f->scratch_wave_sgpr, 0);
				ck_assert_int_eq(e[0].use[0].reg, 0);
			}
			regassign_free(&ra);
			mfunc_free(f);
		}
	}
}
END_TEST

/* Register files capped (RaLimits, for small spill tests): a value past
 * 4 VGPRs goes to the 2 AGPRs and past those to scratch. */
START_TEST(capped_files_spill_early)
{
	MFunc *f = pressure_fn("capped", RC_V1, 10);
	RegAssign ra = {0};
	Buf m = {0};
	ck_assert_int_eq(regalloc_mfunc_limits(f, &(RaLimits){.regs = {[RF_VGPR] = 4, [RF_AGPR] = 2}}, &ra, &m), 0);
	ck_assert_int_le(f->nregs[RF_VGPR], 4);
	ck_assert_int_le(f->nregs[RF_AGPR], 2);
	ck_assert_int_gt(f->scratch_bytes, 0);
	ck_assert_int_eq(regalloc_check(ra.pre, ra.phys, f, &m), 0);
	ck_assert_msg(regalloc_check_spills(ra.orig, f, &m) == 0, "%s", buf_cstr(&m));
	regassign_free(&ra);
	mfunc_free(f);
	buf_free(&m);
}
END_TEST

/* A unified cap (RaLimits.unified: several waves on a SIMD): 8 AGPR
 * values and 12 VGPR values live at once under a cap of 16 registers.
 * The VGPRs stop where the AGPRs leave room (16 - 8), the overflow goes
 * to scratch (an AGPR home would take the room a VGPR gives up), and the
 * 4-aligned VGPRs plus the AGPRs stay within the cap. */
START_TEST(unified_cap_spills_to_scratch)
{
	MFunc *f = mfunc_new("unified", &target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	uint32_t a[8], v[12];
	for (int k = 0; k < 8; k++) {
		a[k] = mfunc_vreg(f, rc_make(RF_AGPR, 1));
		i1(b, I_V_ACCVGPR_WRITE_B32, mo_vsub(a[k], 0, rc_make(RF_AGPR, 1)), mo_imm(k));
	}
	for (int k = 0; k < 12; k++) {
		v[k] = mfunc_vreg(f, RC_V1);
		i1(b, I_V_MOV_B32, vv(v[k]), mo_imm(100 + k));
	}
	for (int k = 1; k < 12; k++)
		i2(b, I_V_ADD_U32, vv(v[0]), vv(v[0]), vv(v[k]));
	for (int k = 0; k < 8; k++) {
		uint32_t t = mfunc_vreg(f, RC_V1);
		i1(b, I_V_ACCVGPR_READ_B32, vv(t), mo_vsub(a[k], 0, rc_make(RF_AGPR, 1)));
		i2(b, I_V_ADD_U32, vv(v[0]), vv(v[0]), vv(t));
	}
	mblock_add(b, I_S_ENDPGM, 0, NULL, 0, NULL);
	RegAssign ra = {0};
	Buf m = {0};
	ck_assert_int_eq(regalloc_mfunc_limits(f, &(RaLimits){.unified = 16}, &ra, &m), 0);
	ck_assert_int_le((f->nregs[RF_VGPR] + 3) / 4 * 4 + f->nregs[RF_AGPR], 16);
	ck_assert_int_eq(f->nregs[RF_AGPR], 8);
	ck_assert_int_eq(ra.spills, 0);
	ck_assert_int_gt(ra.scratch_values, 0);
	ck_assert_int_gt(f->scratch_bytes, 0);
	ck_assert_msg(regalloc_check(ra.pre, ra.phys, f, &m) == 0, "%s", buf_cstr(&m));
	ck_assert_msg(regalloc_check_spills(ra.orig, f, &m) == 0, "%s", buf_cstr(&m));
	regassign_free(&ra);
	mfunc_free(f);
	buf_free(&m);
}
END_TEST

START_TEST(pipeline_entry_reports_through_compile_error)
{
	Kernel *k = kernel_new("press");
	k->file = "press.json";
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	Diag d;
	diag_init(&d);
	d.out = mem;
	Compile c;
	compile_init(&c, k, &(CompileOptions){0}, &d);
	c.mf = fixed_fn("press", RC_V1); /* no room, nothing to spill */
	allocate_registers(&c);
	fflush(mem);
	ck_assert(compile_failed(&c));
	ck_assert_ptr_null(c.ra);
	ck_assert_msg(strstr(text, "press.json: error: out of vector registers: a value of 1 dword needs room where "
				   "256 of 256"),
		"%s", text);
	compile_free(&c);
	/* success: the kept copy is checked and released by check_allocation */
	compile_init(&c, k, &(CompileOptions){0}, &d);
	c.mf = loop_fn(&target_gfx942).f;
	allocate_registers(&c);
	ck_assert(!compile_failed(&c));
	ck_assert_ptr_nonnull(c.ra);
	Buf m = {0};
	ck_assert_int_eq(check_allocation(&c, &m), 0);
	ck_assert_ptr_null(c.ra);
	ck_assert_int_eq(check_allocation(&c, &m), 0);
	buf_free(&m);
	compile_free(&c);
	fclose(mem);
	free(text);
	kernel_free(k);
}
END_TEST

/* ---- the spill checker ---- */

/* Values %0..%5 defined, each redefined (read, then written), then all
 * summed: with 3 VGPRs and 1 AGPR some live in AGPRs and scratch. */
static MFunc *redef_fn(const Target *t)
{
	MFunc *f = mfunc_new("redef", t);
	MBlock *b = mfunc_block(f, NULL);
	uint32_t v[6];
	for (int k = 0; k < 6; k++) {
		v[k] = mfunc_vreg(f, RC_V1);
		i1(b, I_V_MOV_B32, vv(v[k]), mo_imm(k + 1));
	}
	for (int k = 0; k < 6; k++)
		i2(b, I_V_ADD_U32, vv(v[k]), vv(v[k]), mo_imm(10));
	for (int k = 1; k < 6; k++)
		i2(b, I_V_ADD_U32, vv(v[0]), vv(v[0]), vv(v[k]));
	mblock_add(b, I_S_ENDPGM, 0, NULL, 0, NULL);
	return f;
}

/* f allocated with files capped (clean), its orig kept in *ra. */
static void alloc_capped(MFunc *f, RegAssign *ra, int v, int a, int sg)
{
	Buf m = {0};
	ck_assert_int_eq(regalloc_mfunc_limits(f, &(RaLimits){.regs = {[RF_SGPR] = sg, [RF_VGPR] = v, [RF_AGPR] = a}}, ra,
				 &m), 0);
	ck_assert_ptr_nonnull(ra->orig);
	ck_assert_msg(regalloc_check(ra->pre, ra->phys, f, &m) == 0, "%s", buf_cstr(&m));
	ck_assert_msg(regalloc_check_spills(ra->orig, f, &m) == 0, "%s", buf_cstr(&m));
	buf_free(&m);
}

/* The n-th instruction of block 0 with op (n from 0), or NULL. */
static MInst *nth_op(MFunc *f, MOp op, int n)
{
	MBlock *b = f->blocks.data[0];
	for (size_t i = 0; i < b->insts.len; i++)
		if (b->insts.data[i].op == op && n-- == 0)
			return &b->insts.data[i];
	return NULL;
}

static void expect_spill_error(const RegAssign *ra, const MFunc *f, const char *want)
{
	Buf m = {0};
	ck_assert_int_gt(regalloc_check_spills(ra->orig, f, &m), 0);
	ck_assert_msg(strstr(buf_cstr(&m), want), "wanted '%s' in:\n%s", want, buf_cstr(&m));
	buf_free(&m);
}

START_TEST(spill_checker_catches_wrong_reloads)
{
	RegAssign ra = {0};
	/* a reload from another value's slot */
	MFunc *f = redef_fn(&target_gfx942);
	alloc_capped(f, &ra, 3, 1, 0);
	MInst *ld = nth_op(f, I_SCRATCH_LOAD_DWORD, 0);
	ck_assert_ptr_nonnull(ld);
	ck_assert_int_gt(f->scratch_bytes, 4);
	ld->offset = ld->offset ? 0 : 4;
	expect_spill_error(&ra, f, "which holds %");
	/* ... and from past the scratch bytes */
	ld->offset = f->scratch_bytes;
	expect_spill_error(&ra, f, "outside the");
	regassign_free(&ra);
	mfunc_free(f);
	/* a store left out after a redefinition: the slot's copy is stale */
	f = redef_fn(&target_gfx942);
	alloc_capped(f, &ra, 3, 1, 0);
	MBlock *b = f->blocks.data[0];
	size_t at = 0;
	for (size_t i = 1; i < b->insts.len && !at; i++)
		if (b->insts.data[i].op == I_SCRATCH_STORE_DWORD && b->insts.data[i - 1].op == I_V_ADD_U32 &&
			b->insts.data[i - 1].use[1].kind == MO_IMM)
			at = i;
	ck_assert_uint_gt(at, 0);
	memmove(&b->insts.data[at], &b->insts.data[at + 1], (b->insts.len - at - 1) * sizeof(MInst));
	b->insts.len--;
	expect_spill_error(&ra, f, "which holds nothing known");
	regassign_free(&ra);
	mfunc_free(f);
	/* an AGPR home read from the wrong AGPR */
	f = pressure_fn("agpr", RC_V1, 10);
	alloc_capped(f, &ra, 4, 3, 0);
	MInst *rd = nth_op(f, I_V_ACCVGPR_READ_B32, 0);
	ck_assert_ptr_nonnull(rd);
	rd->use[0].reg = (rd->use[0].reg + 1) % 3;
	expect_spill_error(&ra, f, "which holds");
	regassign_free(&ra);
	mfunc_free(f);
	/* an SGPR lane read from the wrong lane */
	f = pressure_fn("lanes", RC_S1, 20);
	alloc_capped(f, &ra, 0, 0, 8);
	MInst *rl = nth_op(f, I_V_READLANE_B32, 1);
	ck_assert_ptr_nonnull(rl);
	rl->use[1].imm = 63;
	expect_spill_error(&ra, f, "which holds nothing known");
	regassign_free(&ra);
	mfunc_free(f);
	/* gfx90a: a reload not through the scratch V# */
	f = redef_fn(&target_gfx90a);
	alloc_capped(f, &ra, 3, 1, 0);
	ld = nth_op(f, I_BUFFER_LOAD_DWORD, 0);
	ck_assert_ptr_nonnull(ld);
	ld->use[1].reg += 4;
	expect_spill_error(&ra, f, "not through the scratch V#");
	ld->use[1].reg -= 4;
	/* ... or a spill instruction that is no spill */
	ld->flags &= ~(uint32_t)MIF_SPILL;
	expect_spill_error(&ra, f, "not the kernel's instruction");
	regassign_free(&ra);
	mfunc_free(f);
}
END_TEST

/* ---- the checker ---- */

/* Move vreg v to register r in the map and in post's operands. */
static void move_vreg(RegAssign *ra, MFunc *post, uint32_t v, uint32_t r)
{
	ra->phys[v] = r;
	for (size_t bi = 0; bi < post->blocks.len; bi++)
		for (size_t i = 0; i < post->blocks.data[bi]->insts.len; i++) {
			const MInst *a = &ra->pre->blocks.data[bi]->insts.data[i];
			MInst *p = &post->blocks.data[bi]->insts.data[i];
			for (int k = 0; k < a->ndef + a->nuse; k++) {
				MOpnd o = k < a->ndef ? a->def[k] : a->use[k - a->ndef];
				if (o.kind == MO_VREG && o.reg == v)
					(k < a->ndef ? &p->def[k] : &p->use[k - a->ndef])->reg = r + o.sub;
			}
		}
}

static int check_msg(RegAssign *ra, MFunc *post, Buf *m)
{
	buf_clear(m);
	return regalloc_check(ra->pre, ra->phys, post, m);
}

START_TEST(checker_catches_wrong_assignments)
{
	LoopFn L = loop_fn(&target_gfx942);
	RegAssign ra = {0};
	alloc_clean(L.f, &ra);
	Buf m = {0};
	uint32_t keep = ra.phys[L.keep], t3 = ra.phys[L.t3], acc4 = ra.phys[L.acc4];
	/* a loop temporary in the register of a value live across the loop */
	move_vreg(&ra, L.f, L.t3, keep);
	ck_assert_int_gt(check_msg(&ra, L.f, &m), 0);
	char want[128];
	snprintf(want, sizeof want, "writes %%%u.0 into v%u while %%%u.0, which lives there too, is live", L.t3, keep,
		L.keep);
	ck_assert_msg(strstr(buf_cstr(&m), want), "%s", buf_cstr(&m));
	/* the straight-line mistake: t3 in the register of p, which the next
	 * iteration reads */
	move_vreg(&ra, L.f, L.t3, ra.phys[L.p]);
	ck_assert_int_gt(check_msg(&ra, L.f, &m), 0);
	snprintf(want, sizeof want, "while %%%u.0, which lives there too", L.p);
	ck_assert_msg(strstr(buf_cstr(&m), want), "%s", buf_cstr(&m));
	move_vreg(&ra, L.f, L.t3, t3);
	ck_assert_int_eq(check_msg(&ra, L.f, &m), 0);
	/* tid moved onto acc's v0: acc's first def clobbers tid */
	move_vreg(&ra, L.f, L.tid, 0);
	ck_assert_int_gt(check_msg(&ra, L.f, &m), 0);
	snprintf(want, sizeof want, "writes %%%u.0 into v0 while %%%u.0, which lives there too", L.acc, L.tid);
	ck_assert_msg(strstr(buf_cstr(&m), want), "%s", buf_cstr(&m));
	move_vreg(&ra, L.f, L.tid, 1);
	/* a misaligned tuple, and one past the counted registers */
	move_vreg(&ra, L.f, L.acc4, 1);
	ck_assert_int_gt(check_msg(&ra, L.f, &m), 0);
	ck_assert_msg(strstr(buf_cstr(&m), "at a1 is misaligned (needs a multiple of 2)"), "%s", buf_cstr(&m));
	ck_assert_msg(strstr(buf_cstr(&m), "at a1 is not counted in nregs (4)"), "%s", buf_cstr(&m));
	move_vreg(&ra, L.f, L.acc4, 254);
	ck_assert_int_gt(check_msg(&ra, L.f, &m), 0);
	ck_assert_msg(strstr(buf_cstr(&m), "at a254 runs past the file (256 registers)"), "%s", buf_cstr(&m));
	move_vreg(&ra, L.f, L.acc4, acc4);
	ck_assert_int_eq(check_msg(&ra, L.f, &m), 0);
	/* a post operand that is not the rewritten pre operand */
	MInst *in = &L.f->blocks.data[1]->insts.data[0];
	in->use[1].reg ^= 1;
	ck_assert_int_gt(check_msg(&ra, L.f, &m), 0);
	ck_assert_msg(strstr(buf_cstr(&m), "block 1 inst 0 (v_lshlrev_b32): operand 2 is not the allocated register"),
		"%s", buf_cstr(&m));
	in->use[1].reg ^= 1;
	ck_assert_int_eq(check_msg(&ra, L.f, &m), 0);
	buf_free(&m);
	regassign_free(&ra);
	mfunc_free(L.f);
}
END_TEST

START_TEST(empty_and_unreachable_blocks)
{
	/* b0: x = 5, i = 0; b1 (empty loop header) falls into b2: y = x + 1
	 * (dead), i++, loop to b1; b3: read x; b4 unreachable after s_endpgm
	 * reads an undefined value — mir_verify does not judge dead code */
	MFunc *f = mfunc_new("k", &target_gfx942);
	MBlock *b0 = mfunc_block(f, NULL), *b2, *b3, *b4;
	mfunc_block(f, ".Lhead");
	b2 = mfunc_block(f, NULL);
	b3 = mfunc_block(f, NULL);
	b4 = mfunc_block(f, NULL);
	uint32_t x = mfunc_vreg(f, RC_V1), i = mfunc_vreg(f, RC_S1), y = mfunc_vreg(f, RC_V1), z = mfunc_vreg(f, RC_V1);
	uint32_t u = mfunc_vreg(f, RC_V1);
	i1(b0, I_V_MOV_B32, vv(x), mo_imm(5));
	i1(b0, I_S_MOV_B32, sv(i), mo_imm(0));
	i2(b2, I_V_ADD_U32, vv(y), mo_imm(1), vv(x));
	i2(b2, I_S_ADD_U32, sv(i), sv(i), mo_imm(1));
	cmp(b2, I_S_CMP_LT_U32, sv(i), mo_imm(4));
	mblock_branch(b2, I_S_CBRANCH_SCC1, 1);
	i1(b3, I_V_MOV_B32, vv(z), vv(x));
	mblock_add(b3, I_S_ENDPGM, 0, NULL, 0, NULL);
	i1(b4, I_V_MOV_B32, vv(z), vv(u));
	MirLive lv;
	mir_live_fill(&lv, f);
	ck_assert(bs_get(lv.in + 1 * lv.words, lv.vbase[x]) && bs_get(lv.in + 1 * lv.words, lv.vbase[i]));
	mir_live_free(&lv);
	RaPositions ps;
	regalloc_positions_fill(&ps, f);
	ck_assert_int_eq(ps.bstart[1], ps.bend[1]); /* the empty block owns one position */
	regalloc_positions_free(&ps);
	RegAssign ra = {0};
	alloc_clean(f, &ra);
	ck_assert_uint_ne(ra.phys[y], ra.phys[x]);
	regassign_free(&ra);
	mfunc_free(f);
}
END_TEST

START_TEST(checker_catches_clobbered_fixed_registers)
{
	/* a = 1; b = a + v0: a must not take v0, which is read after a's def */
	MFunc *f = mfunc_new("fixed", &target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	uint32_t a = mfunc_vreg(f, RC_V1), c = mfunc_vreg(f, RC_V1);
	i1(b, I_V_MOV_B32, vv(a), mo_imm(1));
	i2(b, I_V_ADD_U32, vv(c), vv(a), mo_preg(0, RC_V1));
	RegAssign ra = {0};
	alloc_clean(f, &ra);
	ck_assert_uint_eq(ra.phys[a], 1);
	ck_assert_uint_eq(ra.phys[c], 2); /* v0 and v1 are read where c is written */
	Buf m = {0};
	move_vreg(&ra, f, a, 0);
	ck_assert_int_eq(check_msg(&ra, f, &m), 1);
	ck_assert_str_eq(buf_cstr(&m), "regalloc check: fixed: block 0 inst 0 (v_mov_b32): writes %0.0 into v0 while "
				       "fixed v0, which lives there too, is live\n");
	buf_free(&m);
	regassign_free(&ra);
	mfunc_free(f);
}
END_TEST

START_TEST(checker_catches_mfma_overlap)
{
	MFunc *f = mfunc_new("mfma", &target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	RegClass v4 = rc_make(RF_VGPR, 4);
	uint32_t a = mfunc_vreg(f, RC_V2), c = mfunc_vreg(f, v4), d = mfunc_vreg(f, v4), r = mfunc_vreg(f, RC_V1);
	for (int k = 0; k < 2; k++)
		i1(b, I_V_MOV_B32, mo_vsub(a, k, RC_V1), mo_imm(0));
	for (int k = 0; k < 4; k++)
		i1(b, I_V_MOV_B32, mo_vsub(c, k, RC_V1), mo_imm(0));
	i3(b, I_V_MFMA_F32_16X16X16_F16, mo_vreg(d, v4), mo_vreg(a, RC_V2), mo_vreg(a, RC_V2), mo_vreg(c, v4));
	i1(b, I_V_MOV_B32, vv(r), mo_vsub(d, 3, RC_V1));
	RegAssign ra = {0};
	alloc_clean(f, &ra);
	Buf m = {0};
	/* exactly srcC's registers: allowed (c is dead after the MFMA) */
	move_vreg(&ra, f, d, ra.phys[c]);
	ck_assert_msg(check_msg(&ra, f, &m) == 0, "%s", buf_cstr(&m));
	/* half over srcC */
	move_vreg(&ra, f, d, ra.phys[c] + 2);
	ck_assert_int_gt(check_msg(&ra, f, &m), 0);
	ck_assert_msg(strstr(buf_cstr(&m), "MFMA result v4..7 overlaps source 2 (v2..5)"), "%s", buf_cstr(&m));
	/* over srcA */
	move_vreg(&ra, f, d, 0);
	ck_assert_int_gt(check_msg(&ra, f, &m), 0);
	ck_assert_msg(strstr(buf_cstr(&m), "MFMA result v0..3 overlaps source 0 (v0..1)"), "%s", buf_cstr(&m));
	buf_free(&m);
	regassign_free(&ra);
	mfunc_free(f);
}
END_TEST

/* ---- scale ---- */

/* `nb` self-loops of `per` instructions pairs each: t = acc + keep;
 * acc = t + 1 — a fresh vreg per pair, acc and keep carried around every
 * loop, a counter per loop (set in the entry block: live until its loop
 * ends). About 2 x nb x per instructions, nb x per vregs. */
static MFunc *loops_fn(int nb, int per, uint32_t *keep, uint32_t *acc)
{
	MFunc *f = mfunc_new("loops", &target_gfx942);
	MBlock *b0 = mfunc_block(f, NULL);
	*keep = mfunc_vreg(f, RC_V1);
	*acc = mfunc_vreg(f, RC_V1);
	i1(b0, I_V_MOV_B32, vv(*keep), mo_imm(5));
	i1(b0, I_V_MOV_B32, vv(*acc), mo_imm(0));
	for (int l = 0; l < nb; l++) {
		MBlock *b = mfunc_block(f, NULL);
		int self = (int)f->blocks.len - 1;
		uint32_t cnt = mfunc_vreg(f, RC_S1);
		i1(b0, I_S_MOV_B32, sv(cnt), mo_imm(0));
		for (int j = 0; j < per; j++) {
			uint32_t t = mfunc_vreg(f, RC_V1);
			i2(b, I_V_ADD_U32, vv(t), vv(*acc), vv(*keep));
			i2(b, I_V_ADD_U32, vv(*acc), vv(t), mo_imm(1));
		}
		i2(b, I_S_ADD_U32, sv(cnt), sv(cnt), mo_imm(1));
		cmp(b, I_S_CMP_LT_U32, sv(cnt), mo_imm(3));
		mblock_branch(b, I_S_CBRANCH_SCC1, self);
	}
	MBlock *e = mfunc_block(f, NULL);
	uint32_t r = mfunc_vreg(f, RC_V1);
	i2(e, I_V_ADD_U32, vv(r), vv(*acc), vv(*keep));
	mblock_add(e, I_S_ENDPGM, 0, NULL, 0, NULL);
	return f;
}

START_TEST(checker_memory_is_near_linear)
{
	/* 300,000 instructions and 150,000 vregs: a per-instruction table of
	 * live slots would take 300,000 x 150,000 bits (5.6 GB; a 100,000-op
	 * graph ran out of memory there). Allocation and check must stay
	 * within a few seconds, and the checker must still catch a clash. */
	uint32_t keep, acc;
	MFunc *f = loops_fn(50, 3000, &keep, &acc);
	ck_assert_uint_gt(f->vregs.len, 150000);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	RegAssign ra = {0};
	alloc_clean(f, &ra);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	ck_assert_msg(secs < 10, "allocating and checking took %.1f s", secs);
	/* the peak of this process (Check forks one per test): about 80 MB,
	 * where the old checker's table reached 5.6 GB */
	struct rusage ru;
	ck_assert_int_eq(getrusage(RUSAGE_SELF, &ru), 0);
	ck_assert_msg(ru.ru_maxrss < 1024 * 1024, "peak memory %ld kB", ru.ru_maxrss);
	/* one temporary in keep's register: it is written while keep is live
	 * (keep is read in every loop, around every back edge) */
	uint32_t t = 2003; /* the first loop's counter is %2, its temporaries %3..%3002 */
	ck_assert_int_eq(f->vregs.data[t], RC_V1);
	uint32_t was = ra.phys[t];
	move_vreg(&ra, f, t, ra.phys[keep]);
	Buf m = {0};
	ck_assert_int_gt(check_msg(&ra, f, &m), 0);
	char want[128];
	snprintf(want, sizeof want, "writes %%%u.0 into v%u while %%%u.0, which lives there too, is live", t,
		ra.phys[keep], keep);
	ck_assert_msg(strstr(buf_cstr(&m), want), "%s", buf_cstr(&m));
	move_vreg(&ra, f, t, was);
	ck_assert_int_eq(check_msg(&ra, f, &m), 0);
	buf_free(&m);
	regassign_free(&ra);
	mfunc_free(f);
}
END_TEST

/* ---- mir_verify over the CFG ---- */

static const char *verify_msg(MFunc *f, Buf *m)
{
	buf_clear(m);
	mir_verify(f, m);
	return buf_cstr(m);
}

START_TEST(verify_definitions_on_every_path)
{
	/* b0: if (scc) goto b2; b1: x = 1; b2: read x — undefined on the b0→b2 path */
	MFunc *f = mfunc_new("k", &target_gfx942);
	MBlock *b0 = mfunc_block(f, NULL), *b1 = mfunc_block(f, NULL), *b2 = mfunc_block(f, NULL);
	uint32_t s = mfunc_vreg(f, RC_S1), x = mfunc_vreg(f, RC_V1), y = mfunc_vreg(f, RC_V1);
	i1(b0, I_S_MOV_B32, sv(s), mo_imm(3));
	cmp(b0, I_S_CMP_LT_U32, sv(s), mo_imm(5));
	mblock_branch(b0, I_S_CBRANCH_SCC1, 2);
	i1(b1, I_V_MOV_B32, vv(x), mo_imm(1));
	i1(b2, I_V_MOV_B32, vv(y), vv(x));
	mblock_add(b2, I_S_ENDPGM, 0, NULL, 0, NULL);
	Buf m = {0};
	ck_assert_str_eq(verify_msg(f, &m), "mir verify: k: block 2 inst 0 (v_mov_b32): reads %1 (dword 0) before any "
					    "definition on some path from the entry\n");
	/* define x before the branch too: clean */
	MInst def = f->blocks.data[1]->insts.data[0];
	mblock_insert(b0, 0, def);
	ck_assert_str_eq(verify_msg(f, &m), "");
	buf_free(&m);
	mfunc_free(f);

	/* loop: x read at the top, defined at the bottom only: undefined on the first iteration */
	f = mfunc_new("k", &target_gfx942);
	b0 = mfunc_block(f, NULL);
	b1 = mfunc_block(f, NULL);
	s = mfunc_vreg(f, RC_S1);
	x = mfunc_vreg(f, RC_V1);
	y = mfunc_vreg(f, RC_V1);
	i1(b0, I_S_MOV_B32, sv(s), mo_imm(0));
	i1(b1, I_V_MOV_B32, vv(y), vv(x));
	i1(b1, I_V_MOV_B32, vv(x), mo_imm(1));
	i2(b1, I_S_ADD_U32, sv(s), sv(s), mo_imm(1));
	cmp(b1, I_S_CMP_LT_U32, sv(s), mo_imm(5));
	mblock_branch(b1, I_S_CBRANCH_SCC1, 1);
	ck_assert_msg(strstr(verify_msg(f, &m), "block 1 inst 0 (v_mov_b32): reads %1 (dword 0)"), "%s", buf_cstr(&m));
	/* defined before the loop: the loop-carried value is fine */
	mblock_insert(b0, 0, f->blocks.data[1]->insts.data[1]);
	ck_assert_str_eq(verify_msg(f, &m), "");
	buf_free(&m);
	mfunc_free(f);
}
END_TEST

START_TEST(verify_tuple_dwords_and_tied_defs)
{
	MFunc *f = mfunc_new("k", &target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	uint32_t q = mfunc_vreg(f, RC_S4), v = mfunc_vreg(f, RC_V1), o = mfunc_vreg(f, RC_V1);
	for (int k = 0; k < 3; k++)
		i1(b, I_S_MOV_B32, mo_vsub(q, k, RC_S1), mo_imm(k));
	i1(b, I_V_MOV_B32, vv(o), mo_imm(0));
	/* a d16_hi load keeps v's low half: v must be defined before */
	MInst *ld = mblock_add(b, I_BUFFER_LOAD_SHORT_D16_HI, 1, (MOpnd[]){vv(v)}, 3,
		(MOpnd[]){vv(o), mo_vreg(q, RC_S4), mo_imm(0)});
	ld->flags |= MIF_OFFEN | MIF_TIED;
	Buf m = {0};
	const char *t = verify_msg(f, &m);
	/* the descriptor's dword 3 was never written; dwords 0..2 were */
	ck_assert_msg(strstr(t, "block 0 inst 4 (buffer_load_short_d16_hi): reads %0 (dword 3)"), "%s", t);
	ck_assert_msg(strstr(t, "reads %1 (dword 0) before any definition"), "%s", t); /* the tied def */
	ck_assert_int_eq(mir_verify(f, &m), 2);
	/* sub-register outside its vreg, and in the wrong file */
	i1(b, I_S_MOV_B32, mo_vsub(q, 4, RC_S1), mo_imm(0));
	i1(b, I_V_MOV_B32, vv(o), mo_vreg(q, RC_V1));
	t = verify_msg(f, &m);
	ck_assert_msg(strstr(t, "inst 5 (s_mov_b32): writes outside any virtual register"), "%s", t);
	ck_assert_msg(strstr(t, "inst 6 (v_mov_b32): reads outside any virtual register"), "%s", t);
	buf_free(&m);
	mfunc_free(f);
}
END_TEST

START_TEST(verify_branch_targets)
{
	MFunc *f = mfunc_new("k", &target_gfx942);
	MBlock *b0 = mfunc_block(f, NULL);
	mfunc_block(f, NULL);
	mblock_branch(b0, I_S_BRANCH, 2);
	Buf m = {0};
	ck_assert_str_eq(verify_msg(f, &m), "mir verify: k: block 0 inst 0 (s_branch): branch target is not a block index\n");
	b0->insts.data[0].target = 1;
	ck_assert_str_eq(verify_msg(f, &m), "");
	mblock_add(b0, I_S_ENDPGM, 0, NULL, 0, NULL);
	ck_assert_str_eq(verify_msg(f, &m),
		"mir verify: k: block 0 inst 0 (s_branch): branch is not the last instruction of its block\n");
	buf_free(&m);
	mfunc_free(f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("regalloc");
	TCase *t = tcase_create("core");
	tcase_add_test(t, liveness_carries_values_around_the_back_edge);
	tcase_add_test(t, liveness_partial_defs_kill_only_their_dwords);
	tcase_add_test(t, loop_values_keep_their_registers);
	tcase_add_test(t, tuples_are_aligned);
	tcase_add_test(t, mfma_result_avoids_its_sources);
	tcase_add_test(t, out_of_registers_names_kernel_file_and_pressure);
	tcase_add_test(t, scratch_spills_past_the_agprs);
	tcase_add_test(t, capped_files_spill_early);
	tcase_add_test(t, unified_cap_spills_to_scratch);
	tcase_add_test(t, pipeline_entry_reports_through_compile_error);
	tcase_add_test(t, empty_and_unreachable_blocks);
	tcase_add_test(t, checker_catches_wrong_assignments);
	tcase_add_test(t, spill_checker_catches_wrong_reloads);
	tcase_add_test(t, checker_catches_clobbered_fixed_registers);
	tcase_add_test(t, checker_catches_mfma_overlap);
	tcase_add_test(t, verify_definitions_on_every_path);
	tcase_add_test(t, verify_tuple_dwords_and_tied_defs);
	tcase_add_test(t, verify_branch_targets);
	suite_add_tcase(s, t);
	TCase *big = tcase_create("scale");
	tcase_set_timeout(big, 120);
	tcase_add_test(big, checker_memory_is_near_linear);
	suite_add_tcase(s, big);
	TCase *e = tcase_create("emulator");
	tcase_set_timeout(e, 60);
	kernel_tests(e);
	suite_add_tcase(s, e);
	return run_suite(s);
}
