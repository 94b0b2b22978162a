/* waitcnt_test.c — s_waitcnt insertion over the CFG and its independent
 * checker, on hand-built allocated functions: every test shows the checker
 * failing on the stream without (or with a weaker) wait, the inserter
 * fixing it, and the inserted wait being the weakest that works. A seeded
 * random test does the same for many small CFGs with loops: after
 * insertion the checker is clean, and weakening any inserted count by one
 * or dropping the wait makes it fail (so every wait is needed and
 * minimal). */
#include <string.h>

#include "mfb.h"

static void load(MBlock *b, unsigned d, unsigned a)
{
	emit(b, I_BUFFER_LOAD_DWORD, OPS(V(d)), OPS(V(a), SN(4, 4), IMM(0)))->flags |= MIF_OFFEN;
}
static void store(MBlock *b, unsigned data, unsigned a)
{
	emit(b, I_BUFFER_STORE_DWORD, NONE, OPS(V(data), V(a), SN(4, 4), IMM(0)))->flags |= MIF_OFFEN;
}
static void add(MBlock *b, unsigned d, unsigned x, unsigned y) { emit(b, I_V_ADD_F32, OPS(V(d)), OPS(V(x), V(y))); }
static void ds_read(MBlock *b, unsigned d, unsigned a) { emit(b, I_DS_READ_B32, OPS(V(d)), OPS(V(a))); }
static void ds_write(MBlock *b, unsigned a, unsigned data) { emit(b, I_DS_WRITE_B32, NONE, OPS(V(a), V(data))); }
static void s_load(MBlock *b, unsigned d) { emit(b, I_S_LOAD_DWORD, OPS(S(d)), OPS(SN(0, 2), IMM(0))); }
/* s20 -= 1; loop to block `to` while it is not 0. */
static void loop_back(MBlock *b, int to)
{
	emit(b, I_S_SUB_U32, OPS(S(20)), OPS(S(20), IMM(1)));
	emit(b, I_S_CMP_LG_U32, NONE, OPS(S(20), IMM(0)));
	mblock_branch(b, I_S_CBRANCH_SCC1, to);
}
static void end(MBlock *b) { emit(b, I_S_ENDPGM, NONE, NONE); }

static int check(const MFunc *f)
{
	Buf m = {0};
	int n = check_waitcnt(f, &m);
	buf_free(&m);
	return n;
}

/* A load at the end of the loop body, read at the top of the next
 * iteration: only the back edge carries it. */
START_TEST(loop_back_edge)
{
	MFunc *f = mfb_new(&target_gfx942);
	MBlock *b0 = mfunc_block(f, NULL), *b1 = mfunc_block(f, ".Lloop"), *b2 = mfunc_block(f, NULL);
	emit(b0, I_V_MOV_B32, OPS(V(2)), OPS(IMM(0)));
	emit(b0, I_S_MOV_B32, OPS(S(20)), OPS(IMM(8)));
	add(b1, 3, 2, 3);
	load(b1, 2, 0);
	load(b1, 4, 0);
	loop_back(b1, 1);
	end(b2);
	Buf m = {0};
	ck_assert_int_eq(check_waitcnt(f, &m), 1);
	ck_assert_msg(strstr(buf_cstr(&m), "block 1 inst 0 (v_add_f32) reads"), "%s", buf_cstr(&m));
	buf_free(&m);
	run_waitcnt(f);
	ck_assert_int_eq(check(f), 0);
	ck_assert_int_eq(count_op(f, I_S_WAITCNT), 1);
	MInst *w = &b1->insts.data[0];
	ck_assert_int_eq(w->op, I_S_WAITCNT);
	ck_assert_int_eq(w->vmcnt, 1); /* the load of v4 may stay in flight */
	ck_assert_int_eq(w->lgkmcnt, -1);
	run_waitcnt(f); /* idempotent */
	ck_assert_int_eq(count_op(f, I_S_WAITCNT), 1);
	w = &f->blocks.data[1]->insts.data[0];
	w->vmcnt = 2;
	ck_assert_int_eq(check(f), 1);
	w->op = I_S_NOP; /* no wait at all */
	w->use[0] = IMM(0);
	w->nuse = 1;
	ck_assert_int_eq(check(f), 1);
	mfunc_free(f);
}
END_TEST

/* The preheader leaves v2's load 1 op from the newest, the back edge 2:
 * the join keeps the stricter vmcnt(1), and the checker shows vmcnt(2)
 * fails on the first iteration. */
START_TEST(join_keeps_the_stricter_path)
{
	MFunc *f = mfb_new(&target_gfx942);
	MBlock *b0 = mfunc_block(f, NULL), *b1 = mfunc_block(f, ".Lloop"), *b2 = mfunc_block(f, NULL);
	load(b0, 2, 0);
	load(b0, 5, 0);
	add(b1, 3, 2, 3);
	load(b1, 2, 0);
	load(b1, 6, 0);
	load(b1, 7, 0);
	loop_back(b1, 1);
	end(b2);
	run_waitcnt(f);
	ck_assert_int_eq(check(f), 0);
	ck_assert_int_eq(count_op(f, I_S_WAITCNT), 1);
	MInst *w = nth_op(f, I_S_WAITCNT, 0);
	ck_assert_int_eq(w->vmcnt, 1);
	w->vmcnt = 2;
	ck_assert_int_eq(check(f), 1);
	mfunc_free(f);
}
END_TEST

/* DS results complete in order even with SMEM in flight: lgkmcnt(1) for
 * the first of two ds_reads; the SMEM result needs lgkmcnt(0). */
START_TEST(lds_in_order_smem_out_of_order)
{
	MFunc *f = mfb_new(&target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	s_load(b, 10);
	ds_read(b, 1, 9);
	ds_read(b, 2, 9);
	add(b, 3, 1, 1);
	emit(b, I_V_ADD_F32, OPS(V(4)), OPS(S(10), V(4)));
	end(b);
	ck_assert_int_eq(check(f), 2);
	run_waitcnt(f);
	ck_assert_int_eq(check(f), 0);
	ck_assert_int_eq(count_op(f, I_S_WAITCNT), 2);
	MInst *w0 = nth_op(f, I_S_WAITCNT, 0), *w1 = nth_op(f, I_S_WAITCNT, 1);
	ck_assert_int_eq(w0->lgkmcnt, 1);
	ck_assert_int_eq(w0->vmcnt, -1);
	ck_assert_int_eq(w1->lgkmcnt, 0);
	w0->lgkmcnt = 2;
	ck_assert_int_eq(check(f), 1);
	w0->lgkmcnt = 1;
	w1->lgkmcnt = 1; /* SMEM out of order: 1 is not enough */
	ck_assert_int_eq(check(f), 1);
	mfunc_free(f);
}
END_TEST

/* LDS accesses complete before s_barrier; a trailing ds_bpermute (no LDS
 * memory) and an outstanding global store may stay in flight. */
START_TEST(barrier_waits_for_lds)
{
	MFunc *f = mfb_new(&target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	ds_write(b, 9, 1);
	emit(b, I_DS_BPERMUTE_B32, OPS(V(3)), OPS(V(9), V(1)));
	store(b, 1, 0);
	emit(b, I_S_BARRIER, NONE, NONE);
	ds_read(b, 5, 9);
	store(b, 6, 0);
	emit(b, I_S_BARRIER, NONE, NONE);
	end(b);
	Buf m = {0};
	ck_assert_int_eq(check_waitcnt(f, &m), 2);
	ck_assert_msg(strstr(buf_cstr(&m), "barrier reached with an LDS access outstanding"), "%s", buf_cstr(&m));
	buf_free(&m);
	run_waitcnt(f);
	ck_assert_int_eq(check(f), 0);
	ck_assert_int_eq(count_op(f, I_S_WAITCNT), 2);
	MInst *w0 = nth_op(f, I_S_WAITCNT, 0), *w1 = nth_op(f, I_S_WAITCNT, 1);
	ck_assert_int_eq(w0->lgkmcnt, 1);
	ck_assert_int_eq(w0->vmcnt, -1);
	ck_assert_int_eq(w1->lgkmcnt, 0);
	ck_assert_int_eq(w1->vmcnt, -1);
	w0->lgkmcnt = 2;
	ck_assert_int_eq(check(f), 1);
	mfunc_free(f);
}
END_TEST

/* LDS DMA (gfx950's buffer_load_dwordx4 ... lds, global_load_lds_dwordx4):
 * counted in vmcnt with the other VMEM ops, it writes LDS, so a DS access
 * after it waits for it (vmcnt of the VMEM ops issued since: a global load
 * after it stays in flight), and so does an s_barrier (the other waves read
 * that LDS past it); a VALU on registers does not wait, nor the transposing
 * read's own result more than lgkmcnt. */
static void dma(MBlock *b, unsigned a)
{
	emit(b, I_BUFFER_LOAD_DWORDX4, NONE, OPS(V(a), SN(4, 4), IMM(0), mo_special(MO_M0)))->flags |= MIF_OFFEN | MIF_LDS;
}
START_TEST(lds_dma_waits)
{
	MFunc *f = mfb_new(&target_gfx950);
	MBlock *b = mfunc_block(f, NULL);
	emit(b, I_S_MOV_B32, OPS(mo_special(MO_M0)), OPS(IMM(0)));
	dma(b, 0);
	emit(b, I_GLOBAL_LOAD_LDS_DWORDX4, NONE, OPS(VN(2, 2), mo_special(MO_OFF), mo_special(MO_M0)));
	load(b, 7, 0);
	add(b, 8, 1, 1);
	emit(b, I_DS_READ_B64_TR_B16, OPS(VN(10, 2)), OPS(V(9)));
	add(b, 12, 10, 11);
	emit(b, I_S_BARRIER, NONE, NONE);
	dma(b, 0);
	emit(b, I_S_BARRIER, NONE, NONE);
	add(b, 13, 7, 7);
	end(b);
	Buf m = {0};
	ck_assert_int_eq(check_waitcnt(f, &m), 5);
	ck_assert_msg(strstr(buf_cstr(&m), "inst 5 (ds_read_b64_tr_b16) accesses LDS an outstanding LDS DMA still writes"),
		"%s", buf_cstr(&m));
	ck_assert_msg(strstr(buf_cstr(&m), "(s_barrier) is a barrier reached with an LDS access outstanding"), "%s",
		buf_cstr(&m));
	buf_free(&m);
	run_waitcnt(f);
	ck_assert_msg(check(f) == 0, "%s", mfb_text(f));
	/* vmcnt(1) before the read (the global load may stay out), lgkmcnt(0)
	 * for its result, vmcnt(0) before the second barrier, and the global
	 * load's own vmcnt(0) was already given there */
	ck_assert_int_eq(count_op(f, I_S_WAITCNT), 3);
	MInst *w0 = nth_op(f, I_S_WAITCNT, 0), *w1 = nth_op(f, I_S_WAITCNT, 1), *w2 = nth_op(f, I_S_WAITCNT, 2);
	ck_assert(w0->vmcnt == 1 && w0->lgkmcnt == -1);
	ck_assert(w1->vmcnt == -1 && w1->lgkmcnt == 0);
	ck_assert(w2->vmcnt == 0 && w2->lgkmcnt == -1);
	w0->vmcnt = 2;
	ck_assert_int_eq(check(f), 1);
	w0->vmcnt = 1;
	w2->vmcnt = 1;
	ck_assert_int_eq(check(f), 1);
	mfunc_free(f);
}
END_TEST

/* Overwrites: a later VMEM load may overwrite an outstanding VMEM load's
 * register (in order); a DS load or a VALU may not; nor may an SMEM load
 * overwrite an SMEM load's (out of order). */
START_TEST(overwrites)
{
	MFunc *f = mfb_new(&target_gfx942);
	MBlock *b = mfunc_block(f, NULL);
	load(b, 1, 0);
	load(b, 1, 0);
	ds_read(b, 1, 9);
	emit(b, I_V_MOV_B32, OPS(V(1)), OPS(IMM(0)));
	s_load(b, 10);
	s_load(b, 10);
	end(b);
	/* One report per (instruction, outstanding op): the ds_read meets
	 * both loads. */
	ck_assert_int_eq(check(f), 4);
	run_waitcnt(f);
	ck_assert_int_eq(check(f), 0);
	ck_assert_int_eq(count_op(f, I_S_WAITCNT), 3);
	MInst *w0 = nth_op(f, I_S_WAITCNT, 0), *w1 = nth_op(f, I_S_WAITCNT, 1), *w2 = nth_op(f, I_S_WAITCNT, 2);
	ck_assert_int_eq(w0->vmcnt, 0); /* before the ds_read */
	ck_assert_int_eq(w0->lgkmcnt, -1);
	ck_assert_int_eq(w1->lgkmcnt, 0); /* before the v_mov */
	ck_assert_int_eq(w2->lgkmcnt, 0); /* between the s_loads */
	mfunc_free(f);
}
END_TEST

/* Degenerate input: no blocks, an empty block, an unreachable block. */
START_TEST(degenerate)
{
	MFunc *f = mfb_new(&target_gfx942);
	run_waitcnt(f);
	ck_assert_int_eq(check(f), 0);
	MBlock *b0 = mfunc_block(f, NULL);
	mfunc_block(f, NULL);
	MBlock *b2 = mfunc_block(f, NULL), *b3 = mfunc_block(f, NULL);
	load(b0, 1, 0);
	mblock_branch(b0, I_S_BRANCH, 3);
	load(b2, 2, 0); /* unreachable, but checked as if entered empty */
	add(b2, 3, 2, 2);
	add(b3, 4, 1, 1);
	end(b3);
	ck_assert_int_eq(check(f), 2);
	run_waitcnt(f);
	ck_assert_int_eq(check(f), 0);
	ck_assert_int_eq(count_op(f, I_S_WAITCNT), 2);
	mfunc_free(f);
}
END_TEST

/* ---- random CFGs ---- */

static uint64_t rng;
static unsigned rnd(unsigned n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(rng >> 33) % n;
}

static void random_inst(MBlock *b)
{
	unsigned r = 1 + rnd(5), x = 1 + rnd(5), y = 1 + rnd(5);
	switch (rnd(10)) {
	case 0: case 1: load(b, r, 8); break;
	case 2: store(b, r, 8); break;
	case 3: ds_read(b, r, 9); break;
	case 4: ds_write(b, 9, r); break;
	case 5: emit(b, I_DS_BPERMUTE_B32, OPS(V(r)), OPS(V(9), V(x))); break;
	case 6: s_load(b, 10 + rnd(3)); break;
	case 7: emit(b, I_V_ADD_F32, OPS(V(r)), OPS(S(10 + rnd(3)), V(x))); break;
	case 8: emit(b, I_S_BARRIER, NONE, NONE); break;
	default: add(b, r, x, y); break;
	}
}

static MFunc *random_func(void)
{
	MFunc *f = mfb_new(&target_gfx942);
	int nb = 1 + (int)rnd(4);
	for (int k = 0; k < nb; k++) {
		MBlock *b = mfunc_block(f, NULL);
		int n = 1 + (int)rnd(7);
		for (int i = 0; i < n; i++)
			random_inst(b);
		if (k == nb - 1)
			end(b);
		else if (rnd(3))
			loop_back(b, (int)rnd((unsigned)k + 1)); /* a loop (or self loop) */
		else if (k + 2 < nb)
			mblock_branch(b, I_S_CBRANCH_SCC0, k + 2); /* skip a block */
	}
	return f;
}

START_TEST(random_cfgs_minimal_and_sound)
{
	rng = 12345;
	int waits = 0;
	for (int iter = 0; iter < 400; iter++) {
		MFunc *f = random_func();
		run_waitcnt(f);
		Buf m = {0};
		int bad = check_waitcnt(f, &m);
		ck_assert_msg(bad == 0, "iteration %d:\n%s\n%s", iter, buf_cstr(&m), mfb_text(f));
		buf_free(&m);
		for (size_t bi = 0; bi < f->blocks.len; bi++)
			for (size_t i = 0; i < f->blocks.data[bi]->insts.len; i++) {
				MInst *w = &f->blocks.data[bi]->insts.data[i];
				if (w->op != I_S_WAITCNT)
					continue;
				waits++;
				MInst keep = *w;
				if (w->vmcnt >= 0 && w->vmcnt < 63) {
					w->vmcnt++;
					ck_assert_msg(check(f) > 0, "iteration %d: block %zu inst %zu: vmcnt(%d) is not the weakest\n%s",
						iter, bi, i, keep.vmcnt, mfb_text(f));
					*w = keep;
				}
				if (w->lgkmcnt >= 0 && w->lgkmcnt < 15) {
					w->lgkmcnt++;
					ck_assert_msg(check(f) > 0, "iteration %d: block %zu inst %zu: lgkmcnt(%d) is not the weakest\n%s",
						iter, bi, i, keep.lgkmcnt, mfb_text(f));
					*w = keep;
				}
			}
		mfunc_free(f);
	}
	ck_assert_int_gt(waits, 400); /* the generator does exercise the pass */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("waitcnt");
	TCase *t = tcase_create("waitcnt");
	tcase_add_test(t, loop_back_edge);
	tcase_add_test(t, join_keeps_the_stricter_path);
	tcase_add_test(t, lds_in_order_smem_out_of_order);
	tcase_add_test(t, barrier_waits_for_lds);
	tcase_add_test(t, lds_dma_waits);
	tcase_add_test(t, overwrites);
	tcase_add_test(t, degenerate);
	tcase_add_test(t, random_cfgs_minimal_and_sound);
	suite_add_tcase(s, t);
	return run_suite(s);
}
