/* spill_forward_test.c — spill.c's reload forwarding (forward_reloads):
 * a reload of a scratch slot a store or load just before left in a
 * register becomes a register move, and the move must be the one the
 * instruction set has for that pair of files: v_mov_b32 (VGPR to VGPR),
 * v_accvgpr_read_b32 (AGPR to VGPR), v_accvgpr_write_b32 (VGPR to AGPR)
 * and v_accvgpr_mov_b32 (AGPR to AGPR: v_accvgpr_write takes no AGPR
 * source, llvm-mc rejects `v_accvgpr_write_b32 a1, a2`). An outside
 * mutant (tests/mutants/mutants.sh) that made the AGPR-to-AGPR move a
 * v_accvgpr_write passed every other suite: no compiled kernel forwards
 * an AGPR reload into an AGPR. Here AGPR values pass their cap, go to
 * scratch, and each is read twice in a row into AGPRs. */
#include "../test.h"
#include "regalloc_test.h"

static MOpnd av(uint32_t v) { return mo_vsub(v, 0, rc_make(RF_AGPR, 1)); }

START_TEST(agpr_reload_forwarded_by_accvgpr_mov)
{
	MFunc *f = mfunc_new("forward", &target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	enum { N = 6 };
	uint32_t a[N], c[N], d[N];
	for (int k = 0; k < N; k++) {
		a[k] = mfunc_vreg(f, rc_make(RF_AGPR, 1));
		i1(b, I_V_ACCVGPR_WRITE_B32, av(a[k]), mo_imm(k + 1));
	}
	for (int k = 0; k < N; k++) {
		c[k] = mfunc_vreg(f, rc_make(RF_AGPR, 1));
		d[k] = mfunc_vreg(f, rc_make(RF_AGPR, 1));
		i1(b, I_V_ACCVGPR_MOV_B32, av(c[k]), av(a[k]));
		i1(b, I_V_ACCVGPR_MOV_B32, av(d[k]), av(a[k]));
	}
	uint32_t sum = mfunc_vreg(f, RC_V1);
	i1(b, I_V_MOV_B32, vv(sum), mo_imm(0));
	for (int k = 0; k < N; k++) {
		uint32_t t = mfunc_vreg(f, RC_V1), u = mfunc_vreg(f, RC_V1);
		i1(b, I_V_ACCVGPR_READ_B32, vv(t), av(c[k]));
		i1(b, I_V_ACCVGPR_READ_B32, vv(u), av(d[k]));
		i2(b, I_V_ADD_U32, vv(sum), vv(sum), vv(t));
		i2(b, I_V_ADD_U32, vv(sum), vv(sum), vv(u));
	}
	mblock_add(b, I_S_ENDPGM, 0, NULL, 0, NULL);
	RegAssign ra = {0};
	Buf m = {0};
	ck_assert_msg(regalloc_mfunc_limits(f, &(RaLimits){.regs = {[RF_VGPR] = 8, [RF_AGPR] = 3}}, &ra, &m) == 0, "%s",
		buf_cstr(&m));
	ck_assert_int_gt(f->scratch_bytes, 0);
	ck_assert_msg(regalloc_check(ra.pre, ra.phys, f, &m) == 0, "%s", buf_cstr(&m));
	ck_assert_msg(regalloc_check_spills(ra.orig, f, &m) == 0, "%s", buf_cstr(&m));
	int forwarded = 0;
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		const MBlock *bb = f->blocks.data[bi];
		for (size_t i = 0; i < bb->insts.len; i++) {
			const MInst *in = &bb->insts.data[i];
			bool agpr_src = in->nuse > 0 && in->use[0].kind == MO_PREG && rc_file(in->use[0].rc) == RF_AGPR;
			ck_assert_msg(!(in->op == I_V_ACCVGPR_WRITE_B32 && agpr_src),
				"block %zu inst %zu: v_accvgpr_write_b32 from an AGPR (not encodable)", bi, i);
			ck_assert_msg(!(in->op == I_V_MOV_B32 && agpr_src), "block %zu inst %zu: v_mov_b32 from an AGPR", bi, i);
			if ((in->flags & MIF_SPILL) && in->op == I_V_ACCVGPR_MOV_B32 && agpr_src)
				forwarded++;
		}
	}
	/* the path under test ran: reloads became AGPR-to-AGPR moves */
	ck_assert_int_gt(forwarded, 0);
	regassign_free(&ra);
	mfunc_free(f);
	buf_free(&m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("spill_forward");
	TCase *t = tcase_create("forward");
	tcase_add_test(t, agpr_reload_forwarded_by_accvgpr_mov);
	suite_add_tcase(s, t);
	return s;
}

int main(void) { return run_suite(suite()); }
