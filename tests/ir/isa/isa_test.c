/* isa_test.c — the facts the compiler reads from the instruction table's
 * rows (ir/isa/isa.h): classes and latencies, MFMA passes per target and
 * pipe, the spellings shared by the printer and the disassembler. */
#include <string.h>

#include "../../../ir/isa/isa.h"
#include "../../test.h"

START_TEST(classes_and_latencies)
{
	static const struct {
		int op;
		MClass cls;
		int latency;
	} rows[] = {
		{I_S_ADD_U32, MC_SALU, 1}, {I_S_SETPC_B64, MC_BRANCH, 1}, {I_S_BRANCH, MC_BRANCH, 1},
		{I_S_CBRANCH_SCC1, MC_BRANCH, 1}, {I_S_WAITCNT, MC_CONTROL, 1}, {I_S_NOP, MC_CONTROL, 1},
		{I_S_LOAD_DWORDX2, MC_SMEM, 200}, {I_V_ADD_F32, MC_VALU, 4}, {I_V_EXP_F32, MC_TRANS, 8},
		{I_BUFFER_LOAD_DWORD, MC_VMEM_LOAD, 500}, {I_BUFFER_STORE_DWORD, MC_VMEM_STORE, 4},
		{I_GLOBAL_ATOMIC_ADD, MC_VMEM_LOAD, 500}, {I_DS_READ_B32, MC_LDS, 64},
		{I_V_MFMA_F32_16X16X16_F16, MC_MFMA, 32},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		ck_assert_msg(isa_class(rows[i].op) == rows[i].cls, "%s: class %s", isa_info[rows[i].op].name,
			isa_class_name[isa_class(rows[i].op)]);
		ck_assert_int_eq(isa_latency(rows[i].op), rows[i].latency);
	}
	/* every row has a class; the MFMA rows are exactly the MFMA class */
	for (int op = 1; op < I_COUNT; op++) {
		ck_assert_int_lt(isa_class(op), MC_COUNT);
		ck_assert_msg((isa_class(op) == MC_MFMA) == ((isa_info[op].flags & IF_MFMA) != 0), "%s", isa_info[op].name);
	}
}
END_TEST

START_TEST(mfma_passes_and_pipe)
{
	ck_assert_int_eq(isa_mfma_passes(I_V_MFMA_F32_16X16X16_F16, false), 4);
	ck_assert_int_eq(isa_mfma_passes(I_V_MFMA_F32_16X16X16_F16, true), 8);
	ck_assert_int_eq(isa_mfma_passes(I_V_MFMA_F32_32X32X8_F16, false), 8);
	ck_assert_int_eq(isa_mfma_passes(I_V_MFMA_F32_32X32X8_F16, true), 16);
	ck_assert_int_eq(isa_mfma_passes(I_V_MFMA_I32_16X16X32_I8, true), 0); /* not on gfx90a */
	ck_assert_int_eq(isa_mfma_passes(I_V_ADD_F32, false), 0);
	ck_assert(isa_mfma_xdl(I_V_MFMA_F32_16X16X16_F16, false));
	ck_assert(!isa_mfma_xdl(I_V_MFMA_F32_16X16X4_F32, false)); /* f32 MFMAs are not XDL on gfx942 */
	ck_assert(isa_mfma_xdl(I_V_MFMA_F32_16X16X4_F32, true));   /* every non-DGEMM MFMA on gfx90a */
	ck_assert(!isa_mfma_xdl(I_V_MFMA_F64_16X16X4_F64, true));
	/* every MFMA row that exists on a target has passes there */
	for (int op = 1; op < I_COUNT; op++) {
		const IsaInfo *r = &isa_info[op];
		if (!(r->flags & IF_MFMA))
			continue;
		ck_assert_msg((r->op942 != NA) == (isa_mfma_passes(op, false) > 0), "%s on gfx942", r->name);
		ck_assert_msg((r->op90a != NA) == (isa_mfma_passes(op, true) > 0), "%s on gfx90a", r->name);
	}
}
END_TEST

START_TEST(spellings)
{
	char b[64];
	isa_reg_name(b, sizeof b, 'v', 5, 1);
	ck_assert_str_eq(b, "v5");
	isa_reg_name(b, sizeof b, 's', 4, 4);
	ck_assert_str_eq(b, "s[4:7]");
	isa_reg_name(b, sizeof b, 'a', 0, 16);
	ck_assert_str_eq(b, "a[0:15]");
	isa_mnemonic(b, sizeof b, I_V_MFMA_F32_16X16X16_F16, true);
	ck_assert_str_eq(b, "v_mfma_f32_16x16x16f16");
	isa_mnemonic(b, sizeof b, I_V_MFMA_F32_16X16X16_F16, false);
	ck_assert_str_eq(b, "v_mfma_f32_16x16x16_f16");
	isa_mnemonic(b, sizeof b, I_V_MFMA_F32_32X32X8_F16, true);
	ck_assert_str_eq(b, "v_mfma_f32_32x32x8f16");
	/* CDNA2's bf16 MFMAs with four elements per lane are the _1k set */
	isa_mnemonic(b, sizeof b, I_V_MFMA_F32_16X16X16_BF16, true);
	ck_assert_str_eq(b, "v_mfma_f32_16x16x16bf16_1k");
	isa_mnemonic(b, sizeof b, I_V_MFMA_F32_32X32X8_BF16, true);
	ck_assert_str_eq(b, "v_mfma_f32_32x32x8bf16_1k");
	isa_mnemonic(b, sizeof b, I_V_MFMA_F32_32X32X8_BF16, false);
	ck_assert_str_eq(b, "v_mfma_f32_32x32x8_bf16");
	isa_mnemonic(b, sizeof b, I_V_ADD_F32, true);
	ck_assert_str_eq(b, "v_add_f32");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ir/isa");
	TCase *t = tcase_create("core");
	tcase_add_test(t, classes_and_latencies);
	tcase_add_test(t, mfma_passes_and_pipe);
	tcase_add_test(t, spellings);
	suite_add_tcase(s, t);
	return run_suite(s);
}
