/* pipeline.c — the compiler's pipeline, listed once, from kernel graph to
 * code object.
 *
 * Data flows one way (docs/architecture.md): the graph analyses fill the
 * analysis state on a view of the kernel (passes/graph); instruction
 * selection builds the machine function from it (isel); register
 * allocation and the machine passes rewrite the function (regalloc,
 * passes/machine); the emitter prints the assembly and the launch
 * descriptor (asm); llvm-mc assembles the text into a relocatable object
 * and our linker makes the code object (asm/llvm_mc.c,
 * loader/codeobj/link.c). The pipeline stops after the first row that
 * reported an error, or after opt.stop_after. The MIR verifier (mir_verify)
 * runs after every row that has a machine function; its failures are
 * compiler bugs (die), not input errors. After waitcnt insertion the
 * independent wait checker (check_waitcnt) runs too, and after hazard
 * resolution the hazard checker (check_hazards); right after allocation,
 * the allocation checker (check_allocation). Every row and the checks
 * after it are timed (Compile.pass_us, check_us) for --stats.
 *
 * Stages of the design not built yet (shared-memory promotion, expansion of
 * MMA tiles, barriers) get their rows here when they exist; the
 * order below is the order they will run in. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../asm/asm.h"
#include "../isel/isel.h"
#include "../loader/codeobj/codeobj.h"
#include "../passes/machine/machine.h"
#include "../regalloc/regalloc.h"
#include "driver.h"
#include "stats.h"

static void select_planned(Compile *c);
static void relax(Compile *c);
static const Op *noted_op(const Compile *c, const char *note);
static void emit(Compile *c);
static void assemble(Compile *c);
static void link_code_object(Compile *c);

/* X(name, the call that runs it on the compile state c, what is checked
 *   after it: 0 nothing, 1 the MIR verifier, 2 + the wait checker, 3 + the
 *   hazard checker, whether it is the compiler's own work). Each stage
 *   takes only its own IR. */
#define PIPELINE(X) \
	X(subst_symbols, subst_symbols(&c->an), 0, true) \
	X(eliminate_dead_ops, eliminate_dead_ops(&c->an), 0, true) \
	X(analyze_constraints, analyze_constraints(&c->an), 0, true) \
	X(analyze_indices, analyze_indices(&c->an), 0, true) \
	X(bound_masked_loops, bound_masked_loops(&c->an), 0, true) \
	X(plan_loops, c->plan = plan_loops(&c->an), 0, true) \
	X(hoist_reads, plan_hoist_reads(&c->an, &c->plan), 0, true) \
	X(split_loops, plan_split_loops(&c->an, &c->plan), 0, true) \
	X(select_instructions, select_planned(c), 1, true) \
	X(hoist_invariants, c->hoisted = c->plan.licm ? hoist_invariants(c->mf) : 0, 1, true) \
	X(eliminate_redundant, eliminate_redundant(c->mf), 1, true) \
	X(coalesce_copies, coalesce_copies(c->mf), 1, true) \
	X(order_instructions, compile_order(c), 1, true) \
	X(allocate_registers, allocate_registers(c), 1, true) \
	X(raise_priorities, raise_priorities(c->mf, c->plan.raised, c->plan.nraised), 1, true) \
	X(insert_waitcnt, insert_waitcnt(c->mf), 2, true) \
	X(resolve_hazards, resolve_hazards(c->mf), 3, true) \
	X(relax_branches, relax(c), 3, true) \
	X(emit_assembly, emit(c), 3, true) \
	X(assemble, assemble(c), 0, false) \
	X(link, link_code_object(c), 0, false)

/* Row names for the stage timings (--stats, bench/compile_bench.c). */
const char *const compile_pass_name[] = {
#define NAME(fn, call, level, own) #fn,
	PIPELINE(NAME)
#undef NAME
};
const bool compile_pass_own[] = {
#define OWN(fn, call, level, own) own,
	PIPELINE(OWN)
#undef OWN
};
const int compile_npasses = (int)ARRAY_LEN(compile_pass_name);
_Static_assert(ARRAY_LEN(compile_pass_name) <= MAX_PASSES, "Compile.pass_us needs room for every row");

int compile_pass_index(const char *name)
{
	for (int i = 0; i < compile_npasses; i++)
		if (strcmp(compile_pass_name[i], name) == 0)
			return i;
	return -1;
}

double compile_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return 1e6 * (double)ts.tv_sec + 1e-3 * (double)ts.tv_nsec;
}

void compile_init(Compile *c, const Kernel *k, const CompileOptions *o, Diag *d)
{
	*c = (Compile){.k = k, .opt = *o, .diag = d};
	c->t = target_from_name(o->mcpu);
	/* an unknown target still gets an analysis (so compile_free is
	 * uniform); compile_run reports it before any pass */
	analysis_init(&c->an, k, c->t ? c->t : &target_gfx942, c->opt.ndefs, c->opt.def_name, c->opt.def_val, d);
}

void compile_free(Compile *c)
{
	mfunc_free(c->mf);
	c->mf = NULL;
	if (c->ra) {
		regassign_free(c->ra);
		free(c->ra);
		c->ra = NULL;
	}
	buf_free(&c->asm_text);
	buf_free(&c->launch_json);
	buf_free(&c->reloc);
	buf_free(&c->code_object);
	buf_free(&c->tool_msg);
	analysis_free(&c->an);
}

/* After the function was selected again (reselect): the rows between
 * instruction selection and allocation run once more on it (the PIPELINE
 * rows, so a row added there is not forgotten here). */
static void rerun_before_allocation(Compile *c)
{
	int i = 0, from = compile_pass_index("select_instructions"), to = compile_pass_index("allocate_registers");
#define RERUN(fn, call, level, own) \
	if (i > from && i < to && !c->an.failed) { \
		call; \
	} \
	i++;
	PIPELINE(RERUN)
#undef RERUN
}

/* The function selected from the plan. */
static void select_planned(Compile *c)
{
	c->mf = select_instructions(&c->an, &c->plan);
}

/* One allocated form of the function, with the plan it was selected from. */
typedef struct Form {
	MFunc *mf;
	RegAssign *ra;
	Buf err;
	int rc, waves;
	bool spills;
	int hoisted; /* instructions hoist_invariants moved */
	Plan plan;
} Form;

static Form allocate_form(Compile *c)
{
	Form f = {.mf = c->mf, .ra = xcalloc(1, sizeof *f.ra)};
	c->mf = NULL;
	RaLimits lim = {.unified = compile_register_cap(c)};
	f.rc = regalloc_mfunc_limits(f.mf, &lim, f.ra, &f.err);
	f.spills = f.rc == 0 && (f.ra->spills > 0 || f.ra->scratch_values > 0);
	f.waves = f.rc == 0 && !f.spills ? compile_waves(c, f.mf) : 0;
	f.hoisted = c->hoisted;
	f.plan = c->plan;
	return f;
}

/* How bad a form is: 0 clean, 1 spills to AGPRs or lanes, 2 to scratch,
 * 3 out of registers. */
static int form_cost(const Form *f) { return f->rc != 0 ? 3 : f->ra->scratch_values > 0 ? 2 : f->spills ? 1 : 0; }

static void form_free(Form *f)
{
	mfunc_free(f->mf);
	if (f->ra) {
		regassign_free(f->ra);
		free(f->ra);
	}
	buf_free(&f->err);
	*f = (Form){0};
}

/* The function selected again from plan p, the rows before allocation
 * run on it, and allocated into *f; false when the compilation failed
 * (c->mf, the new selection, then goes with c). */
static bool reselect(Compile *c, const Plan *p, Form *f)
{
	c->plan = *p;
	c->hoisted = 0;
	plan_hoist_reads(&c->an, &c->plan); /* the graph as p says (passes/plan/hoist.c, split.c) */
	plan_split_loops(&c->an, &c->plan);
	select_planned(c);
	if (!compile_failed(c))
		rerun_before_allocation(c);
	if (compile_failed(c))
		return false;
	*f = allocate_form(c);
	return true;
}

/* Register allocation, located at the graph op where a file ran out
 * (regalloc/linear.c names the op in its notes). The assignment is kept in
 * c->ra for the allocation checker, which runs once right after.
 *
 * The prefetch schedule, its second LDS buffer and hoisting lengthen live
 * ranges or take LDS; where the schedule gives way (the default, or a Wave
 * name it stands in for) they are dropped a step at a time (each form is
 * selected from a lighter plan, plan_lighten, passes/plan/plan.c) while
 * the allocation spills or fails, or allows fewer than 8 waves per SIMD (or than the waves_per_eu
 * target, for a schedule asked for by name); a lighter form is kept only
 * if it allocates without spills and gains a wave (but a ping-pong loop,
 * attention's, keeps its prefetch at two waves per SIMD, the pair its
 * s_setprio alternates, unless the kernel asks for more by waves_per_eu:
 * in the cycle model the prefetch at two beat the unpiped form at three,
 * 0.482 against 0.661 ms at head dim 128). Waves count registers,
 * LDS and slots together (compile_waves): registers saved where the LDS
 * caps the workgroups per CU gain nothing.
 *
 * A workgroup of more than 4 waves caps each wave's registers
 * (compile_register_cap; the allocator keeps within the cap, spilling what
 * does not fit): a schedule asked for by name gives way too when it spills
 * under that cap, so the prefetch goes before any value goes to memory,
 * and scratch is left for the kernels whose lightest form still needs it. */
void allocate_registers(Compile *c)
{
	Form best = allocate_form(c);
	/* a schedule asked for by name still gives way to a waves_per_eu
	 * target it misses, and to the registers its workgroup allows */
	int want = best.plan.yields ? 8 : c->an.opts.waves_per_eu;
	if (best.rc == 0 && !best.spills && best.plan.sum.prefetched && best.waves < want)
		best.plan.yields = true;
	if ((best.rc != 0 || best.spills) && best.plan.sum.prefetched && compile_register_cap(c))
		best.plan.yields = true;
	PlanLight step = best.plan.light;
	/* reads hoisted out of a loop (passes/plan/hoist.c) give way as
	 * the default schedule does, whatever schedule was asked for: only
	 * the hoisting goes (plan_lighten's plain step) */
	while (best.rc != 0 || best.spills || (best.plan.yields && best.plan.sum.prefetched && best.waves < want) ||
		(best.plan.sum.hoisted_reads && best.plan.light != LIGHT_PLAIN && best.waves < 8)) {
		/* the best plan so far, a step on from the last step tried */
		Plan p = plan_copy(&best.plan, &c->an.arena);
		p.light = step;
		if (!plan_lighten(&c->an, &p, best.hoisted))
			break;
		Form f;
		if (!reselect(c, &p, &f)) {
			form_free(&best);
			return;
		}
		step = p.light;
		/* a bad form gives way to a lighter one no worse; a clean one to
		 * a clean one with more waves */
		bool take = form_cost(&best) ? form_cost(&f) <= form_cost(&best) : !form_cost(&f) && f.waves > best.waves;
		/* a ping-pong loop (attention: passes/plan/pingpong.c) keeps its
		 * prefetch at two waves per SIMD, the pair it alternates, unless
		 * the kernel asks for more (waves_per_eu) */
		if (take && !form_cost(&best) && best.plan.sum.prefetched && !f.plan.sum.prefetched &&
			best.plan.nraised && best.waves >= 2 && !c->an.opts.waves_per_eu)
			take = false;
		if (take) {
			form_free(&best);
			best = f;
		} else
			form_free(&f); /* no wave gained: the next step may */
	}
	/* the swizzled layout, chosen on LDS alone, where the registers allow
	 * no more waves than the padded one's LDS would: padded tiles keep
	 * their b128 accesses and fewer address registers */
	if (best.rc == 0 && !best.spills && best.plan.swizzled &&
		compile_waves_lds(c, best.mf, MAX(best.plan.lds_padded, best.mf->lds_bytes)) >= best.waves) {
		Plan p = plan_copy(&best.plan, &c->an.arena);
		plan_no_swizzle(&c->an, &p);
		Form f;
		if (!reselect(c, &p, &f)) {
			form_free(&best);
			return;
		}
		if (f.rc == 0 && !f.spills && f.waves >= best.waves) {
			form_free(&best);
			best = f;
		} else
			form_free(&f);
	}
	c->plan = best.plan;
	plan_hoist_reads(&c->an, &c->plan); /* the graph as the plan kept says */
	plan_split_loops(&c->an, &c->plan);
	c->hoisted = best.hoisted;
	c->mf = best.mf;
	RegAssign *ra = best.ra;
	Buf err = best.err;
	int rc = best.rc;
	if (rc != 0) {
		/* located at the graph op where the file ran out */
		const Op *at = noted_op(c, ra->fail_op);
		if (at)
			analysis_error(&c->an, at->loc, "%s: %s", at->path, buf_cstr(&err));
		else
			analysis_error(&c->an, (Loc){c->k->file, 0, 0}, "%s", buf_cstr(&err));
		free(ra);
	} else {
		c->ra = ra;
		c->spilled = ra->spills;
		c->scratch_values = ra->scratch_values;
		c->scratch_dwords = ra->scratch_dwords;
		compile_check_occupancy(c);
	}
	buf_free(&err);
}

/* If allocate_registers kept its assignment (c->ra): check it against the
 * allocated function independently, then release it. Returns the problems
 * found (appended to msg); 0 when there is nothing to check. */
int check_allocation(Compile *c, Buf *msg)
{
	if (!c->ra)
		return 0;
	int n = regalloc_check(c->ra->pre, c->ra->phys, c->mf, msg);
	if (c->ra->orig) /* something spilled: values followed through their homes */
		n += regalloc_check_spills(c->ra->orig, c->mf, msg);
	regassign_free(c->ra);
	free(c->ra);
	c->ra = NULL;
	return n;
}

/* The graph op named by a machine instruction's note, or NULL. */
static const Op *noted_op(const Compile *c, const char *note)
{
	for (size_t i = 0; note && i < c->k->op_list.len; i++)
		if (c->k->op_list.data[i]->name == note)
			return c->k->op_list.data[i];
	return NULL;
}

/* Branches beyond a short branch's reach made long; where no SGPR pair is
 * free for one, the kernel is rejected at the branch's graph op (its loop
 * or conditional). */
static void relax(Compile *c)
{
	const char *where = NULL;
	if (relax_branches(c->mf, c->opt.branch_reach, &where) >= 0)
		return;
	const Op *at = noted_op(c, where);
	const char *why = "a branch reaches past 32768 dwords of code and no SGPR pair is free for a long branch "
			  "(the code is too long: not compiled yet)";
	if (at)
		analysis_error(&c->an, at->loc, "%s: %s", at->path, why);
	else
		analysis_error(&c->an, (Loc){c->k->file, 0, 0}, "%s", why);
}

static void emit(Compile *c)
{
	c->kernarg_size = emit_kernarg_size(c->an.k);
	emit_assembly(&c->an, &c->plan, c->mf, NULL, &c->asm_text);
	/* a co-resident kernel: the workgroups one CU holds at once, from the
	 * occupancy model (what --stats prints) */
	int per_cu = 0;
	if (c->an.k->co_resident) {
		Occupancy o;
		const MFunc *f = c->mf;
		stats_occupancy(c->t, MAX(1, f->nregs[RF_VGPR]), f->nregs[RF_AGPR], MAX(1, f->nregs[RF_SGPR]),
			f->lds_bytes, c->an.wg_size[0] * c->an.wg_size[1] * c->an.wg_size[2], &o);
		per_cu = o.wg_per_cu;
		if (per_cu < 1) {
			analysis_error(&c->an, (Loc){c->k->file, 0, 0}, "a co-resident kernel whose workgroup does not fit "
				       "on a CU (%s) cannot launch", o.limit);
			return;
		}
	}
	emit_launch(&c->an, c->mf, c->opt.code_object ? c->opt.code_object : "kernel.hsaco", per_cu, &c->launch_json);
}

/* The graph op whose code holds a line of the generated assembly, located
 * in the kernel graph, for llvm-mc's messages (asm/origin.c). */
typedef struct {
	const Kernel *k;
	char where[512];
} OpWhere;

static const char *op_where(void *ctx, const char *name)
{
	OpWhere *w = ctx;
	const char *n = intern(name);
	for (size_t i = 0; i < w->k->op_list.len; i++) {
		const Op *op = w->k->op_list.data[i];
		if (op->name == n && op->loc.file) {
			snprintf(w->where, sizeof w->where, "%s:%d:%d", op->loc.file, op->loc.line, op->loc.col);
			return w->where;
		}
	}
	return NULL;
}

#define GENERATED_TAG "<generated assembly>"

/* A tool's failure on our own output: reported at the kernel, with each
 * message naming the generated line and its graph op. */
static void tool_failed(Compile *c, Buf *msg)
{
	Buf ex = {0};
	OpWhere w = {.k = c->k};
	asm_explain(&ex, buf_cstr(msg), GENERATED_TAG, c->asm_text.data, c->asm_text.len, op_where, &w);
	analysis_error(&c->an, (Loc){c->k->file, 0, 0}, "the generated assembly did not build:\n%s",
		buf_cstr(&ex));
	buf_free(&ex);
}

static void assemble(Compile *c)
{
	AsmOptions ao = {.llvm_mc = c->opt.llvm_mc, .mcpu = c->opt.mcpu, .source_name = GENERATED_TAG,
		.verbose = c->opt.verbose};
	Buf msg = {0};
	if (asm_assemble(&ao, c->asm_text.data, c->asm_text.len, &c->reloc, &msg) != 0)
		tool_failed(c, &msg);
	else
		buf_putn(&c->tool_msg, msg.data, msg.len);
	buf_free(&msg);
}

static void link_code_object(Compile *c)
{
	Buf msg = {0};
	if (codeobj_link(c->reloc.data, c->reloc.len, GENERATED_TAG, &c->code_object, &msg) != 0)
		tool_failed(c, &msg);
	buf_free(&msg);
}

static void verify(Compile *c, const char *after, int level)
{
	Buf msg = {0};
	int n = mir_verify(c->mf, &msg);
	if (level >= 2)
		n += check_waitcnt(c->mf, &msg);
	if (level >= 3)
		n += check_hazards(c->mf, &msg);
	/* Once, right after allocation: the allocation checker compares the
	 * function with the pre-allocation copy allocate_registers kept in c->ra
	 * (regalloc/check.c), then drops the copy. */
	n += check_allocation(c, &msg);
	if (n)
		die("after %s:\n%s", after, buf_cstr(&msg));
	buf_free(&msg);
}

/* Each pass is timed on its own (pass_us); the verifier and checkers after
 * it add to check_us, so the two together are the compiler's own time. */
int compile_run(Compile *c)
{
	if (!c->t) {
		diag_hint(c->an.diag, "give gfx942, gfx90a or gfx950, optionally with :sramecc+/- and :xnack+/-");
		analysis_error(&c->an, (Loc){c->k->file, 0, 0}, "unknown target %s", c->opt.mcpu);
		return -1;
	}
	if (!c->next_row && compile_resolve_options(c) != 0)
		return -1;
	if (c->opt.stop_after && compile_pass_index(c->opt.stop_after) < 0)
		die("stop_after names no pipeline row: %s", c->opt.stop_after);
	bool *failed = &c->an.failed;
	int i = 0;
#define RUN(fn, call, level, own) \
	if (!*failed && i >= c->next_row) { \
		c->next_row = i + 1; \
		double t0_ = compile_now_us(); \
		call; \
		double t1_ = compile_now_us(); \
		c->pass_us[i] = t1_ - t0_; \
		die_test_point(#fn); \
		if (c->opt.dump_plan && c->opt.dump_out && !*failed && strcmp(#fn, "allocate_registers") == 0) { \
			Buf d = {0}; \
			plan_print(&d, &c->an, &c->plan); \
			fprintf(c->opt.dump_out, "## plan\n%s", buf_cstr(&d)); \
			buf_free(&d); \
		} \
		if (!*failed && (level) && c->mf) { \
			if ((c->opt.dump & (1u << i)) && c->opt.dump_out) { \
				Buf d = {0}; \
				mir_print(&d, c->mf); \
				fprintf(c->opt.dump_out, "## after %s\n%s", #fn, buf_cstr(&d)); \
				buf_free(&d); \
			} \
			double t2_ = compile_now_us(); \
			verify(c, #fn, level); \
			c->check_us += compile_now_us() - t2_; \
		} \
	} \
	i++; \
	if (c->opt.stop_after && strcmp(c->opt.stop_after, #fn) == 0 && i >= c->next_row) \
		return *failed ? -1 : 0;
	PIPELINE(RUN)
#undef RUN
	(void)i;
	return *failed ? -1 : 0;
}
