/* kernel.c — the allocated loop function (build.c: loop_fn) as a real
 * kernel: allocation through the pipeline's entry (allocate_registers, then
 * check_allocation), s_waitcnt insertion and hazard resolution, each with
 * its checker; mir_print gives the body, wrapped here in a minimal
 * .amdhsa kernel descriptor; asm_build runs llvm-mc-19 and wavecc's linker;
 * the code object is read back and run on the emulator, and the stored
 * results must be what the loop computes — which they are only if the loop
 * counter, the accumulator and the values live across the loop kept their
 * registers through all ten iterations. */
#include <string.h>

#include "../../asm/asm.h"
#include "../../loader/codeobj/codeobj.h"
#include "../../passes/machine/machine.h"
#include "../../loader/emu/emu.h"
#include "../test.h"
#include "regalloc_test.h"

/* The function as a kernel named f->name taking one buffer pointer. */
static void wrap_kernel(Buf *b, const MFunc *f)
{
	int vgprs = MAX(1, f->nregs[RF_VGPR]), accum = (vgprs + 3) / 4 * 4;
	buf_printf(b, "\t.amdgcn_target \"%s\"\n\t.amdhsa_code_object_version 5\n\t.text\n", f->target->triple);
	buf_printf(b, "\t.globl %s\n\t.p2align 8\n\t.type %s,@function\n%s:\n", f->name, f->name, f->name);
	mir_print(b, f);
	buf_printf(b, "\t.rodata\n\t.p2align 6\n\t.amdhsa_kernel %s\n", f->name);
	buf_printf(b, "\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1\n\t\t.amdhsa_kernarg_size 8\n");
	buf_printf(b, "\t\t.amdhsa_system_sgpr_workgroup_id_x 1\n\t\t.amdhsa_system_vgpr_workitem_id 0\n");
	buf_printf(b, "\t\t.amdhsa_next_free_vgpr %d\n\t\t.amdhsa_next_free_sgpr %d\n", accum + f->nregs[RF_AGPR],
		MAX(1, f->nregs[RF_SGPR]));
	buf_printf(b, "\t\t.amdhsa_accum_offset %d\n\t.end_amdhsa_kernel\n", accum);
}

START_TEST(loop_kernel_runs_on_the_emulator)
{
	const Target *t = &target_gfx942;
	LoopFn L = loop_fn(t);
	Kernel *k = kernel_new("loop");
	Diag d;
	diag_init(&d);
	Compile c;
	compile_init(&c, k, &(CompileOptions){.mcpu = t->name}, &d);
	c.mf = L.f;
	allocate_registers(&c);
	ck_assert(!compile_failed(&c));
	Buf m = {0};
	ck_assert_msg(check_allocation(&c, &m) == 0, "%s", buf_cstr(&m));
	insert_waitcnt(c.mf);
	resolve_hazards(c.mf);
	ck_assert_msg(mir_verify(c.mf, &m) + check_waitcnt(c.mf, &m) + check_hazards(c.mf, &m) == 0, "%s",
		buf_cstr(&m));
	Buf text = {0}, co_bytes = {0};
	wrap_kernel(&text, c.mf);
	/* the loop really is a loop in the output */
	ck_assert_msg(strstr(buf_cstr(&text), "s_cbranch_scc1 .Lloop\n"), "%s", buf_cstr(&text));
	AsmOptions ao = {.mcpu = t->name, .source_name = "loop.s"};
	ck_assert_msg(compile_build(&ao, text.data, text.len, &co_bytes, &m) == 0, "%s\n%s", buf_cstr(&m),
		buf_cstr(&text));
	CodeObject co;
	ck_assert_msg(codeobj_read(co_bytes.data, co_bytes.len, "loop", &co, &m) == 0, "%s", buf_cstr(&m));
	ck_assert_int_eq(co.nkernels, 1);

	uint32_t out[128];
	memset(out, 0xee, sizeof out);
	EmuMemory *mem = emu_mem_new();
	uint64_t img = emu_mem_map(mem, co.image, co.image_size, 4096, false, "code object");
	uint64_t buf = emu_mem_map(mem, out, sizeof out, 256, true, "out");
	uint8_t kernarg[8];
	memcpy(kernarg, &buf, 8);
	EmuLaunch l = {0};
	l.arch = EMU_GFX942;
	l.kd = co.kernels[0].kd;
	l.kd_addr = img + (co.kernels[0].kd_vaddr - co.base);
	l.kernarg_addr = emu_mem_map(mem, kernarg, sizeof kernarg, 64, false, "kernarg");
	l.grid[0] = l.grid[1] = l.grid[2] = 1;
	l.wg_size[0] = 64, l.wg_size[1] = l.wg_size[2] = 1;
	l.max_instructions = 100000;
	EmuStats st = {0};
	char err[1024] = "";
	ck_assert_msg(emu_launch(mem, &l, &st, err, sizeof err) == 0, "%s\n%s", err, buf_cstr(&text));
	for (uint32_t tid = 0; tid < 64; tid++) {
		ck_assert_msg(out[tid] == 19 * tid + 43, "lane %u: %u\n%s", tid, out[tid], buf_cstr(&text));
		float fv;
		memcpy(&fv, &out[64 + tid], 4);
		ck_assert_msg(fv == 160.0f, "lane %u: acc4[0] = %g", tid, (double)fv);
	}
	/* ten trips through the loop body, not one */
	ck_assert_uint_gt(st.instructions, 10 * 9);
	emu_mem_free(mem);
	codeobj_free(&co);
	buf_free(&co_bytes);
	buf_free(&text);
	buf_free(&m);
	compile_free(&c);
	kernel_free(k);
}
END_TEST

/* gfx942 only: mir_print spells MFMAs the gfx942 way (v_mfma_f32_16x16x16_f16),
 * which gfx90a's llvm-mc rejects (it wants ..._16x16x16f16). */
void kernel_tests(TCase *tc) { tcase_add_test(tc, loop_kernel_runs_on_the_emulator); }
