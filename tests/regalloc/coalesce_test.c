/* coalesce_test.c — coalesce_copies (regalloc/coalesce.c) on functions
 * written as text (ir/mir_parse.c): which copies fold into their source's
 * definition, which must stay (the source read twice, defined twice, in
 * another block, the destination touched or EXEC written in between, a
 * partial write), and which unread definitions go. Each case compares the
 * whole function after the pass, so a fold that should not happen fails
 * as loudly as one that should and does not. */
#include <string.h>

#include "../test.h"
#include "regalloc_test.h"

/* Parse `in`, run the pass, and compare the printed function with `want`
 * (the same vregs line); `removed` instructions must have gone. */
static void expect(const char *in, const char *want, int removed)
{
	Buf err = {0}, got = {0};
	MFunc *f = mir_parse(in, strlen(in), "in.mir", &target_gfx942, &err);
	ck_assert_msg(f, "%s", buf_cstr(&err));
	int n = coalesce_copies(f);
	ck_assert_msg(mir_verify(f, &err) == 0, "%s", buf_cstr(&err));
	mir_print(&got, f);
	ck_assert_msg(strcmp(buf_cstr(&got), want) == 0, "got:\n%s\nwant:\n%s", buf_cstr(&got), want);
	ck_assert_int_eq(n, removed);
	mfunc_free(f);
	buf_free(&err), buf_free(&got);
}

#define VREGS "// vregs: %0:v1 %1:v1 %2:v2 %3:v1 %4:v1 %5:s2\n"

/* A value built in a temporary and copied into a tuple dword: the producer
 * writes the dword; a copy of a value read twice stays. */
START_TEST(fold_into_tuple)
{
	expect(VREGS "\tv_mov_b32 %0:v1, v0\n"
		     "\tv_add_f32 %1:v1, %0:v1, %0:v1\n"
		     "\tv_mov_b32 %2:v1, %1:v1\n"
		     "\tv_mul_f32 %4:v1, %0:v1, %0:v1\n"
		     "\tv_mov_b32 %2.1:v1, %4:v1\n"
		     "\tv_mov_b32 %3:v1, %0:v1\n"
		     "\tglobal_store_dwordx2 %3:v1, %2:v2, off\n"
		     "\ts_endpgm\n",
		VREGS "\tv_mov_b32 %0:v1, v0\n"
		      "\tv_add_f32 %2:v1, %0:v1, %0:v1\n"
		      "\tv_mul_f32 %2.1:v1, %0:v1, %0:v1\n"
		      "\tv_mov_b32 %3:v1, %0:v1\n"
		      "\tglobal_store_dwordx2 %3:v1, %2:v2, off\n"
		      "\ts_endpgm\n",
		2);
}
END_TEST

/* Copies that must stay: the destination read between the definition and
 * the copy; written there; EXEC written there; the source defined twice;
 * the producer reading the destination's vreg. */
START_TEST(folds_refused)
{
	static const char *const cases[] = {
		/* %3 read in between: it must still see its old value */
		VREGS "\tv_mov_b32 %3:v1, v0\n"
		      "\tv_add_f32 %1:v1, v0, v0\n"
		      "\tv_mov_b32 %4:v1, %3:v1\n"
		      "\tv_mov_b32 %3:v1, %1:v1\n"
		      "\tglobal_store_dwordx2 %4:v1, %3:v1, off\n"
		      "\ts_endpgm\n",
		/* EXEC changes in between: the copy's lanes are not the add's */
		VREGS "\tv_add_f32 %1:v1, v0, v0\n"
		      "\tv_cmp_gt_f32_e32 vcc, v0, v1\n"
		      "\ts_and_saveexec_b64 %5:s2, vcc\n"
		      "\tv_mov_b32 %3:v1, %1:v1\n"
		      "\tglobal_store_dword v0, %3:v1, off\n"
		      "\ts_endpgm\n",
		/* %1 defined twice */
		VREGS "\tv_add_f32 %1:v1, v0, v0\n"
		      "\tv_mul_f32 %1:v1, %1:v1, v0\n"
		      "\tv_mov_b32 %3:v1, %1:v1\n"
		      "\tglobal_store_dword v0, %3:v1, off\n"
		      "\ts_endpgm\n",
		/* the producer reads the other dword of the destination tuple */
		VREGS "\tv_mov_b32 %2.1:v1, v0\n"
		      "\tv_add_f32 %1:v1, %2.1:v1, v0\n"
		      "\tv_mov_b32 %2:v1, %1:v1\n"
		      "\tglobal_store_dwordx2 v0, %2:v2, off\n"
		      "\ts_endpgm\n",
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++)
		expect(cases[i], cases[i], 0);
}
END_TEST

/* Unread VALU definitions go, in chains (one round frees the next); an
 * e32 compare (it writes VCC) and memory stay. */
START_TEST(dead_defs)
{
	expect(VREGS "\tv_mov_b32 %0:v1, 0\n"
		     "\tv_add_f32 %1:v1, %0:v1, v0\n"
		     "\tv_cmp_gt_f32_e32 vcc, %0:v1, v0\n"
		     "\tv_mov_b32 %2:v1, 0\n"
		     "\tv_mov_b32 %2.1:v1, 0\n"
		     "\tglobal_load_dword %3:v1, v0, off\n"
		     "\ts_endpgm\n",
		VREGS "\tv_mov_b32 %0:v1, 0\n"
		      "\tv_cmp_gt_f32_e32 vcc, %0:v1, v0\n"
		      "\tglobal_load_dword %3:v1, v0, off\n"
		      "\ts_endpgm\n",
		3);
}
END_TEST

/* A copy whose source is defined in another block stays (the fold is
 * local to a block). */
START_TEST(other_block)
{
	const char *t = VREGS "\tv_add_f32 %1:v1, v0, v0\n"
			      ".Lnext:\n"
			      "\tv_mov_b32 %3:v1, %1:v1\n"
			      "\tglobal_store_dword v0, %3:v1, off\n"
			      "\ts_endpgm\n";
	expect(t, t, 0);
}
END_TEST

/* the vregs, and %0 defined (from v1); B3 defines %3 (from v2) */
#define TVREGS                                          \
	"// vregs: %0:v2 %1:v2 %2:v1 %3:v2 %4:v4 %5:v4\n" \
	"\tv_mov_b32 %0:v1, v1\n\tv_mov_b32 %0.1:v1, v1\n"
#define B3 "\tv_mov_b32 %3:v1, v2\n\tv_mov_b32 %3.1:v1, v2\n"

/* A tuple computed from the one it is copied back into (a loop-carried
 * accumulator scaled, then copied back) becomes that tuple: its copies go. */
START_TEST(rename_tuple)
{
	expect(TVREGS "\tv_mov_b32 %2:v1, v0\n"
		      "\tv_mul_f32 %1:v1, %0:v1, %2:v1\n"
		      "\tv_mul_f32 %1.1:v1, %0.1:v1, %2:v1\n"
		      "\tv_add_f32 %1:v1, %1:v1, %1.1:v1\n"
		      "\tv_mov_b32 %0:v1, %1:v1\n"
		      "\tv_mov_b32 %0.1:v1, %1.1:v1\n"
		      "\tglobal_store_dwordx2 v0, %0:v2, off\n"
		      "\ts_endpgm\n",
		TVREGS "\tv_mov_b32 %2:v1, v0\n"
		       "\tv_mul_f32 %0:v1, %0:v1, %2:v1\n"
		       "\tv_mul_f32 %0.1:v1, %0.1:v1, %2:v1\n"
		       "\tv_add_f32 %0:v1, %0:v1, %0.1:v1\n"
		       "\tglobal_store_dwordx2 v0, %0:v2, off\n"
		       "\ts_endpgm\n",
		2);
}
END_TEST

/* Renames that must not happen: c.0 read after t.0 is written (it still
 * needs the old value); t read after its copy; c written in between; an
 * MFMA whose result would overlap its source A. */
START_TEST(renames_refused)
{
	static const char *const cases[] = {
		TVREGS "\tv_mov_b32 %2:v1, v0\n"
		       "\tv_mul_f32 %1:v1, %2:v1, %2:v1\n"
		       "\tv_mul_f32 %1.1:v1, %0:v1, %2:v1\n"
		       "\tv_mov_b32 %0:v1, %1:v1\n"
		       "\tv_mov_b32 %0.1:v1, %1.1:v1\n"
		       "\tglobal_store_dwordx2 v0, %0:v2, off\n"
		       "\ts_endpgm\n",
		TVREGS "\tv_mov_b32 %2:v1, v0\n"
		       "\tv_mul_f32 %1:v1, %2:v1, %2:v1\n"
		       "\tv_mul_f32 %1.1:v1, %2:v1, %2:v1\n"
		       "\tv_mov_b32 %0:v1, %1:v1\n"
		       "\tv_mov_b32 %0.1:v1, %1.1:v1\n"
		       "\tv_mov_b32 %0:v1, v1\n"
		       "\tglobal_store_dwordx2 v0, %1:v2, off\n"
		       "\tglobal_store_dwordx2 v0, %0:v2, off\n"
		       "\ts_endpgm\n",
		TVREGS "\tv_mov_b32 %2:v1, v0\n"
		       "\tv_mul_f32 %1:v1, %2:v1, %2:v1\n"
		       "\tv_mov_b32 %0.1:v1, v1\n"
		       "\tv_mul_f32 %1.1:v1, %2:v1, %2:v1\n"
		       "\tv_mov_b32 %0:v1, %1:v1\n"
		       "\tv_mov_b32 %0.1:v1, %1.1:v1\n"
		       "\tglobal_store_dwordx2 v0, %0:v2, off\n"
		       "\ts_endpgm\n",
		TVREGS B3 "\tv_mfma_f32_16x16x16_f16 %5:v4, %0:v2, %3:v2, 0\n"
		       "\tv_mfma_f32_16x16x16_f16 %4:v4, %5.1:v2, %3:v2, %5:v4\n"
		       "\tv_mov_b32 %5:v1, %4:v1\n"
		       "\tv_mov_b32 %5.1:v1, %4.1:v1\n"
		       "\tv_mov_b32 %5.2:v1, %4.2:v1\n"
		       "\tv_mov_b32 %5.3:v1, %4.3:v1\n"
		       "\tglobal_store_dwordx4 v0, %5:v4, off\n"
		       "\ts_endpgm\n",
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++)
		expect(cases[i], cases[i], 0);
}
END_TEST

/* An MFMA accumulating into a fresh tuple from c, copied back into c: it
 * accumulates in c in place. */
START_TEST(rename_mfma_in_place)
{
	expect(TVREGS B3 "\tv_mfma_f32_16x16x16_f16 %5:v4, %0:v2, %3:v2, 0\n"
		      "\tv_mfma_f32_16x16x16_f16 %4:v4, %0:v2, %3:v2, %5:v4\n"
		      "\tv_mov_b32 %5:v1, %4:v1\n"
		      "\tv_mov_b32 %5.1:v1, %4.1:v1\n"
		      "\tv_mov_b32 %5.2:v1, %4.2:v1\n"
		      "\tv_mov_b32 %5.3:v1, %4.3:v1\n"
		      "\tglobal_store_dwordx4 v0, %5:v4, off\n"
		      "\ts_endpgm\n",
		TVREGS B3 "\tv_mfma_f32_16x16x16_f16 %5:v4, %0:v2, %3:v2, 0\n"
		       "\tv_mfma_f32_16x16x16_f16 %5:v4, %0:v2, %3:v2, %5:v4\n"
		       "\tglobal_store_dwordx4 v0, %5:v4, off\n"
		       "\ts_endpgm\n",
		4);
}
END_TEST

/* The allocation suite's loop function, through the pass, still verifies,
 * allocates and passes the allocation checker. */
START_TEST(loop_fn_allocates)
{
	LoopFn L = loop_fn(&target_gfx942);
	coalesce_copies(L.f);
	RegAssign ra = {0};
	alloc_clean(L.f, &ra);
	regassign_free(&ra);
	mfunc_free(L.f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("regalloc/coalesce");
	TCase *tc = tcase_create("coalesce");
	tcase_add_test(tc, fold_into_tuple);
	tcase_add_test(tc, folds_refused);
	tcase_add_test(tc, dead_defs);
	tcase_add_test(tc, other_block);
	tcase_add_test(tc, rename_tuple);
	tcase_add_test(tc, renames_refused);
	tcase_add_test(tc, rename_mfma_in_place);
	tcase_add_test(tc, loop_fn_allocates);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
