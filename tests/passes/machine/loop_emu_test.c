/* loop_emu_test.c — one software-pipelined MFMA loop kernel, built by hand
 * as allocated machine IR, taken through insert_waitcnt and
 * resolve_hazards, checked by both checkers, printed, assembled by
 * llvm-mc-19 and run on wavecc's emulator (the emulator cannot see timing:
 * this proves the passes' output is well-formed code that computes the
 * right thing, the checkers prove the timing).
 *
 * The kernel: a[0:3] += A_k * B_k with v_mfma_f32_16x16x16_f16 for k < K,
 * the fragments of k + 1 loaded at the end of iteration k (so the loop top
 * needs its wait over the back edge), then D stored through
 * v_accvgpr_read (an MFMA → VALU hazard across the loop exit). Lane l's A
 * fragment is (l % 16 + 1)·(k + 1) in all four halves, its B fragment
 * l % 16 + 1, so by the MFMA lane layouts (AMD's Matrix Instruction Calculator) D[i][j] =
 * 16·(i + 1)·(j + 1)·Σ(k + 1). The emulator suite's harness is reused. */
#include <string.h>

#include "../../../util/dtype.h"
#include "../../loader/emu/emu_harness.c"
#include "mfb.h"

enum { K = 4 };

static MFunc *build(void)
{
	MFunc *f = mfb_new(&target_gfx942);
	MBlock *b0 = mfunc_block(f, NULL), *b1 = mfunc_block(f, ".Lk"), *b2 = mfunc_block(f, NULL);
	emit(b0, I_S_LOAD_DWORDX4, OPS(SN(4, 4)), OPS(SN(0, 2), IMM(0)));
	emit(b0, I_S_LOAD_DWORDX2, OPS(SN(8, 2)), OPS(SN(0, 2), IMM(16)));
	emit(b0, I_V_AND_B32, OPS(V(0)), OPS(IMM(0x3ff), V(0)));
	emit(b0, I_V_LSHLREV_B32, OPS(V(1)), OPS(IMM(3), V(0)));
	emit(b0, I_S_MOV_B32, OPS(S(20)), OPS(IMM(K)));
	emit(b0, I_V_MOV_B32, OPS(V(6)), OPS(IMM(0)));
	for (unsigned r = 0; r < 4; r++)
		emit(b0, I_V_ACCVGPR_WRITE_B32, OPS(AN(r, 1)), OPS(V(6)));
	emit(b0, I_GLOBAL_LOAD_DWORDX2, OPS(VN(2, 2)), OPS(V(1), SN(4, 2)));
	emit(b0, I_GLOBAL_LOAD_DWORDX2, OPS(VN(4, 2)), OPS(V(1), SN(6, 2)));
	emit(b1, I_S_ADD_U32, OPS(S(4)), OPS(S(4), IMM(512)));
	emit(b1, I_S_ADDC_U32, OPS(S(5)), OPS(S(5), IMM(0)));
	emit(b1, I_S_ADD_U32, OPS(S(6)), OPS(S(6), IMM(512)));
	emit(b1, I_S_ADDC_U32, OPS(S(7)), OPS(S(7), IMM(0)));
	emit(b1, I_V_MFMA_F32_16X16X16_F16, OPS(AN(0, 4)), OPS(VN(2, 2), VN(4, 2), AN(0, 4)));
	emit(b1, I_GLOBAL_LOAD_DWORDX2, OPS(VN(2, 2)), OPS(V(1), SN(4, 2)));
	emit(b1, I_GLOBAL_LOAD_DWORDX2, OPS(VN(4, 2)), OPS(V(1), SN(6, 2)));
	emit(b1, I_S_SUB_U32, OPS(S(20)), OPS(S(20), IMM(1)));
	emit(b1, I_S_CMP_LG_U32, NONE, OPS(S(20), IMM(0)));
	mblock_branch(b1, I_S_CBRANCH_SCC1, 1);
	for (unsigned r = 0; r < 4; r++)
		emit(b2, I_V_ACCVGPR_READ_B32, OPS(V(8 + r)), OPS(AN(r, 1)));
	emit(b2, I_V_LSHLREV_B32, OPS(V(1)), OPS(IMM(4), V(0)));
	emit(b2, I_GLOBAL_STORE_DWORDX4, NONE, OPS(V(1), VN(8, 4), SN(8, 2)));
	return f;
}

START_TEST(pipelined_mfma_loop)
{
	MFunc *f = build();
	Buf m = {0};
	ck_assert_int_gt(check_waitcnt(f, &m) + check_hazards(f, &m), 0);
	buf_clear(&m);
	run_waitcnt(f);
	run_hazards(f);
	int bad = check_waitcnt(f, &m) + check_hazards(f, &m) + mir_verify(f, &m);
	ck_assert_msg(bad == 0, "%s\n%s", buf_cstr(&m), mfb_text(f));
	buf_free(&m);
	/* The MFMA waits for both fragments (vmcnt(0)): over the back edge they
	 * are the newest loads. The exit reads D after the 5 wait states of
	 * the two loads, s_sub, s_cmp and the branch, plus 2 s_nop states (7
	 * for a 4-pass XDL MFMA on gfx942). */
	const MInst *top = &f->blocks.data[1]->insts.data[4];
	ck_assert_msg(top->op == I_S_WAITCNT && top->vmcnt == 0 && top->lgkmcnt == -1, "%s", mfb_text(f));
	ck_assert_msg(nops_before(f, 2, 1) == 2, "%s", mfb_text(f));

	Buf body = {0};
	mir_print(&body, f);
	Harness h;
	h_init(&h, buf_cstr(&body));
	buf_free(&body);
	static uint32_t a[K + 1][64][2], b[K + 1][64][2];
	static float out[64][4];
	for (int k = 0; k <= K; k++)
		for (int l = 0; l < 64; l++) {
			uint32_t ha = dtype_f32_to_f16((float)((l % 16 + 1) * (k + 1))), hb = dtype_f32_to_f16((float)(l % 16 + 1));
			a[k][l][0] = a[k][l][1] = ha | ha << 16;
			b[k][l][0] = b[k][l][1] = hb | hb << 16;
		}
	h_buffer(&h, a, sizeof a, 0, false);
	h_buffer(&h, b, sizeof b, 8, false);
	h_buffer(&h, out, sizeof out, 16, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	int sum = K * (K + 1) / 2;
	for (int l = 0; l < 64; l++)
		for (int r = 0; r < 4; r++) {
			int i = 4 * (l / 16) + r, j = l % 16;
			ck_assert_msg(out[l][r] == (float)(16 * (i + 1) * (j + 1) * sum), "lane %d reg %d: %g", l, r,
				(double)out[l][r]);
		}
	h_free(&h);
	mfunc_free(f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("loop_emu");
	TCase *t = tcase_create("loop_emu");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, pipelined_mfma_loop);
	suite_add_tcase(s, t);
	return run_suite(s);
}
