/* emit.c — the compiled kernel as assembly text and a launch descriptor.
 *
 * The assembly is one llvm-mc source: target directive, the kernel's code
 * (mir_print of the allocated machine function, grouped by graph op with a
 * comment naming it), the .amdhsa kernel descriptor and the code object v5
 * metadata. Descriptor fields come from what the code really uses: the
 * register counts register allocation measured (VGPRs rounded to the
 * accumulator offset granule of 4; AGPRs follow them in the unified file),
 * the workgroup-id SGPRs and work-item-id VGPRs the grid and workgroup
 * need, the kernarg size (passes/graph/kernarg.c: buffer pointers, runtime
 * sizes, scalar arguments). The launch descriptor (docs/launch-format.md) carries the same
 * geometry and the arguments with their resolved shapes and access modes.
 * Names in the metadata YAML are explicitly tagged, double-quoted strings
 * (`!str "y"`), so a name that YAML would read as something else (y, no,
 * on, true, null, ~, 1e3, a name with ':' or '#') stays a string: LLVM's
 * metadata reader guesses the type of an untagged scalar even when it is
 * quoted (llvm-mc-19 rejects `.name: "y"` as a boolean where a string is
 * required), and takes the standard tag `!str` as "string". Strings in the
 * descriptor JSON are escaped the same way.
 * Requires: an allocated machine function after insert_waitcnt and
 * resolve_hazards, and its analysed kernel. Writes: the text (emit_assembly)
 * and the descriptor (emit_launch) into the caller's buffers. */
#include <string.h>

#include "../include/wavecc.h"
#include "../passes/plan/plan.h"

/* The kernel's symbol: its name with anything but [A-Za-z0-9_.] as '_'. */
static const char *kernel_entry_name(Analysis *c)
{
	char *s = arena_strdup(&c->arena, c->k->name);
	for (char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
			    *p == '.'))
			*p = '_';
	if (s[0] >= '0' && s[0] <= '9')
		s = arena_printf(&c->arena, "_%s", s);
	return s;
}

/* s as a double-quoted string, valid in both YAML and JSON: backslash,
 * quote and control characters escaped. */
static const char *quoted(Analysis *c, const char *s)
{
	Buf b = {0};
	buf_putc(&b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_printf(&b, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			buf_printf(&b, "\\u%04x", *p);
		else
			buf_putc(&b, (char)*p);
	}
	buf_putc(&b, '"');
	const char *r = arena_strdup(&c->arena, buf_cstr(&b));
	buf_free(&b);
	return r;
}

static const char *access_mode(Analysis *c, const Value *mem)
{
	bool rd = false, wr = false;
	for (size_t i = 0; i < c->k->op_list.len; i++) {
		const Op *op = c->k->op_list.data[i];
		if (op_memory(op) != mem)
			continue;
		/* the atomics and scatter_add read and write it */
		rd |= op->kind != OP_WRITE;
		wr |= op->kind != OP_READ;
	}
	return rd && wr ? "readwrite" : wr ? "write" : "read";
}

static int64_t dim_value(Analysis *c, Sym *d)
{
	int64_t v;
	return sym_is_int(kernel_subs(c->k, d), &v) ? v : -1;
}

/* Kernel arguments: the buffer pointers (8 bytes each), then each runtime
 * size (a dynamic symbol -D did not bind) as a 32-bit integer. */
int emit_kernarg_size(const Kernel *k)
{
	return analysis_kernarg_size(k);
}

/* The runtime sizes, as (name, offset) in kernarg order. */
static void runtime_args(const Kernel *k, void (*each)(void *, const char *, int), void *ctx)
{
	for (size_t j = 0; j < k->dyn_syms.len; j++) {
		int pos = analysis_runtime_arg(k, k->dyn_syms.data[j], NULL);
		if (pos >= 0)
			each(ctx, sym_name(k->dyn_syms.data[j]), (int)(8 * k->args.len) + 4 * pos);
	}
}

typedef struct EmitCtx {
	Analysis *c;
	Buf *b;
} EmitCtx;

static void meta_runtime_arg(void *ctx, const char *name, int offset)
{
	EmitCtx *e = ctx;
	buf_printf(e->b, "      - { .name: !str %s, .offset: %d, .size: 4, .value_kind: by_value }\n", quoted(e->c, name),
		offset);
}

static void launch_runtime_arg(void *ctx, const char *name, int offset)
{
	EmitCtx *e = ctx;
	buf_printf(e->b, ",\n  {\"name\": %s, \"kind\": \"scalar\", \"dtype\": \"i32\", \"offset\": %d}", quoted(e->c, name),
		offset);
}

/* A dim or grid entry of the launch descriptor: an integer, or (runtime)
 * the expression as a string the descriptor's parser reads. */
static void launch_int_or_expr(Analysis *c, Buf *l, int64_t v, Sym *e)
{
	if (v >= 0 || !e)
		buf_printf(l, "%lld", (long long)v);
	else
		buf_printf(l, "%s", quoted(c, sym_str(c->k->sc, e)));
}

/* The private segment of a kernel that spills to scratch (regalloc/spill.c,
 * docs/abi.md "Scratch"): gfx942 and gfx950 have architected flat scratch,
 * which the enable bit sets up; gfx90a gets the private segment buffer V#
 * in s[0:3] (the inputs follow it) and the wave's scratch offset after the
 * workgroup ids, where the spill code reads it. */
static void scratch_directives(Analysis *c, const MFunc *f, Buf *b)
{
	if (strcmp(c->t->name, "gfx90a") == 0) {
		int wave = 4 + 2 + 1 + analysis_many(c->grid[1]) + analysis_many(c->grid[2]);
		if (f->scratch_wave_sgpr != wave)
			die("the spill code reads the wave's scratch offset from s%d; the descriptor puts it in s%d",
				f->scratch_wave_sgpr, wave);
		buf_printf(b, "\t\t.amdhsa_user_sgpr_private_segment_buffer 1\n");
		buf_printf(b, "\t\t.amdhsa_system_sgpr_private_segment_wavefront_offset 1\n");
	} else {
		buf_printf(b, "\t\t.amdhsa_enable_private_segment 1\n");
	}
	buf_printf(b, "\t\t.amdhsa_private_segment_fixed_size %d\n", f->scratch_bytes);
}

void emit_assembly(Analysis *c, const Plan *p, const MFunc *f, const char *tag, Buf *b)
{
	const PlanSummary *got = &p->sum;
	Kernel *k = c->k;
	const char *name = kernel_entry_name(c);
	const char *mcpu = c->t->name;
	int kernarg_size = emit_kernarg_size(k);
	int vgprs = MAX(1, f->nregs[RF_VGPR]);
	int accum = (vgprs + 3) / 4 * 4;
	int agprs = f->nregs[RF_AGPR];
	int sgprs = MAX(1, f->nregs[RF_SGPR]);
	int threads = c->wg_size[0] * c->wg_size[1] * c->wg_size[2];
	int tid_dims = c->wg_size[2] > 1 ? 2 : c->wg_size[1] > 1 ? 1 : 0;

	buf_printf(b, "// %s: compiled by wavecc %s from %s for %s\n", name, WAVECC_VERSION_STRING, k->file ? k->file : "<memory>",
		mcpu);
	buf_printf(b, "// grid ");
	for (int g = 0; g < 3; g++) {
		buf_printf(b, "%s", g ? " x " : "");
		if (c->grid[g] >= 0)
			buf_printf(b, "%lld", (long long)c->grid[g]);
		else
			buf_printf(b, "%s", sym_str(c->k->sc, c->grid_sym[g]));
	}
	buf_printf(b, " workgroups of %d x %d x %d work-items\n", c->wg_size[0], c->wg_size[1], c->wg_size[2]);
	if (c->reorder_bound[0] || c->reorder_bound[1] || c->reorder_bound[2]) { /* constraints.c, add_reordering */
		buf_printf(b, "// reordering: checked to permute every grid of up to ");
		for (int g = 0; g < 3; g++)
			if (c->reorder_bound[g])
				buf_printf(b, "%lld along %d%s", (long long)c->reorder_bound[g], g,
					g < 2 && (c->reorder_bound[g + 1] || (g == 0 && c->reorder_bound[2])) ? ", " : "");
		buf_printf(b, " workgroups; the plain order on larger ones\n");
	}
	buf_printf(b, "// registers: %d VGPR, %d AGPR, %d SGPR (+vcc); LDS %d bytes", f->nregs[RF_VGPR], agprs,
		f->nregs[RF_SGPR], f->lds_bytes);
	if (f->scratch_bytes > 0)
		buf_printf(b, "; scratch %d bytes per work-item (spills)", f->scratch_bytes);
	buf_printf(b, "\n");
	buf_printf(b, "// schedule: %s, %d loop%s prefetched, %d with 2 LDS buffers", kernel_schedule_name(p->schedule),
		got->prefetched, got->prefetched == 1 ? "" : "s", got->lds_doubled);
	if (p->schedule == SCHED_FOUR_STAGE) /* where the shape fits (isel/four_stage.c) */
		buf_printf(b, ", %d in four stages", got->four_staged);
	if (c->opts.asked && c->opts.asked != p->schedule)
		buf_printf(b, " (asked: %s)", kernel_schedule_name(c->opts.asked));
	buf_printf(b, "\n");
	/* A variant of a batch (tag): its own sections and symbols, which
	 * codeobj_link_variant maps back to the plain ones; the metadata keeps
	 * the plain names. */
	const char *sym = tag ? arena_printf(&c->arena, "%s__%s", name, tag) : name;
	if (tag)
		buf_printf(b, "\t.section .text.%s,\"ax\",@progbits\n", tag);
	else
		buf_printf(b, "\t.amdgcn_target \"%s\"\n\t.amdhsa_code_object_version 5\n\t.text\n", c->t->triple);
	buf_printf(b, "\t.protected %s\n\t.globl %s\n\t.p2align 8\n\t.type %s,@function\n%s:\n", sym, sym, sym, sym);
	if (tag) { /* block labels are per file: give the variant's its own */
		Buf code = {0};
		mir_print(&code, f);
		char *prefix = arena_printf(&c->arena, ".L%s_", tag);
		for (const char *p = buf_cstr(&code); *p;) {
			const char *q = strstr(p, ".L");
			if (!q) {
				buf_puts(b, p);
				break;
			}
			buf_putn(b, p, (size_t)(q - p));
			buf_puts(b, prefix);
			p = q + 2;
		}
		buf_free(&code);
	} else {
		mir_print(b, f);
	}
	buf_printf(b, ".L%s_end:\n\t.size %s, .L%s_end-%s\n\n", sym, sym, sym, sym);

	if (tag)
		buf_printf(b, "\t.section .rodata.%s,\"a\",@progbits\n\t.p2align 6\n\t.amdhsa_kernel %s\n", tag, sym);
	else
		buf_printf(b, "\t.rodata\n\t.p2align 6\n\t.amdhsa_kernel %s\n", name);
	buf_printf(b, "\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1\n");
	buf_printf(b, "\t\t.amdhsa_kernarg_size %d\n", kernarg_size);
	buf_printf(b, "\t\t.amdhsa_group_segment_fixed_size %d\n", f->lds_bytes);
	buf_printf(b, "\t\t.amdhsa_system_sgpr_workgroup_id_x 1\n");
	buf_printf(b, "\t\t.amdhsa_system_sgpr_workgroup_id_y %d\n", analysis_many(c->grid[1]));
	buf_printf(b, "\t\t.amdhsa_system_sgpr_workgroup_id_z %d\n", analysis_many(c->grid[2]));
	buf_printf(b, "\t\t.amdhsa_system_vgpr_workitem_id %d\n", tid_dims);
	if (f->scratch_bytes > 0)
		scratch_directives(c, f, b);
	buf_printf(b, "\t\t.amdhsa_next_free_vgpr %d\n", accum + agprs);
	buf_printf(b, "\t\t.amdhsa_next_free_sgpr %d\n", sgprs);
	buf_printf(b, "\t\t.amdhsa_accum_offset %d\n", accum);
	buf_printf(b, "\t\t.amdhsa_float_denorm_mode_32 3\n\t\t.amdhsa_float_denorm_mode_16_64 3\n");
	buf_printf(b, "\t.end_amdhsa_kernel\n\n");

	buf_printf(b, "\t.amdgpu_metadata\n---\namdhsa.version: [ 1, 2 ]\namdhsa.target: %s\namdhsa.kernels:\n",
		c->t->triple);
	buf_printf(b, "  - .name: !str %s\n    .symbol: !str %s\n", quoted(c, name),
		quoted(c, arena_printf(&c->arena, "%s.kd", name)));
	buf_printf(b, "    .kernarg_segment_size: %d\n    .kernarg_segment_align: 8\n", kernarg_size);
	buf_printf(b, "    .group_segment_fixed_size: %d\n    .private_segment_fixed_size: %d\n", f->lds_bytes,
		f->scratch_bytes);
	buf_printf(b, "    .wavefront_size: 64\n    .sgpr_count: %d\n    .vgpr_count: %d\n    .agpr_count: %d\n",
		sgprs + 2, vgprs, agprs);
	buf_printf(b, "    .max_flat_workgroup_size: %d\n", threads);
	buf_printf(b, "    .reqd_workgroup_size: [ %d, %d, %d ]\n", c->wg_size[0], c->wg_size[1], c->wg_size[2]);
	buf_printf(b, "    .args:\n");
	for (size_t i = 0; i < k->args.len; i++) {
		const Value *m = k->args.data[i];
		bool ro = strcmp(access_mode(c, m), "read") == 0;
		buf_printf(b,
			"      - { .name: !str %s, .offset: %zu, .size: 8, .value_kind: global_buffer, .address_space: global, "
			".actual_access: %s }\n",
			quoted(c, m->name), 8 * i, ro ? "read_only" : strcmp(access_mode(c, m), "write") == 0 ? "write_only"
											 : "read_write");
	}
	EmitCtx ec = {c, b};
	runtime_args(k, meta_runtime_arg, &ec);
	for (size_t j = 0; j < k->scalar_args.len; j++) {
		const Value *v = op_result(k->scalar_args.data[j]);
		buf_printf(b, "      - { .name: !str %s, .offset: %d, .size: %d, .value_kind: by_value }\n", quoted(c, v->name),
			analysis_scalar_arg_offset(k, (int)j), dtype_size(v->dtype));
	}
	buf_printf(b, "...\n\t.end_amdgpu_metadata\n");
}

void emit_launch(Analysis *c, const MFunc *f, const char *code_object, int wgs_per_cu, Buf *l)
{
	Kernel *k = c->k;
	const char *name = kernel_entry_name(c);
	const char *mcpu = c->t->name;
	int kernarg_size = emit_kernarg_size(k);
	buf_printf(l, "{\"format\": \"wavecc-launch/1\", \"code_object\": %s, \"kernel\": %s, \"arch\": %s,\n",
		quoted(c, code_object), quoted(c, name), quoted(c, mcpu));
	buf_printf(l, " \"workgroup_size\": [%d, %d, %d], \"grid\": [", c->wg_size[0], c->wg_size[1], c->wg_size[2]);
	for (int g = 0; g < 3; g++) {
		buf_printf(l, "%s", g ? ", " : "");
		launch_int_or_expr(c, l, c->grid[g], c->grid_sym[g]);
	}
	/* all of it static: wavecc's kernels take no dynamic LDS */
	buf_printf(l, "], \"lds_bytes\": %d, \"static_lds_bytes\": %d, \"dynamic_lds_bytes\": 0, \"kernarg_size\": %d,",
		f->lds_bytes, f->lds_bytes, kernarg_size);
	if (wgs_per_cu > 0)
		buf_printf(l, "\n \"co_resident\": true, \"workgroups_per_cu\": %d,", wgs_per_cu);
	buf_printf(l, "\n \"args\": [");
	for (size_t i = 0; i < k->args.len; i++) {
		const Value *m = k->args.data[i];
		buf_printf(l, "%s\n  {\"name\": %s, \"kind\": \"buffer\", \"dtype\": \"%s\", \"shape\": [", i ? "," : "",
			quoted(c, m->name), dtype_name(m->dtype));
		for (int d = 0; d < m->shape.rank; d++) {
			buf_printf(l, "%s", d ? ", " : "");
			launch_int_or_expr(c, l, dim_value(c, m->shape.dims[d]), analysis_runtime(c, m->shape.dims[d]));
		}
		buf_printf(l, "], \"offset\": %zu, \"access\": \"%s\"}", 8 * i, access_mode(c, m));
	}
	EmitCtx ec = {c, l};
	runtime_args(k, launch_runtime_arg, &ec);
	for (size_t j = 0; j < k->scalar_args.len; j++) {
		const Value *v = op_result(k->scalar_args.data[j]);
		buf_printf(l, ",\n  {\"name\": %s, \"kind\": \"scalar\", \"dtype\": \"%s\", \"offset\": %d}", quoted(c, v->name),
			dtype_name(v->dtype), analysis_scalar_arg_offset(k, (int)j));
	}
	buf_printf(l, "]}\n");
}
