/* stats.c — what `wavecc compile --stats` reports about a compiled kernel:
 * register and LDS use (as allocated and as the kernel descriptor rounds
 * them), the occupancy they allow, the instruction mix, the code size and
 * the time of every stage.
 *
 * Sources of each figure, so that none is a second opinion of the emitter:
 *   - allocated registers: MFunc.nregs after register allocation;
 *   - descriptor figures and LDS: decoded from the kernel descriptor of the
 *     linked code object (loader/codeobj/kd.h), i.e. what the hardware will see;
 *   - spills: what register allocation reported (Compile.spilled and
 *     scratch_*); the scratch bytes from the descriptor;
 *   - instruction counts: the machine function as printed into the assembly
 *     (emit_assembly prints it whole), by isa_class;
 *   - code size: the size of the kernel's function symbol in the code object.
 *
 * Occupancy: occupancy.c. */
#include <limits.h>
#include <string.h>

#include "../loader/codeobj/codeobj.h"
#include "stats.h"

int stats_count_classes(const MFunc *f, int counts[MC_COUNT])
{
	memset(counts, 0, sizeof(int) * MC_COUNT);
	int n = 0;
	for (size_t b = 0; b < f->blocks.len; b++) {
		const MBlock *bl = f->blocks.data[b];
		for (size_t i = 0; i < bl->insts.len; i++) {
			counts[isa_class(bl->insts.data[i].op)]++;
			n++;
		}
	}
	return n;
}

double compile_own_us(const Compile *c, const StageTimes *st)
{
	double us = MAX(st->load_us, 0) + c->check_us; /* -1: not measured */
	for (int i = 0; i < compile_npasses; i++)
		if (compile_pass_own[i])
			us += c->pass_us[i];
	return us;
}

/* Every report line is a key padded to KEY_WIDTH columns, then the value. */
enum { KEY_WIDTH = 26 };

static void key(Buf *out, const char *group, const char *name)
{
	int n = (int)strlen(group) + (group[0] ? 1 : 0) + (int)strlen(name);
	buf_printf(out, "%s%s%s%*s", group, group[0] ? " " : "", name, MAX(1, KEY_WIDTH - n), "");
}

static void time_row(Buf *out, const char *name, double us)
{
	key(out, "time", name);
	if (us < 0)
		buf_printf(out, "        -\n");
	else
		buf_printf(out, "%9.3f ms\n", us / 1000.0);
}

/* The compiled code object, read back: exactly one kernel. */
static int read_compiled(const Compile *c, CodeObject *co, Buf *msg)
{
	if (codeobj_read(c->code_object.data, c->code_object.len, "<compiled>", co, msg) != 0)
		return -1;
	if (co->nkernels != 1) {
		buf_printf(msg, "the compiled code object holds %zu kernels, expected 1\n", co->nkernels);
		codeobj_free(co);
		return -1;
	}
	return 0;
}

int compile_stats(Buf *out, const Compile *c, const StageTimes *st, Buf *msg)
{
	CodeObject co;
	if (read_compiled(c, &co, msg) != 0)
		return -1;
	const CodeKernel *kern = &co.kernels[0];
	const KernelDescriptor *kd = &kern->kd;
	const MFunc *f = c->mf;
	int v = f->nregs[RF_VGPR], a = f->nregs[RF_AGPR], s = f->nregs[RF_SGPR];
	int lds = (int)kd->group_segment_fixed_size;
	int threads = c->an.wg_size[0] * c->an.wg_size[1] * c->an.wg_size[2];
	Occupancy o;
	/* The descriptor declares at least one VGPR and SGPR (emit.c), and
	 * those are what the hardware allocates. */
	stats_occupancy(c->t, MAX(1, v), a, MAX(1, s), lds, threads, &o);

	key(out, "", "kernel");
	buf_printf(out, "%s (%s)\n", kern->name, co.mcpu);
	key(out, "", "vgpr");
	buf_printf(out, "%d\n", v);
	key(out, "", "agpr");
	buf_printf(out, "%d\n", a);
	key(out, "", "sgpr");
	buf_printf(out, "%d\n", s);
	key(out, "descriptor", "vgpr");
	buf_printf(out, "%u (unified VGPR+AGPR file, granule 8; accum_offset %u)\n", kd->vgpr_alloc,
		kd->accum_offset);
	key(out, "descriptor", "sgpr");
	buf_printf(out, "%u (with VCC, FLAT_SCRATCH, XNACK_MASK; granule 8)\n", kd->sgpr_alloc);
	key(out, "lds", "bytes");
	buf_printf(out, "%d (allocated %d)\n", lds, o.lds_alloc);
	if (c->plan.swizzled) {
		/* lds_stage.c: tiles unpadded and XOR-swizzled, where that gains
		 * a workgroup per CU or padded tiles do not fit */
		key(out, "lds", "layout");
		buf_printf(out, "swizzled in %d region%s (padded: ", c->plan.swizzled, c->plan.swizzled == 1 ? "" : "s");
		if (c->plan.lds_padded > c->t->lds_bytes)
			buf_printf(out, "over the %d KiB)\n", c->t->lds_bytes / 1024);
		else
			buf_printf(out, "%d bytes)\n", c->plan.lds_padded);
	}
	/* regalloc/spill.c: where values went when the files ran out */
	key(out, "spill", "values");
	buf_printf(out, "%d (to AGPRs or VGPR lanes %d, to scratch memory %d)\n", c->spilled + c->scratch_values,
		c->spilled, c->scratch_values);
	key(out, "scratch", "bytes");
	buf_printf(out, "%u per work-item (the descriptor's private segment; %d dwords of spilled values)\n",
		kd->private_segment_fixed_size, c->scratch_dwords);
	key(out, "waves", "per SIMD");
	buf_printf(out, "%d (limited by %s; VGPRs allow %d, SGPRs %d, slots %d; "
			"workgroups of %d wave%s, %d per CU",
		o.waves_per_simd, o.limit, o.by_vgprs, o.by_sgprs, o.by_slots, o.waves_per_wg,
		o.waves_per_wg == 1 ? "" : "s", o.wg_per_cu);
	if (o.wg_by_lds >= 0)
		buf_printf(out, ", LDS allows %d", o.wg_by_lds);
	buf_printf(out, ")\n");
	int counts[MC_COUNT];
	int total = stats_count_classes(f, counts);
	for (int k = 0; k < MC_COUNT; k++) {
		key(out, "inst", isa_class_name[k]);
		buf_printf(out, "%d\n", counts[k]);
	}
	key(out, "inst", "total");
	buf_printf(out, "%d\n", total);
	key(out, "code", "bytes");
	buf_printf(out, "%llu\n", (unsigned long long)kern->code_size);
	time_row(out, "load", st->load_us);
	for (int i = 0; i < compile_npasses; i++)
		if (compile_pass_own[i])
			time_row(out, compile_pass_name[i], c->pass_us[i]);
	time_row(out, "checks", c->check_us);
	time_row(out, "compiler", compile_own_us(c, st));
	time_row(out, "llvm-mc", c->pass_us[compile_pass_index("assemble")]);
	time_row(out, "link", c->pass_us[compile_pass_index("link")]);
	time_row(out, "write", st->write_us);
	time_row(out, "total", st->total_us);
	codeobj_free(&co);
	return 0;
}

int compile_stats_line(Buf *out, const Compile *c, Buf *msg)
{
	CodeObject co;
	if (read_compiled(c, &co, msg) != 0)
		return -1;
	const CodeKernel *kern = &co.kernels[0];
	const MFunc *f = c->mf;
	int v = f->nregs[RF_VGPR], a = f->nregs[RF_AGPR], s = f->nregs[RF_SGPR];
	int lds = (int)kern->kd.group_segment_fixed_size;
	Occupancy o;
	stats_occupancy(c->t, MAX(1, v), a, MAX(1, s), lds,
		c->an.wg_size[0] * c->an.wg_size[1] * c->an.wg_size[2], &o);
	buf_printf(out, "vgpr %d agpr %d sgpr %d lds %d waves/SIMD %d (%s) code %llu bytes", v, a, s, lds,
		o.waves_per_simd, o.limit, (unsigned long long)kern->code_size);
	if (kern->kd.private_segment_fixed_size)
		buf_printf(out, " scratch %u bytes", kern->kd.private_segment_fixed_size);
	codeobj_free(&co);
	return 0;
}
