/* batch.c — many kernels, one llvm-mc run (autotuning sweeps).
 *
 * llvm-mc's start-up is most of a small kernel's compile time (about 20 ms
 * of 22 on a 2-core machine), so compiling a sweep one kernel at a time
 * pays it once per variant. Here every variant runs the pipeline up to its
 * assembly; the variants of one target (and one llvm-mc) are emitted again
 * into a single source, each with a tag (asm/emit.c: sections NAME.TAG,
 * symbols KERNEL__TAG, labels .LTAG_...; its metadata block unchanged) and
 * assembled once; then each variant's code object is linked out of the
 * shared relocatable object (codeobj_link_variant), byte for byte the one
 * the variant alone would give. The assembler's time is shared out evenly
 * over the variants' `assemble` rows. If the batch does not assemble, each
 * variant of it is assembled alone so every message names its own kernel.
 * Contract: cs[i] are compile_init'ed and not run; afterwards each is as
 * compile_run leaves it (failed or complete). */
#include <stdlib.h>
#include <string.h>

#include "../asm/asm.h"
#include "../loader/codeobj/codeobj.h"
#include "driver.h"

static bool same_group(const Compile *a, const Compile *b)
{
	const char *ma = a->opt.mcpu ? a->opt.mcpu : "gfx942", *mb = b->opt.mcpu ? b->opt.mcpu : "gfx942";
	const char *la = a->opt.llvm_mc ? a->opt.llvm_mc : "", *lb = b->opt.llvm_mc ? b->opt.llvm_mc : "";
	return strcmp(ma, mb) == 0 && strcmp(la, lb) == 0 && a->opt.verbose == b->opt.verbose;
}

/* Finish one variant alone: the remaining rows (assemble, link). */
static void finish_alone(Compile *c)
{
	c->opt.stop_after = NULL;
	compile_run(c);
}

static void assemble_group(Compile **g, size_t n)
{
	Buf text = {0}, obj = {0}, msg = {0};
	const Compile *c0 = g[0];
	buf_printf(&text, "\t.amdgcn_target \"%s\"\n\t.amdhsa_code_object_version 5\n", c0->t->triple);
	char tag[32];
	for (size_t j = 0; j < n; j++) {
		snprintf(tag, sizeof tag, "wavecc_v%zu", j);
		emit_assembly(&g[j]->an, &g[j]->plan, g[j]->mf, tag, &text);
	}
	AsmOptions ao = {.llvm_mc = c0->opt.llvm_mc, .mcpu = c0->opt.mcpu, .source_name = "<batch assembly>",
		.verbose = c0->opt.verbose};
	double t0 = compile_now_us();
	int r = asm_assemble(&ao, text.data, text.len, &obj, &msg);
	double share = (compile_now_us() - t0) / (double)n;
	int row_asm = compile_pass_index("assemble"), row_link = compile_pass_index("link");
	for (size_t j = 0; j < n; j++) {
		Compile *c = g[j];
		if (r != 0) {
			finish_alone(c);
			continue;
		}
		snprintf(tag, sizeof tag, "wavecc_v%zu", j);
		c->pass_us[row_asm] = share;
		buf_putn(&c->tool_msg, msg.data, msg.len);
		Buf lmsg = {0};
		double t1 = compile_now_us();
		/* the batch assembled, so a variant that does not link is a bug in
		 * the batch protocol, not bad input */
		if (codeobj_link_variant(obj.data, obj.len, tag, j, "<batch assembly>", &c->code_object, &lmsg) != 0)
			die("variant %zu of a batch: %s", j, buf_cstr(&lmsg));
		c->pass_us[row_link] = compile_now_us() - t1;
		c->next_row = compile_npasses;
		buf_free(&lmsg);
	}
	buf_free(&text);
	buf_free(&obj);
	buf_free(&msg);
}

size_t compile_batch(Compile **cs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		cs[i]->opt.stop_after = "emit_assembly";
		compile_run(cs[i]);
	}
	/* allocated after the pipelines ran: an internal error in one that the
	 * library catches leaves nothing of this frame behind */
	Compile **g = xcalloc(n + 1, sizeof *g);
	bool *done = xcalloc(n + 1, sizeof *done);
	for (size_t i = 0; i < n; i++)
		done[i] = compile_failed(cs[i]);
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		size_t m = 0;
		for (size_t j = i; j < n; j++)
			if (!done[j] && same_group(cs[i], cs[j])) {
				g[m++] = cs[j];
				done[j] = true;
			}
		assemble_group(g, m);
	}
	size_t ok = 0;
	for (size_t i = 0; i < n; i++) {
		cs[i]->opt.stop_after = NULL;
		ok += !compile_failed(cs[i]);
	}
	free(g);
	free(done);
	return ok;
}
